// Tests of the CPU backend's SGEMM dispatch (lib/device/cpu-gemm.h): each
// library the build has (OpenBLAS always, oneDNN where found) against a
// double-precision loop, over all four transpose cases, padded leading
// dimensions, beta 0 over NaN and beta != 0, and shapes from one row to
// blocked sizes.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "device/cpu-gemm.h"

namespace nnet3 {
namespace {

using cpu::GemmLibrary;

std::vector<GemmLibrary> Libraries() {
  std::vector<GemmLibrary> libs = {GemmLibrary::kOpenBlas};
  if (cpu::OneDnnAvailable()) libs.push_back(GemmLibrary::kOneDnn);
  return libs;
}

TEST_CASE("CPU SGEMM libraries against double precision",
          "[device][cpu-gemm]") {
  const uint32_t seed = 1840;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const int32_t shapes[][3] = {{1, 5, 7},    {3, 1, 4},     {17, 33, 9},
                               {64, 40, 130}, {130, 70, 90}, {2, 300, 257}};
  for (GemmLibrary lib : Libraries()) {
    INFO("library " << cpu::GemmLibraryName(lib));
    for (const auto &s : shapes) {
      const int32_t m = s[0], n = s[1], k = s[2];
      for (int t = 0; t < 4; t++) {
        const bool ta = t & 2, tb = t & 1;
        for (float beta : {0.0f, 0.5f}) {
          INFO(m << "x" << n << "x" << k << " ta " << ta << " tb " << tb
                 << " beta " << beta);
          // op(A) is m x k, op(B) k x n; stored rows padded by 3.
          const int32_t a_rows = ta ? k : m, a_cols = ta ? m : k;
          const int32_t b_rows = tb ? n : k, b_cols = tb ? k : n;
          const int32_t lda = a_cols + 3, ldb = b_cols + 3, ldc = n + 3;
          std::vector<float> a(a_rows * lda), b(b_rows * ldb), c(m * ldc);
          for (float &v : a) v = u(rng);
          for (float &v : b) v = u(rng);
          for (float &v : c)
            v = beta == 0.0f ? std::numeric_limits<float>::quiet_NaN() : u(rng);
          const std::vector<float> c0 = c;
          cpu::Sgemm(lib, ta, tb, m, n, k, 0.75f, a.data(), lda, b.data(), ldb,
                     beta, c.data(), ldc);
          for (int32_t i = 0; i < m; i++)
            for (int32_t j = 0; j < n; j++) {
              double want = 0.0, mag = 0.0;
              for (int32_t q = 0; q < k; q++) {
                const double x = ta ? a[q * lda + i] : a[i * lda + q];
                const double y = tb ? b[j * ldb + q] : b[q * ldb + j];
                want += x * y;
                mag += std::fabs(x * y);
              }
              want = 0.75 * want + (beta == 0.0f ? 0.0 : beta * c0[i * ldc + j]);
              REQUIRE(std::fabs(c[i * ldc + j] - want) <= 1e-5 * (1.0 + mag));
            }
        }
      }
    }
  }
}

}  // namespace
}  // namespace nnet3
