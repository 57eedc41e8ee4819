// The preconditioning transform of nnet training inputs estimated from LDA
// statistics, as Kaldi's nnet-get-feature-transform (nnet2's
// FeatureTransformEstimate; Appendix C.6 of arXiv:1410.7455): a scaled LDA
// without dimension reduction, its singular values capped, with the mean
// removed.
//
//   FeatureTransformEstimateOptions opts;  opts.Register(&po);
//   DoubleMatrix transform;  DoubleMatrix cholesky;
//   EstimateFeatureTransform(lda_stats, opts, &transform, &cholesky);
//
// With T the total and B the between-class covariance, W = T - B = L L^T
// (Cholesky; if W is not positive definite, 1e-3 tr(W)/dim is added to its
// diagonal first, with a log line), and L^-1 B L^-T = U diag(d) U^T (d
// sorted from largest, taken as absolute values like singular values), the
// transform's rows are those of U^T L^-1 (the first --dim of them; all when
// dim <= 0). Row i is then scaled by sqrt((f + d_i) / (1 + d_i)), f =
// --within-class-factor (unless f == 1); if --max-singular-value > 0, its
// singular values are limited to that value; with --remove-offset a last
// column -M mean is appended, so that [M b] applied to [x; 1] gives
// zero-mean output. The signs of the rows are arbitrary, as in Kaldi.
#ifndef NNET3_TRAIN_FEATURE_TRANSFORM_ESTIMATE_H_
#define NNET3_TRAIN_FEATURE_TRANSFORM_ESTIMATE_H_

#include <cstdint>

#include "base/options.h"
#include "matrix/double-matrix.h"
#include "train/lda-estimate.h"

namespace nnet3 {

struct FeatureTransformEstimateOptions {
  bool remove_offset = true;
  int32_t dim = -1;
  float within_class_factor = 0.001f;
  float max_singular_value = 5.0f;

  void Register(OptionsRegistry *po);
};

// See the file comment. *cholesky (may be null) receives L, the Cholesky
// factor of the within-class covariance (lower-triangular, dim x dim). Logs
// the data count and the singular values as Kaldi does. UserError if --dim
// is larger than the feature dimension or the stats are empty.
void EstimateFeatureTransform(const LdaEstimate &stats,
                              const FeatureTransformEstimateOptions &opts,
                              DoubleMatrix *transform, DoubleMatrix *cholesky);

}  // namespace nnet3

#endif  // NNET3_TRAIN_FEATURE_TRANSFORM_ESTIMATE_H_
