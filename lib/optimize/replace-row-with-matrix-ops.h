// ReplaceRowWithMatrixOps (--optimization.optimize-row-ops; Kaldi's
// ReplaceRowWithMatrixOps): a kCopyRows / kAddRows whose indexes are a
// contiguous range, possibly with -1 entries at either end,
//
//   indexes = [-1, -1, 7, 8, 9, -1]   (lead 2, first value 7, length 3)
//
// becomes a kMatrixCopy / kMatrixAdd (same alpha) from rows 7-9 of the
// source submatrix to rows 2-4 of the destination submatrix, which is
// cheaper than indexing.
//
//   if (ReplaceRowWithMatrixOps(&computation))
//   RenumberComputation(&computation);
//
// kCopyRows sets the -1 rows to zero, so for a copy those rows get a
// kSetConst(0) inserted just before the command, unless they are already
// known to be zero there (RowsKnownToBeZero). A kCopyRows with only -1
// entries becomes kSetConst(0) of its destination; a kAddRows with only -1
// entries is left alone (Kaldi's behavior). Commands whose source and
// destination are in the same matrix are left alone.
//
// Needs: valid indexes (ComputationChecker). Guarantees: the same results;
// new submatrices are appended and old index lists may become unused, so
// run RenumberComputation afterwards; inserted commands keep kGotoLabel
// targets right. Returns true if any command was replaced.
#ifndef NNET3_OPTIMIZE_REPLACE_ROW_WITH_MATRIX_OPS_H_
#define NNET3_OPTIMIZE_REPLACE_ROW_WITH_MATRIX_OPS_H_

#include "compile/nnet-computation.h"

namespace nnet3 {

bool ReplaceRowWithMatrixOps(NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_REPLACE_ROW_WITH_MATRIX_OPS_H_
