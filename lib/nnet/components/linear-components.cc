#include "nnet/components/linear-components.h"

#include <cmath>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-config.h"
#include "nnet/components/repeated-affine-components.h"
#include "nnet/init-random.h"
#include "nnet/parameter-stats.h"

namespace nnet3 {

namespace {

// After ReadUpdatableCommon returned `token`: the next token must be
// `expected` (already read if `token` is not empty).
void ExpectAfterCommon(std::istream &is, bool binary, const std::string &type,
                       const std::string &token, const std::string &expected) {
  if (token.empty())
    ExpectToken(is, binary, expected);
  else if (token != expected)
    NNET3_ERR << type << ": expected <LearningRate> or " << expected << ", got "
              << token;
}

}  // namespace

// ---------------------------------------------------------------------------
// LinearComponent

LinearComponent::LinearComponent(const MatrixView &params) : params_(params) {
  NNET3_ASSERT(params.NumRows() > 0 && params.NumCols() > 0);
  for (OnlineNaturalGradient *p : {&preconditioner_in_, &preconditioner_out_})
    p->SetUpdatePeriod(4);
  preconditioner_in_.SetRank(40);
  preconditioner_out_.SetRank(80);
}

void LinearComponent::InitFromConfig(ConfigLine *cfl) {
  is_gradient_ = false;  // not configurable, as in Kaldi
  InitLearningRatesFromConfig(cfl);
  if (GetMatrixFromConfig(cfl, Type(), "matrix", &params_)) {
    if (params_.NumRows() == 0 || params_.NumCols() == 0)
      ThrowConfigError(*cfl, Type(), "the matrix= file is empty");
    CheckOptionalDim(cfl, Type(), "input-dim", InputDim());
    CheckOptionalDim(cfl, Type(), "output-dim", OutputDim());
  } else {
    int32_t input_dim = GetPositiveInt(cfl, Type(), "input-dim"),
            output_dim = GetPositiveInt(cfl, Type(), "output-dim");
    float param_stddev = GetNonNegativeFloat(
        cfl, Type(), "param-stddev", 1.0f / std::sqrt(float(input_dim)));
    params_ = Matrix(output_dim, input_dim);  // W = randn · param-stddev
    params_.SetRandn(NextComponentInitSeed());
    params_.Scale(param_stddev);
  }
  NaturalGradientConfig ng;
  ng.ReadFromConfig(cfl, Type());
  use_natural_gradient_ = true;
  cfl->GetValue("use-natural-gradient", &use_natural_gradient_);
  preconditioner_in_ = OnlineNaturalGradient();
  preconditioner_out_ = OnlineNaturalGradient();
  ng.Apply(InputDim(), OutputDim(), &preconditioner_in_, &preconditioner_out_);
  orthonormal_constraint_ = 0.0f;
  cfl->GetValue("orthonormal-constraint", &orthonormal_constraint_);
}

void *LinearComponent::Propagate(const ComponentPrecomputedIndexes *,
                                 const MatrixView &in, MatrixView *out) const {
  out->AddMatMat(1.0f, in, Trans::kNo, params_, Trans::kYes, 1.0f);  // adds
  return nullptr;
}

bool LinearComponent::SupportsPropagateFusion(int32_t fusion) const {
  return fusion == kFuseAssignOutput;
}

void *LinearComponent::PropagateFused(int32_t fusion,
                                      const ComponentPrecomputedIndexes *,
                                      const MatrixView &in,
                                      MatrixView *out) const {
  NNET3_ASSERT(SupportsPropagateFusion(fusion));
  out->AddMatMat(1.0f, in, Trans::kNo, params_, Trans::kYes, 0.0f);
  return nullptr;
}

void LinearComponent::Backprop(const std::string &,
                               const ComponentPrecomputedIndexes *,
                               const MatrixView &in_value, const MatrixView &,
                               const MatrixView &out_deriv, void *,
                               Component *to_update_in,
                               MatrixView *in_deriv) const {
  // y += x Wᵀ: ∂f/∂x += ∂f/∂y W; ∂f/∂W = (∂f/∂y)ᵀ x.
  if (in_deriv != nullptr)
    in_deriv->AddMatMat(1.0f, out_deriv, Trans::kNo, params_, Trans::kNo, 1.0f);
  if (to_update_in == nullptr) return;
  auto *to_update = dynamic_cast<LinearComponent *>(to_update_in);
  NNET3_ASSERT(to_update != nullptr);
  if (to_update->is_gradient_ || !to_update->use_natural_gradient_) {
    to_update->params_.AddMatMat(to_update->learning_rate_, out_deriv,
                                 Trans::kYes, in_value, Trans::kNo, 1.0f);
    return;
  }
  // Natural gradient: precondition both factors of the gradient, and put the
  // scales that restore their norms into the learning rate.
  Matrix in_precon(in_value), out_deriv_precon(out_deriv);
  float in_scale = 1.0f, out_scale = 1.0f;
  to_update->preconditioner_in_.PreconditionDirections(&in_precon, &in_scale);
  to_update->preconditioner_out_.PreconditionDirections(&out_deriv_precon,
                                                        &out_scale);
  float local_lrate = in_scale * out_scale * to_update->learning_rate_;
  to_update->params_.AddMatMat(local_lrate, out_deriv_precon, Trans::kYes,
                               in_precon, Trans::kNo, 1.0f);
}

void LinearComponent::Read(std::istream &is, bool binary) {
  ExpectAfterCommon(is, binary, Type(), ReadUpdatableCommon(is, binary),
                    "<Params>");
  params_.Read(is, binary);
  orthonormal_constraint_ = 0.0f;
  if (PeekToken(is, binary) == 'O') {
    ExpectToken(is, binary, "<OrthonormalConstraint>");
    ReadBasicType(is, binary, &orthonormal_constraint_);
  }
  ExpectToken(is, binary, "<UseNaturalGradient>");
  ReadBasicType(is, binary, &use_natural_gradient_);
  int32_t rank_in = 0, rank_out = 0, update_period = 0;
  float alpha = 0.0f, num_samples_history = 0.0f;
  ExpectToken(is, binary, "<RankInOut>");
  ReadBasicType(is, binary, &rank_in);
  ReadBasicType(is, binary, &rank_out);
  ExpectToken(is, binary, "<Alpha>");
  ReadBasicType(is, binary, &alpha);
  ExpectToken(is, binary, "<NumSamplesHistory>");
  ReadBasicType(is, binary, &num_samples_history);
  ExpectToken(is, binary, "<UpdatePeriod>");
  ReadBasicType(is, binary, &update_period);
  if (rank_in <= 0 || rank_out <= 0 || update_period <= 0 ||
      !(num_samples_history > 0.0f && num_samples_history < 1e6f) ||
      !(alpha >= 0.0f))
    NNET3_ERR << Type() << ": bad natural-gradient settings in the model: "
              << "<RankInOut> " << rank_in << " " << rank_out << " <Alpha> "
              << alpha << " <NumSamplesHistory> " << num_samples_history
              << " <UpdatePeriod> " << update_period;
  preconditioner_in_ = OnlineNaturalGradient();
  preconditioner_out_ = OnlineNaturalGradient();
  for (OnlineNaturalGradient *p : {&preconditioner_in_, &preconditioner_out_}) {
    p->SetAlpha(alpha);
    p->SetNumSamplesHistory(num_samples_history);
    p->SetUpdatePeriod(update_period);
  }
  preconditioner_in_.SetRank(rank_in);
  preconditioner_out_.SetRank(rank_out);
  ExpectToken(is, binary, "</LinearComponent>");
}

void LinearComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<Params>");
  params_.Write(os, binary);
  if (orthonormal_constraint_ != 0.0f) {
    WriteToken(os, binary, "<OrthonormalConstraint>");
    WriteBasicType(os, binary, orthonormal_constraint_);
  }
  WriteToken(os, binary, "<UseNaturalGradient>");
  WriteBasicType(os, binary, use_natural_gradient_);
  WriteToken(os, binary, "<RankInOut>");
  WriteBasicType(os, binary, preconditioner_in_.GetRank());
  WriteBasicType(os, binary, preconditioner_out_.GetRank());
  WriteToken(os, binary, "<Alpha>");
  WriteBasicType(os, binary, preconditioner_in_.GetAlpha());
  WriteToken(os, binary, "<NumSamplesHistory>");
  WriteBasicType(os, binary, preconditioner_in_.GetNumSamplesHistory());
  WriteToken(os, binary, "<UpdatePeriod>");
  WriteBasicType(os, binary, preconditioner_in_.GetUpdatePeriod());
  WriteToken(os, binary, "</LinearComponent>");
}

std::unique_ptr<Component> LinearComponent::Copy() const {
  return std::make_unique<LinearComponent>(*this);
}

std::string LinearComponent::Info() const {
  std::ostringstream os;
  os << UpdatableComponent::Info();
  PrintParameterStats(os, "params", params_, /*include_mean=*/false,
                      /*include_row_norms=*/true,
                      /*include_column_norms=*/true);
  if (orthonormal_constraint_ != 0.0f)
    os << ", orthonormal-constraint=" << orthonormal_constraint_;
  os << ", use-natural-gradient=" << (use_natural_gradient_ ? "true" : "false")
     << ", rank-in=" << preconditioner_in_.GetRank()
     << ", rank-out=" << preconditioner_out_.GetRank()
     << ", num-samples-history=" << preconditioner_in_.GetNumSamplesHistory()
     << ", update-period=" << preconditioner_in_.GetUpdatePeriod()
     << ", alpha=" << preconditioner_in_.GetAlpha();
  return os.str();
}

void LinearComponent::Scale(float scale) {
  if (scale == 0.0f)
    params_.SetZero();
  else
    params_.Scale(scale);
}

void LinearComponent::Add(float alpha, const Component &other_in) {
  auto *other = dynamic_cast<const LinearComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  params_.AddMat(alpha, other->params_);
}

float LinearComponent::DotProduct(const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const LinearComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(TraceMatMat(params_, other->params_, Trans::kYes));
}

bool LinearComponent::ParamsAreFinite() const { return params_.IsFinite(); }

void LinearComponent::PerturbParams(float stddev, uint64_t seed) {
  Matrix noise(OutputDim(), InputDim(), ResizeType::kUndefined,
               params_.device());
  noise.SetRandn(seed);
  params_.AddMat(stddev, noise);
}

int32_t LinearComponent::NumParameters() const {
  return InputDim() * OutputDim();
}

void LinearComponent::Vectorize(VectorView *params) const {
  NNET3_ASSERT(params->Dim() == NumParameters());
  params->CopyRowsFromMat(params_);
}

void LinearComponent::UnVectorize(const VectorView &params) {
  NNET3_ASSERT(params.Dim() == NumParameters());
  params_.CopyRowsFromVec(params);
}

void LinearComponent::FreezeNaturalGradient(bool freeze) {
  preconditioner_in_.Freeze(freeze);
  preconditioner_out_.Freeze(freeze);
}

void LinearComponent::SetParams(const MatrixView &params) {
  params_ = Matrix(params, params_.device());
}

// ---------------------------------------------------------------------------
// BlockAffineComponent

BlockAffineComponent::BlockAffineComponent(const RepeatedAffineComponent &rac)
    : num_blocks_(rac.NumRepeats()) {
  CopyUpdatableCommon(rac);
  const Matrix &block = rac.LinearParams();
  const Vector &bias = rac.BiasParams();
  const int32_t rows = block.NumRows();
  linear_params_ = Matrix(rows * num_blocks_, block.NumCols(),
                          ResizeType::kUndefined, block.device());
  bias_params_ =
      Vector(rows * num_blocks_, ResizeType::kUndefined, bias.device());
  for (int32_t b = 0; b < num_blocks_; b++) {
    linear_params_.RowRange(b * rows, rows).CopyFromMat(block);
    bias_params_.Range(b * rows, rows).CopyFromVec(bias);
  }
}

void BlockAffineComponent::InitFromConfig(ConfigLine *cfl) {
  int32_t input_dim = GetPositiveInt(cfl, Type(), "input-dim"),
          output_dim = GetPositiveInt(cfl, Type(), "output-dim"),
          num_blocks = GetPositiveInt(cfl, Type(), "num-blocks");
  if (input_dim % num_blocks != 0 || output_dim % num_blocks != 0)
    ThrowConfigError(*cfl, Type(),
                     "num-blocks=" + std::to_string(num_blocks) +
                         " must divide input-dim=" + std::to_string(input_dim) +
                         " and output-dim=" + std::to_string(output_dim));
  InitLearningRatesFromConfig(cfl);
  int32_t block_in = input_dim / num_blocks;
  float param_stddev = GetNonNegativeFloat(cfl, Type(), "param-stddev",
                                           1.0f / std::sqrt(float(block_in)));
  float bias_stddev = GetNonNegativeFloat(cfl, Type(), "bias-stddev", 1.0f);
  float bias_mean = 0.0f;
  cfl->GetValue("bias-mean", &bias_mean);
  // W = randn · param-stddev, b = randn · bias-stddev + bias-mean.
  uint64_t seed = NextComponentInitSeed();
  num_blocks_ = num_blocks;
  linear_params_ = Matrix(output_dim, block_in);
  linear_params_.SetRandn(seed);
  linear_params_.Scale(param_stddev);
  bias_params_ = Vector(output_dim);
  bias_params_.SetRandn(BiasSeed(seed));
  bias_params_.Scale(bias_stddev);
  bias_params_.Add(bias_mean);
}

void *BlockAffineComponent::Propagate(const ComponentPrecomputedIndexes *,
                                      const MatrixView &in,
                                      MatrixView *out) const {
  // Block b: out[:, b·O/B ..] = in[:, b·I/B ..] W_bᵀ + b_b (one GEMM per
  // block).
  out->CopyRowsFromVec(bias_params_);
  int32_t block_in = linear_params_.NumCols(),
          block_out = linear_params_.NumRows() / num_blocks_;
  for (int32_t b = 0; b < num_blocks_; b++)
    out->ColRange(b * block_out, block_out)
        .AddMatMat(1.0f, in.ColRange(b * block_in, block_in), Trans::kNo,
                   linear_params_.RowRange(b * block_out, block_out),
                   Trans::kYes, 1.0f);
  return nullptr;
}

void BlockAffineComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *,
    const MatrixView &in_value, const MatrixView &, const MatrixView &out_deriv,
    void *, Component *to_update_in, MatrixView *in_deriv) const {
  // Per block b: ∂f/∂x_b += ∂f/∂y_b W_b; ∂f/∂W_b = (∂f/∂y_b)ᵀ x_b;
  // ∂f/∂b = column sums of ∂f/∂y. Always the plain (SGD) update, as in Kaldi.
  int32_t block_in = linear_params_.NumCols(),
          block_out = linear_params_.NumRows() / num_blocks_;
  if (in_deriv != nullptr)
    for (int32_t b = 0; b < num_blocks_; b++)
      in_deriv->ColRange(b * block_in, block_in)
          .AddMatMat(1.0f, out_deriv.ColRange(b * block_out, block_out),
                     Trans::kNo,
                     linear_params_.RowRange(b * block_out, block_out),
                     Trans::kNo, 1.0f);
  if (to_update_in == nullptr) return;
  auto *to_update = dynamic_cast<BlockAffineComponent *>(to_update_in);
  NNET3_ASSERT(to_update != nullptr);
  float lr = to_update->learning_rate_;
  for (int32_t b = 0; b < num_blocks_; b++)
    to_update->linear_params_.RowRange(b * block_out, block_out)
        .AddMatMat(lr, out_deriv.ColRange(b * block_out, block_out),
                   Trans::kYes, in_value.ColRange(b * block_in, block_in),
                   Trans::kNo, 1.0f);
  to_update->bias_params_.AddRowSumMat(lr, out_deriv, 1.0f);
}

void BlockAffineComponent::Read(std::istream &is, bool binary) {
  ExpectAfterCommon(is, binary, Type(), ReadUpdatableCommon(is, binary),
                    "<NumBlocks>");
  ReadBasicType(is, binary, &num_blocks_);
  ExpectToken(is, binary, "<LinearParams>");
  linear_params_.Read(is, binary);
  ExpectToken(is, binary, "<BiasParams>");
  bias_params_.Read(is, binary);
  if (num_blocks_ <= 0 || linear_params_.NumRows() % num_blocks_ != 0 ||
      bias_params_.Dim() != linear_params_.NumRows())
    NNET3_ERR << Type() << ": inconsistent model: <NumBlocks> " << num_blocks_
              << ", <LinearParams> " << linear_params_.NumRows() << " x "
              << linear_params_.NumCols() << ", <BiasParams> dimension "
              << bias_params_.Dim();
  if (PeekToken(is, binary) == 'I') {  // legacy; now in the common prefix
    ExpectToken(is, binary, "<IsGradient>");
    ReadBasicType(is, binary, &is_gradient_);
  }
  ExpectToken(is, binary, "</BlockAffineComponent>");
}

void BlockAffineComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<NumBlocks>");
  WriteBasicType(os, binary, num_blocks_);
  WriteToken(os, binary, "<LinearParams>");
  linear_params_.Write(os, binary);
  WriteToken(os, binary, "<BiasParams>");
  bias_params_.Write(os, binary);
  WriteToken(os, binary, "</BlockAffineComponent>");
}

std::unique_ptr<Component> BlockAffineComponent::Copy() const {
  return std::make_unique<BlockAffineComponent>(*this);
}

std::string BlockAffineComponent::Info() const {
  std::ostringstream os;
  os << UpdatableComponent::Info() << ", num-blocks=" << num_blocks_;
  PrintParameterStats(os, "linear-params", linear_params_);
  PrintParameterStats(os, "bias", bias_params_, /*include_mean=*/true);
  return os.str();
}

void BlockAffineComponent::Scale(float scale) {
  if (scale == 0.0f) {
    linear_params_.SetZero();
    bias_params_.SetZero();
  } else {
    linear_params_.Scale(scale);
    bias_params_.Scale(scale);
  }
}

void BlockAffineComponent::Add(float alpha, const Component &other_in) {
  auto *other = dynamic_cast<const BlockAffineComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  linear_params_.AddMat(alpha, other->linear_params_);
  bias_params_.AddVec(alpha, other->bias_params_);
}

float BlockAffineComponent::DotProduct(
    const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const BlockAffineComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(
      TraceMatMat(linear_params_, other->linear_params_, Trans::kYes) +
      VecVec(bias_params_, other->bias_params_));
}

void BlockAffineComponent::PerturbParams(float stddev, uint64_t seed) {
  Matrix noise(linear_params_.NumRows(), linear_params_.NumCols(),
               ResizeType::kUndefined, linear_params_.device());
  noise.SetRandn(seed);
  linear_params_.AddMat(stddev, noise);
  Vector bias_noise(bias_params_.Dim(), ResizeType::kUndefined,
                    bias_params_.device());
  bias_noise.SetRandn(BiasSeed(seed));
  bias_params_.AddVec(stddev, bias_noise);
}

int32_t BlockAffineComponent::NumParameters() const {
  return linear_params_.NumRows() * linear_params_.NumCols() +
         bias_params_.Dim();
}

void BlockAffineComponent::Vectorize(VectorView *params) const {
  NNET3_ASSERT(params->Dim() == NumParameters());
  int32_t n = linear_params_.NumRows() * linear_params_.NumCols();
  params->Range(0, n).CopyRowsFromMat(linear_params_);
  params->Range(n, bias_params_.Dim()).CopyFromVec(bias_params_);
}

void BlockAffineComponent::UnVectorize(const VectorView &params) {
  NNET3_ASSERT(params.Dim() == NumParameters());
  int32_t n = linear_params_.NumRows() * linear_params_.NumCols();
  linear_params_.CopyRowsFromVec(params.Range(0, n));
  bias_params_.CopyFromVec(params.Range(n, bias_params_.Dim()));
}

void BlockAffineComponent::SetParams(const VectorView &bias,
                                     const MatrixView &linear) {
  NNET3_ASSERT(bias.Dim() == linear.NumRows() &&
               linear.NumRows() % num_blocks_ == 0);
  linear_params_ = Matrix(linear, linear_params_.device());
  bias_params_ = Vector(bias, bias_params_.device());
}

}  // namespace nnet3
