#include "nnet/components/convolution-components.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "base/log.h"
#include "base/text-utils.h"
#include "nnet/component-config.h"
#include "nnet/component-registry.h"
#include "nnet/components/convolution-3d-component.h"
#include "nnet/components/weight-bias-params.h"
#include "nnet/init-random.h"
#include "nnet/parameter-stats.h"

namespace nnet3 {

std::unique_ptr<Component> NewConvolutionComponentOfType(
    const std::string &type) {
  if (type == "TimeHeightConvolutionComponent")
    return std::make_unique<TimeHeightConvolutionComponent>();
  if (type == "ConvolutionComponent")
    return std::make_unique<ConvolutionComponent>();
  return nullptr;
}

std::vector<std::string> ConvolutionComponentTypes() {
  return {"TimeHeightConvolutionComponent", "ConvolutionComponent"};
}

namespace {

// Parses "1,2,3" into a sorted unique non-empty list, or throws a config
// error naming the key.
std::vector<int32_t> SortedUniqueList(ConfigLine *cfl, const std::string &type,
                                      const std::string &key,
                                      const std::string &text) {
  std::vector<int32_t> v;
  if (!SplitStringToIntegers(text, ",", &v) || v.empty() ||
      !std::is_sorted(v.begin(), v.end()) ||
      std::adjacent_find(v.begin(), v.end()) != v.end())
    ThrowConfigError(*cfl, type,
                     key + "=" + text +
                         " must be a non-empty, sorted, comma-separated list "
                         "of distinct integers");
  return v;
}

}  // namespace

// ---------------------------------------------------------------------------
// TimeHeightConvolutionComponentPrecomputedIndexes

std::unique_ptr<ComponentPrecomputedIndexes>
TimeHeightConvolutionComponentPrecomputedIndexes::Copy() const {
  return std::make_unique<TimeHeightConvolutionComponentPrecomputedIndexes>(
      *this);
}

void TimeHeightConvolutionComponentPrecomputedIndexes::Write(
    std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<TimeHeightConvolutionComponentPrecomputedIndexes>");
  WriteToken(os, binary, "<Computation>");
  computation.Write(os, binary);
  WriteToken(os, binary, "</TimeHeightConvolutionComponentPrecomputedIndexes>");
}

void TimeHeightConvolutionComponentPrecomputedIndexes::Read(std::istream &is,
                                                            bool binary) {
  ExpectOneOrTwoTokens(is, binary,
                       "<TimeHeightConvolutionComponentPrecomputedIndexes>",
                       "<Computation>");
  computation.Read(is, binary);
  ExpectToken(is, binary,
              "</TimeHeightConvolutionComponentPrecomputedIndexes>");
}

// ---------------------------------------------------------------------------
// TimeHeightConvolutionComponent: configuration and I/O

void TimeHeightConvolutionComponent::ReadOffsetsFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  std::string offsets, height_offsets, time_offsets;
  model_.offsets.clear();
  if (cfl->GetValue("offsets", &offsets)) {
    for (const std::string &pair : SplitString(offsets, ";", true)) {
      std::vector<int32_t> th;
      if (!SplitStringToIntegers(pair, ",", &th) || th.size() != 2)
        ThrowConfigError(*cfl, type,
                         "offsets=" + offsets +
                             " must be time,height pairs separated by ';'");
      ConvolutionModel::Offset o;
      o.time_offset = th[0];
      o.height_offset = th[1];
      model_.offsets.push_back(o);
    }
    std::sort(model_.offsets.begin(), model_.offsets.end());
    if (model_.offsets.empty() ||
        std::adjacent_find(model_.offsets.begin(), model_.offsets.end()) !=
            model_.offsets.end())
      ThrowConfigError(*cfl, type,
                       "offsets=" + offsets + " is empty or has a repeat");
  } else {
    const bool have_h = cfl->GetValue("height-offsets", &height_offsets),
               have_t = cfl->GetValue("time-offsets", &time_offsets);
    if (!have_h || !have_t)
      ThrowConfigError(*cfl, type,
                       "expected offsets=, or both height-offsets= and "
                       "time-offsets=");
    for (int32_t t : SortedUniqueList(cfl, type, "time-offsets", time_offsets))
      for (int32_t h :
           SortedUniqueList(cfl, type, "height-offsets", height_offsets)) {
        ConvolutionModel::Offset o;
        o.time_offset = t;
        o.height_offset = h;
        model_.offsets.push_back(o);
      }
  }
  std::string required;
  model_.required_time_offsets.clear();
  if (cfl->GetValue("required-time-offsets", &required)) {
    for (int32_t t :
         SortedUniqueList(cfl, type, "required-time-offsets", required))
      model_.required_time_offsets.insert(t);
  } else {
    for (const ConvolutionModel::Offset &o : model_.offsets)
      model_.required_time_offsets.insert(o.time_offset);
  }
}

void TimeHeightConvolutionComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  is_gradient_ = false;
  InitLearningRatesFromConfig(cfl);
  model_ = ConvolutionModel();
  model_.num_filters_in = GetPositiveInt(cfl, type, "num-filters-in");
  model_.num_filters_out = GetPositiveInt(cfl, type, "num-filters-out");
  model_.height_in = GetPositiveInt(cfl, type, "height-in");
  model_.height_out = GetPositiveInt(cfl, type, "height-out");
  model_.height_subsample_out = 1;
  cfl->GetValue("height-subsample-out", &model_.height_subsample_out);
  if (model_.height_subsample_out <= 0)
    ThrowConfigError(*cfl, type, "height-subsample-out must be > 0");
  max_memory_mb_ = 200.0f;
  cfl->GetValue("max-memory-mb", &max_memory_mb_);
  if (!(max_memory_mb_ > 0.0f))
    ThrowConfigError(*cfl, type, "max-memory-mb must be > 0");
  ReadOffsetsFromConfig(cfl);
  model_.ComputeDerived();
  std::string problem = model_.Problem(/*check_heights_used=*/false);
  if (!problem.empty()) ThrowConfigError(*cfl, type, problem);
  problem = model_.Problem(/*check_heights_used=*/true);
  if (!problem.empty())
    NNET3_WARN << type << ": " << problem
               << "; consider a larger height-out or a smaller height of "
                  "the layer before (config line '"
               << cfl->WholeLine() << "')";
  InitParamsFromConfig(cfl);
  InitNaturalGradientFromConfig(cfl);
}

void TimeHeightConvolutionComponent::InitParamsFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  const int32_t num_offsets = static_cast<int32_t>(model_.offsets.size());
  const float param_stddev = GetNonNegativeFloat(
      cfl, type, "param-stddev",
      1.0f / std::sqrt(float(model_.num_filters_in * num_offsets)));
  const float bias_stddev = GetNonNegativeFloat(cfl, type, "bias-stddev", 0.0f);
  bool init_unit = false;
  cfl->GetValue("init-unit", &init_unit);
  linear_params_ = Matrix(model_.ParamRows(), model_.ParamCols());
  if (init_unit) {
    // The (0, 0) offset's block is the identity, everything else zero.
    auto it = std::find(model_.offsets.begin(), model_.offsets.end(),
                        ConvolutionModel::Offset());
    if (model_.num_filters_in != model_.num_filters_out ||
        it == model_.offsets.end())
      ThrowConfigError(*cfl, type,
                       "init-unit=true needs num-filters-in == "
                       "num-filters-out and the offset (0,0)");
    const int32_t block = int32_t(it - model_.offsets.begin()),
                  f = model_.num_filters_in;
    for (int32_t i = 0; i < f; i++) linear_params_.Set(i, block * f + i, 1.0f);
  } else {
    linear_params_.SetRandn(NextComponentInitSeed());
    linear_params_.Scale(param_stddev);
  }
  bias_params_ = Vector(model_.num_filters_out);
  bias_params_.SetRandn(NextComponentInitSeed());
  bias_params_.Scale(bias_stddev);
}

void TimeHeightConvolutionComponent::InitNaturalGradientFromConfig(
    ConfigLine *cfl) {
  const std::string type = Type();
  use_natural_gradient_ = true;
  cfl->GetValue("use-natural-gradient", &use_natural_gradient_);
  int32_t rank_in = -1, rank_out = -1;
  float alpha_in = 4.0f, alpha_out = 4.0f, history = 4.0f;
  cfl->GetValue("rank-in", &rank_in);
  cfl->GetValue("rank-out", &rank_out);
  cfl->GetValue("alpha-in", &alpha_in);
  cfl->GetValue("alpha-out", &alpha_out);
  cfl->GetValue("num-minibatches-history", &history);
  if (rank_in == 0 || rank_in < -1 || rank_out == 0 || rank_out < -1)
    ThrowConfigError(*cfl, type, "rank-in and rank-out must be > 0");
  if (!(alpha_in >= 0.0f && alpha_out >= 0.0f) || !(history > 1.0f))
    ThrowConfigError(*cfl, type,
                     "alpha-in and alpha-out must be >= 0 and "
                     "num-minibatches-history > 1");
  const int32_t dim_in = model_.ParamCols() + 1, dim_out = model_.ParamRows();
  if (rank_in < 0) rank_in = std::min(80, (dim_in + 1) / 2);
  if (rank_out < 0) rank_out = std::min(80, (dim_out + 1) / 2);
  SetPreconditioners(rank_in, rank_out, alpha_in, alpha_out, history);
}

void TimeHeightConvolutionComponent::SetPreconditioners(int32_t rank_in,
                                                        int32_t rank_out,
                                                        float alpha_in,
                                                        float alpha_out,
                                                        float history) {
  preconditioner_in_ = OnlineNaturalGradient();
  preconditioner_out_ = OnlineNaturalGradient();
  preconditioner_in_.SetRank(rank_in);
  preconditioner_out_.SetRank(rank_out);
  preconditioner_in_.SetAlpha(alpha_in);
  preconditioner_out_.SetAlpha(alpha_out);
  preconditioner_in_.SetNumMinibatchesHistory(history);
  preconditioner_out_.SetNumMinibatchesHistory(history);
}

void TimeHeightConvolutionComponent::Read(std::istream &is, bool binary) {
  std::string token = ReadUpdatableCommon(is, binary);
  if (token.empty()) ReadToken(is, binary, &token);
  if (token != "<Model>")
    NNET3_ERR << "TimeHeightConvolutionComponent: expected <Model>, got "
              << token;
  model_.Read(is, binary);
  ExpectToken(is, binary, "<LinearParams>");
  linear_params_.Read(is, binary);
  ExpectToken(is, binary, "<BiasParams>");
  bias_params_.Read(is, binary);
  ExpectToken(is, binary, "<MaxMemoryMb>");
  ReadBasicType(is, binary, &max_memory_mb_);
  ExpectToken(is, binary, "<UseNaturalGradient>");
  ReadBasicType(is, binary, &use_natural_gradient_);
  float history = 0.0f, alpha_in = 0.0f, alpha_out = 0.0f;
  int32_t rank_in = 0, rank_out = 0;
  ExpectToken(is, binary, "<NumMinibatchesHistory>");
  ReadBasicType(is, binary, &history);
  ExpectToken(is, binary, "<AlphaInOut>");
  ReadBasicType(is, binary, &alpha_in);
  ReadBasicType(is, binary, &alpha_out);
  ExpectToken(is, binary, "<RankInOut>");
  ReadBasicType(is, binary, &rank_in);
  ReadBasicType(is, binary, &rank_out);
  ExpectToken(is, binary, "</TimeHeightConvolutionComponent>");
  if (linear_params_.NumRows() != model_.ParamRows() ||
      linear_params_.NumCols() != model_.ParamCols() ||
      bias_params_.Dim() != model_.num_filters_out ||
      !(max_memory_mb_ > 0.0f) || rank_in <= 0 || rank_out <= 0 ||
      !(history > 1.0f))
    NNET3_ERR << "TimeHeightConvolutionComponent: inconsistent model: "
              << "<LinearParams> " << linear_params_.NumRows() << " x "
              << linear_params_.NumCols() << " for " << model_.Info();
  SetPreconditioners(rank_in, rank_out, alpha_in, alpha_out, history);
}

void TimeHeightConvolutionComponent::Write(std::ostream &os,
                                           bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<Model>");
  model_.Write(os, binary);
  WriteToken(os, binary, "<LinearParams>");
  linear_params_.Write(os, binary);
  WriteToken(os, binary, "<BiasParams>");
  bias_params_.Write(os, binary);
  WriteToken(os, binary, "<MaxMemoryMb>");
  WriteBasicType(os, binary, max_memory_mb_);
  WriteToken(os, binary, "<UseNaturalGradient>");
  WriteBasicType(os, binary, use_natural_gradient_);
  WriteToken(os, binary, "<NumMinibatchesHistory>");
  WriteBasicType(os, binary, preconditioner_in_.GetNumMinibatchesHistory());
  WriteToken(os, binary, "<AlphaInOut>");
  WriteBasicType(os, binary, preconditioner_in_.GetAlpha());
  WriteBasicType(os, binary, preconditioner_out_.GetAlpha());
  WriteToken(os, binary, "<RankInOut>");
  WriteBasicType(os, binary, preconditioner_in_.GetRank());
  WriteBasicType(os, binary, preconditioner_out_.GetRank());
  WriteToken(os, binary, "</TimeHeightConvolutionComponent>");
}

std::unique_ptr<Component> TimeHeightConvolutionComponent::Copy() const {
  return std::make_unique<TimeHeightConvolutionComponent>(*this);
}

std::string TimeHeightConvolutionComponent::Info() const {
  std::ostringstream os;
  os << UpdatableComponent::Info() << ' ' << model_.Info();
  PrintParameterStats(os, "filter-params", linear_params_);
  PrintParameterStats(os, "bias-params", bias_params_, /*include_mean=*/true);
  // (Kaldi prints the flag as 0/1 here.)
  os << ", num-params=" << NumParameters()
     << ", max-memory-mb=" << max_memory_mb_
     << ", use-natural-gradient=" << (use_natural_gradient_ ? 1 : 0);
  if (use_natural_gradient_)
    os << ", num-minibatches-history="
       << preconditioner_in_.GetNumMinibatchesHistory()
       << ", rank-in=" << preconditioner_in_.GetRank()
       << ", rank-out=" << preconditioner_out_.GetRank()
       << ", alpha=" << preconditioner_in_.GetAlpha();
  return os.str();
}

// ---------------------------------------------------------------------------
// TimeHeightConvolutionComponent: Indexes

void TimeHeightConvolutionComponent::GetInputIndexes(
    const MiscComputationInfo &, const Index &output_index,
    std::vector<Index> *desired_indexes) const {
  NNET3_ASSERT(output_index.t != kNoTime);
  desired_indexes->clear();
  for (int32_t offset : model_.all_time_offsets)
    desired_indexes->push_back(
        Index(output_index.n, output_index.t + offset, output_index.x));
}

bool TimeHeightConvolutionComponent::IsComputable(
    const MiscComputationInfo &, const Index &output_index,
    const IndexSet &input_index_set, std::vector<Index> *used_inputs) const {
  NNET3_ASSERT(output_index.t != kNoTime);
  if (used_inputs != nullptr) used_inputs->clear();
  for (int32_t offset : model_.all_time_offsets) {
    Index index(output_index.n, output_index.t + offset, output_index.x);
    const bool required = model_.required_time_offsets.count(offset) != 0;
    if (input_index_set(index)) {
      if (used_inputs != nullptr) used_inputs->push_back(index);
    } else if (required) {
      if (used_inputs != nullptr) used_inputs->clear();
      return false;
    }
  }
  return true;
}

void TimeHeightConvolutionComponent::ReorderIndexes(
    std::vector<Index> *input_indexes,
    std::vector<Index> *output_indexes) const {
  ConvolutionComputationOptions opts;
  opts.max_memory_mb = max_memory_mb_;
  ConvolutionComputation cc;
  std::vector<Index> new_input, new_output;
  CompileConvolutionComputation(model_, *input_indexes, *output_indexes, opts,
                                &cc, &new_input, &new_output);
  input_indexes->swap(new_input);
  output_indexes->swap(new_output);
}

std::unique_ptr<ComponentPrecomputedIndexes>
TimeHeightConvolutionComponent::PrecomputeIndexes(
    const MiscComputationInfo &, const std::vector<Index> &input_indexes,
    const std::vector<Index> &output_indexes, bool) const {
  ConvolutionComputationOptions opts;
  opts.max_memory_mb = max_memory_mb_;
  auto ans =
      std::make_unique<TimeHeightConvolutionComponentPrecomputedIndexes>();
  std::vector<Index> new_input, new_output;
  CompileConvolutionComputation(model_, input_indexes, output_indexes, opts,
                                &ans->computation, &new_input, &new_output);
  // ReorderIndexes already gave these Indexes their final order.
  if (new_input != input_indexes || new_output != output_indexes)
    NNET3_INTERNAL_ERR << "TimeHeightConvolutionComponent: the Indexes were "
                          "not reordered by ReorderIndexes";
  return ans;
}

// ---------------------------------------------------------------------------
// TimeHeightConvolutionComponent: Propagate, Backprop, updates

MatrixView TimeHeightConvolutionComponent::PerFilter(
    const MatrixView &m) const {
  NNET3_ASSERT(m.NumCols() == model_.OutputDim() &&
               (m.NumRows() <= 1 || m.Stride() == m.NumCols()));
  const int32_t f = model_.num_filters_out;
  return MatrixView(m.device(), m.Data(), m.NumRows() * model_.height_out, f,
                    f);
}

void *TimeHeightConvolutionComponent::Propagate(
    const ComponentPrecomputedIndexes *indexes_in, const MatrixView &in,
    MatrixView *out) const {
  auto *indexes =
      dynamic_cast<const TimeHeightConvolutionComponentPrecomputedIndexes *>(
          indexes_in);
  NNET3_ASSERT(indexes != nullptr);
  PerFilter(*out).CopyRowsFromVec(bias_params_);
  ConvolveForward(indexes->computation, in, linear_params_, out);
  return nullptr;
}

void TimeHeightConvolutionComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *indexes_in,
    const MatrixView &in_value, const MatrixView &, const MatrixView &out_deriv,
    void *, Component *to_update_in, MatrixView *in_deriv) const {
  auto *indexes =
      dynamic_cast<const TimeHeightConvolutionComponentPrecomputedIndexes *>(
          indexes_in);
  NNET3_ASSERT(indexes != nullptr);
  if (in_deriv != nullptr)
    ConvolveBackwardData(indexes->computation, linear_params_, out_deriv,
                         in_deriv);
  if (to_update_in == nullptr) return;
  auto *to_update =
      dynamic_cast<TimeHeightConvolutionComponent *>(to_update_in);
  NNET3_ASSERT(to_update != nullptr);
  if (to_update->learning_rate_ == 0.0f) return;
  if (to_update->is_gradient_ || !to_update->use_natural_gradient_)
    to_update->UpdateSimple(indexes->computation, in_value, out_deriv);
  else
    to_update->UpdateNaturalGradient(indexes->computation, in_value, out_deriv);
}

void TimeHeightConvolutionComponent::UpdateSimple(
    const ConvolutionComputation &cc, const MatrixView &in_value,
    const MatrixView &out_deriv) {
  bias_params_.AddRowSumMat(learning_rate_, PerFilter(out_deriv), 1.0f);
  ConvolveBackwardParams(cc, in_value, out_deriv, learning_rate_,
                         &linear_params_);
}

void TimeHeightConvolutionComponent::UpdateNaturalGradient(
    const ConvolutionComputation &cc, const MatrixView &in_value,
    const MatrixView &out_deriv) {
  // The gradient [∂f/∂W ∂f/∂b] is preconditioned on its column side (the
  // input space plus the bias) and then its row side (the output filters).
  const int32_t cols = linear_params_.NumCols();
  Matrix grad(linear_params_.NumRows(), cols + 1, ResizeType::kSetZero,
              MatrixStrideType::kDefaultStride, linear_params_.device());
  Vector bias_grad(bias_params_.Dim(), ResizeType::kSetZero,
                   bias_params_.device());
  bias_grad.AddRowSumMat(1.0f, PerFilter(out_deriv), 1.0f);
  grad.CopyColFromVec(bias_grad, cols);
  MatrixView linear_grad = grad.ColRange(0, cols);
  ConvolveBackwardParams(cc, in_value, out_deriv, 1.0f, &linear_grad);
  float scale1 = 1.0f, scale2 = 1.0f;
  preconditioner_in_.PreconditionDirections(&grad, &scale1);
  Matrix grad_t(grad, Trans::kYes);
  preconditioner_out_.PreconditionDirections(&grad_t, &scale2);
  const float lr = learning_rate_ * scale1 * scale2;
  linear_params_.AddMat(lr, grad_t.RowRange(0, cols), Trans::kYes);
  bias_params_.AddVec(lr, grad_t.Row(cols));
}

// ---------------------------------------------------------------------------
// TimeHeightConvolutionComponent: the updatable interface

void TimeHeightConvolutionComponent::Scale(float scale) {
  ScaleWeightBias(scale, &linear_params_, &bias_params_);
}

void TimeHeightConvolutionComponent::Add(float alpha,
                                         const Component &other_in) {
  auto *other = dynamic_cast<const TimeHeightConvolutionComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  linear_params_.AddMat(alpha, other->linear_params_);
  bias_params_.AddVec(alpha, other->bias_params_);
}

float TimeHeightConvolutionComponent::DotProduct(
    const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const TimeHeightConvolutionComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(
      TraceMatMat(linear_params_, other->linear_params_, Trans::kYes) +
      VecVec(bias_params_, other->bias_params_));
}

void TimeHeightConvolutionComponent::PerturbParams(float stddev,
                                                   uint64_t seed) {
  PerturbWeightBias(stddev, seed, &linear_params_, &bias_params_);
}

int32_t TimeHeightConvolutionComponent::NumParameters() const {
  return linear_params_.NumRows() * linear_params_.NumCols() +
         bias_params_.Dim();
}

void TimeHeightConvolutionComponent::Vectorize(VectorView *params) const {
  VectorizeWeightBias(linear_params_, bias_params_, params);
}

void TimeHeightConvolutionComponent::UnVectorize(const VectorView &params) {
  UnVectorizeWeightBias(params, &linear_params_, &bias_params_);
}

void TimeHeightConvolutionComponent::FreezeNaturalGradient(bool freeze) {
  preconditioner_in_.Freeze(freeze);
  preconditioner_out_.Freeze(freeze);
}

}  // namespace nnet3
