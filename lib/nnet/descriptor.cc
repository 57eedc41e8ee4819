// The runtime Descriptor classes: index mapping, computability, dimensions,
// scales and the written form. Parsing is in descriptor-parse.cc and
// normalization in descriptor-normalize.cc.
#include "nnet/descriptor.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "base/error.h"

namespace nnet3 {

namespace {

int32_t Lcm(int32_t a, int32_t b) {
  NNET3_ASSERT(a > 0 && b > 0);
  return static_cast<int32_t>(
      std::lcm(static_cast<int64_t>(a), static_cast<int64_t>(b)));
}

// Mathematical modulus: the result is in [0, m) even for negative t.
int32_t PositiveMod(int32_t t, int32_t m) {
  int32_t r = t % m;
  return r < 0 ? r + m : r;
}

// Floats go through a fresh stream so that the text does not depend on the
// caller's stream settings: default precision, as Kaldi writes them.
std::string FloatToString(float f) {
  std::ostringstream os;
  os << f;
  return os.str();
}

// Merges the scales of one node found in two places of a Sum, Failover or
// Switch: the node must carry the same scale everywhere it appears.
std::optional<float> MergeScales(int32_t node_index, std::optional<float> a,
                                 std::optional<float> b, const char *where) {
  if (!a) return b;
  if (!b) return a;
  if (*a != *b)
    NNET3_ERR << "Node " << node_index << " appears in a " << where
              << "() expression with two different scales (" << *a << " and "
              << *b << "); this is not supported: give it the same Scale() "
              << "everywhere in that expression";
  return a;
}

}  // namespace

// --------------------------- ForwardingDescriptor --------------------------

float ForwardingDescriptor::GetScaleForNode(int32_t node_index) const {
  return FindScaleForNode(node_index).value_or(0.0f);
}

SimpleForwardingDescriptor::SimpleForwardingDescriptor(int32_t src_node,
                                                       float scale)
    : src_node_(src_node), scale_(scale) {
  NNET3_ASSERT(src_node >= 0);
}

Cindex SimpleForwardingDescriptor::MapToInput(const Index &output) const {
  return Cindex(src_node_, output);
}

int32_t SimpleForwardingDescriptor::Dim(const NodeDimFunction &node_dim) const {
  return node_dim(src_node_);
}

std::optional<float> SimpleForwardingDescriptor::FindScaleForNode(
    int32_t node_index) const {
  if (node_index == src_node_) return scale_;
  return std::nullopt;
}

void SimpleForwardingDescriptor::WriteConfig(
    std::ostream &os, const std::vector<std::string> &node_names) const {
  NNET3_ASSERT(static_cast<size_t>(src_node_) < node_names.size());
  if (scale_ == 1.0f)
    os << node_names[src_node_];
  else
    os << "Scale(" << FloatToString(scale_) << ", " << node_names[src_node_]
       << ")";
}

void SimpleForwardingDescriptor::GetNodeDependencies(
    std::vector<int32_t> *node_indexes) const {
  node_indexes->push_back(src_node_);
}

std::unique_ptr<ForwardingDescriptor> SimpleForwardingDescriptor::Copy() const {
  return std::make_unique<SimpleForwardingDescriptor>(src_node_, scale_);
}

OffsetForwardingDescriptor::OffsetForwardingDescriptor(
    std::unique_ptr<ForwardingDescriptor> src, const Index &offset)
    : src_(std::move(src)), offset_(offset) {
  NNET3_ASSERT(src_ != nullptr && offset.n == 0);
}

Cindex OffsetForwardingDescriptor::MapToInput(const Index &output) const {
  return src_->MapToInput(output + offset_);
}

int32_t OffsetForwardingDescriptor::Dim(const NodeDimFunction &node_dim) const {
  return src_->Dim(node_dim);
}

std::optional<float> OffsetForwardingDescriptor::FindScaleForNode(
    int32_t node_index) const {
  return src_->FindScaleForNode(node_index);
}

int32_t OffsetForwardingDescriptor::Modulus() const { return src_->Modulus(); }

void OffsetForwardingDescriptor::WriteConfig(
    std::ostream &os, const std::vector<std::string> &node_names) const {
  os << "Offset(";
  src_->WriteConfig(os, node_names);
  os << ", " << offset_.t;
  if (offset_.x != 0) os << ", " << offset_.x;
  os << ")";
}

void OffsetForwardingDescriptor::GetNodeDependencies(
    std::vector<int32_t> *node_indexes) const {
  src_->GetNodeDependencies(node_indexes);
}

std::unique_ptr<ForwardingDescriptor> OffsetForwardingDescriptor::Copy() const {
  return std::make_unique<OffsetForwardingDescriptor>(src_->Copy(), offset_);
}

SwitchingForwardingDescriptor::SwitchingForwardingDescriptor(
    std::vector<std::unique_ptr<ForwardingDescriptor>> src)
    : src_(std::move(src)) {
  NNET3_ASSERT(!src_.empty());
  for (const auto &s : src_) NNET3_ASSERT(s != nullptr);
}

Cindex SwitchingForwardingDescriptor::MapToInput(const Index &output) const {
  int32_t k = static_cast<int32_t>(src_.size());
  return src_[PositiveMod(output.t, k)]->MapToInput(output);
}

int32_t SwitchingForwardingDescriptor::Dim(
    const NodeDimFunction &node_dim) const {
  int32_t dim = src_[0]->Dim(node_dim);
  for (size_t i = 1; i < src_.size(); i++) {
    int32_t this_dim = src_[i]->Dim(node_dim);
    if (this_dim != dim)
      NNET3_ERR << "Switch() expression with inconsistent dimensions: branch 0 "
                << "has dimension " << dim << " but branch " << i << " has "
                << this_dim;
  }
  return dim;
}

std::optional<float> SwitchingForwardingDescriptor::FindScaleForNode(
    int32_t node_index) const {
  std::optional<float> ans;
  for (const auto &s : src_)
    ans =
        MergeScales(node_index, ans, s->FindScaleForNode(node_index), "Switch");
  return ans;
}

int32_t SwitchingForwardingDescriptor::Modulus() const {
  int32_t ans = static_cast<int32_t>(src_.size());
  for (const auto &s : src_) ans = Lcm(ans, s->Modulus());
  return ans;
}

void SwitchingForwardingDescriptor::WriteConfig(
    std::ostream &os, const std::vector<std::string> &node_names) const {
  os << "Switch(";
  for (size_t i = 0; i < src_.size(); i++) {
    if (i > 0) os << ", ";
    src_[i]->WriteConfig(os, node_names);
  }
  os << ")";
}

void SwitchingForwardingDescriptor::GetNodeDependencies(
    std::vector<int32_t> *node_indexes) const {
  for (const auto &s : src_) s->GetNodeDependencies(node_indexes);
}

std::unique_ptr<ForwardingDescriptor> SwitchingForwardingDescriptor::Copy()
    const {
  std::vector<std::unique_ptr<ForwardingDescriptor>> copies;
  for (const auto &s : src_) copies.push_back(s->Copy());
  return std::make_unique<SwitchingForwardingDescriptor>(std::move(copies));
}

RoundingForwardingDescriptor::RoundingForwardingDescriptor(
    std::unique_ptr<ForwardingDescriptor> src, int32_t t_modulus)
    : src_(std::move(src)), t_modulus_(t_modulus) {
  NNET3_ASSERT(src_ != nullptr && t_modulus > 0);
}

Cindex RoundingForwardingDescriptor::MapToInput(const Index &output) const {
  Index rounded(output);
  rounded.t -= PositiveMod(output.t, t_modulus_);
  return src_->MapToInput(rounded);
}

int32_t RoundingForwardingDescriptor::Dim(
    const NodeDimFunction &node_dim) const {
  return src_->Dim(node_dim);
}

std::optional<float> RoundingForwardingDescriptor::FindScaleForNode(
    int32_t node_index) const {
  return src_->FindScaleForNode(node_index);
}

int32_t RoundingForwardingDescriptor::Modulus() const {
  return Lcm(t_modulus_, src_->Modulus());
}

void RoundingForwardingDescriptor::WriteConfig(
    std::ostream &os, const std::vector<std::string> &node_names) const {
  os << "Round(";
  src_->WriteConfig(os, node_names);
  os << ", " << t_modulus_ << ")";
}

void RoundingForwardingDescriptor::GetNodeDependencies(
    std::vector<int32_t> *node_indexes) const {
  src_->GetNodeDependencies(node_indexes);
}

std::unique_ptr<ForwardingDescriptor> RoundingForwardingDescriptor::Copy()
    const {
  return std::make_unique<RoundingForwardingDescriptor>(src_->Copy(),
                                                        t_modulus_);
}

ReplaceIndexForwardingDescriptor::ReplaceIndexForwardingDescriptor(
    std::unique_ptr<ForwardingDescriptor> src, VariableName variable_name,
    int32_t value)
    : src_(std::move(src)), variable_name_(variable_name), value_(value) {
  NNET3_ASSERT(src_ != nullptr && (variable_name == kT || variable_name == kX));
}

Cindex ReplaceIndexForwardingDescriptor::MapToInput(const Index &output) const {
  Index replaced(output);
  if (variable_name_ == kT)
    replaced.t = value_;
  else
    replaced.x = value_;
  return src_->MapToInput(replaced);
}

int32_t ReplaceIndexForwardingDescriptor::Dim(
    const NodeDimFunction &node_dim) const {
  return src_->Dim(node_dim);
}

std::optional<float> ReplaceIndexForwardingDescriptor::FindScaleForNode(
    int32_t node_index) const {
  return src_->FindScaleForNode(node_index);
}

int32_t ReplaceIndexForwardingDescriptor::Modulus() const {
  return src_->Modulus();
}

void ReplaceIndexForwardingDescriptor::WriteConfig(
    std::ostream &os, const std::vector<std::string> &node_names) const {
  os << "ReplaceIndex(";
  src_->WriteConfig(os, node_names);
  os << ", " << (variable_name_ == kT ? "t" : "x") << ", " << value_ << ")";
}

void ReplaceIndexForwardingDescriptor::GetNodeDependencies(
    std::vector<int32_t> *node_indexes) const {
  src_->GetNodeDependencies(node_indexes);
}

std::unique_ptr<ForwardingDescriptor> ReplaceIndexForwardingDescriptor::Copy()
    const {
  return std::make_unique<ReplaceIndexForwardingDescriptor>(
      src_->Copy(), variable_name_, value_);
}

// ------------------------------ SumDescriptor ------------------------------

float SumDescriptor::GetScaleForNode(int32_t node_index) const {
  return FindScaleForNode(node_index).value_or(0.0f);
}

SimpleSumDescriptor::SimpleSumDescriptor(
    std::unique_ptr<ForwardingDescriptor> src)
    : src_(std::move(src)) {
  NNET3_ASSERT(src_ != nullptr);
}

void SimpleSumDescriptor::GetDependencies(
    const Index &index, std::vector<Cindex> *dependencies) const {
  dependencies->push_back(src_->MapToInput(index));
}

bool SimpleSumDescriptor::IsComputable(const Index &index,
                                       const CindexSet &computable,
                                       std::vector<Cindex> *used_inputs) const {
  Cindex c = src_->MapToInput(index);
  if (!computable(c)) return false;
  if (used_inputs != nullptr) used_inputs->push_back(c);
  return true;
}

int32_t SimpleSumDescriptor::Dim(const NodeDimFunction &node_dim) const {
  return src_->Dim(node_dim);
}

std::optional<float> SimpleSumDescriptor::FindScaleForNode(
    int32_t node_index) const {
  if (node_index < 0) return std::nullopt;
  return src_->FindScaleForNode(node_index);
}

void SimpleSumDescriptor::WriteConfig(
    std::ostream &os, const std::vector<std::string> &node_names) const {
  src_->WriteConfig(os, node_names);
}

void SimpleSumDescriptor::GetNodeDependencies(
    std::vector<int32_t> *node_indexes) const {
  src_->GetNodeDependencies(node_indexes);
}

std::unique_ptr<SumDescriptor> SimpleSumDescriptor::Copy() const {
  return std::make_unique<SimpleSumDescriptor>(src_->Copy());
}

OptionalSumDescriptor::OptionalSumDescriptor(std::unique_ptr<SumDescriptor> src)
    : src_(std::move(src)) {
  NNET3_ASSERT(src_ != nullptr);
}

void OptionalSumDescriptor::GetDependencies(
    const Index &index, std::vector<Cindex> *dependencies) const {
  src_->GetDependencies(index, dependencies);
}

bool OptionalSumDescriptor::IsComputable(
    const Index &index, const CindexSet &computable,
    std::vector<Cindex> *used_inputs) const {
  // src_ appends nothing when it is not computable, so its answer can be
  // ignored: either way the result is defined.
  src_->IsComputable(index, computable, used_inputs);
  return true;
}

int32_t OptionalSumDescriptor::Dim(const NodeDimFunction &node_dim) const {
  return src_->Dim(node_dim);
}

std::optional<float> OptionalSumDescriptor::FindScaleForNode(
    int32_t node_index) const {
  std::optional<float> ans = src_->FindScaleForNode(node_index);
  // The compiler sets the constant before knowing which inputs exist, so a
  // constant that is present only sometimes cannot be expressed.
  if (node_index < 0 && ans.value_or(0.0f) != 0.0f)
    NNET3_ERR << "Const() inside IfDefined() is not supported (the constant "
              << "would be present only when the expression is defined)";
  return ans;
}

void OptionalSumDescriptor::WriteConfig(
    std::ostream &os, const std::vector<std::string> &node_names) const {
  os << "IfDefined(";
  src_->WriteConfig(os, node_names);
  os << ")";
}

void OptionalSumDescriptor::GetNodeDependencies(
    std::vector<int32_t> *node_indexes) const {
  src_->GetNodeDependencies(node_indexes);
}

std::unique_ptr<SumDescriptor> OptionalSumDescriptor::Copy() const {
  return std::make_unique<OptionalSumDescriptor>(src_->Copy());
}

ConstantSumDescriptor::ConstantSumDescriptor(float value, int32_t dim)
    : value_(value), dim_(dim) {
  NNET3_ASSERT(dim > 0 && std::isfinite(value));
}

void ConstantSumDescriptor::GetDependencies(const Index &,
                                            std::vector<Cindex> *) const {}

bool ConstantSumDescriptor::IsComputable(const Index &, const CindexSet &,
                                         std::vector<Cindex> *) const {
  return true;
}

int32_t ConstantSumDescriptor::Dim(const NodeDimFunction &) const {
  return dim_;
}

std::optional<float> ConstantSumDescriptor::FindScaleForNode(
    int32_t node_index) const {
  if (node_index < 0) return value_;
  return std::nullopt;
}

void ConstantSumDescriptor::WriteConfig(
    std::ostream &os, const std::vector<std::string> &) const {
  os << "Const(" << FloatToString(value_) << ", " << dim_ << ")";
}

void ConstantSumDescriptor::GetNodeDependencies(std::vector<int32_t> *) const {}

std::unique_ptr<SumDescriptor> ConstantSumDescriptor::Copy() const {
  return std::make_unique<ConstantSumDescriptor>(value_, dim_);
}

BinarySumDescriptor::BinarySumDescriptor(Operation op,
                                         std::unique_ptr<SumDescriptor> src1,
                                         std::unique_ptr<SumDescriptor> src2)
    : op_(op), src1_(std::move(src1)), src2_(std::move(src2)) {
  NNET3_ASSERT(src1_ != nullptr && src2_ != nullptr);
}

void BinarySumDescriptor::GetDependencies(
    const Index &index, std::vector<Cindex> *dependencies) const {
  src1_->GetDependencies(index, dependencies);
  src2_->GetDependencies(index, dependencies);
}

bool BinarySumDescriptor::IsComputable(const Index &index,
                                       const CindexSet &computable,
                                       std::vector<Cindex> *used_inputs) const {
  // Each side appends only when computable, so used_inputs can be written
  // directly and trimmed back if the whole turns out not computable.
  size_t size_before = used_inputs ? used_inputs->size() : 0;
  if (op_ == kSumOperation) {
    if (!src1_->IsComputable(index, computable, used_inputs)) return false;
    if (src2_->IsComputable(index, computable, used_inputs)) return true;
    if (used_inputs != nullptr) used_inputs->resize(size_before);
    return false;
  }
  return src1_->IsComputable(index, computable, used_inputs) ||
         src2_->IsComputable(index, computable, used_inputs);
}

int32_t BinarySumDescriptor::Dim(const NodeDimFunction &node_dim) const {
  int32_t dim1 = src1_->Dim(node_dim), dim2 = src2_->Dim(node_dim);
  if (dim1 != dim2)
    NNET3_ERR << (op_ == kSumOperation ? "Sum" : "Failover")
              << "() expression with inconsistent dimensions: " << dim1
              << " vs. " << dim2;
  return dim1;
}

std::optional<float> BinarySumDescriptor::FindScaleForNode(
    int32_t node_index) const {
  std::optional<float> a = src1_->FindScaleForNode(node_index),
                       b = src2_->FindScaleForNode(node_index);
  const char *name = (op_ == kSumOperation ? "Sum" : "Failover");
  if (node_index >= 0) return MergeScales(node_index, a, b, name);
  if (!a && !b) return std::nullopt;
  float ca = a.value_or(0.0f), cb = b.value_or(0.0f);
  // Constants in a Sum add up; a Failover would need a constant that
  // depends on which side is chosen.
  if (op_ == kSumOperation) return ca + cb;
  if (ca != cb)
    NNET3_ERR << "Failover() whose two sides have different constant terms ("
              << ca << " and " << cb << ") is not supported";
  return ca;
}

int32_t BinarySumDescriptor::Modulus() const {
  return Lcm(src1_->Modulus(), src2_->Modulus());
}

void BinarySumDescriptor::WriteConfig(
    std::ostream &os, const std::vector<std::string> &node_names) const {
  os << (op_ == kSumOperation ? "Sum(" : "Failover(");
  src1_->WriteConfig(os, node_names);
  os << ", ";
  src2_->WriteConfig(os, node_names);
  os << ")";
}

void BinarySumDescriptor::GetNodeDependencies(
    std::vector<int32_t> *node_indexes) const {
  src1_->GetNodeDependencies(node_indexes);
  src2_->GetNodeDependencies(node_indexes);
}

std::unique_ptr<SumDescriptor> BinarySumDescriptor::Copy() const {
  return std::make_unique<BinarySumDescriptor>(op_, src1_->Copy(),
                                               src2_->Copy());
}

// -------------------------------- Descriptor -------------------------------

Descriptor::Descriptor(std::vector<std::unique_ptr<SumDescriptor>> parts)
    : parts_(std::move(parts)) {
  for (const auto &p : parts_) NNET3_ASSERT(p != nullptr);
}

Descriptor::Descriptor(const Descriptor &other) {
  parts_.reserve(other.parts_.size());
  for (const auto &p : other.parts_) parts_.push_back(p->Copy());
}

Descriptor &Descriptor::operator=(const Descriptor &other) {
  if (this != &other) {
    Descriptor copy(other);
    parts_ = std::move(copy.parts_);
  }
  return *this;
}

void Descriptor::Parse(const std::vector<std::string> &node_names,
                       const std::string &text) {
  std::unique_ptr<GeneralDescriptor> general =
      GeneralDescriptor::Parse(node_names, text);
  *this = general->ConvertToDescriptor();
}

void Descriptor::GetDependencies(const Index &index,
                                 std::vector<Cindex> *dependencies) const {
  dependencies->clear();
  for (const auto &p : parts_) p->GetDependencies(index, dependencies);
}

bool Descriptor::IsComputable(const Index &index, const CindexSet &computable,
                              std::vector<Cindex> *used_inputs) const {
  if (used_inputs != nullptr) used_inputs->clear();
  for (const auto &p : parts_) {
    if (!p->IsComputable(index, computable, used_inputs)) {
      if (used_inputs != nullptr) used_inputs->clear();
      return false;
    }
  }
  return true;
}

int32_t Descriptor::Dim(const NodeDimFunction &node_dim) const {
  NNET3_ASSERT(!parts_.empty());
  int32_t dim = 0;
  for (const auto &p : parts_) dim += p->Dim(node_dim);
  return dim;
}

int32_t Descriptor::Modulus() const {
  int32_t ans = 1;
  for (const auto &p : parts_) ans = Lcm(ans, p->Modulus());
  return ans;
}

const SumDescriptor &Descriptor::Part(int32_t n) const {
  NNET3_ASSERT(n >= 0 && static_cast<size_t>(n) < parts_.size());
  return *parts_[n];
}

void Descriptor::WriteConfig(std::ostream &os,
                             const std::vector<std::string> &node_names) const {
  NNET3_ASSERT(!parts_.empty());
  if (parts_.size() == 1) {
    parts_[0]->WriteConfig(os, node_names);
    return;
  }
  os << "Append(";
  for (size_t i = 0; i < parts_.size(); i++) {
    if (i > 0) os << ", ";
    parts_[i]->WriteConfig(os, node_names);
  }
  os << ")";
}

void Descriptor::GetNodeDependencies(std::vector<int32_t> *node_indexes) const {
  node_indexes->clear();
  for (const auto &p : parts_) p->GetNodeDependencies(node_indexes);
  std::sort(node_indexes->begin(), node_indexes->end());
  node_indexes->erase(std::unique(node_indexes->begin(), node_indexes->end()),
                      node_indexes->end());
}

}  // namespace nnet3
