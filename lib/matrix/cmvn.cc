#include "matrix/cmvn.h"

#include <cmath>
#include <string>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

void InitCmvnStats(int32_t dim, DoubleMatrix *stats) {
  NNET3_ASSERT(dim > 0);
  stats->Resize(2, dim + 1);
}

void AccCmvnStats(const MatrixView &feats, const VectorView *weights,
                  DoubleMatrix *stats) {
  const int32_t dim = feats.NumCols();
  NNET3_ASSERT(stats->rows == 2 && stats->cols == dim + 1);
  NNET3_ASSERT(weights == nullptr || weights->Dim() == feats.NumRows());
  // Statistics in double on the host, as Kaldi (sums of squares of many
  // frames lose too much in float).
  const std::vector<float> x = feats.ToHost();
  std::vector<float> w;
  if (weights != nullptr) w = weights->ToHost();
  // The products in float and the sums in double, as Kaldi's AccCmvnStats
  // (so the stats are bit-identical to Kaldi's).
  for (int32_t r = 0; r < feats.NumRows(); r++) {
    const float weight = weights == nullptr ? 1.0f : w[r];
    if (weight == 0.0f) continue;
    const float *row = x.data() + static_cast<size_t>(r) * dim;
    for (int32_t d = 0; d < dim; d++) {
      (*stats)(0, d) += row[d] * weight;
      (*stats)(1, d) += row[d] * row[d] * weight;
    }
    (*stats)(0, dim) += weight;
  }
}

namespace {

// Checks the stats against the features; returns the count.
double CheckCmvnStats(const DoubleMatrix &stats, bool var_norm,
                      const MatrixView &feats) {
  const int32_t dim = stats.cols - 1;
  if (stats.rows > 2 || stats.rows < 1 || feats.NumCols() != dim)
    NNET3_ERR << "Dim mismatch: cmvn " << stats.rows << 'x' << stats.cols
              << ", feats " << feats.NumRows() << 'x' << feats.NumCols()
              << " (the stats must be 2 x (feature dim + 1))";
  if (stats.rows == 1 && var_norm)
    NNET3_ERR << "You requested variance normalization but no variance stats "
                 "are supplied.";
  const double count = stats(0, dim);
  // 1.0, not 0: an offset written as stats has a count of one.
  if (!(count >= 1.0))
    NNET3_ERR << "Insufficient stats for cepstral mean and variance "
                 "normalization: count = "
              << count;
  return count;
}

// The variance of dimension d, floored at 1e-20 with a warning.
double FlooredVariance(const DoubleMatrix &stats, int32_t d, double count) {
  const double mean = stats(0, d) / count;
  double var = stats(1, d) / count - mean * mean;
  const double floor = 1.0e-20;
  if (var < floor) {
    NNET3_WARN << "Flooring cepstral variance from " << var << " to " << floor;
    var = floor;
  }
  return var;
}

}  // namespace

void ApplyCmvn(const DoubleMatrix &stats, bool var_norm, MatrixView *feats) {
  const double count = CheckCmvnStats(stats, var_norm, *feats);
  const int32_t dim = stats.cols - 1;
  std::vector<float> offset(dim), scale(dim, 1.0f);
  for (int32_t d = 0; d < dim; d++) {
    if (!var_norm) {  // as Kaldi: the scale -1/count in float
      offset[d] =
          static_cast<float>(static_cast<float>(-1.0 / count) * stats(0, d));
      continue;
    }
    const double mean = stats(0, d) / count;
    const double s = 1.0 / std::sqrt(FlooredVariance(stats, d, count));
    if (!std::isfinite(s))
      NNET3_ERR << "NaN or infinity in cepstral mean/variance computation "
                   "(dimension "
                << d << ")";
    scale[d] = static_cast<float>(s);
    offset[d] = static_cast<float>(-mean * s);
  }
  if (var_norm) feats->MulColsVec(Vector(scale, feats->device()));
  feats->AddVecToRows(1.0f, Vector(offset, feats->device()));
}

void ApplyCmvnReverse(const DoubleMatrix &stats, bool var_norm,
                      MatrixView *feats) {
  const double count = CheckCmvnStats(stats, var_norm, *feats);
  const int32_t dim = stats.cols - 1;
  std::vector<float> offset(dim), scale(dim, 1.0f);
  for (int32_t d = 0; d < dim; d++) {
    offset[d] = static_cast<float>(stats(0, d) / count);
    if (var_norm)
      scale[d] =
          static_cast<float>(std::sqrt(FlooredVariance(stats, d, count)));
  }
  if (var_norm) feats->MulColsVec(Vector(scale, feats->device()));
  feats->AddVecToRows(1.0f, Vector(offset, feats->device()));
}

void FakeStatsForSomeDims(const std::vector<int32_t> &dims,
                          DoubleMatrix *stats) {
  NNET3_ASSERT(stats->rows == 2 && stats->cols > 1);
  const int32_t dim = stats->cols - 1;
  const double count = (*stats)(0, dim);
  for (int32_t d : dims) {
    if (d < 0 || d >= dim)
      NNET3_ERR << "--skip-dims: dimension " << d << " is not in [0, " << dim
                << ")";
    (*stats)(0, d) = 0.0;
    (*stats)(1, d) = count;
  }
}

}  // namespace nnet3
