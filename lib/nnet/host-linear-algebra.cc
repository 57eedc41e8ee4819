#include "nnet/host-linear-algebra.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/error.h"

namespace nnet3 {

namespace {

// One Jacobi rotation in the (p, q) plane that zeroes a(p, q):
// a ← Jᵀ a J and v ← v J, with J the identity except J(p,p) = J(q,q) = c,
// J(p,q) = s, J(q,p) = -s, where t = s/c is the smaller root of
// t² + 2θt - 1 = 0, θ = (a_qq - a_pp) / (2 a_pq).
void Rotate(int32_t n, int32_t p, int32_t q, std::vector<double> *a,
            std::vector<double> *v) {
  std::vector<double> &A = *a, &V = *v;
  double apq = A[p * n + q];
  double theta = (A[q * n + q] - A[p * n + p]) / (2.0 * apq);
  double t = (theta >= 0 ? 1.0 : -1.0) /
             (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
  double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
  for (int32_t k = 0; k < n; k++) {  // columns p and q: a J
    double akp = A[k * n + p], akq = A[k * n + q];
    A[k * n + p] = c * akp - s * akq;
    A[k * n + q] = s * akp + c * akq;
  }
  for (int32_t k = 0; k < n; k++) {  // rows p and q: Jᵀ (a J)
    double apk = A[p * n + k], aqk = A[q * n + k];
    A[p * n + k] = c * apk - s * aqk;
    A[q * n + k] = s * apk + c * aqk;
  }
  A[p * n + q] = A[q * n + p] = 0.0;  // exact in exact arithmetic
  for (int32_t k = 0; k < n; k++) {
    double vkp = V[k * n + p], vkq = V[k * n + q];
    V[k * n + p] = c * vkp - s * vkq;
    V[k * n + q] = s * vkp + c * vkq;
  }
}

}  // namespace

void SymmetricEigen(int32_t n, const std::vector<double> &a_in,
                    std::vector<double> *eigenvalues,
                    std::vector<double> *eigenvectors) {
  NNET3_ASSERT(n >= 0 && a_in.size() == static_cast<size_t>(n) * n);
  std::vector<double> a(a_in.size()), v(a_in.size(), 0.0);
  double total = 0.0;
  for (int32_t i = 0; i < n; i++) {
    v[i * n + i] = 1.0;
    for (int32_t j = 0; j < n; j++) {
      a[i * n + j] = 0.5 * (a_in[i * n + j] + a_in[j * n + i]);
      total += a[i * n + j] * a[i * n + j];
    }
  }
  // Cyclic sweeps until the off-diagonal mass is negligible relative to the
  // whole (convergence is quadratic, so this takes few sweeps).
  for (int32_t sweep = 0; sweep < 100; sweep++) {
    double off = 0.0;
    for (int32_t p = 0; p < n; p++)
      for (int32_t q = p + 1; q < n; q++) off += a[p * n + q] * a[p * n + q];
    if (off <= 1e-30 * total || off == 0.0) break;
    for (int32_t p = 0; p < n; p++)
      for (int32_t q = p + 1; q < n; q++)
        if (a[p * n + q] != 0.0) Rotate(n, p, q, &a, &v);
  }
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&a, n](int32_t x, int32_t y) {
    return a[x * n + x] > a[y * n + y];
  });
  eigenvalues->resize(n);
  eigenvectors->resize(static_cast<size_t>(n) * n);
  for (int32_t k = 0; k < n; k++) {
    (*eigenvalues)[k] = a[order[k] * n + order[k]];
    for (int32_t i = 0; i < n; i++)
      (*eigenvectors)[i * n + k] = v[i * n + order[k]];
  }
}

std::vector<double> HostMatMul(int32_t n, int32_t m, int32_t p,
                               const std::vector<double> &a,
                               const std::vector<double> &b) {
  NNET3_ASSERT(a.size() == static_cast<size_t>(n) * m &&
               b.size() == static_cast<size_t>(m) * p);
  std::vector<double> c(static_cast<size_t>(n) * p, 0.0);
  for (int32_t i = 0; i < n; i++)
    for (int32_t k = 0; k < m; k++) {
      double aik = a[i * m + k];
      if (aik == 0.0) continue;
      for (int32_t j = 0; j < p; j++) c[i * p + j] += aik * b[k * p + j];
    }
  return c;
}

void OrthonormalizeRows(int32_t r, int32_t d, std::vector<double> *m) {
  NNET3_ASSERT(r <= d && m->size() == static_cast<size_t>(r) * d);
  std::vector<double> &M = *m;
  int32_t next_unit = 0;  // next e_j to try for a degenerate row
  for (int32_t i = 0; i < r; i++) {
    double *row = &M[static_cast<size_t>(i) * d];
    double orig_norm = 0.0;
    for (int32_t c = 0; c < d; c++) orig_norm += row[c] * row[c];
    orig_norm = std::sqrt(orig_norm);
    for (int32_t attempt = 0;; attempt++) {
      // Two passes of projection ("twice is enough") for accuracy.
      for (int32_t pass = 0; pass < 2; pass++)
        for (int32_t j = 0; j < i; j++) {
          const double *prev = &M[static_cast<size_t>(j) * d];
          double dot = 0.0;
          for (int32_t c = 0; c < d; c++) dot += row[c] * prev[c];
          for (int32_t c = 0; c < d; c++) row[c] -= dot * prev[c];
        }
      double norm = 0.0;
      for (int32_t c = 0; c < d; c++) norm += row[c] * row[c];
      norm = std::sqrt(norm);
      if (norm > 1e-6 * std::max(orig_norm, 1e-300) && norm > 1e-150) {
        for (int32_t c = 0; c < d; c++) row[c] /= norm;
        break;
      }
      NNET3_ASSERT(attempt <= d && next_unit < d);
      std::fill(row, row + d, 0.0);
      row[next_unit++] = 1.0;
      orig_norm = 1.0;
    }
  }
}

bool CholeskyLower(int32_t n, const std::vector<double> &a,
                   std::vector<double> *l) {
  NNET3_ASSERT(static_cast<int64_t>(a.size()) == int64_t(n) * n);
  l->assign(a.size(), 0.0);
  std::vector<double> &L = *l;
  for (int32_t j = 0; j < n; j++) {
    double d = a[static_cast<size_t>(j) * n + j];
    for (int32_t k = 0; k < j; k++)
      d -=
          L[static_cast<size_t>(j) * n + k] * L[static_cast<size_t>(j) * n + k];
    if (!(d > 0.0)) return false;
    const double ljj = std::sqrt(d);
    L[static_cast<size_t>(j) * n + j] = ljj;
    for (int32_t i = j + 1; i < n; i++) {
      double s = a[static_cast<size_t>(i) * n + j];
      for (int32_t k = 0; k < j; k++)
        s -= L[static_cast<size_t>(i) * n + k] *
             L[static_cast<size_t>(j) * n + k];
      L[static_cast<size_t>(i) * n + j] = s / ljj;
    }
  }
  return true;
}

std::vector<double> InvertLowerTriangular(int32_t n,
                                          const std::vector<double> &l) {
  NNET3_ASSERT(static_cast<int64_t>(l.size()) == int64_t(n) * n);
  std::vector<double> inv(l.size(), 0.0);
  // Column by column: solve L x = e_j by forward substitution.
  for (int32_t j = 0; j < n; j++) {
    for (int32_t i = j; i < n; i++) {
      double s = i == j ? 1.0 : 0.0;
      for (int32_t k = j; k < i; k++)
        s -= l[static_cast<size_t>(i) * n + k] *
             inv[static_cast<size_t>(k) * n + j];
      const double diag = l[static_cast<size_t>(i) * n + i];
      NNET3_ASSERT(diag != 0.0);
      inv[static_cast<size_t>(i) * n + j] = s / diag;
    }
  }
  return inv;
}

}  // namespace nnet3
