// The terms of a SumDescriptor's value at one Index, each an input Cindex
// with the scale it is multiplied by: what the compiler turns into row
// copies and adds.
//
//   std::vector<DescriptorTerm> terms;
//   if (GetDescriptorTerms(node.descriptor.Part(p), index, computable,
//                          &terms)) ...
//
// Computability and the Cindexes are exactly those of
// SumDescriptor::IsComputable (Failover takes its first argument when that
// is computable, IfDefined contributes nothing when its argument is not,
// Const() contributes no term). Unlike SumDescriptor::GetScaleForNode,
// which fails when a node appears with two different scales (Kaldi's
// limitation), each term carries the scale of the leaf it came from, so
// `Sum(x, Scale(0.5, Offset(x, 1)))` compiles.
#ifndef NNET3_COMPILE_DESCRIPTOR_TERMS_H_
#define NNET3_COMPILE_DESCRIPTOR_TERMS_H_

#include <vector>

#include "nnet/descriptor.h"

namespace nnet3 {

struct DescriptorTerm {
  Cindex cindex;
  float scale = 1.0f;
};

// The scale of the leaf (node name) that `descriptor` maps `index` to.
float GetForwardingScale(const ForwardingDescriptor &descriptor,
                         const Index &index);

// If `descriptor` is computable at `index` given `computable`, appends its
// terms to *terms and returns true; otherwise returns false and appends
// nothing.
bool GetDescriptorTerms(const SumDescriptor &descriptor, const Index &index,
                        const CindexSet &computable,
                        std::vector<DescriptorTerm> *terms);

}  // namespace nnet3

#endif  // NNET3_COMPILE_DESCRIPTOR_TERMS_H_
