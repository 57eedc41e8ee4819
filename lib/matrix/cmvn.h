// Cepstral mean and variance normalization (Kaldi's transform/cmvn): the
// statistics of a speaker or utterance and their application to features.
//
//   DoubleMatrix stats;  InitCmvnStats(dim, &stats);
//   AccCmvnStats(feats, nullptr, &stats);       // every frame, weight 1
//   ApplyCmvn(stats, /*var_norm=*/false, &feats);
//
// The stats are Kaldi's 2 x (dim + 1) double matrix: row 0 holds the sum of
// the features and, in its last column, the count; row 1 the sum of their
// squares (last column 0). With mean normalization x <- x - mean; with
// variance normalization too x <- (x - mean) / sqrt(var), var floored at
// 1e-20 (with a warning). ApplyCmvnReverse maps zero-mean (unit-variance)
// data to the stats' mean (and variance).
#ifndef NNET3_MATRIX_CMVN_H_
#define NNET3_MATRIX_CMVN_H_

#include <cstdint>
#include <vector>

#include "matrix/double-matrix.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"

namespace nnet3 {

// Zero stats for dim-dimensional features.
void InitCmvnStats(int32_t dim, DoubleMatrix *stats);

// Adds every row of feats with its weight (weights null: 1 each; rows with
// weight 0 are skipped). InternalError on a shape mismatch.
void AccCmvnStats(const MatrixView &feats, const VectorView *weights,
                  DoubleMatrix *stats);

// Normalizes feats in place. UserError (naming both shapes) if the stats do
// not fit the features, if var_norm is asked of stats with one row, if the
// count is below 1, or if a variance gives a NaN or infinite scale.
void ApplyCmvn(const DoubleMatrix &stats, bool var_norm, MatrixView *feats);
void ApplyCmvnReverse(const DoubleMatrix &stats, bool var_norm,
                      MatrixView *feats);

// Replaces the stats of the given dimensions by fake zero-mean,
// unit-variance ones, so normalization leaves them alone (--skip-dims).
// UserError for a dimension out of range.
void FakeStatsForSomeDims(const std::vector<int32_t> &dims,
                          DoubleMatrix *stats);

}  // namespace nnet3

#endif  // NNET3_MATRIX_CMVN_H_
