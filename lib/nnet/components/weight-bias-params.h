// The parameters of a component held as a weight matrix W (one row per
// output) and a bias vector b, and the UpdatableComponent operations on
// them that do not depend on what the component computes: the two
// convolution components (TimeHeightConvolutionComponent and the older
// 3-D ConvolutionComponent) call these from their Scale, PerturbParams,
// Vectorize and UnVectorize.
//
//   PerturbWeightBias(stddev, seed, &filter_params_, &bias_params_);
//   VectorizeWeightBias(filter_params_, bias_params_, params);
//
// The vectorized form is W row by row, then b (Kaldi's order), so its
// dimension is W.NumRows() * W.NumCols() + b.Dim().
#ifndef NNET3_NNET_COMPONENTS_WEIGHT_BIAS_PARAMS_H_
#define NNET3_NNET_COMPONENTS_WEIGHT_BIAS_PARAMS_H_

#include <cstdint>

#include "matrix/matrix.h"
#include "matrix/vector.h"

namespace nnet3 {

// W *= scale, b *= scale; scale 0 sets both to zero (so that inf and NaN
// do not survive, as Kaldi's SetZero for a zero scale).
void ScaleWeightBias(float scale, Matrix *w, Vector *b);

// W += stddev * N(0, 1) from `seed`, b += stddev * N(0, 1) from
// BiasSeed(seed) (init-random.h).
void PerturbWeightBias(float stddev, uint64_t seed, Matrix *w, Vector *b);

// params = [W row by row, b]; its dimension must be their total size.
void VectorizeWeightBias(const Matrix &w, const Vector &b, VectorView *params);
void UnVectorizeWeightBias(const VectorView &params, Matrix *w, Vector *b);

}  // namespace nnet3

#endif  // NNET3_NNET_COMPONENTS_WEIGHT_BIAS_PARAMS_H_
