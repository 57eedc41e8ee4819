#include "nnet/components/backprop-truncation-component.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-config.h"
#include "nnet/component-registry.h"
#include "nnet/components/nonlinear-common.h"

namespace nnet3 {

std::unique_ptr<Component> NewBackpropTruncationComponentOfType(
    const std::string &type) {
  if (type == "BackpropTruncationComponent")
    return std::make_unique<BackpropTruncationComponent>();
  return nullptr;
}

std::vector<std::string> BackpropTruncationComponentTypes() {
  return {"BackpropTruncationComponent"};
}

namespace {

// floor(a / b) for b > 0.
int32_t DivideRoundingDown(int32_t a, int32_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

}  // namespace

// ---------------------------------------------------------------------------
// BackpropTruncationComponentPrecomputedIndexes

std::unique_ptr<ComponentPrecomputedIndexes>
BackpropTruncationComponentPrecomputedIndexes::Copy() const {
  return std::make_unique<BackpropTruncationComponentPrecomputedIndexes>(*this);
}

void BackpropTruncationComponentPrecomputedIndexes::Write(std::ostream &os,
                                                          bool binary) const {
  WriteToken(os, binary, "<BackpropTruncationComponentPrecomputedIndexes>");
  WriteToken(os, binary, "<Zeroing>");
  zeroing.Write(os, binary);
  WriteToken(os, binary, "<ZeroingSum>");
  WriteBasicType(os, binary, zeroing_sum);
  WriteToken(os, binary, "</BackpropTruncationComponentPrecomputedIndexes>");
}

void BackpropTruncationComponentPrecomputedIndexes::Read(std::istream &is,
                                                         bool binary) {
  ExpectOneOrTwoTokens(is, binary,
                       "<BackpropTruncationComponentPrecomputedIndexes>",
                       "<Zeroing>");
  zeroing.Read(is, binary);
  ExpectToken(is, binary, "<ZeroingSum>");
  ReadBasicType(is, binary, &zeroing_sum);
  ExpectToken(is, binary, "</BackpropTruncationComponentPrecomputedIndexes>");
}

// ---------------------------------------------------------------------------
// BackpropTruncationComponent

void BackpropTruncationComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  GetRequiredKey(type, "dim", cfl, &dim_);
  scale_ = 1.0f;
  clipping_threshold_ = 30.0f;
  zeroing_threshold_ = 15.0f;
  zeroing_interval_ = 20;
  recurrence_interval_ = 1;
  cfl->GetValue("scale", &scale_);
  cfl->GetValue("clipping-threshold", &clipping_threshold_);
  cfl->GetValue("zeroing-threshold", &zeroing_threshold_);
  cfl->GetValue("zeroing-interval", &zeroing_interval_);
  cfl->GetValue("recurrence-interval", &recurrence_interval_);
  CheckConfig(dim_ > 0, type, "dim", dim_, "must be > 0", *cfl);
  CheckConfig(scale_ > 0.0f, type, "scale", scale_, "must be > 0", *cfl);
  CheckConfig(clipping_threshold_ >= 0.0f, type, "clipping-threshold",
              clipping_threshold_, "must be >= 0", *cfl);
  CheckConfig(zeroing_threshold_ >= 0.0f, type, "zeroing-threshold",
              zeroing_threshold_, "must be >= 0", *cfl);
  CheckConfig(zeroing_interval_ > 0, type, "zeroing-interval",
              zeroing_interval_, "must be > 0", *cfl);
  CheckConfig(recurrence_interval_ > 0, type, "recurrence-interval",
              recurrence_interval_, "must be > 0", *cfl);
  ZeroStats();
}

void *BackpropTruncationComponent::Propagate(
    const ComponentPrecomputedIndexes *, const MatrixView &in,
    MatrixView *out) const {
  out->CopyFromMat(in);  // a no-op when in place
  if (scale_ != 1.0f) out->Scale(scale_);
  return nullptr;
}

void BackpropTruncationComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *indexes_in,
    const MatrixView &, const MatrixView &, const MatrixView &out_deriv, void *,
    Component *to_update_in, MatrixView *in_deriv) const {
  auto *indexes =
      dynamic_cast<const BackpropTruncationComponentPrecomputedIndexes *>(
          indexes_in);
  NNET3_ASSERT(indexes != nullptr &&
               indexes->zeroing.Dim() == out_deriv.NumRows());
  if (in_deriv == nullptr) return;
  auto *to_update = dynamic_cast<BackpropTruncationComponent *>(to_update_in);
  in_deriv->CopyFromMat(out_deriv);
  if (scale_ != 1.0f) in_deriv->Scale(scale_);
  const int32_t rows = in_deriv->NumRows();
  Device &device = in_deriv->device();
  Vector sq_norms(rows, ResizeType::kUndefined, device);
  AddRowDotProducts(1.0f, *in_deriv, *in_deriv, 0.0f, &sq_norms);
  // Clipping: scale row r by min(1, threshold / norm_r).
  const double clip =
      clipping_threshold_ <= 0.0f ? 1.0e+10 : clipping_threshold_;
  Vector scales(sq_norms);
  scales.Scale(static_cast<float>(1.0 / (clip * clip)));
  if (to_update != nullptr) {
    Vector clipped(scales);
    clipped.Add(-1.0f);
    clipped.ApplyFunc(Func::kHeaviside);
    to_update->num_clipped_ += clipped.Sum();
    to_update->count_ += rows;
  }
  scales.ApplyFloor(1.0f);
  scales.ApplyPow(-0.5f);
  // Zeroing: rows at a boundary whose norm exceeds the threshold.
  const double zero = zeroing_threshold_ <= 0.0f ? 1.0e+10 : zeroing_threshold_;
  Vector keep(sq_norms);
  keep.Add(static_cast<float>(-zero * zero));
  keep.ApplyFunc(Func::kHeaviside);
  keep.MulElements(indexes->zeroing);  // -1 where zeroed, else 0
  if (to_update != nullptr) {
    to_update->num_zeroed_ -= keep.Sum();
    to_update->count_zeroing_boundaries_ += indexes->zeroing_sum;
  }
  keep.Add(1.0f);
  scales.MulElements(keep);
  in_deriv->MulRowsVec(scales);
}

std::unique_ptr<ComponentPrecomputedIndexes>
BackpropTruncationComponent::PrecomputeIndexes(
    const MiscComputationInfo &, const std::vector<Index> &input_indexes,
    const std::vector<Index> &output_indexes, bool) const {
  NNET3_ASSERT(input_indexes.size() == output_indexes.size());
  const size_t num_rows = output_indexes.size();
  std::vector<float> zeroing(num_rows, 0.0f);
  float sum = 0.0f;
  for (size_t i = 0; i < num_rows; i++) {
    const int32_t n = output_indexes[i].n, t = output_indexes[i].t;
    if (t == kNoTime) continue;
    if (DivideRoundingDown(t - n, zeroing_interval_) !=
        DivideRoundingDown(t - recurrence_interval_ - n, zeroing_interval_)) {
      zeroing[i] = -1.0f;
      sum += 1.0f;
    }
  }
  auto ans = std::make_unique<BackpropTruncationComponentPrecomputedIndexes>();
  ans->zeroing = Vector(zeroing);
  ans->zeroing_sum = sum;
  return ans;
}

void BackpropTruncationComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<BackpropTruncationComponent>", "<Dim>");
  ReadBasicType(is, binary, &dim_);
  std::string token;
  ReadToken(is, binary, &token);
  scale_ = 1.0f;
  if (token == "<Scale>") {
    ReadBasicType(is, binary, &scale_);
    ReadToken(is, binary, &token);
  }
  if (token != "<ClippingThreshold>")
    NNET3_ERR << Type() << ": expected <ClippingThreshold>, got " << token;
  ReadBasicType(is, binary, &clipping_threshold_);
  ExpectToken(is, binary, "<ZeroingThreshold>");
  ReadBasicType(is, binary, &zeroing_threshold_);
  ExpectToken(is, binary, "<ZeroingInterval>");
  ReadBasicType(is, binary, &zeroing_interval_);
  ExpectToken(is, binary, "<RecurrenceInterval>");
  ReadBasicType(is, binary, &recurrence_interval_);
  ExpectToken(is, binary, "<NumElementsClipped>");
  ReadBasicType(is, binary, &num_clipped_);
  ExpectToken(is, binary, "<NumElementsZeroed>");
  ReadBasicType(is, binary, &num_zeroed_);
  ExpectToken(is, binary, "<NumElementsProcessed>");
  ReadBasicType(is, binary, &count_);
  ExpectToken(is, binary, "<NumZeroingBoundaries>");
  ReadBasicType(is, binary, &count_zeroing_boundaries_);
  ExpectToken(is, binary, "</BackpropTruncationComponent>");
  if (dim_ <= 0 || zeroing_interval_ <= 0 || recurrence_interval_ <= 0)
    NNET3_ERR << Type() << ": bad values in the model: <Dim> " << dim_
              << " <ZeroingInterval> " << zeroing_interval_
              << " <RecurrenceInterval> " << recurrence_interval_
              << " (all must be > 0)";
}

void BackpropTruncationComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<BackpropTruncationComponent>");
  WriteToken(os, binary, "<Dim>");
  WriteBasicType(os, binary, dim_);
  WriteToken(os, binary, "<Scale>");
  WriteBasicType(os, binary, scale_);
  WriteToken(os, binary, "<ClippingThreshold>");
  WriteBasicType(os, binary, clipping_threshold_);
  WriteToken(os, binary, "<ZeroingThreshold>");
  WriteBasicType(os, binary, zeroing_threshold_);
  WriteToken(os, binary, "<ZeroingInterval>");
  WriteBasicType(os, binary, zeroing_interval_);
  WriteToken(os, binary, "<RecurrenceInterval>");
  WriteBasicType(os, binary, recurrence_interval_);
  WriteToken(os, binary, "<NumElementsClipped>");
  WriteBasicType(os, binary, num_clipped_);
  WriteToken(os, binary, "<NumElementsZeroed>");
  WriteBasicType(os, binary, num_zeroed_);
  WriteToken(os, binary, "<NumElementsProcessed>");
  WriteBasicType(os, binary, count_);
  WriteToken(os, binary, "<NumZeroingBoundaries>");
  WriteBasicType(os, binary, count_zeroing_boundaries_);
  WriteToken(os, binary, "</BackpropTruncationComponent>");
}

std::unique_ptr<Component> BackpropTruncationComponent::Copy() const {
  return std::make_unique<BackpropTruncationComponent>(*this);
}

std::string BackpropTruncationComponent::Info() const {
  std::ostringstream os;
  os << Type() << ", dim=" << dim_ << ", scale=" << scale_
     << ", count=" << std::setprecision(3) << count_ << std::setprecision(6)
     << ", recurrence-interval=" << recurrence_interval_
     << ", clipping-threshold=" << clipping_threshold_
     << ", clipped-proportion=" << (count_ > 0.0 ? num_clipped_ / count_ : 0)
     << ", zeroing-threshold=" << zeroing_threshold_
     << ", zeroing-interval=" << zeroing_interval_ << ", zeroed-proportion="
     << (count_zeroing_boundaries_ > 0.0
             ? num_zeroed_ / count_zeroing_boundaries_
             : 0)
     << ", count-zeroing-boundaries="
     << static_cast<int32_t>(count_zeroing_boundaries_);
  return os.str();
}

void BackpropTruncationComponent::Scale(float scale) {
  count_ *= scale;
  count_zeroing_boundaries_ *= scale;
  num_clipped_ *= scale;
  num_zeroed_ *= scale;
}

void BackpropTruncationComponent::Add(float alpha, const Component &other_in) {
  auto *other = dynamic_cast<const BackpropTruncationComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  count_ += alpha * other->count_;
  count_zeroing_boundaries_ += alpha * other->count_zeroing_boundaries_;
  num_clipped_ += alpha * other->num_clipped_;
  num_zeroed_ += alpha * other->num_zeroed_;
}

void BackpropTruncationComponent::ZeroStats() {
  count_ = 0.0;
  count_zeroing_boundaries_ = 0.0;
  num_clipped_ = 0.0;
  num_zeroed_ = 0.0;
}

}  // namespace nnet3
