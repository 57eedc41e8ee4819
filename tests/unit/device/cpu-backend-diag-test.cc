// Tests of the CPU backend's row-diagonal products against double-precision
// loops, on padded and contiguous views (nothing outside the view may
// change), with beta = 0 ignoring NaN in the old contents.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>

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

TEST_CASE("CpuBackend AddRowDotProducts", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 451;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 40; trial++) {
    const int32_t rows = RandDim(&rng, 15), cols = RandDim(&rng, 15);
    const TestMat a(rows, cols, &rng), b(rows, cols, &rng);
    for (float beta : {0.0f, 1.0f, -0.5f}) {
      const float alpha = RandFloat(&rng, -2, 2);
      INFO("trial " << trial << " alpha " << alpha << " beta " << beta << " a "
                    << a.Describe() << " b " << b.Describe());
      TestMat v(1, rows, &rng);
      if (beta == 0.0f) v.SetView(kNaN);
      Ref want(1, rows);
      for (int32_t r = 0; r < rows; r++) {
        double dot = 0.0;
        for (int32_t c = 0; c < cols; c++) dot += a(r, c) * b(r, c);
        want(0, r) = alpha * dot + (beta == 0.0f ? 0.0 : beta * v(0, r));
      }
      TestMat got = v;
      cpu.AddRowDotProducts(alpha, a.cview(), b.cview(), beta, got.view());
      CheckMat(got, v, want, 1e-5);
    }
  }
}

TEST_CASE("CpuBackend AddDiagVecMat", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 452;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 40; trial++) {
    const int32_t rows = RandDim(&rng, 15), cols = RandDim(&rng, 15);
    const TestMat m(rows, cols, &rng), v(1, rows, &rng);
    for (float beta : {0.0f, 1.0f, 0.25f}) {
      const float alpha = RandFloat(&rng, -2, 2);
      INFO("trial " << trial << " alpha " << alpha << " beta " << beta << " m "
                    << m.Describe());
      TestMat dst(rows, cols, &rng);
      if (beta == 0.0f) dst.SetView(kNaN);
      Ref want(rows, cols);
      for (int32_t r = 0; r < rows; r++)
        for (int32_t c = 0; c < cols; c++)
          want(r, c) = alpha * v(0, r) * m(r, c) +
                       (beta == 0.0f ? 0.0 : beta * dst(r, c));
      TestMat got = dst;
      cpu.AddDiagVecMat(alpha, v.cview(), m.cview(), beta, got.view());
      CheckMat(got, dst, want, 1e-5);
    }
  }
}

}  // namespace
}  // namespace nnet3
