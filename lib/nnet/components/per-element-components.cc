#include "nnet/components/per-element-components.h"

#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-config.h"
#include "nnet/init-random.h"
#include "nnet/parameter-stats.h"
#include "nnet/components/simple-component-utils.h"
#include "util/kaldi-io.h"

namespace nnet3 {
namespace {

// A (rows * cols/block) x block view of m, each row one block of one input
// row: m reshaped when it is contiguous, else a contiguous copy of it in
// *storage (which must live on m's device).
MatrixView BlockRows(const MatrixView &m, int32_t block, Matrix *storage) {
  if (block == m.NumCols() || m.Stride() == m.NumCols() || m.NumRows() <= 1)
    return ReshapeToBlocks(m, block);
  storage->Resize(m.NumRows(), m.NumCols(), ResizeType::kUndefined,
                  MatrixStrideType::kStrideEqualNumCols);
  storage->CopyFromMat(m);
  return ReshapeToBlocks(*storage, block);
}

// Calls f on block-wide views covering m: once on the reshaped m when it is
// contiguous, else once per column block.
template <class F>
void ForEachBlock(MatrixView *m, int32_t block, F f) {
  if (block == m->NumCols() || m->Stride() == m->NumCols() ||
      m->NumRows() <= 1) {
    MatrixView v = ReshapeToBlocks(*m, block);
    f(&v);
    return;
  }
  for (int32_t c = 0; c < m->NumCols(); c += block) {
    MatrixView v = m->ColRange(c, block);
    f(&v);
  }
}

// rows of m summed, times lr, preconditioned first when `precondition`.
Vector ParamDelta(const MatrixView &m, float lr, bool precondition,
                  OnlineNaturalGradient *preconditioner) {
  Vector delta(m.NumCols(), ResizeType::kSetZero, m.device());
  if (!precondition) {
    delta.AddRowSumMat(lr, m, 0.0f);
    return delta;
  }
  // Preconditioning rescales the rows; work on a copy, out_deriv is const.
  Matrix copy(m);
  float scale = 1.0f;
  preconditioner->PreconditionDirections(&copy, &scale);
  delta.AddRowSumMat(scale * lr, copy, 0.0f);
  return delta;
}

// Reads `vector=<rxfilename>` (which must be non-empty) into *v.
void ReadVectorKey(const std::string &type, const std::string &filename,
                   Vector *v) {
  ReadKaldiObject(filename, v);
  if (v->Dim() == 0)
    NNET3_ERR << type << ": the vector in vector=" << filename << " is empty";
}

uint64_t SecondSeed(uint64_t seed) { return seed ^ 0x9E3779B97F4A7C15ull; }

}  // namespace

// ---- PerElementScaleComponent ----

void PerElementScaleComponent::InitFromConfig(ConfigLine *cfl) {
  InitLearningRatesFromConfig(cfl);
  std::string filename;
  int32_t dim = 0;
  if (cfl->GetValue("vector", &filename)) {
    ReadVectorKey(Type(), filename, &scales_);
    if (cfl->GetValue("dim", &dim) && dim != scales_.Dim())
      NNET3_ERR << Type() << ": dim=" << dim << " does not match the "
                << "dimension " << scales_.Dim() << " of vector=" << filename;
    return;
  }
  if (!cfl->GetValue("dim", &dim))
    NNET3_ERR << Type() << ": needs dim=<int> or vector=<rxfilename>, in "
              << "config line '" << cfl->WholeLine() << "'";
  float param_mean = 1.0f, param_stddev = 0.0f;
  cfl->GetValue("param-mean", &param_mean);
  cfl->GetValue("param-stddev", &param_stddev);
  if (dim <= 0 || param_stddev < 0.0f)
    NNET3_ERR << Type()
              << ": need dim > 0 and param-stddev >= 0 (got dim=" << dim
              << ", param-stddev=" << param_stddev << ") in config line '"
              << cfl->WholeLine() << "'";
  scales_.Resize(dim);
  scales_.SetRandn(NextComponentInitSeed());
  scales_.Scale(param_stddev);
  scales_.Add(param_mean);
}

std::unique_ptr<Component> PerElementScaleComponent::Copy() const {
  return std::make_unique<PerElementScaleComponent>(*this);
}

void *PerElementScaleComponent::Propagate(const ComponentPrecomputedIndexes *,
                                          const MatrixView &in,
                                          MatrixView *out) const {
  // y = x .* scales (per column); in place is fine.
  out->CopyFromMat(in);
  out->MulColsVec(scales_);
  return nullptr;
}

void PerElementScaleComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *,
    const MatrixView &in_value, const MatrixView &, const MatrixView &out_deriv,
    void *, Component *to_update_in, MatrixView *in_deriv) const {
  // d x = d y .* scales;  d scales = sum over rows of (d y .* x).
  auto *to_update = dynamic_cast<PerElementScaleComponent *>(to_update_in);
  NNET3_ASSERT(to_update_in == nullptr || to_update != nullptr);
  Vector delta;
  if (to_update != nullptr) {
    // Computed before in_deriv, which may overwrite out_deriv (in place).
    Matrix products(out_deriv);
    products.MulElements(in_value);
    delta = ParamDelta(products, to_update->learning_rate_, false, nullptr);
  }
  if (in_deriv != nullptr) {
    in_deriv->CopyFromMat(out_deriv);
    in_deriv->MulColsVec(scales_);
  }
  if (to_update != nullptr) to_update->scales_.AddVec(1.0f, delta);
}

void PerElementScaleComponent::Read(std::istream &is, bool binary) {
  std::string token = ReadUpdatableCommon(is, binary);
  ExpectAfterUpdatableCommon(is, binary, token, "<Params>");
  scales_.Read(is, binary);
  if (PeekToken(is, binary) == 'I') {  // older files; now in the prefix
    ExpectToken(is, binary, "<IsGradient>");
    ReadBasicType(is, binary, &is_gradient_);
  }
  ExpectToken(is, binary, "</PerElementScaleComponent>");
  if (scales_.Dim() == 0)
    NNET3_ERR << "PerElementScaleComponent: empty <Params> in model file";
}

void PerElementScaleComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<Params>");
  scales_.Write(os, binary);
  WriteToken(os, binary, "</PerElementScaleComponent>");
}

std::string PerElementScaleComponent::Info() const {
  std::ostringstream os;
  os << UpdatableComponent::Info() << ", scales-min=" << scales_.Min()
     << ", scales-max=" << scales_.Max();
  PrintParameterStats(os, "scales", scales_, true);
  return os.str();
}

void PerElementScaleComponent::Scale(float scale) {
  if (scale == 0.0f)
    scales_.SetZero();  // also clears inf/nan
  else
    scales_.Scale(scale);
}

void PerElementScaleComponent::Add(float alpha, const Component &other_in) {
  auto *other = dynamic_cast<const PerElementScaleComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  scales_.AddVec(alpha, other->scales_);
}

float PerElementScaleComponent::DotProduct(
    const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const PerElementScaleComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(VecVec(scales_, other->scales_));
}

void PerElementScaleComponent::PerturbParams(float stddev, uint64_t seed) {
  Vector noise(scales_.Dim(), ResizeType::kUndefined, scales_.device());
  noise.SetRandn(seed);
  scales_.AddVec(stddev, noise);
}

void PerElementScaleComponent::Vectorize(VectorView *params) const {
  params->CopyFromVec(scales_);
}

void PerElementScaleComponent::UnVectorize(const VectorView &params) {
  scales_.CopyFromVec(params);
}

// ---- PerElementOffsetComponent ----

PerElementOffsetComponent::PerElementOffsetComponent() {
  // Not configurable (Kaldi's InitFromConfig and Read set the same).
  preconditioner_.SetRank(20);
  preconditioner_.SetUpdatePeriod(4);
}

void PerElementOffsetComponent::InitFromConfig(ConfigLine *cfl) {
  InitLearningRatesFromConfig(cfl);
  std::string filename;
  if (cfl->GetValue("vector", &filename)) {
    ReadVectorKey(Type(), filename, &offsets_);
    dim_ = offsets_.Dim();
    cfl->GetValue("dim", &dim_);
    if (dim_ <= 0 || dim_ % offsets_.Dim() != 0)
      NNET3_ERR << Type() << ": dim=" << dim_ << " must be a positive "
                << "multiple of the dimension " << offsets_.Dim()
                << " of vector=" << filename;
  } else {
    if (!cfl->GetValue("dim", &dim_))
      NNET3_ERR << Type() << ": needs dim=<int> or vector=<rxfilename>, in "
                << "config line '" << cfl->WholeLine() << "'";
    if (dim_ <= 0)
      NNET3_ERR << Type() << ": dim=" << dim_ << " must be positive, in "
                << "config line '" << cfl->WholeLine() << "'";
    float param_mean = 0.0f, param_stddev = 0.0f;
    cfl->GetValue("param-mean", &param_mean);
    cfl->GetValue("param-stddev", &param_stddev);
    int32_t block_dim = dim_;
    cfl->GetValue("block-dim", &block_dim);
    if (block_dim <= 0 || dim_ % block_dim != 0)
      NNET3_ERR << Type() << ": block-dim=" << block_dim
                << " must divide dim=" << dim_ << ", in config line '"
                << cfl->WholeLine() << "'";
    offsets_.Resize(block_dim);
    offsets_.SetRandn(NextComponentInitSeed());
    offsets_.Scale(param_stddev);
    offsets_.Add(param_mean);
  }
  use_natural_gradient_ = true;
  cfl->GetValue("use-natural-gradient", &use_natural_gradient_);
}

std::unique_ptr<Component> PerElementOffsetComponent::Copy() const {
  return std::make_unique<PerElementOffsetComponent>(*this);
}

void *PerElementOffsetComponent::Propagate(const ComponentPrecomputedIndexes *,
                                           const MatrixView &in,
                                           MatrixView *out) const {
  // y = x + offsets, repeated for every block; in place is fine.
  out->CopyFromMat(in);
  ForEachBlock(out, offsets_.Dim(),
               [this](MatrixView *b) { b->AddVecToRows(1.0f, offsets_); });
  return nullptr;
}

void PerElementOffsetComponent::Backprop(const std::string &,
                                         const ComponentPrecomputedIndexes *,
                                         const MatrixView &, const MatrixView &,
                                         const MatrixView &out_deriv, void *,
                                         Component *to_update_in,
                                         MatrixView *in_deriv) const {
  // d x = d y;  d offsets = sum of d y over rows and blocks.
  auto *to_update = dynamic_cast<PerElementOffsetComponent *>(to_update_in);
  NNET3_ASSERT(to_update_in == nullptr || to_update != nullptr);
  if (to_update != nullptr) {
    Matrix storage(out_deriv.device());
    MatrixView blocks = BlockRows(out_deriv, offsets_.Dim(), &storage);
    bool ng = to_update->use_natural_gradient_ && !to_update->is_gradient_;
    Vector delta = ParamDelta(blocks, to_update->learning_rate_, ng,
                              &to_update->preconditioner_);
    to_update->offsets_.AddVec(1.0f, delta);
  }
  if (in_deriv != nullptr) in_deriv->CopyFromMat(out_deriv);
}

void PerElementOffsetComponent::Read(std::istream &is, bool binary) {
  std::string token = ReadUpdatableCommon(is, binary);
  ExpectAfterUpdatableCommon(is, binary, token, "<Offsets>");
  offsets_.Read(is, binary);
  if (PeekToken(is, binary) == 'I') {  // older files; now in the prefix
    ExpectToken(is, binary, "<IsGradient>");
    ReadBasicType(is, binary, &is_gradient_);
  }
  if (PeekToken(is, binary) != '/') {
    ExpectToken(is, binary, "<Dim>");
    ReadBasicType(is, binary, &dim_);
    ExpectToken(is, binary, "<UseNaturalGradient>");
    ReadBasicType(is, binary, &use_natural_gradient_);
  } else {  // older files without block-dim
    dim_ = offsets_.Dim();
    use_natural_gradient_ = true;
  }
  ExpectToken(is, binary, "</PerElementOffsetComponent>");
  if (offsets_.Dim() == 0 || dim_ <= 0 || dim_ % offsets_.Dim() != 0)
    NNET3_ERR << "PerElementOffsetComponent: <Dim> " << dim_
              << " is not a positive multiple of the " << offsets_.Dim()
              << " <Offsets> in the model file";
  preconditioner_.SetRank(20);
  preconditioner_.SetUpdatePeriod(4);
}

void PerElementOffsetComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<Offsets>");
  offsets_.Write(os, binary);
  WriteToken(os, binary, "<Dim>");
  WriteBasicType(os, binary, dim_);
  WriteToken(os, binary, "<UseNaturalGradient>");
  WriteBasicType(os, binary, use_natural_gradient_);
  WriteToken(os, binary, "</PerElementOffsetComponent>");
}

std::string PerElementOffsetComponent::Info() const {
  std::ostringstream os;
  os << UpdatableComponent::Info() << ", offsets-min=" << offsets_.Min()
     << ", offsets-max=" << offsets_.Max() << ", block-dim=" << offsets_.Dim()
     << ", use-natural-gradient=" << (use_natural_gradient_ ? "true" : "false");
  PrintParameterStats(os, "offsets", offsets_, true);
  return os.str();
}

void PerElementOffsetComponent::Scale(float scale) {
  if (scale == 0.0f)
    offsets_.SetZero();
  else
    offsets_.Scale(scale);
}

void PerElementOffsetComponent::Add(float alpha, const Component &other_in) {
  auto *other = dynamic_cast<const PerElementOffsetComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  offsets_.AddVec(alpha, other->offsets_);
}

float PerElementOffsetComponent::DotProduct(
    const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const PerElementOffsetComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(VecVec(offsets_, other->offsets_));
}

void PerElementOffsetComponent::PerturbParams(float stddev, uint64_t seed) {
  Vector noise(offsets_.Dim(), ResizeType::kUndefined, offsets_.device());
  noise.SetRandn(seed);
  offsets_.AddVec(stddev, noise);
}

void PerElementOffsetComponent::Vectorize(VectorView *params) const {
  params->CopyFromVec(offsets_);
}

void PerElementOffsetComponent::UnVectorize(const VectorView &params) {
  offsets_.CopyFromVec(params);
}

// ---- ScaleAndOffsetComponent ----

namespace {
constexpr float kScaleEpsilon = 1.0e-04f;  // Kaldi's Epsilon()
}  // namespace

void ScaleAndOffsetComponent::InitFromConfig(ConfigLine *cfl) {
  InitLearningRatesFromConfig(cfl);
  GetRequiredKey(Type(), "dim", cfl, &dim_);
  if (dim_ <= 0)
    NNET3_ERR << Type() << ": dim=" << dim_ << " must be positive, in "
              << "config line '" << cfl->WholeLine() << "'";
  use_natural_gradient_ = true;
  cfl->GetValue("use-natural-gradient", &use_natural_gradient_);
  int32_t block_dim = dim_, rank = 20;
  cfl->GetValue("block-dim", &block_dim);
  if (block_dim <= 0 || dim_ % block_dim != 0)
    NNET3_ERR << Type() << ": block-dim=" << block_dim
              << " must divide dim=" << dim_ << ", in config line '"
              << cfl->WholeLine() << "'";
  cfl->GetValue("rank", &rank);
  if (rank <= 0)
    NNET3_ERR << Type() << ": rank=" << rank << " must be positive, in "
              << "config line '" << cfl->WholeLine() << "'";
  scales_.Resize(block_dim);
  scales_.Set(1.0f);
  offsets_.Resize(block_dim);  // zeros
  for (OnlineNaturalGradient *p :
       {&scale_preconditioner_, &offset_preconditioner_}) {
    p->SetRank(rank);
    p->SetUpdatePeriod(4);  // not configurable in Kaldi either
  }
}

std::unique_ptr<Component> ScaleAndOffsetComponent::Copy() const {
  return std::make_unique<ScaleAndOffsetComponent>(*this);
}

Vector ScaleAndOffsetComponent::NonzeroScales() const {
  // |s| floored at epsilon, times sign(s) with sign(0) = +1.
  Vector magnitude(scales_);
  magnitude.ApplyFunc(Func::kAbs);
  magnitude.ApplyFloor(kScaleEpsilon);
  Vector sign(scales_);
  sign.Scale(-1.0f);
  sign.ApplyFunc(Func::kHeaviside);  // 1 where s < 0, else 0
  sign.Scale(-2.0f);
  sign.Add(1.0f);  // -1 where s < 0, else 1
  magnitude.MulElements(sign);
  return magnitude;
}

void *ScaleAndOffsetComponent::Propagate(const ComponentPrecomputedIndexes *,
                                         const MatrixView &in,
                                         MatrixView *out) const {
  // y = x .* s + offsets per block, s = NonzeroScales(); in place is fine.
  Vector s = NonzeroScales();
  out->CopyFromMat(in);
  ForEachBlock(out, scales_.Dim(), [&](MatrixView *b) {
    b->MulColsVec(s);
    b->AddVecToRows(1.0f, offsets_);
  });
  return nullptr;
}

void ScaleAndOffsetComponent::ComputeDeltas(const MatrixView &out_value,
                                            const MatrixView &out_deriv,
                                            const VectorView &s,
                                            const VectorView &offsets,
                                            Vector *scale_delta,
                                            Vector *offset_delta) {
  bool ng = use_natural_gradient_ && !is_gradient_;
  *offset_delta =
      ParamDelta(out_deriv, learning_rate_, ng, &offset_preconditioner_);
  // Kaldi keeps the output, not the input: x = (y - offsets) ./ s.
  Vector inverse_s(s);
  inverse_s.ApplyPow(-1.0f);
  Matrix x(out_value);
  x.AddVecToRows(-1.0f, offsets);
  x.MulColsVec(inverse_s);
  x.MulElements(out_deriv);  // per-row derivatives w.r.t. the scales
  *scale_delta = ParamDelta(x, learning_rate_, ng, &scale_preconditioner_);
}

void ScaleAndOffsetComponent::Backprop(const std::string &,
                                       const ComponentPrecomputedIndexes *,
                                       const MatrixView &,
                                       const MatrixView &out_value,
                                       const MatrixView &out_deriv, void *,
                                       Component *to_update_in,
                                       MatrixView *in_deriv) const {
  // With y = x .* s + offsets:  d x = d y .* s;  d offsets = sum of d y;
  // d scales = sum of d y .* x (sums over rows and blocks). The derivative
  // w.r.t. the scales ignores the 1e-4 floor, as in Kaldi.
  auto *to_update = dynamic_cast<ScaleAndOffsetComponent *>(to_update_in);
  NNET3_ASSERT(to_update_in == nullptr || to_update != nullptr);
  int32_t block = scales_.Dim();
  Vector s = NonzeroScales();
  Vector scale_delta, offset_delta;
  if (to_update != nullptr) {
    // Before in_deriv, which may overwrite out_deriv (in place).
    Matrix value_storage(out_value.device()), deriv_storage(out_deriv.device());
    MatrixView y = BlockRows(out_value, block, &value_storage);
    MatrixView dy = BlockRows(out_deriv, block, &deriv_storage);
    to_update->ComputeDeltas(y, dy, s, offsets_, &scale_delta, &offset_delta);
  }
  if (in_deriv != nullptr) {
    in_deriv->CopyFromMat(out_deriv);
    ForEachBlock(in_deriv, block, [&](MatrixView *b) { b->MulColsVec(s); });
  }
  if (to_update != nullptr) {
    to_update->scales_.AddVec(1.0f, scale_delta);
    to_update->offsets_.AddVec(1.0f, offset_delta);
  }
}

void ScaleAndOffsetComponent::Read(std::istream &is, bool binary) {
  std::string token = ReadUpdatableCommon(is, binary);
  ExpectAfterUpdatableCommon(is, binary, token, "<Dim>");
  ReadBasicType(is, binary, &dim_);
  ExpectToken(is, binary, "<Scales>");
  scales_.Read(is, binary);
  ExpectToken(is, binary, "<Offsets>");
  offsets_.Read(is, binary);
  ExpectToken(is, binary, "<UseNaturalGradient>");
  ReadBasicType(is, binary, &use_natural_gradient_);
  int32_t rank = 0;
  ExpectToken(is, binary, "<Rank>");
  ReadBasicType(is, binary, &rank);
  ExpectToken(is, binary, "</ScaleAndOffsetComponent>");
  if (scales_.Dim() == 0 || scales_.Dim() != offsets_.Dim() || dim_ <= 0 ||
      dim_ % scales_.Dim() != 0 || rank <= 0)
    NNET3_ERR << "ScaleAndOffsetComponent: inconsistent model file: <Dim> "
              << dim_ << ", " << scales_.Dim() << " <Scales>, "
              << offsets_.Dim() << " <Offsets>, <Rank> " << rank;
  scale_preconditioner_.SetRank(rank);
  offset_preconditioner_.SetRank(rank);
  scale_preconditioner_.SetUpdatePeriod(4);
  offset_preconditioner_.SetUpdatePeriod(4);
}

void ScaleAndOffsetComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<Dim>");
  WriteBasicType(os, binary, dim_);
  WriteToken(os, binary, "<Scales>");
  scales_.Write(os, binary);
  WriteToken(os, binary, "<Offsets>");
  offsets_.Write(os, binary);
  WriteToken(os, binary, "<UseNaturalGradient>");
  WriteBasicType(os, binary, use_natural_gradient_);
  WriteToken(os, binary, "<Rank>");
  WriteBasicType(os, binary, scale_preconditioner_.GetRank());
  WriteToken(os, binary, "</ScaleAndOffsetComponent>");
}

std::string ScaleAndOffsetComponent::Info() const {
  std::ostringstream os;
  os << UpdatableComponent::Info()
     << ", rank=" << scale_preconditioner_.GetRank();
  if (dim_ != scales_.Dim()) os << ", block-size=" << scales_.Dim();
  PrintParameterStats(os, "scales", scales_, true);
  PrintParameterStats(os, "offsets", offsets_, true);
  return os.str();
}

void ScaleAndOffsetComponent::Scale(float scale) {
  if (scale == 0.0f) {
    scales_.SetZero();
    offsets_.SetZero();
  } else {
    scales_.Scale(scale);
    offsets_.Scale(scale);
  }
}

void ScaleAndOffsetComponent::Add(float alpha, const Component &other_in) {
  auto *other = dynamic_cast<const ScaleAndOffsetComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  scales_.AddVec(alpha, other->scales_);
  offsets_.AddVec(alpha, other->offsets_);
}

float ScaleAndOffsetComponent::DotProduct(
    const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const ScaleAndOffsetComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(VecVec(scales_, other->scales_) +
                            VecVec(offsets_, other->offsets_));
}

void ScaleAndOffsetComponent::PerturbParams(float stddev, uint64_t seed) {
  Vector noise(scales_.Dim(), ResizeType::kUndefined, scales_.device());
  noise.SetRandn(seed);
  scales_.AddVec(stddev, noise);
  noise.SetRandn(SecondSeed(seed));
  offsets_.AddVec(stddev, noise);
}

void ScaleAndOffsetComponent::Vectorize(VectorView *params) const {
  int32_t n = scales_.Dim();
  params->Range(0, n).CopyFromVec(scales_);
  params->Range(n, n).CopyFromVec(offsets_);
}

void ScaleAndOffsetComponent::UnVectorize(const VectorView &params) {
  int32_t n = scales_.Dim();
  scales_.CopyFromVec(params.Range(0, n));
  offsets_.CopyFromVec(params.Range(n, n));
}

// ---- ConstantFunctionComponent ----

void ConstantFunctionComponent::InitFromConfig(ConfigLine *cfl) {
  InitLearningRatesFromConfig(cfl);
  int32_t output_dim = 0;
  GetRequiredKey(Type(), "input-dim", cfl, &input_dim_);
  GetRequiredKey(Type(), "output-dim", cfl, &output_dim);
  is_updatable_ = true;
  cfl->GetValue("is-updatable", &is_updatable_);
  use_natural_gradient_ = true;
  cfl->GetValue("use-natural-gradient", &use_natural_gradient_);
  float output_mean = 0.0f, output_stddev = 0.0f;
  cfl->GetValue("output-mean", &output_mean);
  cfl->GetValue("output-stddev", &output_stddev);
  if (input_dim_ <= 0 || output_dim <= 0)
    NNET3_ERR << Type() << ": input-dim=" << input_dim_
              << " and output-dim=" << output_dim
              << " must be positive, in config line '" << cfl->WholeLine()
              << "'";
  output_.Resize(output_dim);
  output_.SetRandn(NextComponentInitSeed());
  output_.Scale(output_stddev);
  output_.Add(output_mean);
}

std::unique_ptr<Component> ConstantFunctionComponent::Copy() const {
  return std::make_unique<ConstantFunctionComponent>(*this);
}

void *ConstantFunctionComponent::Propagate(const ComponentPrecomputedIndexes *,
                                           const MatrixView &,
                                           MatrixView *out) const {
  // y = output in every row.
  out->CopyRowsFromVec(output_);
  return nullptr;
}

void ConstantFunctionComponent::Backprop(const std::string &,
                                         const ComponentPrecomputedIndexes *,
                                         const MatrixView &, const MatrixView &,
                                         const MatrixView &out_deriv, void *,
                                         Component *to_update_in,
                                         MatrixView *) const {
  // d x = 0 (nothing to add: BA);  d output = sum over rows of d y.
  if (to_update_in == nullptr) return;
  auto *to_update = dynamic_cast<ConstantFunctionComponent *>(to_update_in);
  NNET3_ASSERT(to_update != nullptr);
  if (!to_update->is_updatable_) return;
  bool ng = to_update->use_natural_gradient_ && !to_update->is_gradient_;
  Vector delta = ParamDelta(out_deriv, to_update->learning_rate_, ng,
                            &to_update->preconditioner_);
  to_update->output_.AddVec(1.0f, delta);
}

void ConstantFunctionComponent::Read(std::istream &is, bool binary) {
  std::string token = ReadUpdatableCommon(is, binary);
  ExpectAfterUpdatableCommon(is, binary, token, "<InputDim>");
  ReadBasicType(is, binary, &input_dim_);
  ExpectToken(is, binary, "<Output>");
  output_.Read(is, binary);
  ExpectToken(is, binary, "<IsUpdatable>");
  ReadBasicType(is, binary, &is_updatable_);
  ExpectToken(is, binary, "<UseNaturalGradient>");
  ReadBasicType(is, binary, &use_natural_gradient_);
  ExpectToken(is, binary, "</ConstantFunctionComponent>");
  if (input_dim_ <= 0 || output_.Dim() == 0)
    NNET3_ERR << "ConstantFunctionComponent: bad model file: <InputDim> "
              << input_dim_ << " and " << output_.Dim()
              << " <Output> values (both must be positive)";
}

void ConstantFunctionComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<InputDim>");
  WriteBasicType(os, binary, input_dim_);
  WriteToken(os, binary, "<Output>");
  output_.Write(os, binary);
  WriteToken(os, binary, "<IsUpdatable>");
  WriteBasicType(os, binary, is_updatable_);
  WriteToken(os, binary, "<UseNaturalGradient>");
  WriteBasicType(os, binary, use_natural_gradient_);
  WriteToken(os, binary, "</ConstantFunctionComponent>");
}

std::string ConstantFunctionComponent::Info() const {
  // Kaldi repeats the type and dims after the common part.
  std::ostringstream os;
  os << UpdatableComponent::Info() << ", " << Type()
     << ", input-dim=" << InputDim() << ", output-dim=" << OutputDim()
     << ", is-updatable=" << (is_updatable_ ? "true" : "false")
     << ", use-natural-gradient=" << (use_natural_gradient_ ? "true" : "false");
  PrintParameterStats(os, "output", output_, true);
  return os.str();
}

void ConstantFunctionComponent::Scale(float scale) {
  if (!is_updatable_) return;
  if (scale == 0.0f)
    output_.SetZero();
  else
    output_.Scale(scale);
}

void ConstantFunctionComponent::Add(float alpha, const Component &other_in) {
  if (!is_updatable_) return;
  auto *other = dynamic_cast<const ConstantFunctionComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  output_.AddVec(alpha, other->output_);
}

float ConstantFunctionComponent::DotProduct(
    const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const ConstantFunctionComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(VecVec(output_, other->output_));
}

void ConstantFunctionComponent::PerturbParams(float stddev, uint64_t seed) {
  Vector noise(output_.Dim(), ResizeType::kUndefined, output_.device());
  noise.SetRandn(seed);
  output_.AddVec(stddev, noise);
}

void ConstantFunctionComponent::Vectorize(VectorView *params) const {
  if (is_updatable_) params->CopyFromVec(output_);
}

void ConstantFunctionComponent::UnVectorize(const VectorView &params) {
  if (is_updatable_) output_.CopyFromVec(params);
}

}  // namespace nnet3
