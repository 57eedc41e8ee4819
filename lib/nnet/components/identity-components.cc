#include "nnet/components/identity-components.h"

#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "base/log.h"
#include "matrix/vector.h"
#include "nnet/components/nonlinear-common.h"

namespace nnet3 {

// ---------------------------------------------------------------------------
// NoOpComponent

void NoOpComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  dim_ = 0;
  backprop_scale_ = 1.0f;
  GetRequiredKey(type, "dim", cfl, &dim_);
  CheckConfig(dim_ > 0, type, "dim", dim_, "must be > 0", *cfl);
  cfl->GetValue("backprop-scale", &backprop_scale_);
}

std::unique_ptr<Component> NoOpComponent::Copy() const {
  return std::make_unique<NoOpComponent>(*this);
}

void NoOpComponent::ReadLegacyBody(std::istream &is, bool binary) {
  Vector temp;
  float value;
  ExpectToken(is, binary, "<ValueAvg>");
  temp.Read(is, binary);
  ExpectToken(is, binary, "<DerivAvg>");
  temp.Read(is, binary);
  ExpectToken(is, binary, "<Count>");
  ReadBasicType(is, binary, &value);
  if (PeekToken(is, binary) == 'O') {
    ExpectToken(is, binary, "<OderivRms>");
    temp.Read(is, binary);
    ExpectToken(is, binary, "<OderivCount>");
    ReadBasicType(is, binary, &value);
  }
  std::string token;
  ReadToken(is, binary, &token);
  for (const char *skip : {"<NumDimsSelfRepaired>", "<NumDimsProcessed>",
                           "<SelfRepairLowerThreshold>",
                           "<SelfRepairUpperThreshold>", "<SelfRepairScale>"}) {
    if (token == skip) {
      ReadBasicType(is, binary, &value);
      ReadToken(is, binary, &token);
    }
  }
  if (token != "</NoOpComponent>")
    NNET3_ERR << "Reading <NoOpComponent>: expected </NoOpComponent> but "
              << "found " << token;
}

void NoOpComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<NoOpComponent>", "<Dim>");
  ReadBasicType(is, binary, &dim_);
  backprop_scale_ = 1.0f;
  if (PeekToken(is, binary) == 'V') {  // old format
    ReadLegacyBody(is, binary);
    return;
  }
  ExpectToken(is, binary, "<BackpropScale>");
  ReadBasicType(is, binary, &backprop_scale_);
  ExpectToken(is, binary, "</NoOpComponent>");
}

void NoOpComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<NoOpComponent>");
  WriteToken(os, binary, "<Dim>");
  WriteBasicType(os, binary, dim_);
  WriteToken(os, binary, "<BackpropScale>");
  WriteBasicType(os, binary, backprop_scale_);
  WriteToken(os, binary, "</NoOpComponent>");
}

std::string NoOpComponent::Info() const {
  std::ostringstream os;
  os << Type() << ", dim=" << dim_;
  if (backprop_scale_ != 1.0f) os << ", backprop-scale=" << backprop_scale_;
  return os.str();
}

void *NoOpComponent::Propagate(const ComponentPrecomputedIndexes *,
                               const MatrixView &in, MatrixView *out) const {
  out->CopyFromMat(in);
  return nullptr;
}

// in_deriv = backprop_scale * out_deriv.
void NoOpComponent::Backprop(const std::string &,
                             const ComponentPrecomputedIndexes *,
                             const MatrixView &, const MatrixView &,
                             const MatrixView &out_deriv, void *, Component *,
                             MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  in_deriv->CopyFromMat(out_deriv);
  if (backprop_scale_ != 1.0f) in_deriv->Scale(backprop_scale_);
}

// ---------------------------------------------------------------------------
// ClipGradientComponent

void ClipGradientComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  dim_ = 0;
  clipping_threshold_ = 15.0f;
  norm_based_clipping_ = false;
  self_repair_clipped_proportion_threshold_ = 0.01f;
  self_repair_target_ = 0.0f;
  self_repair_scale_ = 1.0f;
  GetRequiredKey(type, "dim", cfl, &dim_);
  CheckConfig(dim_ > 0, type, "dim", dim_, "must be > 0", *cfl);
  cfl->GetValue("clipping-threshold", &clipping_threshold_);
  CheckConfig(clipping_threshold_ >= 0.0f, type, "clipping-threshold",
              clipping_threshold_, "must be >= 0", *cfl);
  cfl->GetValue("norm-based-clipping", &norm_based_clipping_);
  cfl->GetValue("self-repair-clipped-proportion-threshold",
                &self_repair_clipped_proportion_threshold_);
  CheckConfig(self_repair_clipped_proportion_threshold_ >= 0.0f, type,
              "self-repair-clipped-proportion-threshold",
              self_repair_clipped_proportion_threshold_, "must be >= 0", *cfl);
  cfl->GetValue("self-repair-target", &self_repair_target_);
  CheckConfig(self_repair_target_ >= 0.0f, type, "self-repair-target",
              self_repair_target_, "must be >= 0", *cfl);
  cfl->GetValue("self-repair-scale", &self_repair_scale_);
  CheckConfig(self_repair_scale_ >= 0.0f, type, "self-repair-scale",
              self_repair_scale_, "must be >= 0", *cfl);
  num_clipped_ = count_ = num_self_repaired_ = num_backpropped_ = 0;
}

std::unique_ptr<Component> ClipGradientComponent::Copy() const {
  return std::make_unique<ClipGradientComponent>(*this);
}

void ClipGradientComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<ClipGradientComponent>", "<Dim>");
  ReadBasicType(is, binary, &dim_);
  ExpectToken(is, binary, "<ClippingThreshold>");
  ReadBasicType(is, binary, &clipping_threshold_);
  ExpectToken(is, binary, "<NormBasedClipping>");
  ReadBasicType(is, binary, &norm_based_clipping_);
  std::string token;
  ReadToken(is, binary, &token);
  if (token == "<SelfRepairClippedProportionThreshold>") {
    ReadBasicType(is, binary, &self_repair_clipped_proportion_threshold_);
    ExpectToken(is, binary, "<SelfRepairTarget>");
    ReadBasicType(is, binary, &self_repair_target_);
    ExpectToken(is, binary, "<SelfRepairScale>");
    ReadBasicType(is, binary, &self_repair_scale_);
    ReadToken(is, binary, &token);
  } else {  // old models: self-repair off (as Kaldi's reader)
    self_repair_clipped_proportion_threshold_ = 1.0f;
    self_repair_target_ = 0.0f;
    self_repair_scale_ = 0.0f;
  }
  if (token != "<NumElementsClipped>")
    NNET3_ERR << "Reading <ClipGradientComponent>: expected "
              << "<NumElementsClipped> but found " << token;
  ReadBasicType(is, binary, &num_clipped_);
  ExpectToken(is, binary, "<NumElementsProcessed>");
  ReadBasicType(is, binary, &count_);
  ReadToken(is, binary, &token);
  num_self_repaired_ = num_backpropped_ = 0;
  if (token == "<NumSelfRepaired>") {
    ReadBasicType(is, binary, &num_self_repaired_);
    ExpectToken(is, binary, "<NumBackpropped>");
    ReadBasicType(is, binary, &num_backpropped_);
    ReadToken(is, binary, &token);
  }
  if (token != "</ClipGradientComponent>")
    NNET3_ERR << "Reading <ClipGradientComponent>: expected "
              << "</ClipGradientComponent> but found " << token;
}

void ClipGradientComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<ClipGradientComponent>");
  WriteToken(os, binary, "<Dim>");
  WriteBasicType(os, binary, dim_);
  WriteToken(os, binary, "<ClippingThreshold>");
  WriteBasicType(os, binary, clipping_threshold_);
  WriteToken(os, binary, "<NormBasedClipping>");
  WriteBasicType(os, binary, norm_based_clipping_);
  WriteToken(os, binary, "<SelfRepairClippedProportionThreshold>");
  WriteBasicType(os, binary, self_repair_clipped_proportion_threshold_);
  WriteToken(os, binary, "<SelfRepairTarget>");
  WriteBasicType(os, binary, self_repair_target_);
  WriteToken(os, binary, "<SelfRepairScale>");
  WriteBasicType(os, binary, self_repair_scale_);
  WriteToken(os, binary, "<NumElementsClipped>");
  WriteBasicType(os, binary, num_clipped_);
  WriteToken(os, binary, "<NumElementsProcessed>");
  WriteBasicType(os, binary, count_);
  WriteToken(os, binary, "<NumSelfRepaired>");
  WriteBasicType(os, binary, num_self_repaired_);
  WriteToken(os, binary, "<NumBackpropped>");
  WriteBasicType(os, binary, num_backpropped_);
  WriteToken(os, binary, "</ClipGradientComponent>");
}

std::string ClipGradientComponent::Info() const {
  std::ostringstream os;
  os << Type() << ", dim=" << dim_
     << ", norm-based-clipping=" << (norm_based_clipping_ ? "true" : "false")
     << ", clipping-threshold=" << clipping_threshold_
     << ", clipped-proportion="
     << (count_ > 0 ? static_cast<float>(num_clipped_) / count_ : 0.0f);
  if (self_repair_scale_ != 0.0f)
    os << ", self-repair-clipped-proportion-threshold="
       << self_repair_clipped_proportion_threshold_
       << ", self-repair-target=" << self_repair_target_
       << ", self-repair-scale=" << self_repair_scale_;
  return os.str();
}

void *ClipGradientComponent::Propagate(const ComponentPrecomputedIndexes *,
                                       const MatrixView &in,
                                       MatrixView *out) const {
  out->CopyFromMat(in);
  return nullptr;
}

// in_deriv = out_deriv clipped: per element to [-c, c], or, norm-based,
// row r scaled by min(1, c / ||out_deriv(r)||); c = 0 gives zero. Then the
// self-repair term (RepairGradients) when updating.
void ClipGradientComponent::Backprop(
    const std::string &debug_info, const ComponentPrecomputedIndexes *,
    const MatrixView &in_value, const MatrixView &, const MatrixView &out_deriv,
    void *, Component *to_update_in, MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  in_deriv->CopyFromMat(out_deriv);  // nothing to do when in place
  auto *to_update = dynamic_cast<ClipGradientComponent *>(to_update_in);
  if (clipping_threshold_ == 0.0f) {
    in_deriv->SetZero();
    return;
  }
  if (clipping_threshold_ < 0.0f) return;
  if (norm_based_clipping_) {
    int32_t rows = in_deriv->NumRows();
    // scales(r) = ||row r||^2 / c^2, then max(1, .)^(-1/2).
    Vector scales(rows, ResizeType::kUndefined, in_deriv->device());
    AddRowDotProducts(1.0f / (clipping_threshold_ * clipping_threshold_),
                      *in_deriv, *in_deriv, 0.0f, &scales);
    if (to_update != nullptr) {
      Vector clipped(scales);
      clipped.Add(-1.0f);
      clipped.ApplyFunc(Func::kHeaviside);
      to_update->num_clipped_ += static_cast<int32_t>(clipped.Sum() + 0.5);
      to_update->count_ += rows;
    }
    scales.ApplyFloor(1.0f);
    scales.ApplyPow(-0.5f);
    in_deriv->MulRowsVec(scales);
  } else {
    in_deriv->Clamp(-clipping_threshold_, clipping_threshold_);
  }
  if (to_update != nullptr) {
    to_update->num_backpropped_ += 1;
    RepairGradients(debug_info, in_value, in_deriv, to_update);
  }
}

// Self-repair (Kaldi's ClipGradientComponent::RepairGradients), active when
// the proportion of clipped rows so far exceeds the threshold. With
//   repair = sign(x) * max(|x| - self_repair_target, 0)
// (x = in_value), it adds -s * repair to in_deriv, where s makes the
// average row norm of s * repair equal to
//   self_repair_scale * clipped_proportion * (average row norm of in_deriv),
// then rescales in_deriv to its previous total row norm. A gradient step
// therefore shrinks large inputs towards the target. Kaldi does this on a
// random half of the minibatches with twice the size; we do it on every
// one with the plain size.
void ClipGradientComponent::RepairGradients(
    const std::string &debug_info, const MatrixView &in_value,
    MatrixView *in_deriv, ClipGradientComponent *to_update) const {
  if (self_repair_clipped_proportion_threshold_ >= 1.0f ||
      self_repair_scale_ == 0.0f || count_ == 0)
    return;
  float clipped_proportion = static_cast<float>(num_clipped_) / count_;
  if (clipped_proportion <= self_repair_clipped_proportion_threshold_) return;
  to_update->num_self_repaired_ += 1;
  if (to_update->num_self_repaired_ == 1)
    NNET3_LOG << "ClipGradientComponent(node_name=" << debug_info
              << ")'s self-repair was activated as the first time at the "
              << to_update->num_backpropped_
              << "-th call of Backprop() in this training job.";
  int32_t rows = in_value.NumRows();
  if (rows == 0) return;
  Device &device = in_value.device();
  Matrix sign(in_value);  // 2 [x > 0] - 1
  sign.ApplyFunc(Func::kHeaviside);
  sign.Scale(2.0f);
  sign.Add(-1.0f);
  Matrix repair(in_value);
  repair.ApplyFunc(Func::kAbs);
  repair.Add(-self_repair_target_);
  repair.ApplyFloor(0.0f);
  repair.MulElements(sign);
  Vector norms(rows, ResizeType::kUndefined, device);
  AddRowDotProducts(1.0f, *in_deriv, *in_deriv, 0.0f, &norms);
  norms.ApplyPow(0.5f);
  double deriv_norm_sum = norms.Sum();
  double magnitude =
      self_repair_scale_ * clipped_proportion * (deriv_norm_sum / rows);
  AddRowDotProducts(1.0f, repair, repair, 0.0f, &norms);
  norms.ApplyPow(0.5f);
  double repair_norm_sum = norms.Sum();
  double scale =
      repair_norm_sum != 0.0 ? magnitude / (repair_norm_sum / rows) : 0.0;
  in_deriv->AddMat(static_cast<float>(-scale), repair);
  AddRowDotProducts(1.0f, *in_deriv, *in_deriv, 0.0f, &norms);
  norms.ApplyPow(0.5f);
  double repaired_norm_sum = norms.Sum();
  if (repaired_norm_sum != 0.0)
    in_deriv->Scale(static_cast<float>(deriv_norm_sum / repaired_norm_sum));
}

void ClipGradientComponent::Scale(float scale) {
  if (scale == 0.0f) ZeroStats();  // the counts are integers: else no-op
}

void ClipGradientComponent::Add(float alpha, const Component &other_in) {
  const auto *other = dynamic_cast<const ClipGradientComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  count_ += static_cast<int32_t>(alpha * other->count_);
  num_clipped_ += static_cast<int32_t>(alpha * other->num_clipped_);
}

void ClipGradientComponent::ZeroStats() {
  count_ = 0;
  num_clipped_ = 0;
  num_self_repaired_ = 0;
  num_backpropped_ = 0;
}

}  // namespace nnet3
