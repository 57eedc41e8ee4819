// Tests of the vectorised CPU kernels (lib/device/cpu-kernels.h): every
// kernel of the baseline table and, where the processor has AVX2, of the
// AVX2 table, against plain double-precision loops (the reference), over
// random values, the edges of the float range, infinities and NaN, and row
// lengths that exercise the vector tails; the two tables' exp, sigmoid and
// tanh must agree bit for bit.
#include "device/cpu-kernels.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace nnet3 {
namespace {

using cpu::Kernels;

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<const Kernels *> Tables() {
  std::vector<const Kernels *> t = {&cpu::GenericKernels()};
  if (cpu::Avx2Kernels() != nullptr) t.push_back(cpu::Avx2Kernels());
  return t;
}

// Relative error of got against want (double), NaN/inf matched exactly;
// values below the smallest normal float compare absolutely.
bool NearRel(float got, double want, double rel) {
  // Beyond the largest float (by more than half an ulp) the float result is
  // +-inf.
  const double kOver = std::numeric_limits<float>::max() * (1.0 + 0x1p-25);
  if (std::fabs(want) > kOver) want = want > 0 ? kInf : -kInf;
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return static_cast<double>(got) == want;
  const double tiny = std::numeric_limits<float>::min();
  return std::fabs(got - want) <= rel * std::fabs(want) + tiny;
}

// Random values in [lo, hi) plus the awkward ones.
std::vector<float> Inputs(std::mt19937 *rng, int32_t n, float lo, float hi) {
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> x(n);
  for (float &v : x) v = u(*rng);
  const float special[] = {0.0f,    -0.0f,   1e-30f,  -1e-30f, 1e-8f,
                           -1e-8f,  0.6249f, 0.6251f, -0.625f, 88.7f,
                           88.73f,  89.0f,   -87.3f,  -87.4f,  -100.0f,
                           -103.9f, -104.5f, 500.0f,  -500.0f, kInf,
                           -kInf,   kNaN,    20.0f,   -20.0f,  44.0f};
  for (size_t i = 0; i < sizeof(special) / sizeof(float) && i < x.size(); i++)
    x[(i * 7) % x.size()] = special[i];
  return x;
}

double RefSigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

TEST_CASE("CPU kernels: exp, sigmoid, tanh against double precision",
          "[device][cpu-kernels]") {
  const uint32_t seed = 1801;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  for (const Kernels *k : Tables()) {
    INFO("table " << k->name);
    for (int32_t n : {1, 3, 7, 8, 9, 16, 31, 100, 1000}) {
      INFO("n " << n);
      for (float range : {1.0f, 10.0f, 100.0f}) {
        const std::vector<float> x = Inputs(&rng, n, -range, range);
        std::vector<float> y(n);
        k->exp(x.data(), y.data(), n);
        for (int32_t i = 0; i < n; i++) {
          INFO("exp(" << x[i] << ") = " << y[i]);
          REQUIRE(NearRel(y[i], std::exp(static_cast<double>(x[i])), 3e-7));
        }
        k->sigmoid(x.data(), y.data(), n);
        for (int32_t i = 0; i < n; i++) {
          INFO("sigmoid(" << x[i] << ") = " << y[i]);
          REQUIRE(NearRel(y[i], RefSigmoid(x[i]), 6e-7));
        }
        k->tanh(x.data(), y.data(), n);
        for (int32_t i = 0; i < n; i++) {
          INFO("tanh(" << x[i] << ") = " << y[i]);
          REQUIRE(NearRel(y[i], std::tanh(static_cast<double>(x[i])), 6e-7));
          REQUIRE(std::signbit(y[i]) == std::signbit(x[i]));
        }
        // In place gives the same.
        std::vector<float> z = x;
        k->tanh(z.data(), z.data(), n);
        REQUIRE(std::memcmp(z.data(), y.data(), sizeof(float) * n) == 0);
      }
    }
  }
}

TEST_CASE("CPU kernels: exp at the edges of the float range",
          "[device][cpu-kernels]") {
  for (const Kernels *k : Tables()) {
    INFO("table " << k->name);
    // Every float in [-104, 89] on a coarse grid, denormal results included.
    std::vector<float> x;
    for (float v = -104.0f; v < 89.0f; v += 0.0137f) x.push_back(v);
    std::vector<float> y(x.size());
    k->exp(x.data(), y.data(), static_cast<int64_t>(x.size()));
    for (size_t i = 0; i < x.size(); i++) {
      const double want = std::exp(static_cast<double>(x[i]));
      INFO("exp(" << x[i] << ") = " << y[i] << ", want " << want);
      if (want < std::numeric_limits<float>::min())  // denormal: 1 ulp of it
        REQUIRE(std::fabs(y[i] - want) <=
                std::numeric_limits<float>::denorm_min());
      else
        REQUIRE(NearRel(y[i], want, 3e-7));
    }
  }
}

// Softmax, log-softmax and their derivatives on one row, against doubles.
void CheckSoftmaxRow(const Kernels &k, const std::vector<float> &x,
                     const std::vector<float> &d) {
  const int32_t n = static_cast<int32_t>(x.size());
  double max = -kInf;
  for (float v : x) max = std::max(max, static_cast<double>(v));
  double sum = 0.0;
  for (float v : x) sum += std::exp(v - max);
  std::vector<float> y(n), ly(n), g(n), lg(n);
  k.softmax_row(x.data(), y.data(), n);
  k.log_softmax_row(x.data(), ly.data(), n);
  k.diff_softmax_row(y.data(), d.data(), g.data(), n);
  k.diff_log_softmax_row(ly.data(), d.data(), lg.data(), n);
  double dot = 0.0, dsum = 0.0;
  for (int32_t i = 0; i < n; i++) {
    dot += static_cast<double>(y[i]) * d[i];
    dsum += d[i];
  }
  for (int32_t i = 0; i < n; i++) {
    INFO("n " << n << " i " << i << " x " << x[i]);
    const double p = std::exp(x[i] - max) / sum;
    // x - max rounds to float first: relative error ~ |x - max| 2^-24.
    REQUIRE(std::fabs(y[i] - p) <=
            1e-6 * p * (1.0 + std::fabs(x[i] - max)) + 1e-38);
    REQUIRE(std::fabs(ly[i] - ((x[i] - max) - std::log(sum))) <=
            2e-6 * (1.0 + std::fabs(x[i] - max)));
    REQUIRE(std::fabs(g[i] - y[i] * (d[i] - dot)) <=
            1e-5 * (1.0 + std::fabs(y[i] * d[i])));
    REQUIRE(std::fabs(lg[i] -
                      (d[i] - std::exp(static_cast<double>(ly[i])) * dsum)) <=
            1e-5 * (1.0 + std::fabs(d[i]) + std::fabs(dsum)));
  }
  // In place (y over x, g over d) gives the same values.
  std::vector<float> xi = x, di = d;
  k.softmax_row(xi.data(), xi.data(), n);
  REQUIRE(std::memcmp(xi.data(), y.data(), sizeof(float) * n) == 0);
  k.diff_softmax_row(y.data(), di.data(), di.data(), n);
  REQUIRE(std::memcmp(di.data(), g.data(), sizeof(float) * n) == 0);
}

TEST_CASE("CPU kernels: softmax rows and derivatives",
          "[device][cpu-kernels]") {
  const uint32_t seed = 1802;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (const Kernels *k : Tables()) {
    INFO("table " << k->name);
    for (int32_t n : {1, 2, 7, 8, 9, 10, 17, 64, 3000}) {
      for (float scale : {1.0f, 30.0f, 1000.0f}) {
        std::vector<float> x(n), d(n);
        for (int32_t i = 0; i < n; i++) {
          x[i] = scale * u(rng) + 50.0f;
          d[i] = u(rng);
        }
        CheckSoftmaxRow(*k, x, d);
      }
    }
    // -inf entries give probability 0 and log-probability -inf.
    std::vector<float> x = {1.0f, -kInf, 2.0f}, y(3), ly(3);
    k->softmax_row(x.data(), y.data(), 3);
    k->log_softmax_row(x.data(), ly.data(), 3);
    REQUIRE(y[1] == 0.0f);
    REQUIRE(ly[1] == -kInf);
    REQUIRE(std::fabs(y[0] + y[2] - 1.0f) < 1e-6f);
  }
}

TEST_CASE("CPU kernels: reductions in double", "[device][cpu-kernels]") {
  const uint32_t seed = 1803;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  for (const Kernels *k : Tables()) {
    INFO("table " << k->name);
    for (int32_t n : {0, 1, 5, 8, 15, 16, 17, 33, 1000, 4097}) {
      INFO("n " << n);
      std::vector<float> x(n), y(n);
      for (int32_t i = 0; i < n; i++) {
        x[i] = u(rng) * (i % 3 == 0 ? 1e4f : 1.0f);
        y[i] = u(rng);
      }
      double sum = 0.0, dot = 0.0, abs_sum = 0.0, abs_dot = 0.0;
      std::vector<double> acc(n, 0.5), acc_p(n, -0.25);
      for (int32_t i = 0; i < n; i++) {
        sum += x[i];
        abs_sum += std::fabs(x[i]);
        dot += static_cast<double>(x[i]) * y[i];
        abs_dot += std::fabs(static_cast<double>(x[i]) * y[i]);
      }
      REQUIRE(std::fabs(k->sum(x.data(), n) - sum) <= 1e-14 * abs_sum);
      REQUIRE(std::fabs(k->dot(x.data(), y.data(), n) - dot) <=
              1e-14 * abs_dot);
      std::vector<double> got = acc, got_p = acc_p;
      k->accumulate(x.data(), got.data(), n);
      k->accumulate_products(x.data(), y.data(), got_p.data(), n);
      for (int32_t i = 0; i < n; i++) {
        REQUIRE(got[i] == acc[i] + x[i]);  // one addition: exact order
        REQUIRE(got_p[i] == acc_p[i] + static_cast<double>(x[i]) * y[i]);
      }
    }
  }
}

TEST_CASE("CPU kernels: generic and AVX2 elementwise functions agree bitwise",
          "[device][cpu-kernels]") {
  const Kernels *avx2 = cpu::Avx2Kernels();
  if (avx2 == nullptr) {
    WARN("no AVX2 kernels on this processor or build; nothing to compare");
    return;
  }
  const Kernels &generic = cpu::GenericKernels();
  const uint32_t seed = 1804;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  const int32_t n = 1003;
  const std::vector<float> x = Inputs(&rng, n, -90.0f, 90.0f);
  const std::vector<float> d = Inputs(&rng, n, -1.0f, 1.0f);
  using Fn = void (*)(const float *, float *, int64_t);
  for (auto pick : {+[](const Kernels &k) -> Fn { return k.exp; },
                    +[](const Kernels &k) -> Fn { return k.sigmoid; },
                    +[](const Kernels &k) -> Fn { return k.tanh; }}) {
    std::vector<float> a(n), b(n);
    pick(generic)(x.data(), a.data(), n);
    pick (*avx2)(x.data(), b.data(), n);
    REQUIRE(std::memcmp(a.data(), b.data(), sizeof(float) * n) == 0);
  }
}

// C = alpha A B^T + beta C against a double loop, m up to 9 (several blocks
// of 4 rows), odd n, k with vector tails, padded strides, beta 0 over NaN.
TEST_CASE("CPU kernels: small products A B^T", "[device][cpu-kernels]") {
  const uint32_t seed = 1805;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (const Kernels *k : Tables()) {
    INFO("table " << k->name);
    for (int32_t m = 1; m <= 9; m++) {
      for (int32_t n : {1, 2, 5, 64}) {
        for (int32_t kk : {1, 7, 8, 33, 300}) {
          for (float beta : {0.0f, 0.5f}) {
            INFO("m " << m << " n " << n << " k " << kk << " beta " << beta);
            const int32_t lda = kk + 3, ldb = kk + 1, ldc = n + 2;
            std::vector<float> a(m * lda), b(n * ldb), c(m * ldc);
            for (float &v : a) v = u(rng);
            for (float &v : b) v = u(rng);
            for (float &v : c) v = beta == 0.0f ? kNaN : u(rng);
            const std::vector<float> c0 = c;
            k->gemm_small_nt(m, n, kk, 0.75f, a.data(), lda, b.data(), ldb,
                             beta, c.data(), ldc);
            for (int32_t i = 0; i < m; i++) {
              for (int32_t j = 0; j < ldc; j++) {
                if (j >= n) {  // outside C: untouched
                  REQUIRE(std::memcmp(&c[i * ldc + j], &c0[i * ldc + j],
                                      sizeof(float)) == 0);
                  continue;
                }
                double want = 0.0, mag = 0.0;
                for (int32_t q = 0; q < kk; q++) {
                  want += static_cast<double>(a[i * lda + q]) * b[j * ldb + q];
                  mag += std::fabs(a[i * lda + q] * b[j * ldb + q]);
                }
                want =
                    0.75 * want + (beta == 0.0f ? 0.0 : beta * c0[i * ldc + j]);
                REQUIRE(std::fabs(c[i * ldc + j] - want) <= 1e-6 * (1.0 + mag));
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace nnet3
