#include "nnet/components/dropout-components.h"

#include <algorithm>
#include <sstream>
#include <unordered_map>

#include "base/error.h"
#include "base/io-funcs.h"
#include "base/random.h"
#include "nnet/components/nonlinear-common.h"

namespace nnet3 {

// ---------------------------------------------------------------------------
// DropoutComponent

void DropoutComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  dim_ = 0;
  dropout_proportion_ = 0.0f;
  dropout_per_frame_ = false;
  test_mode_ = false;
  GetRequiredKey(type, "dim", cfl, &dim_);
  CheckConfig(dim_ > 0, type, "dim", dim_, "must be > 0", *cfl);
  GetRequiredKey(type, "dropout-proportion", cfl, &dropout_proportion_);
  CheckConfig(dropout_proportion_ >= 0.0f && dropout_proportion_ <= 1.0f, type,
              "dropout-proportion", dropout_proportion_, "must be in [0, 1]",
              *cfl);
  cfl->GetValue("dropout-per-frame", &dropout_per_frame_);
  cfl->GetValue("test-mode", &test_mode_);  // for tests only
}

std::unique_ptr<Component> DropoutComponent::Copy() const {
  return std::make_unique<DropoutComponent>(*this);
}

void DropoutComponent::SetDropoutProportion(float p) {
  if (!(p >= 0.0f && p <= 1.0f))
    NNET3_ERR << "DropoutComponent: dropout proportion " << p
              << " is outside [0, 1]";
  dropout_proportion_ = p;
}

void DropoutComponent::Read(std::istream &is, bool binary) {
  std::string token;
  ReadToken(is, binary, &token);
  if (token == "<DropoutComponent>" || token == "DropoutComponent>")
    ReadToken(is, binary, &token);
  if (token != "<Dim>")
    NNET3_ERR << "Reading <DropoutComponent>: expected <Dim> but found "
              << token;
  ReadBasicType(is, binary, &dim_);
  ExpectToken(is, binary, "<DropoutProportion>");
  ReadBasicType(is, binary, &dropout_proportion_);
  ReadToken(is, binary, &token);
  dropout_per_frame_ = false;
  if (token == "<DropoutPerFrame>") {
    ReadBasicType(is, binary, &dropout_per_frame_);
    ReadToken(is, binary, &token);
  }
  test_mode_ = false;
  if (token == "<TestMode>") {
    ReadBasicType(is, binary, &test_mode_);
    ReadToken(is, binary, &token);
  }
  if (token != "</DropoutComponent>")
    NNET3_ERR << "Reading <DropoutComponent>: expected </DropoutComponent> "
              << "but found " << token;
}

void DropoutComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<DropoutComponent>");
  WriteToken(os, binary, "<Dim>");
  WriteBasicType(os, binary, dim_);
  WriteToken(os, binary, "<DropoutProportion>");
  WriteBasicType(os, binary, dropout_proportion_);
  WriteToken(os, binary, "<DropoutPerFrame>");
  WriteBasicType(os, binary, dropout_per_frame_);
  WriteToken(os, binary, "<TestMode>");
  WriteBasicType(os, binary, test_mode_);
  WriteToken(os, binary, "</DropoutComponent>");
}

std::string DropoutComponent::Info() const {
  std::ostringstream os;
  os << Type() << ", dim=" << dim_
     << ", dropout-proportion=" << dropout_proportion_
     << ", dropout-per-frame=" << (dropout_per_frame_ ? "true" : "false");
  return os.str();
}

// Training: out = in .* mask, mask(i, j) = [u(i, j) > p] for uniform u (per
// row with dropout-per-frame); no 1/(1-p) rescaling. Test: out = (1-p) in.
void *DropoutComponent::Propagate(const ComponentPrecomputedIndexes *,
                                  const MatrixView &in, MatrixView *out) const {
  NNET3_ASSERT(in.SameShape(*out) && in.NumCols() == dim_);
  float p = dropout_proportion_;
  if (test_mode_) {
    out->CopyFromMat(in);
    out->Scale(1.0f - p);
    return nullptr;
  }
  if (dropout_per_frame_) {
    Vector mask(in.NumRows(), ResizeType::kUndefined, in.device());
    mask.SetRandUniform(NextSeed());
    mask.Add(-p);
    mask.ApplyFunc(Func::kHeaviside);
    out->CopyFromMat(in);
    out->MulRowsVec(mask);
    return nullptr;
  }
  if (out->Data() == in.Data()) {  // not declared in place, but be safe
    Matrix mask(in.NumRows(), in.NumCols(), ResizeType::kUndefined,
                MatrixStrideType::kDefaultStride, in.device());
    mask.SetRandUniform(NextSeed());
    mask.Add(-p);
    mask.ApplyFunc(Func::kHeaviside);
    out->MulElements(mask);
    return nullptr;
  }
  out->SetRandUniform(NextSeed());
  out->Add(-p);
  out->ApplyFunc(Func::kHeaviside);
  out->MulElements(in);
  return nullptr;
}

// in_deriv = out_deriv .* (out / in) where in != 0, and out_deriv where
// in == 0 (Kaldi's SetMatMatDivMat): the mask, or 1-p in test mode.
void DropoutComponent::Backprop(const std::string &,
                                const ComponentPrecomputedIndexes *,
                                const MatrixView &in_value,
                                const MatrixView &out_value,
                                const MatrixView &out_deriv, void *,
                                Component *, MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  NNET3_ASSERT(in_value.SameShape(out_value) && in_value.SameShape(out_deriv));
  Matrix is_zero(in_value);  // 1 where in == 0, else 0
  is_zero.ApplyFunc(Func::kAbs);
  is_zero.ApplyFunc(Func::kHeaviside);
  is_zero.Scale(-1.0f);
  is_zero.Add(1.0f);
  Matrix denom(in_value);
  denom.AddMat(1.0f, is_zero);
  Matrix ratio(out_value);
  ratio.DivElements(denom);
  ratio.AddMat(1.0f, is_zero);
  in_deriv->CopyFromMat(out_deriv);  // nothing to do when in place
  in_deriv->MulElements(ratio);
}

// ---------------------------------------------------------------------------
// GeneralDropoutComponentPrecomputedIndexes

std::unique_ptr<ComponentPrecomputedIndexes>
GeneralDropoutComponentPrecomputedIndexes::Copy() const {
  return std::make_unique<GeneralDropoutComponentPrecomputedIndexes>(*this);
}

void GeneralDropoutComponentPrecomputedIndexes::Write(std::ostream &os,
                                                      bool binary) const {
  WriteToken(os, binary, "<GeneralDropoutComponentPrecomputedIndexes>");
  WriteToken(os, binary, "<NumMaskRows>");
  WriteBasicType(os, binary, num_mask_rows);
  WriteToken(os, binary, "<Indexes>");
  WriteIntegerVector(os, binary, indexes.ToHost());
  WriteToken(os, binary, "</GeneralDropoutComponentPrecomputedIndexes>");
}

void GeneralDropoutComponentPrecomputedIndexes::Read(std::istream &is,
                                                     bool binary) {
  ExpectOneOrTwoTokens(is, binary,
                       "<GeneralDropoutComponentPrecomputedIndexes>",
                       "<NumMaskRows>");
  ReadBasicType(is, binary, &num_mask_rows);
  ExpectToken(is, binary, "<Indexes>");
  std::vector<int32_t> host;
  ReadIntegerVector(is, binary, &host);
  for (int32_t i : host)
    if (i < 0 || i >= num_mask_rows)
      NNET3_ERR << "Reading <GeneralDropoutComponentPrecomputedIndexes>: "
                << "index " << i << " is outside [0, " << num_mask_rows << ")";
  indexes.CopyFromVec(host);
  ExpectToken(is, binary, "</GeneralDropoutComponentPrecomputedIndexes>");
}

// ---------------------------------------------------------------------------
// GeneralDropoutComponent

void GeneralDropoutComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  dim_ = 0;
  GetRequiredKey(type, "dim", cfl, &dim_);
  CheckConfig(dim_ > 0, type, "dim", dim_, "must be > 0", *cfl);
  block_dim_ = dim_;
  cfl->GetValue("block-dim", &block_dim_);
  CheckConfig(block_dim_ > 0 && dim_ % block_dim_ == 0, type, "block-dim",
              block_dim_, "must be > 0 and divide dim", *cfl);
  time_period_ = 0;
  cfl->GetValue("time-period", &time_period_);
  CheckConfig(time_period_ >= 0, type, "time-period", time_period_,
              "must be >= 0", *cfl);
  dropout_proportion_ = 0.5f;
  cfl->GetValue("dropout-proportion", &dropout_proportion_);
  continuous_ = false;
  cfl->GetValue("continuous", &continuous_);
  CheckConfig(dropout_proportion_ >= 0.0f && dropout_proportion_ <= 1.0f &&
                  (continuous_ || dropout_proportion_ < 1.0f),
              type, "dropout-proportion", dropout_proportion_,
              "must be in [0, 1), or [0, 1] with continuous=true", *cfl);
  specaugment_max_proportion_ = 0.0f;
  cfl->GetValue("specaugment-max-proportion", &specaugment_max_proportion_);
  CheckConfig(specaugment_max_proportion_ >= 0.0f &&
                  specaugment_max_proportion_ <= 1.0f,
              type, "specaugment-max-proportion", specaugment_max_proportion_,
              "must be in [0, 1]", *cfl);
  specaugment_max_regions_ = 1;
  cfl->GetValue("specaugment-max-regions", &specaugment_max_regions_);
  CheckConfig(specaugment_max_regions_ >= 1, type, "specaugment-max-regions",
              specaugment_max_regions_, "must be >= 1", *cfl);
  test_mode_ = false;
  cfl->GetValue("test-mode", &test_mode_);
}

std::unique_ptr<Component> GeneralDropoutComponent::Copy() const {
  return std::make_unique<GeneralDropoutComponent>(*this);
}

void GeneralDropoutComponent::SetDropoutProportion(float p) {
  if (!(p >= 0.0f && p <= 1.0f && (continuous_ || p < 1.0f)))
    NNET3_ERR << "GeneralDropoutComponent: dropout proportion " << p
              << " is outside [0, 1) ([0, 1] if continuous)";
  dropout_proportion_ = p;
}

void GeneralDropoutComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<GeneralDropoutComponent>", "<Dim>");
  ReadBasicType(is, binary, &dim_);
  ExpectToken(is, binary, "<BlockDim>");
  ReadBasicType(is, binary, &block_dim_);
  if (dim_ <= 0 || block_dim_ <= 0 || dim_ % block_dim_ != 0)
    NNET3_ERR << "Reading <GeneralDropoutComponent>: bad dim " << dim_
              << " or block-dim " << block_dim_;
  ExpectToken(is, binary, "<TimePeriod>");
  ReadBasicType(is, binary, &time_period_);
  ExpectToken(is, binary, "<DropoutProportion>");
  ReadBasicType(is, binary, &dropout_proportion_);
  specaugment_max_proportion_ = 0.0f;
  specaugment_max_regions_ = 1;
  if (PeekToken(is, binary) == 'S') {
    ExpectToken(is, binary, "<SpecAugmentMaxProportion>");
    ReadBasicType(is, binary, &specaugment_max_proportion_);
    if (PeekToken(is, binary) == 'S') {
      ExpectToken(is, binary, "<SpecAugmentMaxRegions>");
      ReadBasicType(is, binary, &specaugment_max_regions_);
    }
  }
  test_mode_ = false;
  if (PeekToken(is, binary) == 'T') {
    ExpectToken(is, binary, "<TestMode>");
    test_mode_ = true;
  }
  continuous_ = false;
  if (PeekToken(is, binary) == 'C') {
    ExpectToken(is, binary, "<Continuous>");
    continuous_ = true;
  }
  ExpectToken(is, binary, "</GeneralDropoutComponent>");
}

void GeneralDropoutComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<GeneralDropoutComponent>");
  WriteToken(os, binary, "<Dim>");
  WriteBasicType(os, binary, dim_);
  WriteToken(os, binary, "<BlockDim>");
  WriteBasicType(os, binary, block_dim_);
  WriteToken(os, binary, "<TimePeriod>");
  WriteBasicType(os, binary, time_period_);
  WriteToken(os, binary, "<DropoutProportion>");
  WriteBasicType(os, binary, dropout_proportion_);
  if (specaugment_max_proportion_ != 0.0f) {
    WriteToken(os, binary, "<SpecAugmentMaxProportion>");
    WriteBasicType(os, binary, specaugment_max_proportion_);
    if (specaugment_max_regions_ != 1) {
      WriteToken(os, binary, "<SpecAugmentMaxRegions>");
      WriteBasicType(os, binary, specaugment_max_regions_);
    }
  }
  if (test_mode_) WriteToken(os, binary, "<TestMode>");
  if (continuous_) WriteToken(os, binary, "<Continuous>");
  WriteToken(os, binary, "</GeneralDropoutComponent>");
}

std::string GeneralDropoutComponent::Info() const {
  std::ostringstream os;
  os << Type() << ", dim=" << dim_ << ", block-dim=" << block_dim_
     << ", dropout-proportion=" << dropout_proportion_;
  if (continuous_) os << ", continuous=true";
  if (time_period_ > 0) os << ", time-period=" << time_period_;
  if (specaugment_max_proportion_ != 0.0f)
    os << ", specaugment-max-proportion=" << specaugment_max_proportion_
       << ", specaugment-max-regions=" << specaugment_max_regions_;
  return os.str();
}

bool GeneralDropoutComponent::Active() const {
  return !test_mode_ &&
         (dropout_proportion_ != 0.0f || specaugment_max_proportion_ != 0.0f);
}

// Mask values: u > p ? 1/(1-p) : 0, or 1 + 4p(u - 1/2) when continuous
// (u uniform in [0, 1)); both have expected value 1.
Matrix *GeneralDropoutComponent::MakeMask(int32_t num_rows,
                                          Device &device) const {
  auto *mask = new Matrix(num_rows, block_dim_, ResizeType::kUndefined,
                          MatrixStrideType::kDefaultStride, device);
  if (specaugment_max_proportion_ != 0.0f) {
    MakeSpecAugmentMask(mask);
    return mask;
  }
  float p = dropout_proportion_;
  mask->SetRandUniform(NextSeed());
  if (!continuous_) {
    mask->Add(-p);
    mask->ApplyFunc(Func::kHeaviside);
    mask->Scale(1.0f / (1.0f - p));
  } else {
    mask->Scale(4.0f * p);
    mask->Add(1.0f - 2.0f * p);
  }
  return mask;
}

// SpecAugment-style frequency masking: per mask row, a number of zeroed
// values drawn uniformly from [0, round(max-proportion * block-dim)], split
// into 1..specaugment-max-regions bands (as equal as possible) at uniformly
// drawn positions; the other values are 1. Only the band ends are drawn on
// the host; the mask is built on the device from a column-index matrix.
void GeneralDropoutComponent::MakeSpecAugmentMask(Matrix *mask) const {
  int32_t rows = mask->NumRows(), b = block_dim_;
  int32_t max_zeroed =
      static_cast<int32_t>(specaugment_max_proportion_ * b + 0.5f);
  uint64_t seed = NextSeed();
  RandomState rng(static_cast<uint32_t>(seed ^ (seed >> 32)));
  int32_t max_regions = specaugment_max_regions_;
  std::vector<std::vector<float>> begin(max_regions,
                                        std::vector<float>(rows, 0.0f));
  std::vector<std::vector<float>> end(begin);
  for (int32_t r = 0; r < rows; r++) {
    int32_t num_zeroed = rng.Int(0, max_zeroed);
    int32_t num_regions =
        std::min(rng.Int(1, max_regions), std::max(num_zeroed, 1));
    for (int32_t k = 0; k < num_regions; k++) {
      int32_t size =
          num_zeroed / num_regions + (k < num_zeroed % num_regions ? 1 : 0);
      int32_t start = rng.Int(0, b - size);
      begin[k][r] = static_cast<float>(start);
      end[k][r] = static_cast<float>(start + size);
    }
  }
  Device &device = mask->device();
  std::vector<float> iota(b);
  for (int32_t c = 0; c < b; c++) iota[c] = static_cast<float>(c);
  Matrix cols(rows, b, ResizeType::kUndefined, MatrixStrideType::kDefaultStride,
              device);
  cols.CopyRowsFromVec(Vector(iota, device));
  Matrix zeroed(rows, b, ResizeType::kSetZero, MatrixStrideType::kDefaultStride,
                device);
  Matrix after_begin(rows, b, ResizeType::kUndefined,
                     MatrixStrideType::kDefaultStride, device);
  Matrix before_end(rows, b, ResizeType::kUndefined,
                    MatrixStrideType::kDefaultStride, device);
  for (int32_t k = 0; k < max_regions; k++) {
    // in band: c >= begin (c - begin + 0.5 > 0) and c < end.
    after_begin.CopyFromMat(cols);
    after_begin.AddVecToCols(-1.0f, Vector(begin[k], device));
    after_begin.Add(0.5f);
    after_begin.ApplyFunc(Func::kHeaviside);
    before_end.CopyFromMat(cols);
    before_end.Scale(-1.0f);
    before_end.AddVecToCols(1.0f, Vector(end[k], device));
    before_end.Add(-0.5f);
    before_end.ApplyFunc(Func::kHeaviside);
    after_begin.MulElements(before_end);
    zeroed.MaxElements(after_begin);
  }
  mask->Set(1.0f);
  mask->AddMat(-1.0f, zeroed);
}

void GeneralDropoutComponent::ApplyMask(
    const ComponentPrecomputedIndexes *indexes_in, const Matrix &mask,
    MatrixView *m) const {
  BlockView blocks(*m, block_dim_, true);
  MatrixView *v = blocks.Mutable();
  Matrix expanded(v->NumRows(), block_dim_, ResizeType::kUndefined,
                  MatrixStrideType::kDefaultStride, v->device());
  if (indexes_in != nullptr) {
    const auto *indexes =
        dynamic_cast<const GeneralDropoutComponentPrecomputedIndexes *>(
            indexes_in);
    NNET3_ASSERT(indexes != nullptr && indexes->indexes.Dim() == v->NumRows());
    expanded.CopyRows(mask, indexes->indexes);
  } else {
    // No indexes: mask row r for every block of matrix row r.
    int32_t multiple = dim_ / block_dim_;
    std::vector<int32_t> host(v->NumRows());
    for (size_t i = 0; i < host.size(); i++)
      host[i] = static_cast<int32_t>(i) / multiple;
    expanded.CopyRows(mask, IndexVector(host, v->device()));
  }
  v->MulElements(expanded);
  blocks.WriteBack();
}

void *GeneralDropoutComponent::Propagate(
    const ComponentPrecomputedIndexes *indexes_in, const MatrixView &in,
    MatrixView *out) const {
  NNET3_ASSERT(in.SameShape(*out) && in.NumCols() == dim_);
  out->CopyFromMat(in);  // nothing to do when in place
  if (!Active()) return nullptr;
  int32_t num_mask_rows = in.NumRows();
  if (indexes_in != nullptr) {
    const auto *indexes =
        dynamic_cast<const GeneralDropoutComponentPrecomputedIndexes *>(
            indexes_in);
    NNET3_ASSERT(indexes != nullptr);
    num_mask_rows = indexes->num_mask_rows;
  }
  Matrix *mask = MakeMask(num_mask_rows, in.device());
  ApplyMask(indexes_in, *mask, out);
  return mask;
}

// in_deriv = out_deriv .* mask (the mask row of each row).
void GeneralDropoutComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *indexes,
    const MatrixView &, const MatrixView &, const MatrixView &out_deriv,
    void *memo, Component *, MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  in_deriv->CopyFromMat(out_deriv);
  if (!Active()) return;
  NNET3_ASSERT(memo != nullptr);
  ApplyMask(indexes, *static_cast<Matrix *>(memo), in_deriv);
}

void GeneralDropoutComponent::DeleteMemo(void *memo) const {
  delete static_cast<Matrix *>(memo);
}

std::unique_ptr<ComponentPrecomputedIndexes>
GeneralDropoutComponent::PrecomputeIndexes(
    const MiscComputationInfo &, const std::vector<Index> &input_indexes,
    const std::vector<Index> &output_indexes, bool) const {
  NNET3_ASSERT(input_indexes == output_indexes);
  // Mask row per (n, floor(t / time-period)) in order of first appearance.
  std::unordered_map<int64_t, int32_t> rows;
  std::vector<int32_t> row_of(input_indexes.size());
  for (size_t i = 0; i < input_indexes.size(); i++) {
    const Index &index = input_indexes[i];
    int32_t t = 0;
    if (time_period_ > 0) {
      t = index.t / time_period_;
      if (index.t % time_period_ != 0 && index.t < 0) t--;  // round down
    }
    int64_t key =
        (static_cast<int64_t>(index.n) << 32) ^ static_cast<uint32_t>(t);
    auto inserted = rows.emplace(key, static_cast<int32_t>(rows.size()));
    row_of[i] = inserted.first->second;
  }
  int32_t multiple = dim_ / block_dim_;
  auto ans = std::make_unique<GeneralDropoutComponentPrecomputedIndexes>();
  ans->num_mask_rows = static_cast<int32_t>(rows.size()) * multiple;
  std::vector<int32_t> repeated;
  repeated.reserve(row_of.size() * multiple);
  for (int32_t row : row_of)
    for (int32_t j = 0; j < multiple; j++) repeated.push_back(row);
  ans->indexes.CopyFromVec(repeated);
  return ans;
}

}  // namespace nnet3
