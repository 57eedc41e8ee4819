// LDA statistics and the feature transform: accumulation against a direct
// computation, the format (round trip, summing on read, the mismatch
// error), RandPrune's expectation, Cholesky and the triangular inverse.
#include "train/lda-estimate.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <vector>

#include "base/error.h"
#include "base/random.h"
#include "nnet/host-linear-algebra.h"
#include "train/feature-transform-estimate.h"
#include "train/nnet-lda-stats.h"

namespace nnet3 {
namespace {

Matrix FromHost(int32_t rows, int32_t cols, const std::vector<float> &v) {
  Matrix m(rows, cols, ResizeType::kSetZero, CpuDevice());
  m.CopyFromHost(v);
  return m;
}

// 6 frames of 2-dim features, 3 classes (soft weights on two rows).
LdaEstimate Stats() {
  LdaEstimate lda;
  lda.Init(3, 2);
  lda.AccumulateMatrix(
      FromHost(6, 2, {1, 2, 2, 0, -1, 1, 0, -2, 3, 1, 0.5, 0.5}),
      FromHost(6, 3,
               {1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0, 1, 0, 0, 0, 0, 2}));
  return lda;
}

TEST_CASE("LdaEstimate accumulates and reads back", "[lda]") {
  const LdaEstimate lda = Stats();
  CHECK(lda.TotCount() == 7.0);
  DoubleSpMatrix total, between;
  std::vector<double> mean;
  double count = 0.0;
  lda.GetStats(&total, &between, &mean, &count);
  // mean = sum_r (sum_c w_rc) x_r / 7.
  CHECK(mean[0] == Approx((1 + 2 - 1 + 0 + 3 + 1) / 7.0));
  CHECK(mean[1] == Approx((2 + 0 + 1 - 2 + 1 + 1) / 7.0));
  CHECK(total(1, 0) ==
        Approx((2 + 0 - 1 + 0 + 3 + 0.5) / 7.0 - mean[0] * mean[1]));
  for (bool binary : {true, false}) {
    std::stringstream ss;
    lda.Write(ss, binary);
    LdaEstimate back;
    back.Read(ss, binary, false);
    DoubleSpMatrix total2, between2;
    std::vector<double> mean2;
    double count2 = 0.0;
    back.GetStats(&total2, &between2, &mean2, &count2);
    CHECK(count2 == count);
    const double tol = binary ? 1e-6 : 1e-5;  // text: 7 digits
    for (size_t k = 0; k < total.data.size(); k++) {
      CHECK(total2.data[k] == Approx(total.data[k]).epsilon(tol));
      CHECK(between2.data[k] == Approx(between.data[k]).epsilon(tol));
    }
    // Reading with add=true sums.
    std::stringstream again;
    lda.Write(again, binary);
    back.Read(again, binary, true);
    CHECK(back.TotCount() == 14.0);
  }
  LdaEstimate other;
  other.Init(4, 2);
  std::stringstream ss;
  other.Write(ss, true);
  LdaEstimate sum = Stats();
  CHECK_THROWS_AS(sum.Read(ss, true, true), UserError);
}

TEST_CASE("RandPrune keeps the expectation", "[lda]") {
  RandomState rng(7);
  CHECK(RandPrune(0.0f, 4.0f, &rng) == 0.0f);
  CHECK(RandPrune(5.0f, 4.0f, &rng) == 5.0f);
  CHECK(RandPrune(0.3f, 0.0f, &rng) == 0.3f);
  double sum = 0.0;
  for (int i = 0; i < 20000; i++) {
    const float w = RandPrune(-0.5f, 4.0f, &rng);
    CHECK((w == 0.0f || w == -4.0f));
    sum += w;
  }
  CHECK(sum / 20000 == Approx(-0.5).epsilon(0.05));
}

TEST_CASE("CholeskyLower and InvertLowerTriangular", "[lda]") {
  const std::vector<double> a = {4, 2, -2, 2, 10, 1, -2, 1, 6};
  std::vector<double> l;
  REQUIRE(CholeskyLower(3, a, &l));
  CHECK(l[1] == 0.0);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double s = 0.0;
      for (int k = 0; k < 3; k++) s += l[i * 3 + k] * l[j * 3 + k];
      CHECK(s == Approx(a[i * 3 + j]));
    }
  const std::vector<double> inv = InvertLowerTriangular(3, l);
  const std::vector<double> p = HostMatMul(3, 3, 3, l, inv);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      CHECK(p[i * 3 + j] == Approx(i == j ? 1.0 : 0.0).margin(1e-12));
  std::vector<double> not_pd = {1, 2, 2, 1};
  CHECK_FALSE(CholeskyLower(2, not_pd, &l));
}

TEST_CASE("EstimateFeatureTransform whitens the within-class covariance",
          "[lda]") {
  FeatureTransformEstimateOptions opts;
  opts.within_class_factor = 1.0f;
  opts.max_singular_value = 0.0f;
  DoubleMatrix m;
  EstimateFeatureTransform(Stats(), opts, &m, nullptr);
  REQUIRE(m.rows == 2);
  REQUIRE(m.cols == 3);
  DoubleSpMatrix total, between;
  std::vector<double> mean;
  double count = 0.0;
  Stats().GetStats(&total, &between, &mean, &count);
  const std::vector<double> t = total.ToFull(), b = between.ToFull();
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 2; j++) {
      double w = 0.0;
      for (int k = 0; k < 2; k++)
        for (int q = 0; q < 2; q++)
          w += m(i, k) * (t[k * 2 + q] - b[k * 2 + q]) * m(j, q);
      CHECK(w == Approx(i == j ? 1.0 : 0.0).margin(1e-6));
    }
    CHECK(m(i, 0) * mean[0] + m(i, 1) * mean[1] + m(i, 2) ==
          Approx(0.0).margin(1e-6));
  }
  opts.dim = 3;
  CHECK_THROWS_AS(EstimateFeatureTransform(Stats(), opts, &m, nullptr),
                  UserError);
}

}  // namespace
}  // namespace nnet3
