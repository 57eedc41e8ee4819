// SplitRowOps (--optimization.split-row-ops; Kaldi's SplitRowOps): a *Multi
// row operation whose (submatrix, row) pairs name at most two submatrices,
// each in one contiguous run of the list, becomes at most two commands on
// single submatrices, which are cheaper than gathering through row
// pointers:
//
//   m1 = m2.CopyRowsMulti([s3:0, s3:1, s4:2, s4:0])
//     ->  s5 (rows 0-1 of m1) = s6 (rows 0-1 of s3)        kMatrixCopy
//         s7 (rows 2-3 of m1) = s8 (rows 0-2 of s4).CopyRows([2, 0])
//
//   if (SplitRowOps(&computation)) RenumberComputation(&computation);
//
// Each run [offset, offset + size) with submatrix s and rows r_i becomes,
// with lo = min r_i and range = max r_i + 1 - lo:
//  - rows consecutive (r_i = lo + i): kMatrixCopy / kMatrixAdd between the
//    run's rows of arg1 and rows lo.. of s (the direction of the original);
//  - otherwise, if range <= 2 * size (so that few rows are touched in vain):
//    kCopyRowsMulti / kAddRowsMulti -> kCopyRows / kAddRows from rows lo.. of
//    s with indexes r_i - lo; kAddToRowsMulti -> kAddRows into rows lo.. of s
//    with the inverse indexes (-1 where no row of arg1 goes);
//    kCopyToRowsMulti -> kCopyRows with the inverse indexes only when they
//    have no -1 (range == size), since kCopyRows would zero the other rows.
// A list containing (-1, -1) is not split (SnipRowOps, run first, removes
// them at the ends), nor one naming arg1's own matrix, nor one with a
// repeated destination.
//
// Needs: valid indexes (ComputationChecker). Guarantees: the same results;
// the replacement commands take the original's place (the second one just
// after it; kGotoLabel targets are kept right), with new submatrices and
// index lists appended, so run RenumberComputation afterwards. Returns true
// if any command was split.
#ifndef NNET3_OPTIMIZE_SPLIT_ROW_OPS_H_
#define NNET3_OPTIMIZE_SPLIT_ROW_OPS_H_

#include "compile/nnet-computation.h"

namespace nnet3 {

bool SplitRowOps(NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_SPLIT_ROW_OPS_H_
