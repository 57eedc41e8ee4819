// Tests of the CPU backend's vector-matrix operations, reductions and
// counter-based random fills (determinism per (seed, row, col) whatever the
// stride, and the first two moments over 10^5 samples).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "device/cpu-backend.h"
#include "test-views.h"

namespace nnet3 {
namespace {

using test::CheckMat;
using test::RandDim;
using test::RandFloat;
using test::Ref;
using test::Rng;
using test::TestMat;

const float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST_CASE("CpuBackend vector-matrix operations", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 401;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 40; trial++) {
    const int32_t rows = RandDim(&rng, 12), cols = RandDim(&rng, 12);
    const TestMat m(rows, cols, &rng), vr(1, cols, &rng), vc(1, rows, &rng);
    const float alpha = RandFloat(&rng, -2, 2);
    INFO("trial " << trial << " alpha " << alpha << " m " << m.Describe());
    Ref to_rows(m), to_cols(m), mul_cols(m), mul_rows(m);
    for (int32_t r = 0; r < rows; r++) {
      for (int32_t c = 0; c < cols; c++) {
        to_rows(r, c) += alpha * vr(0, c);
        to_cols(r, c) += alpha * vc(0, r);
        mul_cols(r, c) *= vr(0, c);
        mul_rows(r, c) *= vc(0, r);
      }
    }
    TestMat x = m;
    cpu.AddVecToRows(alpha, vr.cview(), x.view());
    CheckMat(x, m, to_rows, 1e-6);
    x = m;
    cpu.AddVecToCols(alpha, vc.cview(), x.view());
    CheckMat(x, m, to_cols, 1e-6);
    x = m;
    cpu.MulColsVec(vr.cview(), x.view());
    CheckMat(x, m, mul_cols, 1e-6);
    x = m;
    cpu.MulRowsVec(vc.cview(), x.view());
    CheckMat(x, m, mul_rows, 1e-6);
  }
}

TEST_CASE("CpuBackend reductions", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 402;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 40; trial++) {
    const int32_t rows = RandDim(&rng, 30), cols = RandDim(&rng, 30);
    const TestMat m(rows, cols, &rng), m2(rows, cols, &rng);
    INFO("trial " << trial << " m " << m.Describe());
    for (float beta : {0.0f, 1.0f, 0.5f}) {
      const float alpha = RandFloat(&rng, -2, 2);
      TestMat vr(1, cols, &rng), vc(1, rows, &rng);
      if (beta == 0.0f) {  // old contents ignored
        vr.SetView(kNaN);
        vc.SetView(kNaN);
      }
      Ref row_sum(1, cols), col_sum(1, rows);
      for (int32_t r = 0; r < rows; r++) {
        for (int32_t c = 0; c < cols; c++) {
          row_sum(0, c) += m(r, c);
          col_sum(0, r) += m(r, c);
        }
      }
      for (int32_t c = 0; c < cols; c++)
        row_sum(0, c) = alpha * row_sum(0, c) + (beta ? beta * vr(0, c) : 0);
      for (int32_t r = 0; r < rows; r++)
        col_sum(0, r) = alpha * col_sum(0, r) + (beta ? beta * vc(0, r) : 0);
      TestMat x = vr;
      cpu.AddRowSumToVec(alpha, m.cview(), beta, x.view());
      CheckMat(x, vr, row_sum, 1e-5);
      x = vc;
      cpu.AddColSumToVec(alpha, m.cview(), beta, x.view());
      CheckMat(x, vc, col_sum, 1e-5);
    }
    double sum = 0.0, dot = 0.0, abs = 0.0;
    float max = -INFINITY, min = INFINITY;
    for (int32_t r = 0; r < rows; r++) {
      for (int32_t c = 0; c < cols; c++) {
        sum += m(r, c);
        dot += static_cast<double>(m(r, c)) * m2(r, c);
        abs += std::fabs(m(r, c));
        max = std::max(max, m(r, c));
        min = std::min(min, m(r, c));
      }
    }
    CHECK(std::fabs(cpu.Sum(m.cview()) - sum) <= 1e-9 * (1 + abs));
    CHECK(std::fabs(cpu.DotProduct(m.cview(), m2.cview()) - dot) <=
          1e-9 * (1 + 4 * abs));
    CHECK(cpu.Max(m.cview()) == max);  // +-inf for empty views
    CHECK(cpu.Min(m.cview()) == min);
  }
  // Sums in double: 10^6 copies of 0.1f add up without float drift.
  std::vector<float> big(1000000, 0.1f);
  ConstMatView v(big.data(), 1000, 1000, 1000);
  CHECK(cpu.Sum(v) == Approx(1e6 * double(0.1f)).epsilon(1e-12));
}

TEST_CASE("RandomBits and UniformFromBits", "[device][random]") {
  CHECK(RandomBits(1, 0) == RandomBits(1, 0));
  CHECK(RandomBits(1, 0) != RandomBits(2, 0));
  CHECK(RandomBits(1, 0) != RandomBits(1, 1));
  CHECK(UniformFromBits(0) == 0.0f);
  CHECK(UniformFromBits(~uint64_t{0}) < 1.0f);
  CHECK(UniformFromBits(uint64_t{1} << 63) == 0.5f);
  // Bits are balanced: each of 64 bits set about half the time.
  std::vector<int> ones(64, 0);
  const int n = 20000;
  for (int i = 0; i < n; i++) {
    const uint64_t b = RandomBits(7, i);
    for (int k = 0; k < 64; k++) ones[k] += (b >> k) & 1;
  }
  for (int k = 0; k < 64; k++) {
    INFO("bit " << k);
    CHECK(std::abs(ones[k] - n / 2) < 500);  // 7 standard deviations
  }
}

TEST_CASE("CpuBackend random fills are counter-based",
          "[device][cpu-backend][random]") {
  CpuBackend cpu;
  const uint32_t seed = 403;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 20; trial++) {
    const int32_t rows = RandDim(&rng, 20), cols = RandDim(&rng, 20);
    const uint64_t fill_seed = 1000 + trial;
    INFO("trial " << trial << " fill seed " << fill_seed);
    for (bool gauss : {false, true}) {
      // Same seed, different strides and offsets: same numbers per (r, c).
      TestMat a(rows, cols, &rng, true), b(rows, cols, &rng, false);
      const TestMat a0 = a, b0 = b;
      TestMat c = a;
      auto fill = [&](TestMat *m, uint64_t s) {
        if (gauss)
          cpu.RandGaussian(s, m->view());
        else
          cpu.RandUniform(s, m->view());
      };
      fill(&a, fill_seed);
      fill(&b, fill_seed);
      fill(&c, fill_seed + 1);
      Ref want(rows, cols);
      int32_t same_as_other_seed = 0;
      for (int32_t r = 0; r < rows; r++) {
        for (int32_t col = 0; col < cols; col++) {
          const uint64_t k = static_cast<uint64_t>(r) * cols + col;
          want(r, col) =
              gauss ? GaussianFromBits(RandomBits(fill_seed, 2 * k),
                                       RandomBits(fill_seed, 2 * k + 1))
                    : UniformFromBits(RandomBits(fill_seed, k));
          same_as_other_seed += c(r, col) == a(r, col);
        }
      }
      CheckMat(a, a0, want, 0.0);
      CheckMat(b, b0, want, 0.0);
      CHECK(same_as_other_seed <= 1);
    }
  }
}

TEST_CASE("CpuBackend random fill statistics",
          "[device][cpu-backend][random]") {
  CpuBackend cpu;
  const int32_t rows = 100, cols = 1000;  // 10^5 samples
  std::vector<float> buf(static_cast<size_t>(rows) * cols);
  const MatView m(buf.data(), rows, cols, cols);
  auto moments = [&](double *mean, double *var, double *lag1) {
    double s = 0, s2 = 0, s11 = 0;
    for (size_t i = 0; i < buf.size(); i++) {
      s += buf[i];
      s2 += double(buf[i]) * buf[i];
      if (i > 0) s11 += double(buf[i]) * buf[i - 1];
    }
    const double n = buf.size();
    *mean = s / n;
    *var = s2 / n - *mean * *mean;
    *lag1 = (s11 / (n - 1) - *mean * *mean) / *var;  // neighbour correlation
  };
  const uint64_t seed = 42;
  INFO("fill seed " << seed);
  double mean, var, lag1;
  cpu.RandUniform(seed, m);
  moments(&mean, &var, &lag1);
  CHECK(std::fabs(mean - 0.5) < 0.005);
  CHECK(std::fabs(var - 1.0 / 12) < 0.002);
  CHECK(std::fabs(lag1) < 0.02);
  CHECK(cpu.Min(m) >= 0.0f);
  CHECK(cpu.Max(m) < 1.0f);

  cpu.RandGaussian(seed, m);
  moments(&mean, &var, &lag1);
  CHECK(std::fabs(mean) < 0.015);
  CHECK(std::fabs(var - 1.0) < 0.02);
  CHECK(std::fabs(lag1) < 0.02);
  int tail = 0;
  for (float x : buf) tail += std::fabs(x) > 1.959964f;
  CHECK(std::fabs(tail / 1e5 - 0.05) < 0.004);  // two-sided 5% tail
}

}  // namespace
}  // namespace nnet3
