#include "nnet/components/tdnn-components.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "base/text-utils.h"
#include "nnet/component-config.h"
#include "nnet/component-registry.h"
#include "nnet/convolution-io.h"
#include "nnet/init-random.h"
#include "nnet/parameter-stats.h"

namespace nnet3 {

std::unique_ptr<Component> NewTdnnComponentOfType(const std::string &type) {
  if (type == "TdnnComponent") return std::make_unique<TdnnComponent>();
  return nullptr;
}

std::vector<std::string> TdnnComponentTypes() { return {"TdnnComponent"}; }

MatrixView StridedRows(const MatrixView &m, int32_t row_offset,
                       int32_t row_stride, int32_t num_rows) {
  NNET3_ASSERT(row_offset >= 0 && row_stride >= 1 && num_rows >= 0);
  NNET3_ASSERT(num_rows == 0 ||
               row_offset + (num_rows - 1) * row_stride < m.NumRows());
  return MatrixView(m.device(), m.Data() + int64_t(m.Stride()) * row_offset,
                    num_rows, m.NumCols(), m.Stride() * row_stride);
}

// ---------------------------------------------------------------------------
// TdnnComponentPrecomputedIndexes

std::unique_ptr<ComponentPrecomputedIndexes>
TdnnComponentPrecomputedIndexes::Copy() const {
  return std::make_unique<TdnnComponentPrecomputedIndexes>(*this);
}

void TdnnComponentPrecomputedIndexes::Write(std::ostream &os,
                                            bool binary) const {
  WriteToken(os, binary, "<TdnnComponentPrecomputedIndexes>");
  WriteToken(os, binary, "<RowStride>");
  WriteBasicType(os, binary, row_stride);
  WriteToken(os, binary, "<RowOffsets>");
  WriteIntegerVector(os, binary, row_offsets);
  WriteToken(os, binary, "</TdnnComponentPrecomputedIndexes>");
}

void TdnnComponentPrecomputedIndexes::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<TdnnComponentPrecomputedIndexes>",
                       "<RowStride>");
  ReadBasicType(is, binary, &row_stride);
  ExpectToken(is, binary, "<RowOffsets>");
  ReadIntegerVector(is, binary, &row_offsets);
  ExpectToken(is, binary, "</TdnnComponentPrecomputedIndexes>");
  if (row_stride < 1 || row_offsets.empty() ||
      *std::min_element(row_offsets.begin(), row_offsets.end()) < 0)
    NNET3_ERR << "Reading <TdnnComponentPrecomputedIndexes>: bad <RowStride> "
              << row_stride << " or <RowOffsets>";
}

// ---------------------------------------------------------------------------
// TdnnComponent: configuration and I/O

void TdnnComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  is_gradient_ = false;
  InitLearningRatesFromConfig(cfl);
  std::string offsets_text;
  if (!cfl->GetValue("time-offsets", &offsets_text))
    ThrowConfigError(*cfl, type, "missing required key time-offsets=");
  std::vector<int32_t> offsets;
  if (!SplitStringToIntegers(offsets_text, ",", &offsets) || offsets.empty() ||
      std::set<int32_t>(offsets.begin(), offsets.end()).size() !=
          offsets.size())
    ThrowConfigError(*cfl, type,
                     "time-offsets=" + offsets_text +
                         " must be a comma-separated list of distinct "
                         "integers, e.g. time-offsets=-1,0,1");
  const int32_t input_dim = GetPositiveInt(cfl, type, "input-dim"),
                output_dim = GetPositiveInt(cfl, type, "output-dim");
  const int32_t num_offsets = static_cast<int32_t>(offsets.size()),
                spliced_dim = input_dim * num_offsets;
  time_offsets_ = offsets;
  bool use_bias = true;
  cfl->GetValue("use-bias", &use_bias);
  orthonormal_constraint_ = 0.0f;
  cfl->GetValue("orthonormal-constraint", &orthonormal_constraint_);
  const float param_stddev = GetNonNegativeFloat(
      cfl, type, "param-stddev", 1.0f / std::sqrt(float(spliced_dim)));
  const float bias_stddev = GetNonNegativeFloat(cfl, type, "bias-stddev", 1.0f);
  float bias_mean = 0.0f;
  cfl->GetValue("bias-mean", &bias_mean);
  // W = randn · param-stddev, b = randn · bias-stddev + bias-mean.
  linear_params_ = Matrix(output_dim, spliced_dim);
  linear_params_.SetRandn(NextComponentInitSeed());
  linear_params_.Scale(param_stddev);
  bias_params_ = Vector(use_bias ? output_dim : 0);
  if (use_bias) {
    bias_params_.SetRandn(NextComponentInitSeed());
    bias_params_.Scale(bias_stddev);
    bias_params_.Add(bias_mean);
  }
  InitNaturalGradientFromConfig(cfl, spliced_dim, output_dim);
}

void TdnnComponent::InitNaturalGradientFromConfig(ConfigLine *cfl,
                                                  int32_t spliced_dim,
                                                  int32_t output_dim) {
  const std::string type = Type();
  use_natural_gradient_ = true;
  cfl->GetValue("use-natural-gradient", &use_natural_gradient_);
  int32_t rank_in = -1, rank_out = -1;
  float alpha_in = 4.0f, alpha_out = 4.0f, num_samples_history = 2000.0f;
  cfl->GetValue("rank-in", &rank_in);
  cfl->GetValue("rank-out", &rank_out);
  cfl->GetValue("alpha-in", &alpha_in);
  cfl->GetValue("alpha-out", &alpha_out);
  cfl->GetValue("num-samples-history", &num_samples_history);
  if (rank_in == 0 || rank_in < -1 || rank_out == 0 || rank_out < -1)
    ThrowConfigError(*cfl, type, "rank-in and rank-out must be > 0");
  if (!(alpha_in >= 0.0f && alpha_out >= 0.0f))
    ThrowConfigError(*cfl, type, "alpha-in and alpha-out must be >= 0");
  if (!(num_samples_history > 0.0f && num_samples_history < 1e6f))
    ThrowConfigError(*cfl, type, "num-samples-history must be in (0, 1e6)");
  if (rank_in < 0) rank_in = std::min(20, (spliced_dim + 1) / 2);
  if (rank_out < 0) rank_out = std::min(80, (output_dim + 1) / 2);
  SetPreconditioners(rank_in, rank_out, alpha_in, alpha_out,
                     num_samples_history);
}

void TdnnComponent::SetPreconditioners(int32_t rank_in, int32_t rank_out,
                                       float alpha_in, float alpha_out,
                                       float num_samples_history) {
  preconditioner_in_ = OnlineNaturalGradient();
  preconditioner_out_ = OnlineNaturalGradient();
  preconditioner_in_.SetRank(rank_in);
  preconditioner_out_.SetRank(rank_out);
  preconditioner_in_.SetAlpha(alpha_in);
  preconditioner_out_.SetAlpha(alpha_out);
  // The update period is not configurable (4), as in Kaldi.
  for (OnlineNaturalGradient *p : {&preconditioner_in_, &preconditioner_out_}) {
    p->SetNumSamplesHistory(num_samples_history);
    p->SetUpdatePeriod(4);
  }
}

void TdnnComponent::Check() const {
  std::set<int32_t> distinct(time_offsets_.begin(), time_offsets_.end());
  const int32_t num_offsets = static_cast<int32_t>(time_offsets_.size());
  if (linear_params_.NumRows() == 0 || num_offsets == 0 ||
      static_cast<int32_t>(distinct.size()) != num_offsets ||
      linear_params_.NumCols() % num_offsets != 0 ||
      (bias_params_.Dim() != 0 &&
       bias_params_.Dim() != linear_params_.NumRows()))
    NNET3_ERR << "TdnnComponent: inconsistent model: " << num_offsets
              << " time offsets, <LinearParams> " << linear_params_.NumRows()
              << " x " << linear_params_.NumCols() << ", <BiasParams> dim "
              << bias_params_.Dim();
}

void TdnnComponent::Read(std::istream &is, bool binary) {
  std::string token = ReadUpdatableCommon(is, binary);
  if (!token.empty())
    NNET3_ERR << "TdnnComponent: expected <LearningRate>, got " << token;
  ExpectToken(is, binary, "<TimeOffsets>");
  ReadIntegerVector(is, binary, &time_offsets_);
  ExpectToken(is, binary, "<LinearParams>");
  linear_params_.Read(is, binary);
  ExpectToken(is, binary, "<BiasParams>");
  bias_params_.Read(is, binary);
  ExpectToken(is, binary, "<OrthonormalConstraint>");
  ReadBasicType(is, binary, &orthonormal_constraint_);
  ExpectToken(is, binary, "<UseNaturalGradient>");
  ReadBasicType(is, binary, &use_natural_gradient_);
  float num_samples_history = 0.0f, alpha_in = 0.0f, alpha_out = 0.0f;
  ExpectToken(is, binary, "<NumSamplesHistory>");
  ReadBasicType(is, binary, &num_samples_history);
  ReadToken(is, binary, &token);
  if (token == "<AlphaInOut>") {
    ReadBasicType(is, binary, &alpha_in);
    ReadBasicType(is, binary, &alpha_out);
  } else if (token == "<Alpha>") {  // an older format
    ReadBasicType(is, binary, &alpha_in);
    alpha_out = alpha_in;
  } else {
    NNET3_ERR << "TdnnComponent: expected <AlphaInOut>, got " << token;
  }
  int32_t rank_in = 0, rank_out = 0;
  ExpectToken(is, binary, "<RankInOut>");
  ReadBasicType(is, binary, &rank_in);
  ReadBasicType(is, binary, &rank_out);
  ExpectToken(is, binary, "</TdnnComponent>");
  if (rank_in <= 0 || rank_out <= 0 || !(alpha_in >= 0.0f) ||
      !(alpha_out >= 0.0f) ||
      !(num_samples_history > 0.0f && num_samples_history < 1e6f))
    NNET3_ERR << "TdnnComponent: bad natural-gradient settings in the model";
  Check();
  SetPreconditioners(rank_in, rank_out, alpha_in, alpha_out,
                     num_samples_history);
}

void TdnnComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<TimeOffsets>");
  WriteIntegerVector(os, binary, time_offsets_);
  WriteToken(os, binary, "<LinearParams>");
  linear_params_.Write(os, binary);
  WriteToken(os, binary, "<BiasParams>");
  bias_params_.Write(os, binary);
  WriteToken(os, binary, "<OrthonormalConstraint>");
  WriteBasicType(os, binary, orthonormal_constraint_);
  WriteToken(os, binary, "<UseNaturalGradient>");
  WriteBasicType(os, binary, use_natural_gradient_);
  WriteToken(os, binary, "<NumSamplesHistory>");
  WriteBasicType(os, binary, preconditioner_in_.GetNumSamplesHistory());
  WriteToken(os, binary, "<AlphaInOut>");
  WriteBasicType(os, binary, preconditioner_in_.GetAlpha());
  WriteBasicType(os, binary, preconditioner_out_.GetAlpha());
  WriteToken(os, binary, "<RankInOut>");
  WriteBasicType(os, binary, preconditioner_in_.GetRank());
  WriteBasicType(os, binary, preconditioner_out_.GetRank());
  WriteToken(os, binary, "</TdnnComponent>");
}

std::unique_ptr<Component> TdnnComponent::Copy() const {
  return std::make_unique<TdnnComponent>(*this);
}

std::string TdnnComponent::Info() const {
  std::ostringstream os;
  os << UpdatableComponent::Info();
  if (orthonormal_constraint_ != 0.0f)
    os << ", orthonormal-constraint=" << orthonormal_constraint_;
  os << ", time-offsets=";
  for (size_t i = 0; i < time_offsets_.size(); i++)
    os << (i > 0 ? "," : "") << time_offsets_[i];
  PrintParameterStats(os, "linear-params", linear_params_,
                      /*include_mean=*/false, /*include_row_norms=*/true,
                      /*include_column_norms=*/true);
  if (bias_params_.Dim() == 0)
    os << ", has-bias=false";
  else
    PrintParameterStats(os, "bias", bias_params_, /*include_mean=*/true);
  if (!use_natural_gradient_) {
    os << ", use-natural-gradient=false";
  } else {
    os << ", rank-in=" << preconditioner_in_.GetRank()
       << ", rank-out=" << preconditioner_out_.GetRank()
       << ", num-samples-history=" << preconditioner_in_.GetNumSamplesHistory()
       << ", update-period=" << preconditioner_in_.GetUpdatePeriod()
       << ", alpha-in=" << preconditioner_in_.GetAlpha()
       << ", alpha-out=" << preconditioner_out_.GetAlpha();
  }
  return os.str();
}

// ---------------------------------------------------------------------------
// TdnnComponent: Indexes

void TdnnComponent::GetInputIndexes(const MiscComputationInfo &,
                                    const Index &output_index,
                                    std::vector<Index> *desired_indexes) const {
  NNET3_ASSERT(output_index.t != kNoTime);
  desired_indexes->clear();
  for (int32_t offset : time_offsets_)
    desired_indexes->push_back(
        Index(output_index.n, output_index.t + offset, output_index.x));
}

bool TdnnComponent::IsComputable(const MiscComputationInfo &,
                                 const Index &output_index,
                                 const IndexSet &input_index_set,
                                 std::vector<Index> *used_inputs) const {
  NNET3_ASSERT(output_index.t != kNoTime);
  if (used_inputs != nullptr) used_inputs->clear();
  for (int32_t offset : time_offsets_) {
    Index index(output_index.n, output_index.t + offset, output_index.x);
    if (!input_index_set(index)) {
      if (used_inputs != nullptr) used_inputs->clear();
      return false;
    }
    if (used_inputs != nullptr) used_inputs->push_back(index);
  }
  return true;
}

namespace {

// The grid of the component's Indexes: as GetComputationIo, with the steps
// fixed up when there is only one t value, and the input t values grouped
// reorder_t_in = t_step_out / t_step_in at a time (time subsampling).
ConvolutionComputationIo TdnnIo(const std::vector<Index> &input_indexes,
                                const std::vector<Index> &output_indexes) {
  ConvolutionComputationIo io;
  GetComputationIo(input_indexes, output_indexes, &io);
  if (io.t_step_out == 0) {
    if (io.t_step_in == 0) io.t_step_in = 1;
    io.t_step_out = io.t_step_in;
  }
  if (io.t_step_in == 0) io.t_step_in = io.t_step_out;
  NNET3_ASSERT(io.t_step_out % io.t_step_in == 0);
  const int32_t r = io.t_step_out / io.t_step_in;
  io.reorder_t_in = r;
  io.num_t_in = r * ((io.num_t_in + r - 1) / r);
  return io;
}

}  // namespace

void TdnnComponent::ReorderIndexes(std::vector<Index> *input_indexes,
                                   std::vector<Index> *output_indexes) const {
  ConvolutionComputationIo io = TdnnIo(*input_indexes, *output_indexes);
  std::vector<Index> new_input, new_output;
  GetIndexesForComputation(io, *input_indexes, *output_indexes, &new_input,
                           &new_output);
  input_indexes->swap(new_input);
  output_indexes->swap(new_output);
}

std::unique_ptr<ComponentPrecomputedIndexes> TdnnComponent::PrecomputeIndexes(
    const MiscComputationInfo &, const std::vector<Index> &input_indexes,
    const std::vector<Index> &output_indexes, bool) const {
  ConvolutionComputationIo io = TdnnIo(input_indexes, output_indexes);
  // The rows must already be in ReorderIndexes' order (the strided views
  // below rely on it).
  std::vector<Index> in_check, out_check;
  GetIndexesForComputation(io, input_indexes, output_indexes, &in_check,
                           &out_check);
  if (in_check != input_indexes || out_check != output_indexes)
    NNET3_INTERNAL_ERR << "TdnnComponent: the Indexes were not reordered by "
                          "ReorderIndexes";
  auto ans = std::make_unique<TdnnComponentPrecomputedIndexes>();
  const int32_t r = io.reorder_t_in;
  ans->row_stride = r;
  for (int32_t offset : time_offsets_) {
    // The input frame (counted on the input grid) that the first output
    // frame reads at this offset; with reordering, whole blocks of r frames
    // span r * num_images rows and the remainder picks the frame within.
    const int32_t t = io.start_t_out + offset, d = t - io.start_t_in;
    NNET3_ASSERT(d >= 0 && d % io.t_step_in == 0);
    const int32_t frame = d / io.t_step_in;
    ans->row_offsets.push_back((frame / r) * r * io.num_images + frame % r);
  }
  return ans;
}

// ---------------------------------------------------------------------------
// TdnnComponent: Propagate, Backprop, updates

void *TdnnComponent::Propagate(const ComponentPrecomputedIndexes *indexes_in,
                               const MatrixView &in, MatrixView *out) const {
  // Without a bias the output is added to (kPropagateAdds).
  PropagateProducts(indexes_in, in, bias_params_.Dim() == 0, out);
  return nullptr;
}

bool TdnnComponent::SupportsPropagateFusion(int32_t fusion) const {
  return fusion == kFuseAssignOutput && bias_params_.Dim() == 0;
}

void *TdnnComponent::PropagateFused(int32_t fusion,
                                    const ComponentPrecomputedIndexes *indexes,
                                    const MatrixView &in,
                                    MatrixView *out) const {
  NNET3_ASSERT(SupportsPropagateFusion(fusion));
  PropagateProducts(indexes, in, false, out);
  return nullptr;
}

void TdnnComponent::PropagateProducts(
    const ComponentPrecomputedIndexes *indexes_in, const MatrixView &in,
    bool add_to_out, MatrixView *out) const {
  auto *indexes =
      dynamic_cast<const TdnnComponentPrecomputedIndexes *>(indexes_in);
  NNET3_ASSERT(indexes != nullptr &&
               indexes->row_offsets.size() == time_offsets_.size());
  if (bias_params_.Dim() != 0) {
    out->CopyRowsFromVec(bias_params_);
    add_to_out = true;
  }
  const int32_t input_dim = InputDim(), rows = out->NumRows();
  for (size_t i = 0; i < time_offsets_.size(); i++)
    out->AddMatMat(
        1.0f,
        StridedRows(in, indexes->row_offsets[i], indexes->row_stride, rows),
        Trans::kNo, linear_params_.ColRange(int32_t(i) * input_dim, input_dim),
        Trans::kYes, (i == 0 && !add_to_out) ? 0.0f : 1.0f);
}

void TdnnComponent::Backprop(const std::string &,
                             const ComponentPrecomputedIndexes *indexes_in,
                             const MatrixView &in_value, const MatrixView &,
                             const MatrixView &out_deriv, void *,
                             Component *to_update_in,
                             MatrixView *in_deriv) const {
  auto *indexes =
      dynamic_cast<const TdnnComponentPrecomputedIndexes *>(indexes_in);
  NNET3_ASSERT(indexes != nullptr &&
               indexes->row_offsets.size() == time_offsets_.size());
  const int32_t input_dim = InputDim(), rows = out_deriv.NumRows();
  if (in_deriv != nullptr)
    for (size_t i = 0; i < time_offsets_.size(); i++)
      StridedRows(*in_deriv, indexes->row_offsets[i], indexes->row_stride, rows)
          .AddMatMat(1.0f, out_deriv, Trans::kNo,
                     linear_params_.ColRange(int32_t(i) * input_dim, input_dim),
                     Trans::kNo, 1.0f);
  if (to_update_in == nullptr) return;
  auto *to_update = dynamic_cast<TdnnComponent *>(to_update_in);
  NNET3_ASSERT(to_update != nullptr);
  if (to_update->learning_rate_ == 0.0f) return;
  if (to_update->is_gradient_ || !to_update->use_natural_gradient_)
    to_update->UpdateSimple(*indexes, in_value, out_deriv);
  else
    to_update->UpdateNaturalGradient(*indexes, in_value, out_deriv);
}

void TdnnComponent::UpdateSimple(const TdnnComponentPrecomputedIndexes &indexes,
                                 const MatrixView &in_value,
                                 const MatrixView &out_deriv) {
  if (bias_params_.Dim() != 0)
    bias_params_.AddRowSumMat(learning_rate_, out_deriv, 1.0f);
  const int32_t input_dim = in_value.NumCols(), rows = out_deriv.NumRows();
  for (size_t i = 0; i < time_offsets_.size(); i++)
    linear_params_.ColRange(int32_t(i) * input_dim, input_dim)
        .AddMatMat(learning_rate_, out_deriv, Trans::kYes,
                   StridedRows(in_value, indexes.row_offsets[i],
                               indexes.row_stride, rows),
                   Trans::kNo, 1.0f);
}

void TdnnComponent::UpdateNaturalGradient(
    const TdnnComponentPrecomputedIndexes &indexes, const MatrixView &in_value,
    const MatrixView &out_deriv) {
  const int32_t input_dim = in_value.NumCols(), rows = out_deriv.NumRows(),
                spliced = input_dim * int32_t(time_offsets_.size()),
                has_bias = bias_params_.Dim() != 0 ? 1 : 0;
  // The spliced input, with a column of ones for the bias.
  Matrix in_spliced(rows, spliced + has_bias, ResizeType::kUndefined,
                    MatrixStrideType::kDefaultStride, in_value.device());
  if (has_bias) in_spliced.ColRange(spliced, 1).Set(1.0f);
  for (size_t i = 0; i < time_offsets_.size(); i++)
    in_spliced.ColRange(int32_t(i) * input_dim, input_dim)
        .CopyFromMat(StridedRows(in_value, indexes.row_offsets[i],
                                 indexes.row_stride, rows));
  Matrix out_deriv_precon(out_deriv);
  float in_scale = 1.0f, out_scale = 1.0f;
  preconditioner_in_.PreconditionDirections(&in_spliced, &in_scale);
  preconditioner_out_.PreconditionDirections(&out_deriv_precon, &out_scale);
  const float local_lrate = in_scale * out_scale * learning_rate_;
  if (has_bias) {
    Vector precon_ones(rows, ResizeType::kUndefined, in_value.device());
    precon_ones.CopyColFromMat(in_spliced, spliced);
    bias_params_.AddMatVec(local_lrate, out_deriv_precon, Trans::kYes,
                           precon_ones, 1.0f);
  }
  linear_params_.AddMatMat(local_lrate, out_deriv_precon, Trans::kYes,
                           in_spliced.ColRange(0, spliced), Trans::kNo, 1.0f);
}

// ---------------------------------------------------------------------------
// TdnnComponent: the updatable interface

void TdnnComponent::Scale(float scale) {
  if (scale == 0.0f) {
    linear_params_.SetZero();
    bias_params_.SetZero();
  } else {
    linear_params_.Scale(scale);
    bias_params_.Scale(scale);
  }
}

void TdnnComponent::Add(float alpha, const Component &other_in) {
  auto *other = dynamic_cast<const TdnnComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  linear_params_.AddMat(alpha, other->linear_params_);
  if (bias_params_.Dim() != 0) bias_params_.AddVec(alpha, other->bias_params_);
}

float TdnnComponent::DotProduct(const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const TdnnComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  double ans = TraceMatMat(linear_params_, other->linear_params_, Trans::kYes);
  if (bias_params_.Dim() != 0) ans += VecVec(bias_params_, other->bias_params_);
  return static_cast<float>(ans);
}

bool TdnnComponent::ParamsAreFinite() const {
  // As AffineComponent's: a sum in double is poisoned by any inf or NaN.
  return std::isfinite(linear_params_.Sum() +
                       (bias_params_.Dim() != 0 ? bias_params_.Sum() : 0.0));
}

void TdnnComponent::PerturbParams(float stddev, uint64_t seed) {
  Matrix noise(linear_params_.NumRows(), linear_params_.NumCols(),
               ResizeType::kUndefined, linear_params_.device());
  noise.SetRandn(seed);
  linear_params_.AddMat(stddev, noise);
  if (bias_params_.Dim() != 0) {
    Vector bias_noise(bias_params_.Dim(), ResizeType::kUndefined,
                      bias_params_.device());
    bias_noise.SetRandn(seed * 0x9E3779B97F4A7C15ull + 1);
    bias_params_.AddVec(stddev, bias_noise);
  }
}

int32_t TdnnComponent::NumParameters() const {
  return linear_params_.NumRows() * linear_params_.NumCols() +
         bias_params_.Dim();
}

void TdnnComponent::Vectorize(VectorView *params) const {
  NNET3_ASSERT(params->Dim() == NumParameters());
  const int32_t n = linear_params_.NumRows() * linear_params_.NumCols();
  params->Range(0, n).CopyRowsFromMat(linear_params_);
  if (bias_params_.Dim() != 0)
    params->Range(n, bias_params_.Dim()).CopyFromVec(bias_params_);
}

void TdnnComponent::UnVectorize(const VectorView &params) {
  NNET3_ASSERT(params.Dim() == NumParameters());
  const int32_t n = linear_params_.NumRows() * linear_params_.NumCols();
  linear_params_.CopyRowsFromVec(params.Range(0, n));
  if (bias_params_.Dim() != 0)
    bias_params_.CopyFromVec(params.Range(n, bias_params_.Dim()));
}

void TdnnComponent::FreezeNaturalGradient(bool freeze) {
  preconditioner_in_.Freeze(freeze);
  preconditioner_out_.Freeze(freeze);
}

void TdnnComponent::SetParams(const VectorView &bias,
                              const MatrixView &linear) {
  NNET3_ASSERT(linear.NumRows() == linear_params_.NumRows() &&
               linear.NumCols() == linear_params_.NumCols() &&
               (bias.Dim() == 0 || bias.Dim() == linear.NumRows()));
  linear_params_ = Matrix(linear, linear_params_.device());
  bias_params_ = Vector(bias, bias_params_.device());
}

}  // namespace nnet3
