#include "nnet/components/general-components.h"

#include <sstream>
#include <unordered_map>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-config.h"
#include "nnet/component-registry.h"
#include "nnet/components/nonlinear-common.h"
#include "nnet/init-random.h"
#include "nnet/parameter-stats.h"

namespace nnet3 {

std::unique_ptr<Component> NewGeneralComponentOfType(const std::string &type) {
  if (type == "DistributeComponent")
    return std::make_unique<DistributeComponent>();
  if (type == "ConstantComponent") return std::make_unique<ConstantComponent>();
  return nullptr;
}

std::vector<std::string> GeneralComponentTypes() {
  return {"ConstantComponent", "DistributeComponent"};
}

// ---------------------------------------------------------------------------
// DistributeComponentPrecomputedIndexes

std::unique_ptr<ComponentPrecomputedIndexes>
DistributeComponentPrecomputedIndexes::Copy() const {
  return std::make_unique<DistributeComponentPrecomputedIndexes>(*this);
}

void DistributeComponentPrecomputedIndexes::Write(std::ostream &os,
                                                  bool binary) const {
  WriteToken(os, binary, "<DistributeComponentPrecomputedIndexes>");
  WriteToken(os, binary, "<Pairs>");
  WriteIntegerPairVector(os, binary, pairs);
  WriteToken(os, binary, "</DistributeComponentPrecomputedIndexes>");
}

void DistributeComponentPrecomputedIndexes::Read(std::istream &is,
                                                 bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<DistributeComponentPrecomputedIndexes>",
                       "<Pairs>");
  ReadIntegerPairVector(is, binary, &pairs);
  for (const auto &p : pairs)
    if (p.first < 0 || p.second < 0)
      NNET3_ERR << "Reading <DistributeComponentPrecomputedIndexes>: "
                << "negative row or column (" << p.first << ", " << p.second
                << ")";
  ExpectToken(is, binary, "</DistributeComponentPrecomputedIndexes>");
}

// ---------------------------------------------------------------------------
// DistributeComponent

void DistributeComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  input_dim_ = GetPositiveInt(cfl, type, "input-dim");
  output_dim_ = GetPositiveInt(cfl, type, "output-dim");
  CheckConfig(input_dim_ % output_dim_ == 0, type, "output-dim", output_dim_,
              "must divide input-dim", *cfl);
}

std::unique_ptr<Component> DistributeComponent::Copy() const {
  return std::make_unique<DistributeComponent>(*this);
}

void DistributeComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<DistributeComponent>", "<InputDim>");
  ReadBasicType(is, binary, &input_dim_);
  ExpectToken(is, binary, "<OutputDim>");
  ReadBasicType(is, binary, &output_dim_);
  ExpectToken(is, binary, "</DistributeComponent>");
  if (input_dim_ <= 0 || output_dim_ <= 0 || input_dim_ % output_dim_ != 0)
    NNET3_ERR << "Reading <DistributeComponent>: bad dims " << input_dim_
              << " and " << output_dim_;
}

void DistributeComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<DistributeComponent>");
  WriteToken(os, binary, "<InputDim>");
  WriteBasicType(os, binary, input_dim_);
  WriteToken(os, binary, "<OutputDim>");
  WriteBasicType(os, binary, output_dim_);
  WriteToken(os, binary, "</DistributeComponent>");
}

Index DistributeComponent::InputIndexAndBlock(const Index &output_index,
                                              int32_t *block) const {
  const int32_t num_blocks = input_dim_ / output_dim_;
  Index input_index = output_index;
  const int32_t x = output_index.x;
  // floor(x / num_blocks) also for negative x.
  input_index.x = x >= 0 ? x / num_blocks : (x - num_blocks + 1) / num_blocks;
  if (block != nullptr) *block = x - input_index.x * num_blocks;
  return input_index;
}

void DistributeComponent::GetInputIndexes(
    const MiscComputationInfo &, const Index &output_index,
    std::vector<Index> *desired_indexes) const {
  desired_indexes->assign(1, InputIndexAndBlock(output_index, nullptr));
}

bool DistributeComponent::IsComputable(const MiscComputationInfo &,
                                       const Index &output_index,
                                       const IndexSet &input_index_set,
                                       std::vector<Index> *used_inputs) const {
  const Index input_index = InputIndexAndBlock(output_index, nullptr);
  const bool ans = input_index_set(input_index);
  if (used_inputs != nullptr) {
    used_inputs->clear();
    if (ans) used_inputs->push_back(input_index);
  }
  return ans;
}

std::unique_ptr<ComponentPrecomputedIndexes>
DistributeComponent::PrecomputeIndexes(const MiscComputationInfo &,
                                       const std::vector<Index> &input_indexes,
                                       const std::vector<Index> &output_indexes,
                                       bool) const {
  std::unordered_map<Index, int32_t, IndexHasher> row_of;
  for (size_t i = 0; i < input_indexes.size(); i++)
    row_of[input_indexes[i]] = static_cast<int32_t>(i);
  auto ans = std::make_unique<DistributeComponentPrecomputedIndexes>();
  ans->pairs.reserve(output_indexes.size());
  for (const Index &output_index : output_indexes) {
    int32_t block = 0;
    auto it = row_of.find(InputIndexAndBlock(output_index, &block));
    NNET3_ASSERT(it != row_of.end());
    ans->pairs.emplace_back(it->second, block * output_dim_);
  }
  return ans;
}

RowPointers DistributeComponent::BlockPointers(
    const ComponentPrecomputedIndexes *indexes_in, int32_t num_output_rows,
    const MatrixView &m) const {
  const auto *indexes =
      dynamic_cast<const DistributeComponentPrecomputedIndexes *>(indexes_in);
  NNET3_ASSERT(indexes != nullptr &&
               static_cast<int32_t>(indexes->pairs.size()) == num_output_rows);
  // Pointer arithmetic on device addresses; nothing is dereferenced here.
  std::vector<float *> ptrs(num_output_rows);
  for (int32_t i = 0; i < num_output_rows; i++) {
    const auto &p = indexes->pairs[i];
    NNET3_ASSERT(p.first < m.NumRows() &&
                 p.second + output_dim_ <= m.NumCols());
    ptrs[i] = m.RowData(p.first) + p.second;
  }
  return RowPointers(ptrs, m.device());
}

void *DistributeComponent::Propagate(const ComponentPrecomputedIndexes *indexes,
                                     const MatrixView &in,
                                     MatrixView *out) const {
  NNET3_ASSERT(in.NumCols() == input_dim_ && out->NumCols() == output_dim_);
  if (out->NumRows() == 0) return nullptr;
  out->CopyRows(BlockPointers(indexes, out->NumRows(), in));
  return nullptr;
}

void DistributeComponent::Backprop(const std::string &,
                                   const ComponentPrecomputedIndexes *indexes,
                                   const MatrixView &, const MatrixView &,
                                   const MatrixView &out_deriv, void *,
                                   Component *, MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  const int32_t num_blocks = input_dim_ / output_dim_;
  // Blocks that no output reads must get a zero derivative.
  if (out_deriv.NumRows() != in_deriv->NumRows() * num_blocks)
    in_deriv->SetZero();
  if (out_deriv.NumRows() == 0) return;
  out_deriv.CopyToRows(BlockPointers(indexes, out_deriv.NumRows(), *in_deriv));
}

// ---------------------------------------------------------------------------
// ConstantComponent

void ConstantComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  InitLearningRatesFromConfig(cfl);
  const int32_t output_dim = GetPositiveInt(cfl, type, "output-dim");
  is_updatable_ = true;
  cfl->GetValue("is-updatable", &is_updatable_);
  use_natural_gradient_ = true;
  cfl->GetValue("use-natural-gradient", &use_natural_gradient_);
  float output_mean = 0.0f;
  cfl->GetValue("output-mean", &output_mean);
  const float output_stddev =
      GetNonNegativeFloat(cfl, type, "output-stddev", 0.0f);
  output_ = Vector(output_dim);
  output_.SetRandn(NextComponentInitSeed());
  output_.Scale(output_stddev);
  output_.Add(output_mean);
}

std::unique_ptr<Component> ConstantComponent::Copy() const {
  return std::make_unique<ConstantComponent>(*this);
}

void ConstantComponent::Read(std::istream &is, bool binary) {
  std::string token = ReadUpdatableCommon(is, binary);
  if (token.empty()) ReadToken(is, binary, &token);
  if (token != "<Output>")
    NNET3_ERR << "Reading <ConstantComponent>: expected <Output> but found "
              << token;
  output_.Read(is, binary);
  ExpectToken(is, binary, "<IsUpdatable>");
  ReadBasicType(is, binary, &is_updatable_);
  ExpectToken(is, binary, "<UseNaturalGradient>");
  ReadBasicType(is, binary, &use_natural_gradient_);
  ExpectToken(is, binary, "</ConstantComponent>");
  if (output_.Dim() == 0)
    NNET3_ERR << "Reading <ConstantComponent>: empty <Output>";
}

void ConstantComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<Output>");
  output_.Write(os, binary);
  WriteToken(os, binary, "<IsUpdatable>");
  WriteBasicType(os, binary, is_updatable_);
  WriteToken(os, binary, "<UseNaturalGradient>");
  WriteBasicType(os, binary, use_natural_gradient_);
  WriteToken(os, binary, "</ConstantComponent>");
}

std::string ConstantComponent::Info() const {
  std::ostringstream os;
  // Kaldi repeats the type after the updatable prefix.
  os << UpdatableComponent::Info() << ", " << Type()
     << ", output-dim=" << OutputDim()
     << ", is-updatable=" << (is_updatable_ ? "true" : "false")
     << ", use-natural-gradient=" << (use_natural_gradient_ ? "true" : "false");
  PrintParameterStats(os, "output", output_, true);
  return os.str();
}

void *ConstantComponent::Propagate(const ComponentPrecomputedIndexes *,
                                   const MatrixView &, MatrixView *out) const {
  NNET3_ASSERT(out->NumCols() == output_.Dim());
  out->CopyRowsFromVec(output_);
  return nullptr;
}

void ConstantComponent::Backprop(const std::string &,
                                 const ComponentPrecomputedIndexes *,
                                 const MatrixView &, const MatrixView &,
                                 const MatrixView &out_deriv, void *,
                                 Component *to_update_in,
                                 MatrixView *in_deriv) const {
  if (in_deriv != nullptr) in_deriv->SetZero();
  if (to_update_in == nullptr) return;
  auto *to_update = dynamic_cast<ConstantComponent *>(to_update_in);
  NNET3_ASSERT(to_update != nullptr);
  if (!to_update->is_updatable_ || out_deriv.NumRows() == 0) return;
  if (to_update->use_natural_gradient_ && !to_update->is_gradient_) {
    Matrix deriv(out_deriv);
    float scale = 1.0f;
    to_update->preconditioner_.PreconditionDirections(&deriv, &scale);
    to_update->output_.AddRowSumMat(scale * to_update->learning_rate_, deriv);
  } else {
    to_update->output_.AddRowSumMat(to_update->learning_rate_, out_deriv);
  }
}

void ConstantComponent::GetInputIndexes(
    const MiscComputationInfo &, const Index &,
    std::vector<Index> *desired_indexes) const {
  desired_indexes->clear();
}

bool ConstantComponent::IsComputable(const MiscComputationInfo &, const Index &,
                                     const IndexSet &,
                                     std::vector<Index> *used_inputs) const {
  if (used_inputs != nullptr) used_inputs->clear();
  return true;
}

void ConstantComponent::Scale(float scale) {
  if (!is_updatable_) return;
  if (scale == 0.0f)
    output_.SetZero();
  else
    output_.Scale(scale);
}

void ConstantComponent::Add(float alpha, const Component &other_in) {
  if (!is_updatable_) return;
  auto *other = dynamic_cast<const ConstantComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  output_.AddVec(alpha, other->output_);
}

float ConstantComponent::DotProduct(const UpdatableComponent &other_in) const {
  if (!is_updatable_) return 0.0f;
  auto *other = dynamic_cast<const ConstantComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(VecVec(output_, other->output_));
}

void ConstantComponent::PerturbParams(float stddev, uint64_t seed) {
  Vector noise(output_.Dim(), ResizeType::kUndefined, output_.device());
  noise.SetRandn(seed);
  output_.AddVec(stddev, noise);
}

void ConstantComponent::Vectorize(VectorView *params) const {
  if (is_updatable_) params->CopyFromVec(output_);
}

void ConstantComponent::UnVectorize(const VectorView &params) {
  if (is_updatable_) output_.CopyFromVec(params);
}

}  // namespace nnet3
