// Tests of the CPU backend's row gathers and scatters (index vectors with -1,
// pointer lists with nullptr, row ranges with empty ranges) against plain
// loops, on random and strided views.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <numeric>
#include <vector>

#include "base/error.h"
#include "device/cpu-backend.h"
#include "test-views.h"

namespace nnet3 {
namespace {

using test::CheckMat;
using test::RandDim;
using test::RandFloat;
using test::RandInt;
using test::Ref;
using test::Rng;
using test::TestMat;

// n indexes into [0, range), about a quarter of them -1 (never -1 when
// range is 0 ... then all are -1); distinct when asked.
std::vector<int32_t> RandIndexes(Rng *rng, int32_t n, int32_t range,
                                 bool distinct) {
  std::vector<int32_t> idx(n, -1);
  if (distinct) {
    std::vector<int32_t> perm(range);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), *rng);
    for (int32_t i = 0; i < n && i < range; i++)
      if (RandInt(rng, 0, 3) != 0) idx[i] = perm[i];
  } else if (range > 0) {
    for (int32_t &i : idx)
      if (RandInt(rng, 0, 3) != 0) i = RandInt(rng, 0, range - 1);
  }
  return idx;
}

TEST_CASE("CpuBackend CopyRows and AddRows", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 201;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 40; trial++) {
    const int32_t src_rows = RandDim(&rng, 12), rows = RandDim(&rng, 12),
                  cols = RandDim(&rng, 12);
    const TestMat src(src_rows, cols, &rng), dst(rows, cols, &rng);
    const std::vector<int32_t> idx = RandIndexes(&rng, rows, src_rows, false);
    for (float alpha : {1.0f, -0.5f}) {
      INFO("trial " << trial << " alpha " << alpha);
      Ref copy(rows, cols), add(dst);
      for (int32_t r = 0; r < rows; r++)
        for (int32_t c = 0; c < cols && idx[r] >= 0; c++) {
          copy(r, c) = alpha * src(idx[r], c);
          add(r, c) += alpha * src(idx[r], c);
        }
      TestMat x = dst;
      cpu.CopyRows(alpha, src.cview(), idx.data(), x.view());
      CheckMat(x, dst, copy, 1e-6);
      x = dst;
      cpu.AddRows(alpha, src.cview(), idx.data(), x.view());
      CheckMat(x, dst, add, 1e-6);
    }
  }
}

TEST_CASE("CpuBackend CopyToRows and AddToRows", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 202;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 40; trial++) {
    const int32_t src_rows = RandDim(&rng, 12), rows = RandDim(&rng, 12),
                  cols = RandDim(&rng, 12);
    const TestMat src(src_rows, cols, &rng), dst(rows, cols, &rng);
    const std::vector<int32_t> idx = RandIndexes(&rng, src_rows, rows, true);
    const float alpha = RandFloat(&rng, -2, 2);
    INFO("trial " << trial << " alpha " << alpha);
    Ref copy(dst), add(dst);
    for (int32_t r = 0; r < src_rows; r++)
      for (int32_t c = 0; c < cols && idx[r] >= 0; c++) {
        copy(idx[r], c) = src(r, c);
        add(idx[r], c) += alpha * src(r, c);
      }
    TestMat x = dst;
    cpu.CopyToRows(src.cview(), idx.data(), x.view());
    CheckMat(x, dst, copy, 0.0);
    x = dst;
    cpu.AddToRows(alpha, src.cview(), idx.data(), x.view());
    CheckMat(x, dst, add, 1e-6);
  }
}

TEST_CASE("CpuBackend row-pointer gathers", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 203;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 40; trial++) {
    const int32_t src_rows = RandDim(&rng, 12), rows = RandDim(&rng, 12),
                  cols = RandDim(&rng, 12);
    const TestMat src(src_rows, cols, &rng), dst(rows, cols, &rng);
    const std::vector<int32_t> idx = RandIndexes(&rng, rows, src_rows, false);
    std::vector<const float *> ptrs(rows, nullptr);
    for (int32_t r = 0; r < rows; r++)
      if (idx[r] >= 0) ptrs[r] = test::RowPtr(src, idx[r]);
    const float alpha = RandFloat(&rng, -2, 2);
    INFO("trial " << trial << " alpha " << alpha);
    Ref copy(rows, cols), add(dst);
    for (int32_t r = 0; r < rows; r++)
      for (int32_t c = 0; c < cols && idx[r] >= 0; c++) {
        copy(r, c) = alpha * src(idx[r], c);
        add(r, c) += alpha * src(idx[r], c);
      }
    TestMat x = dst;
    cpu.CopyRowsFromPtrs(alpha, ptrs.data(), x.view());
    CheckMat(x, dst, copy, 1e-6);
    x = dst;
    cpu.AddRowsFromPtrs(alpha, ptrs.data(), x.view());
    CheckMat(x, dst, add, 1e-6);
  }
}

TEST_CASE("CpuBackend row-pointer scatters", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 204;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 40; trial++) {
    const int32_t src_rows = RandDim(&rng, 12), rows = RandDim(&rng, 12),
                  cols = RandDim(&rng, 12);
    const TestMat src(src_rows, cols, &rng), dst(rows, cols, &rng);
    const std::vector<int32_t> idx = RandIndexes(&rng, src_rows, rows, true);
    const float alpha = RandFloat(&rng, -2, 2);
    INFO("trial " << trial << " alpha " << alpha);
    Ref copy(dst), add(dst);
    for (int32_t r = 0; r < src_rows; r++)
      for (int32_t c = 0; c < cols && idx[r] >= 0; c++) {
        copy(idx[r], c) = src(r, c);
        add(idx[r], c) += alpha * src(r, c);
      }
    // The pointers must point into the buffer being modified.
    TestMat x = dst;
    auto pointers = [&](TestMat *m) {
      std::vector<float *> ptrs(src_rows, nullptr);
      for (int32_t r = 0; r < src_rows; r++)
        if (idx[r] >= 0) ptrs[r] = m->data() + idx[r] * m->stride();
      return ptrs;
    };
    cpu.CopyToRowPtrs(src.cview(), pointers(&x).data());
    CheckMat(x, dst, copy, 0.0);
    x = dst;
    cpu.AddToRowPtrs(alpha, src.cview(), pointers(&x).data());
    CheckMat(x, dst, add, 1e-6);
  }
}

TEST_CASE("CpuBackend AddRowRanges", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 205;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 40; trial++) {
    const int32_t src_rows = RandDim(&rng, 20), rows = RandDim(&rng, 12),
                  cols = RandDim(&rng, 12);
    const TestMat src(src_rows, cols, &rng), dst(rows, cols, &rng);
    std::vector<int32_t> ranges(2 * rows);
    for (int32_t r = 0; r < rows; r++) {
      int32_t b = RandInt(&rng, 0, src_rows), e = RandInt(&rng, 0, src_rows);
      if (RandInt(&rng, 0, 3) == 0) e = b;  // empty range
      ranges[2 * r] = std::min(b, e);
      ranges[2 * r + 1] = std::max(b, e);
    }
    const float alpha = RandFloat(&rng, -2, 2);
    INFO("trial " << trial << " alpha " << alpha);
    Ref want(dst);
    for (int32_t r = 0; r < rows; r++)
      for (int32_t i = ranges[2 * r]; i < ranges[2 * r + 1]; i++)
        for (int32_t c = 0; c < cols; c++) want(r, c) += alpha * src(i, c);
    TestMat x = dst;
    cpu.AddRowRanges(alpha, src.cview(), ranges.data(), x.view());
    CheckMat(x, dst, want, 1e-5);
  }
}

TEST_CASE("CpuBackend row primitives reject bad indexes",
          "[device][cpu-backend]") {
  CpuBackend cpu;
  Rng rng(206);
  const TestMat src(3, 4, &rng);
  TestMat dst(2, 4, &rng);
  const std::vector<int32_t> idx = {0, 3};  // 3 is past src's last row
  CHECK_THROWS_AS(cpu.CopyRows(1.0f, src.cview(), idx.data(), dst.view()),
                  InternalError);
  const TestMat wide(2, 5, &rng);
  const std::vector<int32_t> ok = {0, 1};
  CHECK_THROWS_AS(cpu.AddRows(1.0f, wide.cview(), ok.data(), dst.view()),
                  InternalError);
}

// Each column is summed in float, row after row, as Kaldi's AddRowRanges
// (statistics pooling's variances keep that rounding): 1e8 + 1 is 1e8 in
// float, so the range 1e8, 1, -1e8 sums to 0 (in double it would be 1),
// and 1, 1e8, -1e8 to 0 too; 1e8, -1e8, 1 to 1.
TEST_CASE("CpuBackend AddRowRanges sums in float, in row order",
          "[device][cpu-backend]") {
  CpuBackend cpu;
  const std::vector<float> src = {1e8f,  1.0f, -1e8f, 1.0f, 1e8f,
                                  -1e8f, 1e8f, -1e8f, 1.0f};
  const std::vector<int32_t> ranges = {0, 3, 3, 6, 6, 9};
  std::vector<float> dst(3, 0.5f);
  cpu.AddRowRanges(1.0f, ConstMatView(src.data(), 9, 1, 1), ranges.data(),
                   MatView(dst.data(), 3, 1, 1));
  CHECK(dst == std::vector<float>{0.5f, 0.5f, 1.5f});
}

}  // namespace
}  // namespace nnet3
