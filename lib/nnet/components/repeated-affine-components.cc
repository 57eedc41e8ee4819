#include "nnet/components/repeated-affine-components.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-config.h"
#include "nnet/component-registry.h"
#include "nnet/components/nonlinear-common.h"
#include "nnet/components/simple-component-utils.h"
#include "nnet/init-random.h"
#include "nnet/parameter-stats.h"

namespace nnet3 {

std::unique_ptr<Component> NewRepeatedAffineComponentOfType(
    const std::string &type) {
  if (type == "RepeatedAffineComponent")
    return std::make_unique<RepeatedAffineComponent>();
  if (type == "NaturalGradientRepeatedAffineComponent")
    return std::make_unique<NaturalGradientRepeatedAffineComponent>();
  return nullptr;
}

std::vector<std::string> RepeatedAffineComponentTypes() {
  return {"NaturalGradientRepeatedAffineComponent", "RepeatedAffineComponent"};
}

// ---------------------------------------------------------------------------
// RepeatedAffineComponent

void RepeatedAffineComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  InitLearningRatesFromConfig(cfl);
  // (Kaldi leaves num-repeats uninitialized when the key is absent.)
  const int32_t num_repeats = GetPositiveInt(cfl, type, "num-repeats");
  const int32_t input_dim = GetPositiveInt(cfl, type, "input-dim");
  const int32_t output_dim = GetPositiveInt(cfl, type, "output-dim");
  CheckConfig(input_dim % num_repeats == 0 && output_dim % num_repeats == 0,
              type, "num-repeats", num_repeats,
              "must divide input-dim and output-dim", *cfl);
  const int32_t block_in = input_dim / num_repeats,
                block_out = output_dim / num_repeats;
  const float param_stddev = GetNonNegativeFloat(
      cfl, type, "param-stddev", 1.0f / std::sqrt(float(block_in)));
  float bias_mean = 0.0f;
  cfl->GetValue("bias-mean", &bias_mean);
  const float bias_stddev = GetNonNegativeFloat(cfl, type, "bias-stddev", 0.0f);
  num_repeats_ = num_repeats;
  linear_params_ = Matrix(block_out, block_in);
  linear_params_.SetRandn(NextComponentInitSeed());
  linear_params_.Scale(param_stddev);
  bias_params_ = Vector(block_out);
  bias_params_.SetRandn(NextComponentInitSeed());
  bias_params_.Scale(bias_stddev);
  bias_params_.Add(bias_mean);
  SetNaturalGradientConfigs();
}

std::unique_ptr<Component> RepeatedAffineComponent::Copy() const {
  return std::make_unique<RepeatedAffineComponent>(*this);
}

void RepeatedAffineComponent::Read(std::istream &is, bool binary) {
  const std::string type = Type();
  std::string token = ReadUpdatableCommon(is, binary);
  ExpectAfterUpdatableCommon(is, binary, token, "<NumRepeats>");
  ReadBasicType(is, binary, &num_repeats_);
  ExpectToken(is, binary, "<LinearParams>");
  linear_params_.Read(is, binary);
  ExpectToken(is, binary, "<BiasParams>");
  bias_params_.Read(is, binary);
  if (PeekToken(is, binary) == 'I') {  // older files; now in the prefix
    ExpectToken(is, binary, "<IsGradient>");
    ReadBasicType(is, binary, &is_gradient_);
  }
  ExpectToken(is, binary, "</" + type + ">");
  if (num_repeats_ <= 0 || linear_params_.NumRows() == 0 ||
      bias_params_.Dim() != linear_params_.NumRows())
    NNET3_ERR << "Reading <" << type << ">: bad <NumRepeats> " << num_repeats_
              << " or parameter dims " << linear_params_.NumRows() << " x "
              << linear_params_.NumCols() << ", bias " << bias_params_.Dim();
  SetNaturalGradientConfigs();
}

void RepeatedAffineComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<NumRepeats>");
  WriteBasicType(os, binary, num_repeats_);
  WriteToken(os, binary, "<LinearParams>");
  linear_params_.Write(os, binary);
  WriteToken(os, binary, "<BiasParams>");
  bias_params_.Write(os, binary);
  WriteToken(os, binary, "</" + Type() + ">");
}

std::string RepeatedAffineComponent::Info() const {
  std::ostringstream os;
  os << UpdatableComponent::Info() << ", num-repeats=" << num_repeats_;
  PrintParameterStats(os, "linear-params", linear_params_);
  PrintParameterStats(os, "bias", bias_params_, true);
  return os.str();
}

void *RepeatedAffineComponent::Propagate(const ComponentPrecomputedIndexes *,
                                         const MatrixView &in,
                                         MatrixView *out) const {
  // Each block of each row: y = x Wᵀ + b (one GEMM on the reshaped rows).
  BlockView in_blocks(in, linear_params_.NumCols(), true);
  BlockView out_blocks(*out, linear_params_.NumRows(), false);
  MatrixView *y = out_blocks.Mutable();
  y->CopyRowsFromVec(bias_params_);
  y->AddMatMat(1.0f, in_blocks.View(), Trans::kNo, linear_params_, Trans::kYes,
               1.0f);
  out_blocks.WriteBack();
  return nullptr;
}

void RepeatedAffineComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *,
    const MatrixView &in_value, const MatrixView &, const MatrixView &out_deriv,
    void *, Component *to_update_in, MatrixView *in_deriv) const {
  BlockView deriv_blocks(out_deriv, linear_params_.NumRows(), true);
  // in_deriv first, in case to_update == this.
  if (in_deriv != nullptr) {
    BlockView in_deriv_blocks(*in_deriv, linear_params_.NumCols(), true);
    in_deriv_blocks.Mutable()->AddMatMat(1.0f, deriv_blocks.View(), Trans::kNo,
                                         linear_params_, Trans::kNo, 1.0f);
    in_deriv_blocks.WriteBack();
  }
  if (to_update_in == nullptr) return;
  auto *to_update = dynamic_cast<RepeatedAffineComponent *>(to_update_in);
  NNET3_ASSERT(to_update != nullptr);
  BlockView in_blocks(in_value, linear_params_.NumCols(), true);
  to_update->Update(in_blocks.View(), deriv_blocks.View());
}

void RepeatedAffineComponent::Update(const MatrixView &in_blocks,
                                     const MatrixView &out_deriv_blocks) {
  linear_params_.AddMatMat(learning_rate_, out_deriv_blocks, Trans::kYes,
                           in_blocks, Trans::kNo, 1.0f);
  bias_params_.AddRowSumMat(learning_rate_, out_deriv_blocks);
}

void RepeatedAffineComponent::Scale(float scale) {
  if (scale == 0.0f) {  // also clears inf/nan
    linear_params_.SetZero();
    bias_params_.SetZero();
  } else {
    linear_params_.Scale(scale);
    bias_params_.Scale(scale);
  }
}

void RepeatedAffineComponent::Add(float alpha, const Component &other_in) {
  auto *other = dynamic_cast<const RepeatedAffineComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  linear_params_.AddMat(alpha, other->linear_params_);
  bias_params_.AddVec(alpha, other->bias_params_);
}

float RepeatedAffineComponent::DotProduct(
    const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const RepeatedAffineComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(
      nnet3::DotProduct(linear_params_, other->linear_params_) +
      VecVec(bias_params_, other->bias_params_));
}

void RepeatedAffineComponent::PerturbParams(float stddev, uint64_t seed) {
  Matrix noise(linear_params_.NumRows(), linear_params_.NumCols(),
               ResizeType::kUndefined, MatrixStrideType::kDefaultStride,
               linear_params_.device());
  noise.SetRandn(seed);
  linear_params_.AddMat(stddev, noise);
  Vector bias_noise(bias_params_.Dim(), ResizeType::kUndefined,
                    bias_params_.device());
  bias_noise.SetRandn(seed ^ 0x5DEECE66Dull);
  bias_params_.AddVec(stddev, bias_noise);
}

int32_t RepeatedAffineComponent::NumParameters() const {
  return linear_params_.NumRows() * linear_params_.NumCols() +
         bias_params_.Dim();
}

void RepeatedAffineComponent::Vectorize(VectorView *params) const {
  const int32_t n = linear_params_.NumRows() * linear_params_.NumCols();
  NNET3_ASSERT(params->Dim() == NumParameters());
  VectorView linear = params->Range(0, n);
  linear.CopyRowsFromMat(linear_params_);
  VectorView bias = params->Range(n, bias_params_.Dim());
  bias.CopyFromVec(bias_params_);
}

void RepeatedAffineComponent::UnVectorize(const VectorView &params) {
  const int32_t n = linear_params_.NumRows() * linear_params_.NumCols();
  NNET3_ASSERT(params.Dim() == NumParameters());
  linear_params_.CopyFromMat(params.Range(0, n).AsMatrix(
      linear_params_.NumRows(), linear_params_.NumCols()));
  bias_params_.CopyFromVec(params.Range(n, bias_params_.Dim()));
}

// ---------------------------------------------------------------------------
// NaturalGradientRepeatedAffineComponent

std::unique_ptr<Component> NaturalGradientRepeatedAffineComponent::Copy()
    const {
  return std::make_unique<NaturalGradientRepeatedAffineComponent>(*this);
}

void NaturalGradientRepeatedAffineComponent::SetNaturalGradientConfigs() {
  const int32_t rank_in =
      std::max(1, std::min(40, linear_params_.NumCols() / 2));
  preconditioner_in_.SetRank(rank_in);
  preconditioner_in_.SetUpdatePeriod(4);
}

void NaturalGradientRepeatedAffineComponent::Update(
    const MatrixView &in_blocks, const MatrixView &out_deriv_blocks) {
  const int32_t block_in = linear_params_.NumCols(),
                block_out = linear_params_.NumRows();
  // deriv = [ (∂f/∂y)ᵀ x | Σ ∂f/∂y ], one row per output of the block.
  Matrix deriv(block_out, block_in + 1, ResizeType::kSetZero,
               MatrixStrideType::kDefaultStride, linear_params_.device());
  MatrixView linear_part = deriv.ColRange(0, block_in);
  linear_part.AddMatMat(1.0f, out_deriv_blocks, Trans::kYes, in_blocks,
                        Trans::kNo, 0.0f);
  Vector bias_deriv(block_out, ResizeType::kSetZero, linear_params_.device());
  bias_deriv.AddRowSumMat(1.0f, out_deriv_blocks, 0.0f);
  deriv.CopyColFromVec(bias_deriv, block_in);
  float scale = 1.0f;
  if (!is_gradient_) preconditioner_in_.PreconditionDirections(&deriv, &scale);
  linear_params_.AddMat(learning_rate_ * scale, deriv.ColRange(0, block_in));
  bias_deriv.CopyColFromMat(deriv, block_in);
  bias_params_.AddVec(learning_rate_ * scale, bias_deriv);
}

}  // namespace nnet3
