// Tests of the CPU backend's column gathers (CopyCols / AddCols with -1
// entries and repeated columns) and EqualElementMask against plain loops,
// on random and strided views.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "device/cpu-backend.h"
#include "test-views.h"

namespace nnet3 {
namespace {

using test::CheckMat;
using test::RandDim;
using test::RandInt;
using test::Ref;
using test::Rng;
using test::TestMat;

// n column indexes into [0, range), about a quarter -1 (all -1 when range
// is 0); repeats allowed.
std::vector<int32_t> RandColumns(Rng *rng, int32_t n, int32_t range) {
  std::vector<int32_t> idx(n, -1);
  if (range > 0)
    for (int32_t &i : idx)
      if (RandInt(rng, 0, 3) != 0) i = RandInt(rng, 0, range - 1);
  return idx;
}

TEST_CASE("CpuBackend CopyCols and AddCols", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 301;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 40; trial++) {
    const int32_t rows = RandDim(&rng, 12), src_cols = RandDim(&rng, 12),
                  cols = RandDim(&rng, 12);
    const TestMat src(rows, src_cols, &rng), dst(rows, cols, &rng);
    const std::vector<int32_t> idx = RandColumns(&rng, cols, src_cols);
    INFO("trial " << trial << " src " << src.Describe() << " dst "
                  << dst.Describe());
    Ref copy(rows, cols), add(dst);
    for (int32_t r = 0; r < rows; r++)
      for (int32_t c = 0; c < cols; c++)
        if (idx[c] >= 0) {
          copy(r, c) = src(r, idx[c]);
          add(r, c) += src(r, idx[c]);
        }
    TestMat x = dst;
    cpu.CopyCols(src.cview(), idx.data(), x.view());
    CheckMat(x, dst, copy, 1e-6);
    x = dst;
    cpu.AddCols(src.cview(), idx.data(), x.view());
    CheckMat(x, dst, add, 1e-6);
  }
}

TEST_CASE("CpuBackend EqualElementMask", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 302;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 30; trial++) {
    const int32_t rows = RandDim(&rng, 10), cols = RandDim(&rng, 10);
    TestMat a(rows, cols, &rng), b(rows, cols, &rng);
    const TestMat dst(rows, cols, &rng);
    // Make about half of the elements equal.
    for (int32_t r = 0; r < rows; r++)
      for (int32_t c = 0; c < cols; c++)
        if (RandInt(&rng, 0, 1) == 0) b(r, c) = a(r, c);
    Ref want(rows, cols);
    for (int32_t r = 0; r < rows; r++)
      for (int32_t c = 0; c < cols; c++)
        want(r, c) = a(r, c) == b(r, c) ? 1.0 : 0.0;
    INFO("trial " << trial);
    TestMat x = dst;
    cpu.EqualElementMask(a.cview(), b.cview(), x.view());
    CheckMat(x, dst, want, 0.0);
    // In place over the first operand.
    TestMat a_before = a;
    cpu.EqualElementMask(a.cview(), b.cview(), a.view());
    CheckMat(a, a_before, want, 0.0);
  }
}

}  // namespace
}  // namespace nnet3
