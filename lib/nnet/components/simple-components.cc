#include "nnet/components/simple-components.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "base/error.h"
#include "base/io-funcs.h"
#include "base/text-utils.h"
#include "nnet/component-config.h"
#include "nnet/component-registry.h"
#include "nnet/init-random.h"
#include "nnet/parameter-stats.h"
#include "nnet/components/per-element-components.h"
#include "nnet/components/simple-component-utils.h"
#include "util/kaldi-io.h"

namespace nnet3 {
namespace {

// The shared body of ElementwiseProduct and Pnorm:
// <Type> <InputDim> i <OutputDim> i </Type>.
void WriteInputOutputDims(std::ostream &os, bool binary,
                          const std::string &type, int32_t input_dim,
                          int32_t output_dim) {
  WriteToken(os, binary, "<" + type + ">");
  WriteToken(os, binary, "<InputDim>");
  WriteBasicType(os, binary, input_dim);
  WriteToken(os, binary, "<OutputDim>");
  WriteBasicType(os, binary, output_dim);
  WriteToken(os, binary, "</" + type + ">");
}

// Reads the same (the opening tag optional) and checks that output-dim
// divides input-dim.
void ReadInputOutputDims(std::istream &is, bool binary, const std::string &type,
                         int32_t *input_dim, int32_t *output_dim) {
  ExpectOneOrTwoTokens(is, binary, "<" + type + ">", "<InputDim>");
  ReadBasicType(is, binary, input_dim);
  ExpectToken(is, binary, "<OutputDim>");
  ReadBasicType(is, binary, output_dim);
  ExpectToken(is, binary, "</" + type + ">");
  if (*input_dim <= 0 || *output_dim <= 0 || *input_dim % *output_dim != 0)
    NNET3_ERR << type << ": bad dimensions in model file: <InputDim> "
              << *input_dim << " is not a positive multiple of <OutputDim> "
              << *output_dim;
}

// Reads input-dim and output-dim (both required) and checks that
// output-dim > 0 divides input-dim > 0.
void GetDividingDims(const std::string &type, ConfigLine *cfl,
                     int32_t *input_dim, int32_t *output_dim) {
  GetRequiredKey(type, "input-dim", cfl, input_dim);
  GetRequiredKey(type, "output-dim", cfl, output_dim);
  if (*input_dim <= 0 || *output_dim <= 0 || *input_dim % *output_dim != 0)
    NNET3_ERR << type << ": input-dim=" << *input_dim
              << " must be a positive multiple of output-dim=" << *output_dim
              << " in config line '" << cfl->WholeLine() << "'";
}

std::string JoinIntegers(const std::vector<int32_t> &v) {
  std::ostringstream os;
  for (size_t i = 0; i < v.size(); i++) os << (i > 0 ? "," : "") << v[i];
  return os.str();
}

bool IsPermutation(const std::vector<int32_t> &map) {
  std::vector<int32_t> sorted(map);
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); i++)
    if (sorted[i] != static_cast<int32_t>(i)) return false;
  return !map.empty();
}

}  // namespace

// ---- ElementwiseProductComponent ----

void ElementwiseProductComponent::Init(int32_t input_dim, int32_t output_dim) {
  NNET3_ASSERT(output_dim > 0 && input_dim > output_dim &&
               input_dim % output_dim == 0);
  input_dim_ = input_dim;
  output_dim_ = output_dim;
}

void ElementwiseProductComponent::InitFromConfig(ConfigLine *cfl) {
  int32_t input_dim = 0, output_dim = 0;
  GetDividingDims(Type(), cfl, &input_dim, &output_dim);
  if (input_dim == output_dim)
    NNET3_ERR << Type() << ": input-dim=" << input_dim
              << " must be larger than output-dim=" << output_dim
              << " (at least two inputs to multiply) in config line '"
              << cfl->WholeLine() << "'";
  Init(input_dim, output_dim);
}

std::unique_ptr<Component> ElementwiseProductComponent::Copy() const {
  return std::make_unique<ElementwiseProductComponent>(*this);
}

void *ElementwiseProductComponent::Propagate(
    const ComponentPrecomputedIndexes *, const MatrixView &in,
    MatrixView *out) const {
  // out = in_0 .* in_1 .* ... where in_k is the k-th output-dim-wide slice.
  int32_t num_inputs = input_dim_ / output_dim_;
  out->CopyFromMat(in.ColRange(0, output_dim_));
  for (int32_t k = 1; k < num_inputs; k++)
    out->MulElements(in.ColRange(k * output_dim_, output_dim_));
  return nullptr;
}

void ElementwiseProductComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *,
    const MatrixView &in_value, const MatrixView &, const MatrixView &out_deriv,
    void *, Component *, MatrixView *in_deriv) const {
  // d in_k = d out .* (product of all slices other than in_k).
  if (in_deriv == nullptr) return;
  int32_t num_inputs = input_dim_ / output_dim_;
  for (int32_t k = 0; k < num_inputs; k++) {
    MatrixView d = in_deriv->ColRange(k * output_dim_, output_dim_);
    d.CopyFromMat(out_deriv);
    for (int32_t j = 0; j < num_inputs; j++)
      if (j != k)
        d.MulElements(in_value.ColRange(j * output_dim_, output_dim_));
  }
}

void ElementwiseProductComponent::Read(std::istream &is, bool binary) {
  ReadInputOutputDims(is, binary, Type(), &input_dim_, &output_dim_);
}

void ElementwiseProductComponent::Write(std::ostream &os, bool binary) const {
  WriteInputOutputDims(os, binary, Type(), input_dim_, output_dim_);
}

// ---- SumGroupComponent ----

void SumGroupComponent::Init(const std::vector<int32_t> &sizes) {
  NNET3_ASSERT(!sizes.empty());
  sizes_ = sizes;
  std::vector<std::pair<int32_t, int32_t>> ranges;
  std::vector<int32_t> reverse;
  int32_t begin = 0;
  for (size_t j = 0; j < sizes.size(); j++) {
    NNET3_ASSERT(sizes[j] > 0);
    ranges.emplace_back(begin, begin + sizes[j]);
    reverse.insert(reverse.end(), sizes[j], static_cast<int32_t>(j));
    begin += sizes[j];
  }
  input_dim_ = begin;
  ranges_ = IndexVector::FromRanges(ranges);
  reverse_index_ = IndexVector(reverse);
}

void SumGroupComponent::InitFromConfig(ConfigLine *cfl) {
  std::string sizes_str;
  std::vector<int32_t> sizes;
  if (cfl->GetValue("sizes", &sizes_str)) {
    bool ok = SplitStringToIntegers(sizes_str, ":,", &sizes) && !sizes.empty();
    for (int32_t s : sizes) ok = ok && s > 0;
    if (!ok)
      NNET3_ERR << Type() << ": sizes=" << sizes_str
                << " must be a comma-separated list of positive integers,"
                << " in config line '" << cfl->WholeLine() << "'";
  } else {
    int32_t input_dim = 0, output_dim = 0;
    if (!cfl->HasKey("input-dim") && !cfl->HasKey("output-dim"))
      NNET3_ERR << Type() << ": needs sizes=a,b,... or input-dim and "
                << "output-dim, in config line '" << cfl->WholeLine() << "'";
    GetDividingDims(Type(), cfl, &input_dim, &output_dim);
    sizes.assign(output_dim, input_dim / output_dim);
  }
  Init(sizes);
}

std::unique_ptr<Component> SumGroupComponent::Copy() const {
  return std::make_unique<SumGroupComponent>(*this);
}

void *SumGroupComponent::Propagate(const ComponentPrecomputedIndexes *,
                                   const MatrixView &in,
                                   MatrixView *out) const {
  // out_j = sum of in_i over the i in group j.
  SumColumnRanges(in, ranges_, out);
  return nullptr;
}

void SumGroupComponent::Backprop(const std::string &,
                                 const ComponentPrecomputedIndexes *,
                                 const MatrixView &, const MatrixView &,
                                 const MatrixView &out_deriv, void *,
                                 Component *, MatrixView *in_deriv) const {
  // d in_i = d out_{group(i)}.
  if (in_deriv != nullptr) CopyColumns(out_deriv, reverse_index_, in_deriv);
}

void SumGroupComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<SumGroupComponent>", "<Sizes>");
  std::vector<int32_t> sizes;
  ReadIntegerVector(is, binary, &sizes);
  std::string token;
  ReadToken(is, binary, &token);
  // Kaldi also accepts the opening tag here (an old writer's mistake).
  if (token != "</SumGroupComponent>" && token != "<SumGroupComponent>")
    NNET3_ERR << "Expected </SumGroupComponent> but found '" << token << "'";
  bool ok = !sizes.empty();
  for (int32_t s : sizes) ok = ok && s > 0;
  if (!ok)
    NNET3_ERR << "SumGroupComponent: bad <Sizes> in model file (must be "
              << "positive): " << JoinIntegers(sizes);
  Init(sizes);
}

void SumGroupComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<SumGroupComponent>");
  WriteToken(os, binary, "<Sizes>");
  WriteIntegerVector(os, binary, sizes_);
  WriteToken(os, binary, "</SumGroupComponent>");
}

// ---- SumBlockComponent ----

void SumBlockComponent::InitFromConfig(ConfigLine *cfl) {
  GetDividingDims(Type(), cfl, &input_dim_, &output_dim_);
  scale_ = 1.0f;
  cfl->GetValue("scale", &scale_);
}

std::unique_ptr<Component> SumBlockComponent::Copy() const {
  return std::make_unique<SumBlockComponent>(*this);
}

void *SumBlockComponent::Propagate(const ComponentPrecomputedIndexes *,
                                   const MatrixView &in,
                                   MatrixView *out) const {
  // out += scale * sum_k in[:, k*D : (k+1)*D], D = output-dim (adds: PA).
  for (int32_t k = 0; k < input_dim_ / output_dim_; k++)
    out->AddMat(scale_, in.ColRange(k * output_dim_, output_dim_));
  return nullptr;
}

void SumBlockComponent::Backprop(const std::string &,
                                 const ComponentPrecomputedIndexes *,
                                 const MatrixView &, const MatrixView &,
                                 const MatrixView &out_deriv, void *,
                                 Component *, MatrixView *in_deriv) const {
  // d in[:, k*D : (k+1)*D] += scale * d out, for every block k (adds: BA).
  if (in_deriv == nullptr) return;
  for (int32_t k = 0; k < input_dim_ / output_dim_; k++)
    in_deriv->ColRange(k * output_dim_, output_dim_).AddMat(scale_, out_deriv);
}

void SumBlockComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<SumBlockComponent>", "<InputDim>");
  ReadBasicType(is, binary, &input_dim_);
  ExpectToken(is, binary, "<OutputDim>");
  ReadBasicType(is, binary, &output_dim_);
  ExpectToken(is, binary, "<Scale>");
  ReadBasicType(is, binary, &scale_);
  ExpectToken(is, binary, "</SumBlockComponent>");
  if (input_dim_ <= 0 || output_dim_ <= 0 || input_dim_ % output_dim_ != 0)
    NNET3_ERR << "SumBlockComponent: bad dimensions in model file: "
              << "<InputDim> " << input_dim_
              << " is not a positive multiple of <OutputDim> " << output_dim_;
}

void SumBlockComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<SumBlockComponent>");
  WriteToken(os, binary, "<InputDim>");
  WriteBasicType(os, binary, input_dim_);
  WriteToken(os, binary, "<OutputDim>");
  WriteBasicType(os, binary, output_dim_);
  WriteToken(os, binary, "<Scale>");
  WriteBasicType(os, binary, scale_);
  WriteToken(os, binary, "</SumBlockComponent>");
}

std::string SumBlockComponent::Info() const {
  std::ostringstream os;
  os << Component::Info() << ", scale=" << scale_;
  return os.str();
}

// ---- PnormComponent ----

namespace {
// Backprop divides by the group norm; where it is (almost) zero all inputs
// of the group are too, and the floor makes their derivative 0, as Kaldi's
// DiffGroupPnorm does for a zero norm.
constexpr float kPnormFloor = 1.0e-20f;
}  // namespace

void PnormComponent::Init(int32_t input_dim, int32_t output_dim) {
  NNET3_ASSERT(output_dim > 0 && input_dim > 0 && input_dim % output_dim == 0);
  input_dim_ = input_dim;
  output_dim_ = output_dim;
}

void PnormComponent::InitFromConfig(ConfigLine *cfl) {
  int32_t input_dim = 0, output_dim = 0;
  GetDividingDims(Type(), cfl, &input_dim, &output_dim);
  Init(input_dim, output_dim);
}

std::unique_ptr<Component> PnormComponent::Copy() const {
  return std::make_unique<PnormComponent>(*this);
}

void *PnormComponent::Propagate(const ComponentPrecomputedIndexes *,
                                const MatrixView &in, MatrixView *out) const {
  // out_j = sqrt(sum_{k < G} in_{j*G+k}^2), G = input-dim / output-dim.
  int32_t rows = in.NumRows(), group = input_dim_ / output_dim_;
  if (rows == 0) return nullptr;
  Device &device = in.device();
  Matrix squares(rows, input_dim_, ResizeType::kUndefined,
                 MatrixStrideType::kStrideEqualNumCols, device);
  squares.CopyFromMat(in);
  squares.ApplyFunc(Func::kSquare);
  // Contiguous rows, so each group is one row of a (rows*output-dim) x G
  // matrix.
  Vector sums(rows * output_dim_, ResizeType::kSetZero, device);
  sums.AddColSumMat(1.0f, ReshapeToBlocks(squares, group), 0.0f);
  out->CopyFromMat(sums.AsMatrix(rows, output_dim_));
  out->ApplyFunc(Func::kSqrt);
  return nullptr;
}

void PnormComponent::Backprop(const std::string &,
                              const ComponentPrecomputedIndexes *,
                              const MatrixView &in_value,
                              const MatrixView &out_value,
                              const MatrixView &out_deriv, void *, Component *,
                              MatrixView *in_deriv) const {
  // d in_i = d out_j * in_i / out_j for i in group j (0 where out_j = 0).
  if (in_deriv == nullptr) return;
  int32_t rows = in_value.NumRows(), group = input_dim_ / output_dim_;
  if (rows == 0) return;
  Device &device = in_value.device();
  Matrix norms(rows, output_dim_, ResizeType::kUndefined,
               MatrixStrideType::kStrideEqualNumCols, device);
  norms.CopyFromMat(out_value);
  norms.ApplyFloor(kPnormFloor);
  Matrix ratio(rows, output_dim_, ResizeType::kUndefined,
               MatrixStrideType::kStrideEqualNumCols, device);
  ratio.CopyFromMat(out_deriv);
  ratio.DivElements(norms);
  // Repeat each ratio G times along the row: row r*output-dim+j of a
  // contiguous (rows*output-dim) x G matrix is group j of row r.
  Matrix expanded(rows * output_dim_, group, ResizeType::kSetZero,
                  MatrixStrideType::kStrideEqualNumCols, device);
  expanded.AddVecToCols(1.0f,
                        VectorView(device, ratio.Data(), rows * output_dim_));
  in_deriv->CopyFromMat(
      MatrixView(device, expanded.Data(), rows, input_dim_, input_dim_));
  in_deriv->MulElements(in_value);
}

void PnormComponent::Read(std::istream &is, bool binary) {
  ReadInputOutputDims(is, binary, Type(), &input_dim_, &output_dim_);
}

void PnormComponent::Write(std::ostream &os, bool binary) const {
  WriteInputOutputDims(os, binary, Type(), input_dim_, output_dim_);
}

// ---- PermuteComponent ----

void PermuteComponent::Init(const std::vector<int32_t> &column_map) {
  NNET3_ASSERT(IsPermutation(column_map));
  column_map_ = column_map;
  std::vector<int32_t> reverse(column_map.size());
  for (size_t i = 0; i < column_map.size(); i++)
    reverse[column_map[i]] = static_cast<int32_t>(i);
  forward_ = IndexVector(column_map);
  reverse_ = IndexVector(reverse);
}

void PermuteComponent::InitFromConfig(ConfigLine *cfl) {
  std::string map_str;
  GetRequiredKey(Type(), "column-map", cfl, &map_str);
  std::vector<int32_t> column_map;
  if (!SplitStringToIntegers(map_str, ",", &column_map) || column_map.empty())
    NNET3_ERR << Type() << ": column-map=" << map_str
              << " must be a comma-separated list of integers, in config line '"
              << cfl->WholeLine() << "'";
  if (!IsPermutation(column_map))
    NNET3_ERR << Type() << ": column-map=" << map_str
              << " is not a permutation of 0.." << column_map.size() - 1
              << " in config line '" << cfl->WholeLine() << "'";
  Init(column_map);
}

std::unique_ptr<Component> PermuteComponent::Copy() const {
  return std::make_unique<PermuteComponent>(*this);
}

void *PermuteComponent::Propagate(const ComponentPrecomputedIndexes *,
                                  const MatrixView &in, MatrixView *out) const {
  // out_i = in_{column_map[i]}.
  CopyColumns(in, forward_, out);
  return nullptr;
}

void PermuteComponent::Backprop(const std::string &,
                                const ComponentPrecomputedIndexes *,
                                const MatrixView &, const MatrixView &,
                                const MatrixView &out_deriv, void *,
                                Component *, MatrixView *in_deriv) const {
  // d in_{column_map[i]} = d out_i, i.e. d in = d out through the inverse.
  if (in_deriv != nullptr) CopyColumns(out_deriv, reverse_, in_deriv);
}

void PermuteComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<PermuteComponent>", "<ColumnMap>");
  std::vector<int32_t> column_map;
  ReadIntegerVector(is, binary, &column_map);
  ExpectToken(is, binary, "</PermuteComponent>");
  if (!IsPermutation(column_map))
    NNET3_ERR << "PermuteComponent: <ColumnMap> in model file is not a "
              << "permutation of 0..dim-1: " << JoinIntegers(column_map);
  Init(column_map);
}

void PermuteComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<PermuteComponent>");
  WriteToken(os, binary, "<ColumnMap>");
  WriteIntegerVector(os, binary, column_map_);
  WriteToken(os, binary, "</PermuteComponent>");
}

std::string PermuteComponent::Info() const {
  // Kaldi's format, including its " , " and at most 5 entries.
  std::ostringstream os;
  os << Type() << ", dim=" << column_map_.size() << " , column-map=[ ";
  for (size_t i = 0; i < column_map_.size() && i < 5; i++)
    os << column_map_[i] << ' ';
  if (column_map_.size() > 5) os << "... ";
  os << "]";
  return os.str();
}

// ---- FixedScaleComponent ----

void FixedScaleComponent::Init(const VectorView &scales) {
  NNET3_ASSERT(scales.Dim() > 0);
  scales_ = Vector(scales);
}

void FixedScaleComponent::InitFromConfig(ConfigLine *cfl) {
  std::string filename;
  if (cfl->GetValue("scales", &filename)) {
    Vector scales;
    ReadKaldiObject(filename, &scales);
    if (scales.Dim() == 0)
      NNET3_ERR << Type() << ": the vector in scales=" << filename
                << " is empty";
    Init(scales);
    return;
  }
  float scale = 1.0f;
  bool scale_is_set = cfl->GetValue("scale", &scale);
  int32_t dim = 0;
  if (!cfl->GetValue("dim", &dim))
    NNET3_ERR << Type() << ": needs scales=<rxfilename> or dim=<int>, in "
              << "config line '" << cfl->WholeLine() << "'";
  if (dim <= 0)
    NNET3_ERR << Type() << ": dim=" << dim << " must be positive, in config "
              << "line '" << cfl->WholeLine() << "'";
  Vector scales(dim);
  // Kaldi's testing initialization: random scales unless scale= is given.
  if (scale_is_set)
    scales.Set(scale);
  else
    scales.SetRandn(NextComponentInitSeed());
  Init(scales);
}

std::unique_ptr<Component> FixedScaleComponent::Copy() const {
  return std::make_unique<FixedScaleComponent>(*this);
}

void *FixedScaleComponent::Propagate(const ComponentPrecomputedIndexes *,
                                     const MatrixView &in,
                                     MatrixView *out) const {
  // out = in .* scales (per column); in place is fine.
  out->CopyFromMat(in);
  out->MulColsVec(scales_);
  return nullptr;
}

void FixedScaleComponent::Backprop(const std::string &,
                                   const ComponentPrecomputedIndexes *,
                                   const MatrixView &, const MatrixView &,
                                   const MatrixView &out_deriv, void *,
                                   Component *, MatrixView *in_deriv) const {
  // d in = d out .* scales.
  if (in_deriv == nullptr) return;
  in_deriv->CopyFromMat(out_deriv);
  in_deriv->MulColsVec(scales_);
}

void FixedScaleComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<FixedScaleComponent>", "<Scales>");
  scales_.Read(is, binary);
  ExpectToken(is, binary, "</FixedScaleComponent>");
  if (scales_.Dim() == 0)
    NNET3_ERR << "FixedScaleComponent: empty <Scales> in model file";
}

void FixedScaleComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<FixedScaleComponent>");
  WriteToken(os, binary, "<Scales>");
  scales_.Write(os, binary);
  WriteToken(os, binary, "</FixedScaleComponent>");
}

std::string FixedScaleComponent::Info() const {
  std::ostringstream os;
  os << Component::Info();
  PrintParameterStats(os, "scales", scales_, true);
  return os.str();
}

// ---- FixedBiasComponent ----

void FixedBiasComponent::Init(const VectorView &bias) {
  NNET3_ASSERT(bias.Dim() > 0);
  bias_ = Vector(bias);
}

void FixedBiasComponent::InitFromConfig(ConfigLine *cfl) {
  std::string filename;
  if (cfl->GetValue("bias", &filename)) {
    Vector bias;
    ReadKaldiObject(filename, &bias);
    if (bias.Dim() == 0)
      NNET3_ERR << Type() << ": the vector in bias=" << filename << " is empty";
    Init(bias);
    return;
  }
  int32_t dim = 0;
  if (!cfl->GetValue("dim", &dim))
    NNET3_ERR << Type() << ": needs bias=<rxfilename> or dim=<int>, in "
              << "config line '" << cfl->WholeLine() << "'";
  if (dim <= 0)
    NNET3_ERR << Type() << ": dim=" << dim << " must be positive, in config "
              << "line '" << cfl->WholeLine() << "'";
  Vector bias(dim);
  bias.SetRandn(NextComponentInitSeed());  // Kaldi's testing initialization
  Init(bias);
}

std::unique_ptr<Component> FixedBiasComponent::Copy() const {
  return std::make_unique<FixedBiasComponent>(*this);
}

void *FixedBiasComponent::Propagate(const ComponentPrecomputedIndexes *,
                                    const MatrixView &in,
                                    MatrixView *out) const {
  // out = in + bias (every row); in place is fine.
  out->CopyFromMat(in);
  out->AddVecToRows(1.0f, bias_);
  return nullptr;
}

void FixedBiasComponent::Backprop(const std::string &,
                                  const ComponentPrecomputedIndexes *,
                                  const MatrixView &, const MatrixView &,
                                  const MatrixView &out_deriv, void *,
                                  Component *, MatrixView *in_deriv) const {
  // d in = d out.
  if (in_deriv != nullptr) in_deriv->CopyFromMat(out_deriv);
}

void FixedBiasComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<FixedBiasComponent>", "<Bias>");
  bias_.Read(is, binary);
  ExpectToken(is, binary, "</FixedBiasComponent>");
  if (bias_.Dim() == 0)
    NNET3_ERR << "FixedBiasComponent: empty <Bias> in model file";
}

void FixedBiasComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<FixedBiasComponent>");
  WriteToken(os, binary, "<Bias>");
  bias_.Write(os, binary);
  WriteToken(os, binary, "</FixedBiasComponent>");
}

std::string FixedBiasComponent::Info() const {
  std::ostringstream os;
  os << Component::Info();
  PrintParameterStats(os, "bias", bias_, true);
  return os.str();
}

// ---- the group factory ----

namespace {

template <class C>
std::unique_ptr<Component> Make() {
  return std::make_unique<C>();
}

struct TypeEntry {
  const char *name;
  std::unique_ptr<Component> (*make)();
};

const TypeEntry kSimpleTypes[] = {
    {"ElementwiseProductComponent", Make<ElementwiseProductComponent>},
    {"SumGroupComponent", Make<SumGroupComponent>},
    {"SumBlockComponent", Make<SumBlockComponent>},
    {"PnormComponent", Make<PnormComponent>},
    {"PermuteComponent", Make<PermuteComponent>},
    {"FixedScaleComponent", Make<FixedScaleComponent>},
    {"FixedBiasComponent", Make<FixedBiasComponent>},
    {"PerElementScaleComponent", Make<PerElementScaleComponent>},
    {"PerElementOffsetComponent", Make<PerElementOffsetComponent>},
    {"ScaleAndOffsetComponent", Make<ScaleAndOffsetComponent>},
    {"ConstantFunctionComponent", Make<ConstantFunctionComponent>},
};

}  // namespace

std::unique_ptr<Component> NewSimpleComponentOfType(const std::string &type) {
  for (const TypeEntry &entry : kSimpleTypes)
    if (type == entry.name) return entry.make();
  return nullptr;
}

std::vector<std::string> SimpleComponentTypes() {
  std::vector<std::string> types;
  for (const TypeEntry &entry : kSimpleTypes) types.push_back(entry.name);
  return types;
}

}  // namespace nnet3
