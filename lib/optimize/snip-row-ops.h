// SnipRowOps (--optimization.snip-row-ops; Kaldi's SnipRowOps): row
// operations whose index lists begin or end with "nothing" entries are
// narrowed so that they act on a smaller submatrix and a shorter list.
//
//   if (SnipRowOps(&computation)) RenumberComputation(&computation);
//
// What is snipped (the "nothing" entries at either end of the list):
//  - kAddRows: -1 indexes; kAddRowsMulti: (-1, -1) pairs; the destination
//    (arg1) rows shrink. Those rows were skipped anyway.
//  - kAddToRowsMulti, kCopyToRowsMulti: (-1, -1) pairs; the source (arg1)
//    rows shrink. Those rows were not copied anywhere.
//  - kAddRowRanges: empty ranges (start == end); arg1 rows shrink.
//  - kCopyRows (-1) and kCopyRowsMulti ((-1, -1)): these set such rows to
//    zero, so an end is snipped only where its rows are already known to be
//    zero just before the command (RowsKnownToBeZero: the last command that
//    may write them is a kSetConst(0) covering them, as after the
//    compiler's initial zeroing). Kaldi does not snip copies at all.
// A list made only of "nothing" entries is left alone.
//
// Needs: a computation whose indexes are valid (ComputationChecker).
// Guarantees: the same results; each snipped command gets a new submatrix
// (NewSubMatrix) and a new index list appended to the computation, leaving
// the old ones possibly unused: run RenumberComputation afterwards. Commands
// are neither added nor removed. Returns true if anything was snipped.
#ifndef NNET3_OPTIMIZE_SNIP_ROW_OPS_H_
#define NNET3_OPTIMIZE_SNIP_ROW_OPS_H_

#include "compile/nnet-computation.h"

namespace nnet3 {

bool SnipRowOps(NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_SNIP_ROW_OPS_H_
