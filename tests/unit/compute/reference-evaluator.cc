#include "reference-evaluator.h"

#include <algorithm>
#include <utility>

#include "base/error.h"
#include "nnet/component-itf.h"
#include "nnet/components/normalize-components.h"
#include "reference-components.h"

namespace nnet3 {

namespace {

// Mathematical t mod m (never negative), as Switch() and Round() use it.
int32_t Mod(int32_t t, int32_t m) { return ((t % m) + m) % m; }

}  // namespace

namespace {

// Components whose rows the evaluator computes with the component's own
// Propagate, one row at a time: the simple ones, and
// BackpropTruncationComponent, which is not simple only because its
// backprop depends on t (its forward pass is a scale).
bool RowByRow(const Component &comp) {
  return (comp.Properties() & kSimpleComponent) ||
         comp.Type() == "BackpropTruncationComponent";
}

}  // namespace

ReferenceEvaluator::ReferenceEvaluator(const Nnet &nnet) : nnet_(nnet) {
  CheckRowWise();
}

void ReferenceEvaluator::CheckRowWise() const {
  for (int32_t node = 0; node < nnet_.NumNodes(); node++) {
    if (!nnet_.IsComponentNode(node)) continue;
    const int32_t c = nnet_.GetNode(node).component_index;
    const Component &comp = *nnet_.GetComponent(c);
    const std::string &name = nnet_.GetComponentName(c);
    if (!RowByRow(comp) && !ReferenceKnowsComponent(comp))
      NNET3_ERR << "ReferenceEvaluator: component '" << name << "' ("
                << comp.Type() << ") is not simple; only simple components "
                << "can be evaluated row by row";
    if (const auto *r = dynamic_cast<const RandomComponent *>(&comp);
        r != nullptr && !r->TestMode())
      NNET3_ERR << "ReferenceEvaluator: component '" << name
                << "' is random; set test mode first (SetDropoutTestMode)";
    if (const auto *bn = dynamic_cast<const BatchNormComponent *>(&comp);
        bn != nullptr && !bn->TestMode())
      NNET3_ERR << "ReferenceEvaluator: batch-norm component '" << name
                << "' uses minibatch stats; set test mode first "
                << "(SetBatchnormTestMode)";
  }
}

void ReferenceEvaluator::SetInput(const std::string &name,
                                  const std::vector<Index> &indexes,
                                  const MatrixView &values) {
  const int32_t node = nnet_.GetNodeIndex(name);
  if (node < 0 || !nnet_.IsInputNode(node))
    NNET3_ERR << "ReferenceEvaluator: no input node '" << name << "'";
  if (!state_.empty())
    NNET3_ERR << "ReferenceEvaluator: SetInput after evaluation started";
  if (values.NumRows() != static_cast<int32_t>(indexes.size()) ||
      values.NumCols() != nnet_.GetNode(node).dim)
    NNET3_ERR << "ReferenceEvaluator: input '" << name << "' has "
              << values.NumRows() << " x " << values.NumCols() << " values for "
              << indexes.size() << " indexes of dim "
              << nnet_.GetNode(node).dim;
  const std::vector<float> host = values.ToHost();
  const int32_t cols = values.NumCols();
  for (size_t i = 0; i < indexes.size(); i++) {
    std::vector<float> row(host.begin() + i * cols,
                           host.begin() + (i + 1) * cols);
    if (!inputs_.emplace(Cindex(node, indexes[i]), std::move(row)).second)
      NNET3_ERR << "ReferenceEvaluator: input '" << name
                << "' has a repeated Index";
    const int32_t t = indexes[i].t;
    min_t_ = have_inputs_ ? std::min(min_t_, t) : t;
    max_t_ = have_inputs_ ? std::max(max_t_, t) : t;
    have_inputs_ = true;
  }
}

bool ReferenceEvaluator::IsComputable(const Cindex &cindex) {
  auto it = state_.find(cindex);
  if (it != state_.end()) {
    if (it->second == State::kInProgress)
      NNET3_INTERNAL_ERR << "ReferenceEvaluator: dependency cycle through "
                         << CindexToString(cindex, nnet_.GetNodeNames());
    return it->second == State::kComputable;
  }
  const int32_t t = cindex.second.t;
  if (!have_inputs_ || t < min_t_ - kTimeMargin || t > max_t_ + kTimeMargin) {
    state_[cindex] = State::kNotComputable;
    return false;
  }
  state_[cindex] = State::kInProgress;
  const bool ans = ComputeIsComputable(cindex);
  // (state_ may have rehashed during the recursion: look up again.)
  state_[cindex] = ans ? State::kComputable : State::kNotComputable;
  return ans;
}

bool ReferenceEvaluator::ComputeIsComputable(const Cindex &cindex) {
  const NetworkNode &node = nnet_.GetNode(cindex.first);
  const Index &index = cindex.second;
  switch (node.node_type) {
    case kInput:
      return inputs_.count(cindex) != 0;
    case kDimRange:
      return IsComputable(Cindex(node.node_index, index));
    case kComponent:
      return ComponentIsComputable(cindex);
    case kDescriptor:
      for (int32_t p = 0; p < node.descriptor.NumParts(); p++)
        if (!PartIsComputable(node.descriptor.Part(p), index)) return false;
      return true;
    default:
      NNET3_INTERNAL_ERR << "ReferenceEvaluator: node "
                         << nnet_.GetNodeName(cindex.first) << " has no type";
  }
  return false;
}

bool ReferenceEvaluator::PartIsComputable(const SumDescriptor &part,
                                          const Index &index) {
  if (const auto *s = dynamic_cast<const SimpleSumDescriptor *>(&part)) {
    float scale;
    return IsComputable(MapLeaf(s->Src(), index, &scale));
  }
  if (dynamic_cast<const OptionalSumDescriptor *>(&part) != nullptr)
    return true;  // IfDefined: zero when its argument is not computable
  if (dynamic_cast<const ConstantSumDescriptor *>(&part) != nullptr)
    return true;
  if (const auto *b = dynamic_cast<const BinarySumDescriptor *>(&part)) {
    if (b->Op() == BinarySumDescriptor::kSumOperation)
      return PartIsComputable(b->Src1(), index) &&
             PartIsComputable(b->Src2(), index);
    return PartIsComputable(b->Src1(), index) ||
           PartIsComputable(b->Src2(), index);
  }
  NNET3_INTERNAL_ERR << "ReferenceEvaluator: unknown SumDescriptor type";
  return false;
}

Cindex ReferenceEvaluator::MapLeaf(const ForwardingDescriptor &fd,
                                   const Index &index, float *scale) const {
  Cindex ans;
  if (const auto *s = dynamic_cast<const SimpleForwardingDescriptor *>(&fd)) {
    *scale = s->Scale();
    ans = Cindex(s->SrcNode(), index);
  } else if (const auto *o =
                 dynamic_cast<const OffsetForwardingDescriptor *>(&fd)) {
    ans = MapLeaf(o->Src(), index + o->Offset(), scale);
  } else if (const auto *w =
                 dynamic_cast<const SwitchingForwardingDescriptor *>(&fd)) {
    const int32_t k = static_cast<int32_t>(w->NumSrc());
    ans = MapLeaf(w->Src(Mod(index.t, k)), index, scale);
  } else if (const auto *r =
                 dynamic_cast<const RoundingForwardingDescriptor *>(&fd)) {
    Index rounded = index;
    rounded.t -= Mod(index.t, r->TModulus());
    ans = MapLeaf(r->Src(), rounded, scale);
  } else if (const auto *ri =
                 dynamic_cast<const ReplaceIndexForwardingDescriptor *>(&fd)) {
    Index replaced = index;
    if (ri->Variable() == ReplaceIndexForwardingDescriptor::kT)
      replaced.t = ri->Value();
    else if (ri->Variable() == ReplaceIndexForwardingDescriptor::kX)
      replaced.x = ri->Value();
    else
      NNET3_INTERNAL_ERR << "ReplaceIndex of n";
    ans = MapLeaf(ri->Src(), replaced, scale);
  } else {
    NNET3_INTERNAL_ERR << "ReferenceEvaluator: unknown ForwardingDescriptor";
  }
  const Cindex lib = fd.MapToInput(index);
  if (lib != ans)
    NNET3_INTERNAL_ERR << "ForwardingDescriptor::MapToInput gives "
                       << CindexToString(lib, nnet_.GetNodeNames())
                       << " but the reference mapping gives "
                       << CindexToString(ans, nnet_.GetNodeNames());
  return ans;
}

const std::vector<float> &ReferenceEvaluator::Value(const Cindex &cindex) {
  auto it = values_.find(cindex);
  if (it != values_.end()) return it->second;
  if (!IsComputable(cindex))
    NNET3_INTERNAL_ERR << "ReferenceEvaluator: "
                       << CindexToString(cindex, nnet_.GetNodeNames())
                       << " is not computable";
  std::vector<float> value;
  ComputeValue(cindex, &value);
  NNET3_ASSERT(static_cast<int32_t>(value.size()) ==
               nnet_.GetNode(cindex.first).Dim(nnet_));
  // (Node-based map: references to elements survive later insertions.)
  return values_.emplace(cindex, std::move(value)).first->second;
}

void ReferenceEvaluator::ComputeValue(const Cindex &cindex,
                                      std::vector<float> *value) {
  const NetworkNode &node = nnet_.GetNode(cindex.first);
  const Index &index = cindex.second;
  switch (node.node_type) {
    case kInput:
      *value = inputs_.at(cindex);
      return;
    case kDimRange: {
      const std::vector<float> &src = Value(Cindex(node.node_index, index));
      value->assign(src.begin() + node.dim_offset,
                    src.begin() + node.dim_offset + node.dim);
      return;
    }
    case kComponent:
      ComputeComponentValue(cindex, value);
      return;
    case kDescriptor:
      value->clear();
      for (int32_t p = 0; p < node.descriptor.NumParts(); p++) {
        const SumDescriptor &part = node.descriptor.Part(p);
        std::vector<float> part_value(PartDim(part), 0.0f);
        AddPartValue(part, index, &part_value);
        value->insert(value->end(), part_value.begin(), part_value.end());
      }
      return;
    default:
      NNET3_INTERNAL_ERR << "ReferenceEvaluator: bad node type";
  }
}

bool ReferenceEvaluator::ComponentIsComputable(const Cindex &cindex) {
  const Component &comp =
      *nnet_.GetComponent(nnet_.GetNode(cindex.first).component_index);
  // A simple component's row needs its input node's row at the same Index;
  // the input node is the one right before it.
  if (RowByRow(comp))
    return IsComputable(Cindex(cindex.first - 1, cindex.second));
  // Non-simple (reference-components.h): the required inputs must be.
  std::vector<Index> inputs;
  std::vector<bool> required;
  ReferenceComponentInputs(comp, cindex.second, &inputs, &required);
  bool ans = true;
  for (size_t i = 0; i < inputs.size(); i++)
    if (!IsComputable(Cindex(cindex.first - 1, inputs[i])) && required[i])
      ans = false;
  return ans;
}

void ReferenceEvaluator::ComputeComponentValue(const Cindex &cindex,
                                               std::vector<float> *value) {
  const Component &comp =
      *nnet_.GetComponent(nnet_.GetNode(cindex.first).component_index);
  if (!RowByRow(comp)) {
    std::vector<Index> inputs;
    std::vector<bool> required;
    ReferenceComponentInputs(comp, cindex.second, &inputs, &required);
    std::vector<const std::vector<float> *> rows;
    for (const Index &i : inputs) {
      const Cindex input(cindex.first - 1, i);
      rows.push_back(IsComputable(input) ? &Value(input) : nullptr);
    }
    *value = ReferenceComponentRow(comp, cindex.second, rows);
    return;
  }
  const std::vector<float> &in_row =
      Value(Cindex(cindex.first - 1, cindex.second));
  Matrix in(1, comp.InputDim()), out(1, comp.OutputDim());  // zeroed
  in.CopyFromHost(in_row);
  void *memo = comp.Propagate(nullptr, in, &out);
  comp.DeleteMemo(memo);
  *value = out.ToHost();
}

void ReferenceEvaluator::AddPartValue(const SumDescriptor &part,
                                      const Index &index,
                                      std::vector<float> *value) {
  if (const auto *s = dynamic_cast<const SimpleSumDescriptor *>(&part)) {
    float scale;
    const std::vector<float> &src = Value(MapLeaf(s->Src(), index, &scale));
    NNET3_ASSERT(src.size() == value->size());
    for (size_t i = 0; i < src.size(); i++) (*value)[i] += scale * src[i];
  } else if (const auto *o =
                 dynamic_cast<const OptionalSumDescriptor *>(&part)) {
    if (PartIsComputable(o->Src(), index)) AddPartValue(o->Src(), index, value);
  } else if (const auto *c =
                 dynamic_cast<const ConstantSumDescriptor *>(&part)) {
    for (float &v : *value) v += c->Value();
  } else if (const auto *b = dynamic_cast<const BinarySumDescriptor *>(&part)) {
    if (b->Op() == BinarySumDescriptor::kSumOperation) {
      AddPartValue(b->Src1(), index, value);
      AddPartValue(b->Src2(), index, value);
    } else if (PartIsComputable(b->Src1(), index)) {
      AddPartValue(b->Src1(), index, value);
    } else {
      AddPartValue(b->Src2(), index, value);
    }
  } else {
    NNET3_INTERNAL_ERR << "ReferenceEvaluator: unknown SumDescriptor type";
  }
}

int32_t ReferenceEvaluator::PartDim(const SumDescriptor &part) const {
  return part.Dim([this](int32_t n) { return nnet_.GetNode(n).Dim(nnet_); });
}

bool ReferenceEvaluator::ComputeRows(const std::string &name,
                                     const std::vector<Index> &indexes,
                                     Matrix *out) {
  const int32_t node = nnet_.GetNodeIndex(name);
  if (node < 0) NNET3_ERR << "ReferenceEvaluator: no node '" << name << "'";
  const int32_t dim = nnet_.GetNode(node).Dim(nnet_);
  std::vector<float> host;
  host.reserve(indexes.size() * dim);
  for (const Index &index : indexes) {
    if (!IsComputable(Cindex(node, index))) return false;
    const std::vector<float> &row = Value(Cindex(node, index));
    host.insert(host.end(), row.begin(), row.end());
  }
  out->Resize(static_cast<int32_t>(indexes.size()), dim,
              ResizeType::kUndefined);
  out->CopyFromHost(host.data(), dim);
  return true;
}

}  // namespace nnet3
