#include "nnet/components/nonlinear-components.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-registry.h"
#include "nnet/components/dropout-components.h"
#include "nnet/components/identity-components.h"
#include "nnet/components/nonlinear-common.h"
#include "nnet/components/normalize-components.h"

namespace nnet3 {
namespace {

// `avg` holds an average over old_count samples (the raw sum when
// old_count == 0). Makes it the average over new_count samples of the old
// ones plus `alpha * sum` (the raw sum when new_count == 0).
void CombineAverage(double old_count, double new_count, double alpha,
                    const VectorView &sum, Vector *avg) {
  double old_weight = old_count != 0.0 ? old_count : 1.0;
  double denom = new_count != 0.0 ? new_count : 1.0;
  avg->Scale(static_cast<float>(old_weight / denom));
  avg->AddVec(static_cast<float>(alpha / denom), sum);
}

// Adds `alpha` times the stats of `other` (average `other_avg` over
// other_count samples) to `avg` (over `count` samples, the caller updates
// the count afterwards).
void AddAverage(double count, double alpha, double other_count,
                const Vector &other_avg, Vector *avg) {
  if (other_avg.Dim() == 0) return;
  ResizeIfNeeded(other_avg.Dim(), avg);
  double other_weight = other_count != 0.0 ? other_count : 1.0;
  CombineAverage(count, count + alpha * other_count, alpha * other_weight,
                 other_avg, avg);
}

// Scales stats kept as (average, count) by `scale`: the sums are scaled, so
// the average only changes when it is a raw sum (count zero) or becomes
// zero. The caller scales the count.
void ScaleAverage(float scale, double count, Vector *avg) {
  if (scale == 0.0f)
    avg->SetZero();
  else if (count == 0.0)
    avg->Scale(scale);
}

}  // namespace

// ---------------------------------------------------------------------------
// NonlinearComponent

void NonlinearComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  GetRequiredKey(type, "dim", cfl, &dim_);
  CheckConfig(dim_ > 0, type, "dim", dim_, "must be > 0", *cfl);
  block_dim_ = dim_;
  cfl->GetValue("block-dim", &block_dim_);
  CheckConfig(block_dim_ > 0 && dim_ % block_dim_ == 0, type, "block-dim",
              block_dim_, "must be > 0 and divide dim", *cfl);
  self_repair_lower_threshold_ = kUnsetThreshold;
  self_repair_upper_threshold_ = kUnsetThreshold;
  self_repair_scale_ = 0.0f;
  cfl->GetValue("self-repair-lower-threshold", &self_repair_lower_threshold_);
  cfl->GetValue("self-repair-upper-threshold", &self_repair_upper_threshold_);
  cfl->GetValue("self-repair-scale", &self_repair_scale_);
  CheckConfig(self_repair_scale_ >= 0.0f, type, "self-repair-scale",
              self_repair_scale_, "must be >= 0", *cfl);
  ZeroStats();
  value_avg_.Resize(0);
  deriv_avg_.Resize(0);
  oderiv_ms_.Resize(0);
}

void NonlinearComponent::Read(std::istream &is, bool binary) {
  const std::string open = "<" + Type() + ">", close = "</" + Type() + ">";
  ExpectOneOrTwoTokens(is, binary, open, "<Dim>");
  ReadBasicType(is, binary, &dim_);
  block_dim_ = dim_;
  if (PeekToken(is, binary) == 'B') {
    ExpectToken(is, binary, "<BlockDim>");
    ReadBasicType(is, binary, &block_dim_);
  }
  if (dim_ <= 0 || block_dim_ <= 0 || dim_ % block_dim_ != 0)
    NNET3_ERR << "Reading " << open << ": bad dim " << dim_ << " or block-dim "
              << block_dim_;
  ExpectToken(is, binary, "<ValueAvg>");
  value_avg_.Read(is, binary);
  ExpectToken(is, binary, "<DerivAvg>");
  deriv_avg_.Read(is, binary);
  ExpectToken(is, binary, "<Count>");
  ReadBasicType(is, binary, &count_);
  if (count_ == 0.0) {  // Kaldi rebuilds the sums as average * count.
    value_avg_.SetZero();
    deriv_avg_.SetZero();
  }
  oderiv_ms_.Resize(0);
  oderiv_count_ = 0.0;
  if (PeekToken(is, binary) == 'O') {
    ExpectToken(is, binary, "<OderivRms>");
    oderiv_ms_.Read(is, binary);
    oderiv_ms_.ApplyPow(2.0f);
    ExpectToken(is, binary, "<OderivCount>");
    ReadBasicType(is, binary, &oderiv_count_);
    if (oderiv_count_ == 0.0) oderiv_ms_.SetZero();
  }
  num_dims_self_repaired_ = 0.0;
  num_dims_processed_ = 0.0;
  self_repair_lower_threshold_ = kUnsetThreshold;
  self_repair_upper_threshold_ = kUnsetThreshold;
  self_repair_scale_ = 0.0f;
  std::string token;
  ReadToken(is, binary, &token);
  if (token == "<NumDimsSelfRepaired>") {
    ReadBasicType(is, binary, &num_dims_self_repaired_);
    ReadToken(is, binary, &token);
  }
  if (token == "<NumDimsProcessed>") {
    ReadBasicType(is, binary, &num_dims_processed_);
    ReadToken(is, binary, &token);
  }
  if (token == "<SelfRepairLowerThreshold>") {
    ReadBasicType(is, binary, &self_repair_lower_threshold_);
    ReadToken(is, binary, &token);
  }
  if (token == "<SelfRepairUpperThreshold>") {
    ReadBasicType(is, binary, &self_repair_upper_threshold_);
    ReadToken(is, binary, &token);
  }
  if (token == "<SelfRepairScale>") {
    ReadBasicType(is, binary, &self_repair_scale_);
    ReadToken(is, binary, &token);
  }
  if (token != close)
    NNET3_ERR << "Reading " << open << ": expected " << close << " but found "
              << token;
}

void NonlinearComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<" + Type() + ">");
  WriteToken(os, binary, "<Dim>");
  WriteBasicType(os, binary, dim_);
  if (block_dim_ != dim_) {
    WriteToken(os, binary, "<BlockDim>");
    WriteBasicType(os, binary, block_dim_);
  }
  WriteToken(os, binary, "<ValueAvg>");
  value_avg_.Write(os, binary);
  WriteToken(os, binary, "<DerivAvg>");
  deriv_avg_.Write(os, binary);
  WriteToken(os, binary, "<Count>");
  WriteBasicType(os, binary, count_);
  WriteToken(os, binary, "<OderivRms>");
  Vector rms(oderiv_ms_);
  rms.ApplyFloor(0.0f);  // as Kaldi: no sqrt of a negative round-off
  rms.ApplyPow(0.5f);
  rms.Write(os, binary);
  WriteToken(os, binary, "<OderivCount>");
  WriteBasicType(os, binary, oderiv_count_);
  WriteToken(os, binary, "<NumDimsSelfRepaired>");
  WriteBasicType(os, binary, num_dims_self_repaired_);
  WriteToken(os, binary, "<NumDimsProcessed>");
  WriteBasicType(os, binary, num_dims_processed_);
  if (self_repair_lower_threshold_ != kUnsetThreshold) {
    WriteToken(os, binary, "<SelfRepairLowerThreshold>");
    WriteBasicType(os, binary, self_repair_lower_threshold_);
  }
  if (self_repair_upper_threshold_ != kUnsetThreshold) {
    WriteToken(os, binary, "<SelfRepairUpperThreshold>");
    WriteBasicType(os, binary, self_repair_upper_threshold_);
  }
  if (self_repair_scale_ != 0.0f) {
    WriteToken(os, binary, "<SelfRepairScale>");
    WriteBasicType(os, binary, self_repair_scale_);
  }
  WriteToken(os, binary, "</" + Type() + ">");
}

std::string NonlinearComponent::Info() const {
  std::ostringstream os;
  os << Type() << ", dim=" << dim_;
  if (block_dim_ != dim_) os << ", block-dim=" << block_dim_;
  if (self_repair_lower_threshold_ != kUnsetThreshold)
    os << ", self-repair-lower-threshold=" << self_repair_lower_threshold_;
  if (self_repair_upper_threshold_ != kUnsetThreshold)
    os << ", self-repair-upper-threshold=" << self_repair_upper_threshold_;
  if (self_repair_scale_ != 0.0f)
    os << ", self-repair-scale=" << self_repair_scale_;
  if (count_ > 0 && value_avg_.Dim() == dim_) {
    os << ", count=" << std::setprecision(3) << count_ << std::setprecision(6);
    os << ", self-repaired-proportion="
       << (num_dims_processed_ > 0
               ? num_dims_self_repaired_ / num_dims_processed_
               : 0);
    os << ", value-avg=" << SummarizeVector(value_avg_.ToHost());
    if (deriv_avg_.Dim() == dim_)
      os << ", deriv-avg=" << SummarizeVector(deriv_avg_.ToHost());
  }
  if (oderiv_count_ > 0 && oderiv_ms_.Dim() == dim_) {
    Vector rms(oderiv_ms_);
    rms.ApplyFloor(0.0f);
    rms.ApplyPow(0.5f);
    os << ", oderiv-rms=" << SummarizeVector(rms.ToHost())
       << ", oderiv-count=" << oderiv_count_;
  }
  return os.str();
}

void NonlinearComponent::Scale(float scale) {
  ScaleAverage(scale, count_, &value_avg_);
  ScaleAverage(scale, count_, &deriv_avg_);
  ScaleAverage(scale, oderiv_count_, &oderiv_ms_);
  count_ *= scale;
  oderiv_count_ *= scale;
  num_dims_self_repaired_ *= scale;
  num_dims_processed_ *= scale;
}

void NonlinearComponent::Add(float alpha, const Component &other_in) {
  const auto *other = dynamic_cast<const NonlinearComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr && other->dim_ == dim_);
  AddAverage(count_, alpha, other->count_, other->value_avg_, &value_avg_);
  AddAverage(count_, alpha, other->count_, other->deriv_avg_, &deriv_avg_);
  count_ += alpha * other->count_;
  AddAverage(oderiv_count_, alpha, other->oderiv_count_, other->oderiv_ms_,
             &oderiv_ms_);
  oderiv_count_ += alpha * other->oderiv_count_;
  num_dims_self_repaired_ += alpha * other->num_dims_self_repaired_;
  num_dims_processed_ += alpha * other->num_dims_processed_;
}

void NonlinearComponent::ZeroStats() {
  value_avg_.SetZero();
  deriv_avg_.SetZero();
  oderiv_ms_.SetZero();
  count_ = 0.0;
  oderiv_count_ = 0.0;
  num_dims_self_repaired_ = 0.0;
  num_dims_processed_ = 0.0;
}

void NonlinearComponent::StoreStatsInternal(const MatrixView &out_value,
                                            const MatrixView *deriv) {
  NNET3_ASSERT(out_value.NumCols() == dim_);
  if (value_avg_.Dim() != dim_) {
    value_avg_.Resize(dim_);
    count_ = 0.0;
  }
  if (deriv != nullptr && deriv_avg_.Dim() != dim_) {
    deriv_avg_.Resize(dim_);
    count_ = 0.0;
    value_avg_.SetZero();
  }
  double new_count = count_ + out_value.NumRows();
  Vector sum(dim_, ResizeType::kUndefined, out_value.device());
  sum.AddRowSumMat(1.0f, out_value, 0.0f);
  CombineAverage(count_, new_count, 1.0, sum, &value_avg_);
  if (deriv != nullptr) {
    sum.AddRowSumMat(1.0f, *deriv, 0.0f);
    CombineAverage(count_, new_count, 1.0, sum, &deriv_avg_);
  }
  count_ = new_count;
}

void NonlinearComponent::StoreBackpropStats(const MatrixView &out_deriv) {
  // As Kaldi: skip about one minibatch in four, but never the first.
  if (stats_rng_.OneIn(4) && oderiv_count_ != 0.0) return;
  NNET3_ASSERT(out_deriv.NumCols() == dim_);
  if (oderiv_ms_.Dim() != dim_) {
    oderiv_ms_.Resize(dim_);
    oderiv_count_ = 0.0;
  }
  Vector sumsq(dim_, ResizeType::kUndefined, out_deriv.device());
  AddColDotProducts(1.0f, out_deriv, out_deriv, 0.0f, &sumsq);
  double new_count = oderiv_count_ + out_deriv.NumRows();
  CombineAverage(oderiv_count_, new_count, 1.0, sumsq, &oderiv_ms_);
  oderiv_count_ = new_count;
}

bool NonlinearComponent::SelfRepairActive() const {
  return self_repair_scale_ != 0.0f && count_ != 0.0 &&
         deriv_avg_.Dim() == dim_;
}

void NonlinearComponent::CheckSelfRepairSettings(bool upper_allowed) const {
  if (!(self_repair_scale_ > 0.0f && self_repair_scale_ < 0.1f))
    NNET3_ERR << Type() << ": self-repair-scale=" << self_repair_scale_
              << " is outside the range (0, 0.1) that self-repair supports";
  if (!upper_allowed && self_repair_upper_threshold_ != kUnsetThreshold)
    NNET3_ERR << Type() << ": do not set self-repair-upper-threshold ("
              << self_repair_upper_threshold_
              << "); it does nothing for this component";
}

float NonlinearComponent::ThresholdOr(float threshold, float default_value) {
  return threshold == kUnsetThreshold ? default_value : threshold;
}

Vector NonlinearComponent::DerivAvgBelow(float lower) const {
  Vector repair(deriv_avg_);
  repair.Scale(-1.0f);
  repair.Add(lower);
  repair.ApplyFunc(Func::kHeaviside);
  return repair;
}

void NonlinearComponent::CountRepaired(const VectorView &indicator,
                                       NonlinearComponent *to_update) {
  to_update->num_dims_self_repaired_ += indicator.Sum();
}

// ---------------------------------------------------------------------------
// SquashingComponent: sigmoid and tanh

std::unique_ptr<Component> SigmoidComponent::Copy() const {
  return std::make_unique<SigmoidComponent>(*this);
}

std::unique_ptr<Component> TanhComponent::Copy() const {
  return std::make_unique<TanhComponent>(*this);
}

void *SquashingComponent::Propagate(const ComponentPrecomputedIndexes *,
                                    const MatrixView &in,
                                    MatrixView *out) const {
  out->ApplyFunc(kind_, in);
  return nullptr;
}

// Sigmoid: in_deriv = out_deriv * y * (1 - y); tanh: out_deriv * (1 - y^2).
void SquashingComponent::Backprop(const std::string &,
                                  const ComponentPrecomputedIndexes *,
                                  const MatrixView &,
                                  const MatrixView &out_value,
                                  const MatrixView &out_deriv, void *,
                                  Component *to_update_in,
                                  MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  auto *to_update = dynamic_cast<SquashingComponent *>(to_update_in);
  if (to_update != nullptr) to_update->StoreBackpropStats(out_deriv);
  if (kind_ == Func::kSigmoid)
    in_deriv->DiffSigmoid(out_value, out_deriv);
  else
    in_deriv->DiffTanh(out_value, out_deriv);
  if (to_update != nullptr) RepairGradients(out_value, in_deriv, to_update);
}

// Self-repair (Kaldi's RepairGradients of both). A dimension j is
// "saturated" when its average derivative is below the lower threshold
// (sigmoid: y(1-y), default 0.05, at most 0.25; tanh: 1 - y^2, default
// 0.2, at most 1). For those dimensions
//   sigmoid: in_deriv(:, j) += -self_repair_scale * (2 * y(:, j) - 1),
//   tanh:    in_deriv(:, j) += -self_repair_scale * y(:, j),
// positive where x < 0 and negative where x > 0, so that a gradient step
// moves x towards 0, where the function is not saturated. Kaldi applies
// this on a random half of the minibatches with twice the scale; we apply
// it on every minibatch with the plain scale (the same in expectation, and
// repeatable).
void SquashingComponent::RepairGradients(const MatrixView &out_value,
                                         MatrixView *in_deriv,
                                         SquashingComponent *to_update) const {
  to_update->num_dims_processed_ += dim_;
  if (!SelfRepairActive()) return;
  CheckSelfRepairSettings(false);
  const bool sigmoid = kind_ == Func::kSigmoid;
  Vector repair = DerivAvgBelow(
      ThresholdOr(self_repair_lower_threshold_, sigmoid ? 0.05f : 0.2f));
  CountRepaired(repair, to_update);
  in_deriv->AddMatDiagVec((sigmoid ? -2.0f : -1.0f) * self_repair_scale_,
                          out_value, Trans::kNo, repair, 1.0f);
  if (sigmoid) in_deriv->AddVecToRows(self_repair_scale_, repair);
}

void SquashingComponent::StoreStats(const MatrixView &,
                                    const MatrixView &out_value, void *) {
  // As Kaldi: about every other minibatch, but always the first.
  if (stats_rng_.OneIn(2) && count_ != 0.0) return;
  Matrix deriv(out_value.NumRows(), out_value.NumCols(), ResizeType::kUndefined,
               MatrixStrideType::kDefaultStride, out_value.device());
  if (kind_ == Func::kSigmoid) {  // y (1 - y)
    deriv.Set(1.0f);
    deriv.AddMat(-1.0f, out_value);
    deriv.MulElements(out_value);
  } else {  // 1 - y^2
    deriv.AddMatMatElements(-1.0f, out_value, out_value, 0.0f);
    deriv.Add(1.0f);
  }
  StoreStatsInternal(out_value, &deriv);
}

// ---------------------------------------------------------------------------
// RectifiedLinearComponent

std::unique_ptr<Component> RectifiedLinearComponent::Copy() const {
  return std::make_unique<RectifiedLinearComponent>(*this);
}

void *RectifiedLinearComponent::Propagate(const ComponentPrecomputedIndexes *,
                                          const MatrixView &in,
                                          MatrixView *out) const {
  out->ApplyFunc(Func::kRelu, in);
  return nullptr;
}

// in_deriv = out_deriv * (y > 0), plus the self-repair term.
void RectifiedLinearComponent::Backprop(const std::string &,
                                        const ComponentPrecomputedIndexes *,
                                        const MatrixView &,
                                        const MatrixView &out_value,
                                        const MatrixView &out_deriv, void *,
                                        Component *to_update_in,
                                        MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  auto *to_update = dynamic_cast<RectifiedLinearComponent *>(to_update_in);
  if (to_update != nullptr) to_update->StoreBackpropStats(out_deriv);
  in_deriv->DiffRelu(out_value, out_deriv);
  if (to_update != nullptr) RepairGradients(in_deriv, to_update);
}

// Self-repair (Kaldi's RectifiedLinearComponent::RepairGradients). The
// average derivative of a ReLU dimension is the fraction of frames where it
// is active; with block-dim < dim it is first averaged over the blocks, so
// s has block-dim entries. Then, for every row,
//   in_deriv(:, j) += self_repair_scale * (s(j) <= lower ? 1 : 0)
//                   - self_repair_scale * (s(j) > upper ? 1 : 0)
// (defaults lower 0.05, upper 0.95): mostly-dead units are pushed up, into
// the active region, and always-active ones down. Applied on every
// minibatch with the plain scale (Kaldi: a random half, twice the scale).
void RectifiedLinearComponent::RepairGradients(
    MatrixView *in_deriv, RectifiedLinearComponent *to_update) const {
  if (!SelfRepairActive()) return;
  to_update->num_dims_processed_ += block_dim_;
  CheckSelfRepairSettings(true);
  float lower = ThresholdOr(self_repair_lower_threshold_, 0.05f);
  float upper = ThresholdOr(self_repair_upper_threshold_, 0.95f);
  int32_t num_blocks = dim_ / block_dim_;
  Vector s(block_dim_, ResizeType::kUndefined, in_deriv->device());
  s.AddRowSumMat(1.0f / num_blocks, deriv_avg_.AsMatrix(num_blocks, block_dim_),
                 0.0f);
  Vector above_lower(s), above_upper(s);
  above_lower.Add(-lower);
  above_lower.ApplyFunc(Func::kHeaviside);
  above_upper.Add(-upper);
  above_upper.ApplyFunc(Func::kHeaviside);
  // term = 1 - above_lower - above_upper: 1, 0 or -1.
  Vector term(block_dim_, ResizeType::kUndefined, in_deriv->device());
  term.Set(1.0f);
  term.AddVec(-1.0f, above_lower);
  term.AddVec(-1.0f, above_upper);
  Vector squared(term);
  squared.ApplyPow(2.0f);
  CountRepaired(squared, to_update);
  term.Scale(self_repair_scale_);
  Vector tiled(dim_, ResizeType::kUndefined, in_deriv->device());
  for (int32_t b = 0; b < num_blocks; b++)
    tiled.Range(b * block_dim_, block_dim_).CopyFromVec(term);
  in_deriv->AddVecToRows(1.0f, tiled);
}

void RectifiedLinearComponent::StoreStats(const MatrixView &,
                                          const MatrixView &out_value, void *) {
  // As Kaldi: about every other minibatch, but always the first.
  if (stats_rng_.OneIn(2) && count_ != 0.0) return;
  // The derivative of the ReLU is (y > 0).
  Matrix deriv(out_value.NumRows(), out_value.NumCols(), ResizeType::kUndefined,
               MatrixStrideType::kDefaultStride, out_value.device());
  deriv.ApplyFunc(Func::kHeaviside, out_value);
  StoreStatsInternal(out_value, &deriv);
}

// ---------------------------------------------------------------------------
// SoftmaxComponent

std::unique_ptr<Component> SoftmaxComponent::Copy() const {
  return std::make_unique<SoftmaxComponent>(*this);
}

void *SoftmaxComponent::Propagate(const ComponentPrecomputedIndexes *,
                                  const MatrixView &in, MatrixView *out) const {
  out->SoftmaxRows(in);
  // The floor keeps later logs and divisions finite (as Kaldi).
  out->ApplyFloor(1.0e-20f);
  return nullptr;
}

// in_deriv = y .* (out_deriv - rowsum(out_deriv .* y)), i.e. the Jacobian
// diag(y) - y y^T applied to out_deriv.
void SoftmaxComponent::Backprop(const std::string &,
                                const ComponentPrecomputedIndexes *,
                                const MatrixView &, const MatrixView &out_value,
                                const MatrixView &out_deriv, void *,
                                Component *to_update_in,
                                MatrixView *in_deriv) const {
  auto *to_update = dynamic_cast<SoftmaxComponent *>(to_update_in);
  // Stats first (in_deriv may be out_deriv: kBackpropInPlace), and, as
  // Kaldi, even when no in_deriv is wanted.
  if (to_update != nullptr) to_update->StoreBackpropStats(out_deriv);
  if (in_deriv == nullptr) return;
  in_deriv->DiffSoftmax(out_value, out_deriv);
}

void SoftmaxComponent::StoreStats(const MatrixView &,
                                  const MatrixView &out_value, void *) {
  StoreStatsInternal(out_value, nullptr);  // values only, as Kaldi
}

// ---------------------------------------------------------------------------
// LogSoftmaxComponent

std::unique_ptr<Component> LogSoftmaxComponent::Copy() const {
  return std::make_unique<LogSoftmaxComponent>(*this);
}

void *LogSoftmaxComponent::Propagate(const ComponentPrecomputedIndexes *,
                                     const MatrixView &in,
                                     MatrixView *out) const {
  out->LogSoftmaxRows(in);
  return nullptr;
}

// in_deriv = out_deriv - exp(y) * rowsum(out_deriv).
void LogSoftmaxComponent::Backprop(const std::string &,
                                   const ComponentPrecomputedIndexes *,
                                   const MatrixView &,
                                   const MatrixView &out_value,
                                   const MatrixView &out_deriv, void *,
                                   Component *to_update_in,
                                   MatrixView *in_deriv) const {
  auto *to_update = dynamic_cast<LogSoftmaxComponent *>(to_update_in);
  // As Kaldi, even when no in_deriv is wanted.
  if (to_update != nullptr) to_update->StoreBackpropStats(out_deriv);
  if (in_deriv == nullptr) return;
  in_deriv->DiffLogSoftmax(out_value, out_deriv);
}

// ---------------------------------------------------------------------------
// The group's factory (component-registry.h).

std::unique_ptr<Component> NewNonlinearComponentOfType(
    const std::string &type) {
  if (type == "SigmoidComponent") return std::make_unique<SigmoidComponent>();
  if (type == "TanhComponent") return std::make_unique<TanhComponent>();
  if (type == "RectifiedLinearComponent")
    return std::make_unique<RectifiedLinearComponent>();
  if (type == "SoftmaxComponent") return std::make_unique<SoftmaxComponent>();
  if (type == "LogSoftmaxComponent")
    return std::make_unique<LogSoftmaxComponent>();
  if (type == "NormalizeComponent")
    return std::make_unique<NormalizeComponent>();
  if (type == "BatchNormComponent")
    return std::make_unique<BatchNormComponent>();
  if (type == "DropoutComponent") return std::make_unique<DropoutComponent>();
  if (type == "GeneralDropoutComponent")
    return std::make_unique<GeneralDropoutComponent>();
  if (type == "NoOpComponent") return std::make_unique<NoOpComponent>();
  if (type == "ClipGradientComponent")
    return std::make_unique<ClipGradientComponent>();
  return nullptr;
}

std::vector<std::string> NonlinearComponentTypes() {
  return {"BatchNormComponent",  "ClipGradientComponent",
          "DropoutComponent",    "GeneralDropoutComponent",
          "LogSoftmaxComponent", "NoOpComponent",
          "NormalizeComponent",  "RectifiedLinearComponent",
          "SigmoidComponent",    "SoftmaxComponent",
          "TanhComponent"};
}

}  // namespace nnet3
