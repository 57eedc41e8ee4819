#include "train/feature-transform-estimate.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "nnet/host-linear-algebra.h"

namespace nnet3 {

void FeatureTransformEstimateOptions::Register(OptionsRegistry *po) {
  po->Register("remove-offset", &remove_offset,
               "If true, output an affine transform that makes the projected "
               "data mean equal to zero.");
  po->Register("dim", &dim, "Dimension to project to with LDA");
  po->Register("within-class-factor", &within_class_factor,
               "If 1.0, do conventional LDA where the within-class variance "
               "will be unit in the projected space.  May be set to less "
               "than 1.0, which scales the features to have less variance, "
               "particularly for dimensions where between-class variance is "
               "small. ");
  po->Register("max-singular-value", &max_singular_value,
               "If >0, maximum allowed singular value of final transform "
               "(they are floored to this)");
}

namespace {

using Mat = std::vector<double>;  // row-major

double At(const Mat &m, int32_t cols, int32_t r, int32_t c) {
  return m[static_cast<size_t>(r) * cols + c];
}

// L with W = L L^T, W = total - between; smoothed as Kaldi if W is not
// positive definite.
Mat WithinClassCholesky(const DoubleSpMatrix &total,
                        const DoubleSpMatrix &between) {
  const int32_t n = total.dim;
  Mat w = total.ToFull(), b = between.ToFull(), l;
  for (size_t k = 0; k < w.size(); k++) w[k] -= b[k];
  if (CholeskyLower(n, w, &l)) return l;
  double trace = 0.0;
  for (int32_t i = 0; i < n; i++) trace += At(w, n, i, i);
  const double smooth = 1.0e-03 * trace / n;
  NNET3_LOG << "Cholesky failed (possibly not +ve definite), so adding "
            << smooth << " to diagonal and trying again.";
  for (int32_t i = 0; i < n; i++) w[static_cast<size_t>(i) * n + i] += smooth;
  if (!CholeskyLower(n, w, &l))
    NNET3_ERR << "The within-class covariance of the LDA stats is not "
                 "positive definite even after smoothing (too little data, "
                 "or constant features?)";
  return l;
}

// For symmetric s: the absolute eigenvalues, sorted from largest, and the
// eigenvectors as the columns of *u in the same order.
void SortedEigen(int32_t n, const Mat &s, std::vector<double> *d, Mat *u) {
  std::vector<double> vals, vecs;
  SymmetricEigen(n, s, &vals, &vecs);
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return std::abs(vals[a]) > std::abs(vals[b]);
  });
  d->resize(n);
  u->assign(static_cast<size_t>(n) * n, 0.0);
  for (int32_t k = 0; k < n; k++) {
    (*d)[k] = std::abs(vals[order[k]]);
    for (int32_t i = 0; i < n; i++)
      (*u)[static_cast<size_t>(i) * n + k] = At(vecs, n, i, order[k]);
  }
}

// Limits the singular values of the rows x cols matrix m (rows <= cols) to
// ceiling: with m m^T = U S^2 U^T, m <- U diag(min(s, c) / s) U^T m.
void CapSingularValues(double ceiling, int32_t rows, int32_t cols, Mat *m) {
  Mat mt(static_cast<size_t>(cols) * rows);
  for (int32_t r = 0; r < rows; r++)
    for (int32_t c = 0; c < cols; c++)
      mt[static_cast<size_t>(c) * rows + r] = At(*m, cols, r, c);
  std::vector<double> s2, u;
  SymmetricEigen(rows, HostMatMul(rows, cols, rows, *m, mt), &s2, &u);
  int32_t num_capped = 0;
  double max_s = 0.0;
  Mat scaled_u(u);  // U diag(f)
  for (int32_t k = 0; k < rows; k++) {
    const double s = std::sqrt(std::max(s2[k], 0.0));
    max_s = std::max(max_s, s);
    if (s <= ceiling) continue;
    num_capped++;
    for (int32_t i = 0; i < rows; i++)
      scaled_u[static_cast<size_t>(i) * rows + k] *= ceiling / s;
  }
  if (num_capped == 0) return;
  NNET3_LOG << "Applied ceiling to " << num_capped << " out of " << rows
            << " singular values of transform using ceiling " << ceiling
            << ", max is " << max_s;
  Mat ut(static_cast<size_t>(rows) * rows);
  for (int32_t i = 0; i < rows; i++)
    for (int32_t k = 0; k < rows; k++)
      ut[static_cast<size_t>(k) * rows + i] = At(u, rows, i, k);
  Mat p = HostMatMul(rows, rows, rows, scaled_u, ut);
  *m = HostMatMul(rows, rows, cols, p, *m);
}

std::string VectorString(const std::vector<double> &v) {
  std::ostringstream os;
  os << " [ ";
  for (double x : v) os << x << " ";
  os << "]";
  return os.str();
}

}  // namespace

void EstimateFeatureTransform(const LdaEstimate &stats,
                              const FeatureTransformEstimateOptions &opts,
                              DoubleMatrix *transform, DoubleMatrix *cholesky) {
  double count = 0.0;
  DoubleSpMatrix total, between;
  std::vector<double> mean;
  stats.GetStats(&total, &between, &mean, &count);
  NNET3_LOG << "Data count is " << count;
  const int32_t n = stats.Dim();
  const int32_t target_dim = opts.dim <= 0 ? n : opts.dim;
  if (target_dim > n)
    NNET3_ERR << "--dim=" << opts.dim << " is larger than the feature "
              << "dimension " << n << " of the LDA stats";
  const Mat l = WithinClassCholesky(total, between);
  if (cholesky != nullptr) {
    cholesky->rows = cholesky->cols = n;
    cholesky->data = l;
  }
  const Mat linv = InvertLowerTriangular(n, l);
  Mat linv_t(linv.size());
  for (int32_t i = 0; i < n; i++)
    for (int32_t j = 0; j < n; j++)
      linv_t[static_cast<size_t>(j) * n + i] = At(linv, n, i, j);
  const Mat s =
      HostMatMul(n, n, n, HostMatMul(n, n, n, linv, between.ToFull()), linv_t);
  std::vector<double> d;
  Mat u;
  SortedEigen(n, s, &d, &u);
  NNET3_LOG << "LDA singular values are" << VectorString(d);
  NNET3_LOG << "Sum of all singular values is "
            << std::accumulate(d.begin(), d.end(), 0.0);
  NNET3_LOG << "Sum of selected singular values is "
            << std::accumulate(d.begin(), d.begin() + target_dim, 0.0);
  Mat ut(u.size());
  for (int32_t i = 0; i < n; i++)
    for (int32_t k = 0; k < n; k++)
      ut[static_cast<size_t>(k) * n + i] = At(u, n, i, k);
  Mat m = HostMatMul(n, n, n, ut, linv);
  m.resize(static_cast<size_t>(target_dim) * n);  // the first rows
  if (opts.within_class_factor != 1.0f)
    for (int32_t i = 0; i < target_dim; i++) {
      const double scale =
          std::sqrt((opts.within_class_factor + d[i]) / (1.0 + d[i]));
      for (int32_t j = 0; j < n; j++)
        m[static_cast<size_t>(i) * n + j] *= scale;
    }
  if (opts.max_singular_value > 0.0f)
    CapSingularValues(opts.max_singular_value, target_dim, n, &m);
  const int32_t cols = opts.remove_offset ? n + 1 : n;
  transform->Resize(target_dim, cols);
  for (int32_t i = 0; i < target_dim; i++) {
    double offset = 0.0;
    for (int32_t j = 0; j < n; j++) {
      (*transform)(i, j) = At(m, n, i, j);
      offset -= At(m, n, i, j) * mean[j];
    }
    if (opts.remove_offset) (*transform)(i, n) = offset;
  }
}

}  // namespace nnet3
