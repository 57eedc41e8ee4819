#include "nnet/components/normalize-components.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "base/error.h"
#include "base/io-funcs.h"
#include "base/log.h"
#include "nnet/components/nonlinear-common.h"

namespace nnet3 {

// ---------------------------------------------------------------------------
// NormalizeComponent

int32_t NormalizeComponent::Properties() const {
  int32_t props = add_log_stddev_
                      ? kSimpleComponent | kBackpropNeedsInput | kBackpropAdds
                      : kSimpleComponent | kBackpropNeedsInput |
                            kPropagateInPlace | kBackpropAdds |
                            kBackpropInPlace;
  if (block_dim_ != input_dim_) props |= kInputContiguous | kOutputContiguous;
  return props;
}

void NormalizeComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  input_dim_ = 0;
  add_log_stddev_ = false;
  target_rms_ = 1.0f;
  // As Kaldi: input-dim is only read when dim is absent.
  if (!cfl->GetValue("dim", &input_dim_) &&
      !cfl->GetValue("input-dim", &input_dim_))
    NNET3_ERR << type << ": required config key 'dim' (or 'input-dim') is "
              << "missing in '" << cfl->WholeLine() << "'";
  CheckConfig(input_dim_ > 0, type, "dim", input_dim_, "must be > 0", *cfl);
  block_dim_ = input_dim_;
  cfl->GetValue("block-dim", &block_dim_);
  CheckConfig(block_dim_ > 0 && input_dim_ % block_dim_ == 0, type, "block-dim",
              block_dim_, "must be > 0 and divide dim", *cfl);
  cfl->GetValue("target-rms", &target_rms_);
  CheckConfig(target_rms_ > 0.0f, type, "target-rms", target_rms_,
              "must be > 0", *cfl);
  cfl->GetValue("add-log-stddev", &add_log_stddev_);
}

std::unique_ptr<Component> NormalizeComponent::Copy() const {
  return std::make_unique<NormalizeComponent>(*this);
}

void NormalizeComponent::Read(std::istream &is, bool binary) {
  std::string token;
  ReadToken(is, binary, &token);
  if (token == "<NormalizeComponent>" || token == "NormalizeComponent>")
    ReadToken(is, binary, &token);
  if (token != "<Dim>" && token != "<InputDim>")
    NNET3_ERR << "Reading <NormalizeComponent>: expected <InputDim> or <Dim> "
              << "but found " << token;
  ReadBasicType(is, binary, &input_dim_);
  ReadToken(is, binary, &token);
  block_dim_ = input_dim_;
  if (token == "<BlockDim>") {
    ReadBasicType(is, binary, &block_dim_);
    ReadToken(is, binary, &token);
  }
  if (input_dim_ <= 0 || block_dim_ <= 0 || input_dim_ % block_dim_ != 0)
    NNET3_ERR << "Reading <NormalizeComponent>: bad input-dim " << input_dim_
              << " or block-dim " << block_dim_;
  target_rms_ = 1.0f;
  if (token == "<TargetRms>") {
    ReadBasicType(is, binary, &target_rms_);
    ReadToken(is, binary, &token);
  }
  add_log_stddev_ = false;
  if (token == "<AddLogStddev>") {
    ReadBasicType(is, binary, &add_log_stddev_);
    ReadToken(is, binary, &token);
  }
  if (token == "<ValueAvg>") {  // legacy stats: read and discarded
    Vector temp;
    temp.Read(is, binary);
    ExpectToken(is, binary, "<DerivAvg>");
    temp.Read(is, binary);
    ExpectToken(is, binary, "<Count>");
    double count;
    ReadBasicType(is, binary, &count);
    ReadToken(is, binary, &token);
  }
  if (token != "</NormalizeComponent>")
    NNET3_ERR << "Reading <NormalizeComponent>: expected "
              << "</NormalizeComponent> but found " << token;
}

void NormalizeComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<NormalizeComponent>");
  WriteToken(os, binary, "<InputDim>");
  WriteBasicType(os, binary, input_dim_);
  if (block_dim_ != input_dim_) {
    WriteToken(os, binary, "<BlockDim>");
    WriteBasicType(os, binary, block_dim_);
  }
  WriteToken(os, binary, "<TargetRms>");
  WriteBasicType(os, binary, target_rms_);
  WriteToken(os, binary, "<AddLogStddev>");
  WriteBasicType(os, binary, add_log_stddev_);
  WriteToken(os, binary, "</NormalizeComponent>");
}

std::string NormalizeComponent::Info() const {
  std::ostringstream os;
  os << Type() << ", input-dim=" << InputDim() << ", output-dim=" << OutputDim()
     << ", target-rms=" << target_rms_
     << ", add-log-stddev=" << (add_log_stddev_ ? "true" : "false");
  if (block_dim_ != input_dim_) os << ", block-dim=" << block_dim_;
  return os.str();
}

// Per row x of D values (D = block-dim):
//   p = x.x / (D * target_rms^2),  f = max(p, 2^-66)^(-1/2),  y = f x,
// so y has RMS target_rms; with add-log-stddev the extra output is
//   log(target_rms / f) = log(target_rms * sqrt(max(p, 2^-66))).
void NormalizeComponent::NormalizeRows(const MatrixView &in,
                                       MatrixView *out) const {
  int32_t rows = in.NumRows(), d = in.NumCols();
  Vector f(rows, ResizeType::kUndefined, in.device());
  AddRowDotProducts(1.0f / (d * target_rms_ * target_rms_), in, in, 0.0f, &f);
  f.ApplyFloor(kSquaredNormFloor);
  f.ApplyPow(-0.5f);
  MatrixView out_no_log = out->ColRange(0, d);
  out_no_log.CopyFromMat(in);  // nothing to do when in place
  out_no_log.MulRowsVec(f);
  if (add_log_stddev_) {
    f.ApplyFunc(Func::kLog);
    f.Scale(-1.0f);
    f.Add(std::log(target_rms_));
    out->CopyColFromVec(f, d);
  }
}

void *NormalizeComponent::Propagate(const ComponentPrecomputedIndexes *,
                                    const MatrixView &in,
                                    MatrixView *out) const {
  NNET3_ASSERT(in.NumCols() == InputDim() && out->NumCols() == OutputDim() &&
               in.NumRows() == out->NumRows());
  int32_t out_block = block_dim_ + (add_log_stddev_ ? 1 : 0);
  BlockView in_blocks(in, block_dim_, true);
  BlockView out_blocks(*out, out_block, false);
  NormalizeRows(in_blocks.View(), out_blocks.Mutable());
  out_blocks.WriteBack();
  return nullptr;
}

// The derivative (per row; e = out_deriv without the log column, c = D *
// target_rms^2, p and f as in NormalizeRows):
//   in_deriv += f e - [p > 2^-66] f^3 (e.x) x / c
// and with add-log-stddev, where the log output is 0.5 log(max(p, floor))
// + const and l is its derivative,
//   in_deriv += l x / max(x.x, D * 2^-66).
// Added to in_deriv (kBackpropAdds), except in place, where in_deriv
// already holds e and is multiplied by f (as Kaldi).
void NormalizeComponent::DiffNormalizeRows(const MatrixView &in_value,
                                           const MatrixView &out_deriv,
                                           bool in_place,
                                           MatrixView *in_deriv) const {
  int32_t rows = in_value.NumRows(), d = in_value.NumCols();
  Device &device = in_value.device();
  MatrixView e = out_deriv.ColRange(0, d);
  Vector dot(rows, ResizeType::kUndefined, device);
  AddRowDotProducts(1.0f, e, in_value, 0.0f, &dot);
  Vector norm(rows, ResizeType::kUndefined, device);
  AddRowDotProducts(1.0f, in_value, in_value, 0.0f, &norm);
  if (add_log_stddev_) {
    Vector log_deriv(norm);
    log_deriv.ApplyFloor(d * kSquaredNormFloor);
    log_deriv.ApplyPow(-1.0f);
    Vector l(rows, ResizeType::kUndefined, device);
    l.CopyColFromMat(out_deriv, d);
    log_deriv.MulElements(l);
    in_deriv->AddDiagVecMat(1.0f, log_deriv, in_value, Trans::kNo, 1.0f);
  }
  float c = d * target_rms_ * target_rms_;
  norm.Scale(1.0f / c);  // now p
  Vector not_floored(norm);
  not_floored.Add(-kSquaredNormFloor);
  not_floored.ApplyFunc(Func::kHeaviside);
  norm.ApplyFloor(kSquaredNormFloor);
  norm.ApplyPow(-0.5f);  // now f
  if (in_place)
    in_deriv->MulRowsVec(norm);
  else
    in_deriv->AddDiagVecMat(1.0f, norm, e, Trans::kNo, 1.0f);
  norm.ApplyPow(3.0f);
  norm.MulElements(not_floored);
  dot.MulElements(norm);
  in_deriv->AddDiagVecMat(-1.0f / c, dot, in_value, Trans::kNo, 1.0f);
}

void NormalizeComponent::Backprop(const std::string &,
                                  const ComponentPrecomputedIndexes *,
                                  const MatrixView &in_value,
                                  const MatrixView &,
                                  const MatrixView &out_deriv, void *,
                                  Component *, MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  bool in_place = in_deriv->Data() == out_deriv.Data();
  int32_t out_block = block_dim_ + (add_log_stddev_ ? 1 : 0);
  BlockView in_blocks(in_value, block_dim_, true);
  BlockView out_deriv_blocks(out_deriv, out_block, true);
  BlockView in_deriv_blocks(*in_deriv, block_dim_, true);
  DiffNormalizeRows(in_blocks.View(), out_deriv_blocks.View(), in_place,
                    in_deriv_blocks.Mutable());
  in_deriv_blocks.WriteBack();
}

// ---------------------------------------------------------------------------
// BatchNormComponent

// The minibatch statistics of a training-mode Propagate (per block column).
struct BatchNormComponent::Memo {
  int32_t num_frames = 0;
  Vector mean;   // 1/N sum_i x(i)
  Vector uvar;   // 1/N sum_i x(i)^2
  Vector scale;  // target_rms / sqrt(var + epsilon)
};

int32_t BatchNormComponent::Properties() const {
  return kSimpleComponent | kBackpropNeedsOutput | kPropagateInPlace |
         kBackpropInPlace |
         (block_dim_ < dim_ ? kInputContiguous | kOutputContiguous : 0) |
         (test_mode_ ? 0 : kUsesMemo | kStoresStats);
}

void BatchNormComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  dim_ = 0;
  epsilon_ = 1.0e-3f;
  target_rms_ = 1.0f;
  test_mode_ = false;
  GetRequiredKey(type, "dim", cfl, &dim_);
  CheckConfig(dim_ > 0, type, "dim", dim_, "must be > 0", *cfl);
  block_dim_ = dim_;
  cfl->GetValue("block-dim", &block_dim_);
  CheckConfig(block_dim_ > 0 && dim_ % block_dim_ == 0, type, "block-dim",
              block_dim_, "must be > 0 and divide dim", *cfl);
  cfl->GetValue("epsilon", &epsilon_);
  CheckConfig(epsilon_ > 0.0f, type, "epsilon", epsilon_, "must be > 0", *cfl);
  cfl->GetValue("target-rms", &target_rms_);
  CheckConfig(target_rms_ > 0.0f, type, "target-rms", target_rms_,
              "must be > 0", *cfl);
  cfl->GetValue("test-mode", &test_mode_);
  count_ = 0.0;
  mean_.Resize(block_dim_);
  var_.Resize(block_dim_);
  ComputeDerived();
}

std::unique_ptr<Component> BatchNormComponent::Copy() const {
  return std::make_unique<BatchNormComponent>(*this);
}

void BatchNormComponent::Check() const {
  if (!(dim_ > 0 && block_dim_ > 0 && dim_ % block_dim_ == 0 &&
        epsilon_ > 0.0f && target_rms_ > 0.0f && mean_.Dim() == block_dim_ &&
        var_.Dim() == block_dim_))
    NNET3_ERR << "BatchNormComponent: inconsistent dim=" << dim_
              << ", block-dim=" << block_dim_ << ", epsilon=" << epsilon_
              << ", target-rms=" << target_rms_ << ", stats dims "
              << mean_.Dim() << "/" << var_.Dim();
}

void BatchNormComponent::ComputeDerived() {
  if (!test_mode_) {
    scale_.Resize(0);
    offset_.Resize(0);
    return;
  }
  scale_ = var_;
  offset_ = mean_;
  if (count_ == 0.0) {
    NNET3_WARN << "BatchNormComponent: test mode is set but there are no "
               << "stats; using mean 0 and variance 1 (fine in tests, a "
               << "problem anywhere else)";
    offset_.SetZero();
    scale_.Set(1.0f);
  }
  // scale = target_rms / sqrt(max(var, 0) + epsilon), offset = -mean * scale,
  // with Kaldi's rounding: Kaldi keeps the stats as double sums (count *
  // mean and count * (var + mean^2)) and derives the float values from them
  // (mean and var again, then scale and offset) in its order of operations.
  const std::vector<float> mean = offset_.ToHost(), var = scale_.ToHost();
  const double count = count_ == 0.0 ? 1.0 : count_;
  const float inv_count = static_cast<float>(1.0 / count),
              neg_inv_count = static_cast<float>(-1.0 / count);
  std::vector<float> scale(mean.size()), offset(mean.size());
  for (size_t i = 0; i < mean.size(); i++) {
    const double m = mean[i], sum = m * count,
                 sumsq = (static_cast<double>(var[i]) + m * m) * count;
    offset[i] = static_cast<float>(sum) * neg_inv_count;  // -mean
    const float mean_sq = offset[i] * offset[i];
    const float v = static_cast<float>(sumsq) * inv_count - mean_sq;
    scale[i] = std::pow(std::max(v, 0.0f) + epsilon_, -0.5f) * target_rms_;
    offset[i] *= scale[i];
  }
  scale_.CopyFromHost(scale);
  offset_.CopyFromHost(offset);
}

void BatchNormComponent::SetTestMode(bool test_mode) {
  test_mode_ = test_mode;
  ComputeDerived();
}

void BatchNormComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<BatchNormComponent>", "<Dim>");
  ReadBasicType(is, binary, &dim_);
  ExpectToken(is, binary, "<BlockDim>");
  ReadBasicType(is, binary, &block_dim_);
  ExpectToken(is, binary, "<Epsilon>");
  ReadBasicType(is, binary, &epsilon_);
  ExpectToken(is, binary, "<TargetRms>");
  ReadBasicType(is, binary, &target_rms_);
  ExpectToken(is, binary, "<TestMode>");
  ReadBasicType(is, binary, &test_mode_);
  ExpectToken(is, binary, "<Count>");
  ReadBasicType(is, binary, &count_);
  ExpectToken(is, binary, "<StatsMean>");
  mean_.Read(is, binary);
  ExpectToken(is, binary, "<StatsVar>");
  var_.Read(is, binary);
  ExpectToken(is, binary, "</BatchNormComponent>");
  if (count_ == 0.0) {  // Kaldi rebuilds the sums as count * (...)
    mean_.SetZero();
    var_.SetZero();
  }
  Check();
  ComputeDerived();
}

void BatchNormComponent::Write(std::ostream &os, bool binary) const {
  Check();
  WriteToken(os, binary, "<BatchNormComponent>");
  WriteToken(os, binary, "<Dim>");
  WriteBasicType(os, binary, dim_);
  WriteToken(os, binary, "<BlockDim>");
  WriteBasicType(os, binary, block_dim_);
  WriteToken(os, binary, "<Epsilon>");
  WriteBasicType(os, binary, epsilon_);
  WriteToken(os, binary, "<TargetRms>");
  WriteBasicType(os, binary, target_rms_);
  WriteToken(os, binary, "<TestMode>");
  WriteBasicType(os, binary, test_mode_);
  WriteToken(os, binary, "<Count>");
  WriteBasicType(os, binary, count_);
  WriteToken(os, binary, "<StatsMean>");
  mean_.Write(os, binary);
  WriteToken(os, binary, "<StatsVar>");
  var_.Write(os, binary);
  WriteToken(os, binary, "</BatchNormComponent>");
}

std::string BatchNormComponent::Info() const {
  std::ostringstream os;
  os << Type() << ", dim=" << dim_ << ", block-dim=" << block_dim_
     << ", epsilon=" << epsilon_ << ", target-rms=" << target_rms_
     << ", count=" << count_
     << ", test-mode=" << (test_mode_ ? "true" : "false");
  if (count_ > 0) {
    Vector stddev(var_);
    stddev.ApplyFloor(0.0f);
    stddev.ApplyPow(0.5f);
    os << ", data-mean=" << SummarizeVector(mean_.ToHost())
       << ", data-stddev=" << SummarizeVector(stddev.ToHost());
  }
  return os.str();
}

bool BatchNormComponent::SupportsPropagateFusion(int32_t fusion) const {
  return fusion == kFuseRectifyInput && test_mode_;
}

void *BatchNormComponent::PropagateFused(int32_t fusion,
                                         const ComponentPrecomputedIndexes *,
                                         const MatrixView &in,
                                         MatrixView *out) const {
  NNET3_ASSERT(SupportsPropagateFusion(fusion) && in.SameShape(*out) &&
               in.NumCols() == dim_);
  // y = max(x, 0) * scale + offset: the ReLU before it, fused.
  BlockView in_blocks(in, block_dim_, true);
  BlockView out_blocks(*out, block_dim_, false);
  out_blocks.Mutable()->ScaleOffsetCols(true, scale_, offset_,
                                        in_blocks.View());
  out_blocks.WriteBack();
  return nullptr;
}

void *BatchNormComponent::Propagate(const ComponentPrecomputedIndexes *,
                                    const MatrixView &in,
                                    MatrixView *out) const {
  NNET3_ASSERT(in.SameShape(*out) && in.NumCols() == dim_);
  BlockView in_blocks(in, block_dim_, true);
  BlockView out_blocks(*out, block_dim_, false);
  const MatrixView &x = in_blocks.View();
  MatrixView *y = out_blocks.Mutable();
  if (test_mode_) {
    // y = x * scale + offset, in one pass.
    y->ScaleOffsetCols(false, scale_, offset_, x);
    out_blocks.WriteBack();
    return nullptr;
  }
  // y = (x - mean) * target_rms / sqrt(var + epsilon), with the minibatch
  // mean and variance (computed before y is written: y may be x).
  auto *memo = new Memo;
  int32_t n = x.NumRows();
  memo->num_frames = n;
  memo->mean.Resize(block_dim_);
  memo->uvar.Resize(block_dim_);
  memo->scale.Resize(block_dim_);
  if (n == 0) return memo;
  memo->mean.AddRowSumMat(1.0f / n, x, 0.0f);
  AddColDotProducts(1.0f / n, x, x, 0.0f, &memo->uvar);
  Vector &scale = memo->scale;
  Vector mean_sq(memo->mean);
  mean_sq.MulElements(memo->mean);
  scale.CopyFromVec(memo->uvar);
  scale.AddVec(-1.0f, mean_sq);  // the variance
  scale.Scale(1.0f / (target_rms_ * target_rms_));
  scale.ApplyFloor(0.0f);
  scale.Add(epsilon_ / (target_rms_ * target_rms_));
  scale.ApplyPow(-0.5f);
  y->CopyFromMat(x);
  y->AddVecToRows(-1.0f, memo->mean);
  y->MulColsVec(scale);
  out_blocks.WriteBack();
  return memo;
}

// Training mode (per block column, N frames, z = output, z' = out_deriv,
// scale = target_rms / sqrt(var + epsilon)):
//   x'(i) = scale * (z'(i) - 1/N sum_j z'(j)) + z(i) * v,
//   v = -1/(target_rms^2 N) * scale * sum_j z'(j) z(j).
// Test mode: x' = scale * z'.
void BatchNormComponent::Backprop(const std::string &,
                                  const ComponentPrecomputedIndexes *,
                                  const MatrixView &,
                                  const MatrixView &out_value,
                                  const MatrixView &out_deriv, void *memo_in,
                                  Component *, MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  BlockView od_blocks(out_deriv, block_dim_, true);
  BlockView id_blocks(*in_deriv, block_dim_, false);
  const MatrixView &od = od_blocks.View();
  MatrixView *id = id_blocks.Mutable();
  if (test_mode_) {
    id->CopyFromMat(od);
    id->MulColsVec(scale_);
    id_blocks.WriteBack();
    return;
  }
  auto *memo = static_cast<Memo *>(memo_in);
  NNET3_ASSERT(memo != nullptr && memo->num_frames == od.NumRows());
  int32_t n = memo->num_frames;
  if (n == 0) return;
  BlockView ov_blocks(out_value, block_dim_, true);
  const MatrixView &z = ov_blocks.View();
  Device &device = od.device();
  Vector v(block_dim_, ResizeType::kUndefined, device);
  AddColDotProducts(-1.0f / (target_rms_ * target_rms_ * n), z, od, 0.0f, &v);
  v.MulElements(memo->scale);
  Vector minus_mean(block_dim_, ResizeType::kUndefined, device);
  minus_mean.AddRowSumMat(-1.0f / n, od, 0.0f);
  id->CopyFromMat(od);  // nothing to do when in place
  id->AddVecToRows(1.0f, minus_mean);
  id->MulColsVec(memo->scale);
  id->AddMatDiagVec(1.0f, z, Trans::kNo, v, 1.0f);
  id_blocks.WriteBack();
}

void BatchNormComponent::StoreStats(const MatrixView &, const MatrixView &,
                                    void *memo_in) {
  NNET3_ASSERT(!test_mode_);
  auto *memo = static_cast<Memo *>(memo_in);
  NNET3_ASSERT(memo != nullptr && memo->mean.Dim() == block_dim_);
  double n = memo->num_frames;
  if (n == 0) return;
  // The minibatch variance, then the pooled mean and variance:
  //   mean' = mean + f d,  var' = (1-f) var + f bvar + f (1-f) d^2,
  // with f = n / (count + n), d = bmean - mean.
  Vector bvar(memo->mean);
  bvar.MulElements(memo->mean);
  bvar.Scale(-1.0f);
  bvar.AddVec(1.0f, memo->uvar);
  if (count_ == 0.0) {
    mean_.CopyFromVec(memo->mean);
    var_.CopyFromVec(bvar);
    count_ = n;
    return;
  }
  float f = static_cast<float>(n / (count_ + n));
  Vector d(memo->mean);
  d.AddVec(-1.0f, mean_);
  mean_.AddVec(f, d);
  d.MulElements(d);
  var_.Scale(1.0f - f);
  var_.AddVec(f, bvar);
  var_.AddVec(f * (1.0f - f), d);
  count_ += n;
}

void BatchNormComponent::DeleteMemo(void *memo) const {
  delete static_cast<Memo *>(memo);
}

void BatchNormComponent::ZeroStats() {
  // In test mode the stats define the transform: keep them (as Kaldi).
  if (test_mode_) return;
  count_ = 0.0;
  mean_.SetZero();
  var_.SetZero();
}

void BatchNormComponent::Scale(float scale) {
  if (scale == 0.0f) {
    count_ = 0.0;
    mean_.SetZero();
    var_.SetZero();
  } else {
    count_ *= scale;  // sums scale with the count: mean and var unchanged
  }
  ComputeDerived();
}

void BatchNormComponent::Add(float alpha, const Component &other_in) {
  const auto *other = dynamic_cast<const BatchNormComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr && other->block_dim_ == block_dim_);
  double w = alpha * other->count_, new_count = count_ + w;
  if (w == 0.0) return;  // the other's sums are zero
  if (new_count == 0.0) {
    Scale(0.0f);
    return;
  }
  float a = static_cast<float>(count_ / new_count),
        b = static_cast<float>(w / new_count);
  // Pool E[x^2] = var + mean^2 and E[x], then var = E[x^2] - mean^2.
  Vector e2(mean_), e2_other(other->mean_);
  e2.MulElements(mean_);
  e2.AddVec(1.0f, var_);
  e2_other.MulElements(other->mean_);
  e2_other.AddVec(1.0f, other->var_);
  e2.Scale(a);
  e2.AddVec(b, e2_other);
  mean_.Scale(a);
  mean_.AddVec(b, other->mean_);
  var_.CopyFromVec(mean_);
  var_.MulElements(mean_);
  var_.Scale(-1.0f);
  var_.AddVec(1.0f, e2);
  count_ = new_count;
  ComputeDerived();
}

}  // namespace nnet3
