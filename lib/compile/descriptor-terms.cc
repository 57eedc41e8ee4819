#include "compile/descriptor-terms.h"

#include "base/error.h"

namespace nnet3 {

namespace {

int32_t PositiveMod(int32_t a, int32_t b) {
  int32_t m = a % b;
  return m < 0 ? m + b : m;
}

}  // namespace

// Follows the same Index transformations as the MapToInput() of each kind
// (descriptor.h), down to the leaf that is used.
float GetForwardingScale(const ForwardingDescriptor &descriptor,
                         const Index &index) {
  if (auto *d = dynamic_cast<const SimpleForwardingDescriptor *>(&descriptor))
    return d->Scale();
  if (auto *d = dynamic_cast<const OffsetForwardingDescriptor *>(&descriptor))
    return GetForwardingScale(d->Src(), index + d->Offset());
  if (auto *d =
          dynamic_cast<const SwitchingForwardingDescriptor *>(&descriptor)) {
    int32_t k = static_cast<int32_t>(d->NumSrc());
    return GetForwardingScale(d->Src(PositiveMod(index.t, k)), index);
  }
  if (auto *d =
          dynamic_cast<const RoundingForwardingDescriptor *>(&descriptor)) {
    Index rounded = index;
    rounded.t -= PositiveMod(index.t, d->TModulus());
    return GetForwardingScale(d->Src(), rounded);
  }
  if (auto *d =
          dynamic_cast<const ReplaceIndexForwardingDescriptor *>(&descriptor)) {
    Index replaced = index;
    if (d->Variable() == ReplaceIndexForwardingDescriptor::kT)
      replaced.t = d->Value();
    else
      replaced.x = d->Value();
    return GetForwardingScale(d->Src(), replaced);
  }
  // A kind this function does not know: its scale for the node it uses.
  return descriptor.GetScaleForNode(descriptor.MapToInput(index).first);
}

bool GetDescriptorTerms(const SumDescriptor &descriptor, const Index &index,
                        const CindexSet &computable,
                        std::vector<DescriptorTerm> *terms) {
  if (auto *d = dynamic_cast<const SimpleSumDescriptor *>(&descriptor)) {
    Cindex cindex = d->Src().MapToInput(index);
    if (!computable(cindex)) return false;
    terms->push_back({cindex, GetForwardingScale(d->Src(), index)});
    return true;
  }
  if (auto *d = dynamic_cast<const OptionalSumDescriptor *>(&descriptor)) {
    GetDescriptorTerms(d->Src(), index, computable, terms);
    return true;  // IfDefined is always computable
  }
  if (dynamic_cast<const ConstantSumDescriptor *>(&descriptor) != nullptr)
    return true;
  if (auto *d = dynamic_cast<const BinarySumDescriptor *>(&descriptor)) {
    const size_t size = terms->size();
    bool ok1 = GetDescriptorTerms(d->Src1(), index, computable, terms);
    if (d->Op() == BinarySumDescriptor::kFailoverOperation) {
      return ok1 || GetDescriptorTerms(d->Src2(), index, computable, terms);
    }
    if (ok1 && GetDescriptorTerms(d->Src2(), index, computable, terms))
      return true;
    terms->resize(size);
    return false;
  }
  // A kind this function does not know: scales by node.
  std::vector<Cindex> used;
  if (!descriptor.IsComputable(index, computable, &used)) return false;
  for (const Cindex &c : used)
    terms->push_back({c, descriptor.GetScaleForNode(c.first)});
  return true;
}

}  // namespace nnet3
