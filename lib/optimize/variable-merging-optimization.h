// VariableMergingOptimization (Kaldi's VariableMergingOptimizer; options
// remove-assignments, propagate-in-place, backprop-in-place,
// allow-left-merge, allow-right-merge): makes two matrices one where a
// command only moves data from one to the other, removing copies and
// letting components work in place.
//
//   VariableMergingOptimization(opts, nnet, &computation);
//
// Candidates. A command c at which submatrix s1 (of matrix m1) flows into
// submatrix s2 (of matrix m2 != m1), with equal shapes:
//  - kMatrixCopy s2 = alpha * s1 (remove-assignments); "an assignment" when
//    alpha is 1;
//  - kPropagate with input s1 and output s2 of a component with
//    kPropagateInPlace and without kPropagateAdds (propagate-in-place);
//  - kBackprop / kBackpropNoModelUpdate with out-deriv s1 and in-deriv s2
//    of a component with kBackpropInPlace and without kBackpropAdds
//    (backprop-in-place), whose in-value and out-value are not in m1 or m2.
//
// Conditions (Kaldi's c1-c9 plus our c10-c12). A left merge keeps m1 and
// puts all of m2 where s1 is; a right merge keeps m2 and puts all of m1
// where s2 is.
//  c1  m1 and m2 are not both inputs (kAcceptInput), nor both outputs
//      (kProvideOutput);
//  c2  if either is an input or an output, s1 and s2 are whole matrices;
//  c3  a left merge needs s2 whole (allow-left-merge on);
//  c4  a right merge needs s1 whole (allow-right-merge on);
//  c5  neither matrix took part in a merge earlier in the same round (the
//      analysis is redone between rounds; Kaldi tracks dirty variables);
//  c6  no left merge if m2 needs stride == columns and s1 is not whole;
//  c7  no right merge if m1 needs stride == columns and s2 is not whole;
//  c8  (assignment) s2 is first touched, other than by zeroing, at c; s1
//      is not written at or after c; s1 is last touched before s2 is next
//      written (or m2 is freed): DataInvalidatedCommand(c, s2);
//  c9  (other candidates) s2 is first touched, other than by zeroing, at
//      c, and s1 is last touched at c;
//  c10 zeroings of s2 before c are dead (c overwrites s2). In a left merge
//      they are removed. In a right merge, those inside s2 are removed and
//      any covering more of m2 must come before m1's first non-zeroing
//      access, so they cannot wipe m1's data; m1's own zeroings are
//      removed too where the next access of every element they zero
//      overwrites it (else they stay, as zeroings of part of m2);
//  c11 if either matrix is an output, no command writes either matrix
//      after the first kProvideOutput of either (other than c itself when
//      it is removed), so the value handed to the user is final;
//  c12 both matrices are allocated by kAllocMatrix or kAcceptInput, freed
//      (if at all) by kDeallocMatrix, not swapped.
// Left is tried before right.
//
// The merge: every submatrix of the discarded matrix becomes the matching
// part of the kept submatrix (so commands, index lists and I/O now use the
// kept matrix); an assignment becomes a no-op, other candidates run in
// place (a copy with alpha != 1 becomes an in-place scale); the merged
// matrix is allocated by the kAcceptInput if either has one, else by the
// earlier kAllocMatrix, and freed by the later kDeallocMatrix, or never if
// either was kept for the user; it needs stride == columns if either did.
// Rounds (a fresh Analyzer each, then RenumberComputation and RemoveNoOps)
// repeat until one merges nothing.
//
// Needs: a valid, non-looped computation (looped ones are left alone) and
// the nnet it was compiled for. Guarantees: the same results with fewer
// matrices and commands; no kNoOperation commands and no unused
// submatrices or matrices left when it returns true.
#ifndef NNET3_OPTIMIZE_VARIABLE_MERGING_OPTIMIZATION_H_
#define NNET3_OPTIMIZE_VARIABLE_MERGING_OPTIMIZATION_H_

#include "compile/nnet-computation.h"
#include "nnet/nnet.h"
#include "optimize/nnet-optimize-options.h"

namespace nnet3 {

// Returns true if it merged anything.
bool VariableMergingOptimization(const NnetOptimizeOptions &opts,
                                 const Nnet &nnet,
                                 NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_VARIABLE_MERGING_OPTIMIZATION_H_
