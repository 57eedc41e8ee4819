// HostSvd: reconstruction, orthonormality and order on random tall, wide
// and square matrices; singular values against the eigenvalues of aᵀa and
// against matrices built with known singular values (including zeros and a
// wide spread); and the sizes of a 1 x n and n x 1 matrix.
#include "nnet/host-svd.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "nnet/host-linear-algebra.h"

namespace nnet3 {
namespace {

std::vector<double> Randn(int32_t rows, int32_t cols, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> normal;
  std::vector<double> a(static_cast<size_t>(rows) * cols);
  for (double &x : a) x = normal(gen);
  return a;
}

std::vector<double> Transpose(int32_t rows, int32_t cols,
                              const std::vector<double> &a) {
  std::vector<double> t(a.size());
  for (int32_t i = 0; i < rows; i++)
    for (int32_t j = 0; j < cols; j++) t[j * rows + i] = a[i * cols + j];
  return t;
}

double MaxAbsDiff(const std::vector<double> &a, const std::vector<double> &b) {
  REQUIRE(a.size() == b.size());
  double d = 0.0;
  for (size_t i = 0; i < a.size(); i++) d = std::max(d, std::fabs(a[i] - b[i]));
  return d;
}

// k x k identity.
std::vector<double> Identity(int32_t k) {
  std::vector<double> eye(static_cast<size_t>(k) * k, 0.0);
  for (int32_t i = 0; i < k; i++) eye[i * k + i] = 1.0;
  return eye;
}

// Checks a == u diag(s) vt, uᵀu = I, vt vtᵀ = I, s sorted and >= 0.
void CheckSvd(int32_t rows, int32_t cols, const std::vector<double> &a,
              const std::vector<double> &s, const std::vector<double> &u,
              const std::vector<double> &vt) {
  const int32_t k = std::min(rows, cols);
  REQUIRE(s.size() == static_cast<size_t>(k));
  REQUIRE(u.size() == static_cast<size_t>(rows) * k);
  REQUIRE(vt.size() == static_cast<size_t>(k) * cols);
  for (int32_t i = 0; i < k; i++) {
    CHECK(s[i] >= 0.0);
    if (i > 0) CHECK(s[i] <= s[i - 1]);
  }
  std::vector<double> us(u);
  for (int32_t i = 0; i < rows; i++)
    for (int32_t j = 0; j < k; j++) us[i * k + j] *= s[j];
  double scale = 1.0;
  for (double x : a) scale = std::max(scale, std::fabs(x));
  CHECK(MaxAbsDiff(HostMatMul(rows, k, cols, us, vt), a) < 1e-12 * scale);
  CHECK(MaxAbsDiff(HostMatMul(k, rows, k, Transpose(rows, k, u), u),
                   Identity(k)) < 1e-12);
  CHECK(MaxAbsDiff(HostMatMul(k, cols, k, vt, Transpose(k, cols, vt)),
                   Identity(k)) < 1e-12);
}

}  // namespace

TEST_CASE("HostSvd decomposes random matrices", "[svd]") {
  // (rows, cols, seed): tall, wide, square, vectors.
  const int32_t shapes[][3] = {{7, 3, 1},   {3, 7, 2},   {6, 6, 3},
                               {1, 5, 4},   {5, 1, 5},   {1, 1, 6},
                               {40, 25, 7}, {25, 40, 8}, {64, 64, 9}};
  for (const auto &shape : shapes) {
    const int32_t rows = shape[0], cols = shape[1];
    INFO(rows << " x " << cols << ", seed " << shape[2]);
    const std::vector<double> a = Randn(rows, cols, shape[2]);
    std::vector<double> s, u, vt;
    HostSvd(rows, cols, a, &s, &u, &vt);
    CheckSvd(rows, cols, a, s, u, vt);
    // s² are the largest eigenvalues of aᵀa (an independent solver).
    std::vector<double> eigenvalues, eigenvectors;
    SymmetricEigen(cols,
                   HostMatMul(cols, rows, cols, Transpose(rows, cols, a), a),
                   &eigenvalues, &eigenvectors);
    for (size_t i = 0; i < s.size(); i++)
      CHECK(s[i] * s[i] == Approx(eigenvalues[i]).epsilon(1e-10).margin(1e-10));
  }
}

TEST_CASE("HostSvd finds known singular values, zeros included", "[svd]") {
  // a = Q1 diag(sigma) Q2ᵀ with orthonormal Q1 (30 x 8) and Q2 (12 x 8).
  const int32_t rows = 30, cols = 12, k = 8;
  std::vector<double> q1 = Randn(k, rows, 11), q2 = Randn(k, cols, 12);
  OrthonormalizeRows(k, rows, &q1);  // rows of q1, q2 are orthonormal
  OrthonormalizeRows(k, cols, &q2);
  const std::vector<double> sigma = {1e3, 50, 7, 1, 0.25, 1e-3, 0, 0};
  std::vector<double> scaled = Transpose(k, rows, q1);  // rows x k
  for (int32_t i = 0; i < rows; i++)
    for (int32_t j = 0; j < k; j++) scaled[i * k + j] *= sigma[j];
  const std::vector<double> a = HostMatMul(rows, k, cols, scaled, q2);
  for (bool wide : {false, true}) {
    INFO((wide ? "wide (the transpose)" : "tall"));
    const std::vector<double> m = wide ? Transpose(rows, cols, a) : a;
    const int32_t r = wide ? cols : rows, c = wide ? rows : cols;
    std::vector<double> s, u, vt;
    HostSvd(r, c, m, &s, &u, &vt);
    CheckSvd(r, c, m, s, u, vt);
    for (int32_t i = 0; i < cols; i++) {
      const double want = i < k ? sigma[i] : 0.0;
      CHECK(s[i] == Approx(want).epsilon(1e-10).margin(1e-10));
    }
  }
}

}  // namespace nnet3
