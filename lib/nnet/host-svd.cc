#include "nnet/host-svd.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/error.h"
#include "nnet/host-linear-algebra.h"

namespace nnet3 {

namespace {

// Four partial sums, so that the compiler can vectorize the loop (it may
// not reorder a single floating-point sum).
double Dot(int32_t n, const double *x, const double *y) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += x[i] * y[i];
    s1 += x[i + 1] * y[i + 1];
    s2 += x[i + 2] * y[i + 2];
    s3 += x[i + 3] * y[i + 3];
  }
  for (; i < n; i++) s0 += x[i] * y[i];
  return (s0 + s1) + (s2 + s3);
}

// x <- c x - s y, y <- s x + c y.
void RotatePair(int32_t n, double c, double s, double *x, double *y) {
  for (int32_t i = 0; i < n; i++) {
    const double xi = x[i], yi = y[i];
    x[i] = c * xi - s * yi;
    y[i] = s * xi + c * yi;
  }
}

// One-sided Jacobi on the n rows (each of length m) of `g`, which are the
// columns of the matrix being decomposed; `w` (n x n, starting as the
// identity) accumulates the rotations, row j being column j of V. On
// return the rows of g are mutually orthogonal: g = (A V)ᵀ.
void OrthogonalizeRows(int32_t n, int32_t m, std::vector<double> *g,
                       std::vector<double> *w) {
  // Rotate rows p and q when their cosine exceeds this; the result is
  // orthogonal to about this relative accuracy.
  const double kTolerance = 1e-14;
  std::vector<double> norm2(n);
  for (int32_t sweep = 0; sweep < 60; sweep++) {
    for (int32_t j = 0; j < n; j++) {  // exact norms once per sweep
      const double *gj = &(*g)[static_cast<size_t>(j) * m];
      norm2[j] = Dot(m, gj, gj);
    }
    bool rotated = false;
    for (int32_t p = 0; p < n; p++) {
      double *gp = &(*g)[static_cast<size_t>(p) * m];
      for (int32_t q = p + 1; q < n; q++) {
        double *gq = &(*g)[static_cast<size_t>(q) * m];
        const double alpha = norm2[p], beta = norm2[q];
        if (alpha == 0.0 || beta == 0.0) continue;
        const double gamma = Dot(m, gp, gq);
        if (std::fabs(gamma) <= kTolerance * std::sqrt(alpha * beta)) continue;
        // The rotation that makes columns p and q orthogonal: t = tan θ is
        // the smaller root of t² + 2ζt - 1 = 0, ζ = (β - α) / (2γ).
        const double zeta = (beta - alpha) / (2.0 * gamma);
        const double t = (zeta >= 0 ? 1.0 : -1.0) /
                         (std::fabs(zeta) + std::sqrt(1.0 + zeta * zeta));
        const double c = 1.0 / std::sqrt(1.0 + t * t), s = c * t;
        RotatePair(m, c, s, gp, gq);
        RotatePair(n, c, s, &(*w)[static_cast<size_t>(p) * n],
                   &(*w)[static_cast<size_t>(q) * n]);
        norm2[p] = alpha - t * gamma;
        norm2[q] = beta + t * gamma;
        rotated = true;
      }
    }
    if (!rotated) return;
  }
}

// HostSvd for rows >= cols.
void TallSvd(int32_t rows, int32_t cols, const std::vector<double> &a,
             std::vector<double> *s, std::vector<double> *u,
             std::vector<double> *vt) {
  const int32_t m = rows, n = cols;
  std::vector<double> g(static_cast<size_t>(n) * m),
      w(static_cast<size_t>(n) * n, 0.0);
  for (int32_t i = 0; i < m; i++)
    for (int32_t j = 0; j < n; j++)
      g[static_cast<size_t>(j) * m + i] = a[static_cast<size_t>(i) * n + j];
  for (int32_t j = 0; j < n; j++) w[static_cast<size_t>(j) * n + j] = 1.0;
  OrthogonalizeRows(n, m, &g, &w);
  std::vector<double> sigma(n);
  for (int32_t j = 0; j < n; j++) {
    const double *gj = &g[static_cast<size_t>(j) * m];
    sigma[j] = std::sqrt(Dot(m, gj, gj));
  }
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&sigma](int32_t x, int32_t y) {
    return sigma[x] > sigma[y];
  });
  // Uᵀ (n x m): the normalized columns, largest first; those of zero
  // singular values are completed to an orthonormal set.
  std::vector<double> ut(static_cast<size_t>(n) * m, 0.0);
  s->resize(n);
  vt->resize(static_cast<size_t>(n) * n);
  for (int32_t k = 0; k < n; k++) {
    const int32_t j = order[k];
    (*s)[k] = sigma[j];
    if (sigma[j] > 0.0)
      for (int32_t i = 0; i < m; i++)
        ut[static_cast<size_t>(k) * m + i] =
            g[static_cast<size_t>(j) * m + i] / sigma[j];
    std::copy_n(&w[static_cast<size_t>(j) * n], n,
                &(*vt)[static_cast<size_t>(k) * n]);
  }
  OrthonormalizeRows(n, m, &ut);
  u->resize(static_cast<size_t>(m) * n);
  for (int32_t i = 0; i < m; i++)
    for (int32_t k = 0; k < n; k++)
      (*u)[static_cast<size_t>(i) * n + k] = ut[static_cast<size_t>(k) * m + i];
}

}  // namespace

void HostSvd(int32_t rows, int32_t cols, const std::vector<double> &a,
             std::vector<double> *s, std::vector<double> *u,
             std::vector<double> *vt) {
  NNET3_ASSERT(rows > 0 && cols > 0 &&
               a.size() == static_cast<size_t>(rows) * cols);
  if (rows >= cols) {
    TallSvd(rows, cols, a, s, u, vt);
    return;
  }
  // aᵀ = U' S V'ᵀ, so a = V' S U'ᵀ: u = V', vt = U'ᵀ.
  std::vector<double> at(a.size());
  for (int32_t i = 0; i < rows; i++)
    for (int32_t j = 0; j < cols; j++)
      at[static_cast<size_t>(j) * rows + i] =
          a[static_cast<size_t>(i) * cols + j];
  std::vector<double> u2, vt2;
  TallSvd(cols, rows, at, s, &u2, &vt2);
  const int32_t k = rows;
  u->resize(static_cast<size_t>(rows) * k);
  for (int32_t i = 0; i < rows; i++)  // u = V' = vt2ᵀ
    for (int32_t j = 0; j < k; j++)
      (*u)[static_cast<size_t>(i) * k + j] =
          vt2[static_cast<size_t>(j) * k + i];
  vt->resize(static_cast<size_t>(k) * cols);
  for (int32_t j = 0; j < k; j++)  // vt = U'ᵀ
    for (int32_t c = 0; c < cols; c++)
      (*vt)[static_cast<size_t>(j) * cols + c] =
          u2[static_cast<size_t>(c) * k + j];
}

}  // namespace nnet3
