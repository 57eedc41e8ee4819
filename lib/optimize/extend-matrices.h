// ExtendMatrices (--optimization.extend-matrices; Kaldi's ExtendMatrices /
// MatrixExtender): gives a destination matrix a few extra rows so that a
// copy from most of a source matrix becomes a copy from all of it. Then
// VariableMergingOptimization can put the source matrix inside the
// destination (a right merge needs the source to be a whole matrix) and
// drop the copy, as in TDNN layers that splice frames with Append/Offset.
//
//   ExtendMatrices(&computation);   // skipped for looped computations
//
// A command c "s_d = s_s" (kMatrixCopy, alpha 1), with s_s in matrix m_s
// and s_d in matrix m_d != m_s, is extended when:
//  - s_s starts at row 0 of m_s, has all its columns, lacks some of its
//    last rows, and has at least 80% of its rows (so few rows are copied
//    in vain);
//  - s_d ends at the last row of m_d (as m_d was when the pass started);
//  - m_d is not an input or output (kAcceptInput / kProvideOutput) and m_s
//    was not extended itself in this pass;
//  - the rows of m_s that s_s lacks were written before c, by a command
//    writing a submatrix that contains them all (so the extended copy reads
//    nothing undefined);
//  - s_d has all the columns of m_d, or m_d is zeroed whole (kSetConst 0)
//    somewhere: that zeroing is extended too, so every new element of m_d
//    is written by something (the checker wants every variable used).
// Then m_d grows to s_d's row offset + m_s's rows (if that is more than
// it has), c becomes "s_d' = m_s" where s_d' is s_d with m_s's row count,
// and the allocation, deallocation and whole-matrix zeroing commands of
// m_d are made to cover the grown matrix. Debug info of the new rows
// copies the cindexes of the last rows with t = kNoTime.
//
// Needs: a computation as the compiler makes it, before
// VariableMergingOptimization (no kSwapMatrix, kCompressMatrix or
// kDecompressMatrix; nothing is done if there are any, or if it is
// looped). Guarantees: the same results (the new rows of m_d are never
// read); RenumberComputation has been run when it returns true. Peak memory
// may grow slightly until VariableMergingOptimization merges the matrices.
#ifndef NNET3_OPTIMIZE_EXTEND_MATRICES_H_
#define NNET3_OPTIMIZE_EXTEND_MATRICES_H_

#include "compile/nnet-computation.h"

namespace nnet3 {

bool ExtendMatrices(NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_EXTEND_MATRICES_H_
