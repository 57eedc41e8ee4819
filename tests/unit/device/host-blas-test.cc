// HostDot, HostSum, HostGemv against double-precision sums on fixed-seed
// random data (float rounding only). HostSum is not HostDot with a vector
// of ones: OpenBLAS sums a stride-0 operand in another order (an ulp apart
// at n = 40 and 1000 here), which is why it calls sdot as Kaldi's Sum does.
#include "device/host-blas.h"

#include <catch2/catch.hpp>
#include <random>
#include <vector>

namespace nnet3 {
namespace {

std::vector<float> Random(int32_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v) x = u(rng);
  return v;
}

TEST_CASE("host-blas: dot, sum and matrix-vector product") {
  for (int32_t n : {0, 1, 7, 23, 40, 257, 1000}) {
    const uint32_t seed = 50 + n;
    INFO("n = " << n << ", seed " << seed);
    const std::vector<float> x = Random(n, seed), y = Random(n, seed + 1);
    double dot = 0.0, sum = 0.0;
    for (int32_t i = 0; i < n; i++) {
      dot += double(x[i]) * y[i];
      sum += x[i];
    }
    CHECK(HostDot(n, x.data(), y.data()) == Approx(dot).margin(1e-5));
    CHECK(HostSum(n, x.data()) == Approx(sum).margin(1e-5));
  }
  // A 3 x 5 matrix with rows 8 floats apart.
  const int32_t rows = 3, cols = 5, stride = 8;
  const std::vector<float> a = Random(rows * stride, 60), x = Random(cols, 61);
  std::vector<float> y(rows, 99.0f);  // beta = 0: the old values are unread
  HostGemv(rows, cols, a.data(), stride, x.data(), y.data());
  for (int32_t r = 0; r < rows; r++) {
    double want = 0.0;
    for (int32_t c = 0; c < cols; c++) want += double(a[r * stride + c]) * x[c];
    CHECK(y[r] == Approx(want).margin(1e-6));
  }
}

}  // namespace
}  // namespace nnet3
