// How the reference evaluator (reference-evaluator.h) computes the rows of
// the non-simple components it knows, written from their definitions (not
// from their Propagate code), one output Index at a time:
//   DistributeComponent (k = input-dim / output-dim blocks): the row at
//     (n, t, x) is block x mod k of the input row at (n, t, floor(x / k));
//   ConstantComponent: its output vector (no inputs);
//   DropoutMaskComponent in test mode: 1 - p, or 1 (continuous or p = 0);
//   SpecAugmentTimeMaskComponent in test mode: the input row;
//   RestrictedAttentionComponent: naive attention (naive-attention.h) over
//     the window t + k * stride, the rows that are not computable being
//     zero; the required part of the window must be computable.
//
//   if (ReferenceKnowsComponent(c)) {
//     std::vector<Index> inputs;  std::vector<bool> required;
//     ReferenceComponentInputs(c, index, &inputs, &required);
//     ... rows[i] = value of inputs[i], or nullptr if not computable ...
//     std::vector<float> row = ReferenceComponentRow(c, index, rows);
//   }
#ifndef NNET3_TESTS_UNIT_COMPUTE_REFERENCE_COMPONENTS_H_
#define NNET3_TESTS_UNIT_COMPUTE_REFERENCE_COMPONENTS_H_

#include <vector>

#include "nnet/component-itf.h"
#include "nnet/nnet-common.h"

namespace nnet3 {

// True for the non-simple component types listed above.
bool ReferenceKnowsComponent(const Component &c);

// The input Indexes the row at `index` may read, and which of them must be
// computable for the row to be.
void ReferenceComponentInputs(const Component &c, const Index &index,
                              std::vector<Index> *inputs,
                              std::vector<bool> *required);

// The output row from the rows of those inputs (nullptr where an input is
// not computable; never for a required one).
std::vector<float> ReferenceComponentRow(
    const Component &c, const Index &index,
    const std::vector<const std::vector<float> *> &rows);

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_COMPUTE_REFERENCE_COMPONENTS_H_
