// Tests of the CPU backend's memory, copies, whole-matrix operations and
// GEMM against plain double-precision loops, on random shapes (empty ones
// included) and strided submatrix views whose surroundings must stay intact.
#include "device/cpu-backend.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

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

TEST_CASE("CpuBackend memory", "[device][cpu-backend]") {
  CpuBackend cpu;
  CHECK(cpu.Name() == "cpu");
  CHECK_FALSE(cpu.IsGpu());
  CHECK(cpu.Allocate(0) == nullptr);
  cpu.Free(nullptr);
  for (size_t bytes : {1, 3, 64, 100, 4096, 1000003}) {
    void *p = cpu.Allocate(bytes);
    REQUIRE(p != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(p) % 64 == 0);
    std::memset(p, 0x5a, bytes);  // all of it is usable
    cpu.Free(p);
  }
  cpu.Synchronize();
}

TEST_CASE("CpuBackend 1-D copies", "[device][cpu-backend]") {
  CpuBackend cpu;
  std::vector<float> host = {1, 2, 3, 4, 5, 6, 7}, back(7, 0.0f);
  float *dev = static_cast<float *>(cpu.Allocate(7 * sizeof(float)));
  float *dev2 = static_cast<float *>(cpu.Allocate(7 * sizeof(float)));
  cpu.CopyFromHost(host.data(), dev, 7 * sizeof(float));
  cpu.CopyDeviceToDevice(dev, dev2, 7 * sizeof(float));
  cpu.CopyToHost(dev2, back.data(), 7 * sizeof(float));
  CHECK(back == host);
  // Zero bytes with null pointers is a no-op.
  cpu.CopyFromHost(nullptr, nullptr, 0);
  cpu.CopyToHost(nullptr, nullptr, 0);
  cpu.CopyDeviceToDevice(nullptr, nullptr, 0);
  cpu.Free(dev);
  cpu.Free(dev2);
}

TEST_CASE("CpuBackend 2-D copies", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 101;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 40; trial++) {
    const int32_t rows = RandDim(&rng, 9), cols = RandDim(&rng, 9);
    TestMat host(rows, cols, &rng), dev(rows, cols, &rng);
    const TestMat before = dev;
    cpu.CopyFromHost2D(host.data(), host.stride(), dev.view());
    CheckMat(dev, before, Ref(host), 0.0);
    TestMat host2(rows, cols, &rng);
    const TestMat before2 = host2;
    cpu.CopyToHost2D(dev.cview(), host2.data(), host2.stride());
    CheckMat(host2, before2, Ref(host), 0.0);
  }
}

TEST_CASE("CpuBackend SetConst, Scale, AddConst", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 102;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 30; trial++) {
    const int32_t rows = RandDim(&rng, 9), cols = RandDim(&rng, 9);
    TestMat m(rows, cols, &rng);
    const float value = RandFloat(&rng, -3, 3);
    {
      TestMat x = m;
      cpu.SetConst(x.view(), value);
      CheckMat(x, m, Ref(rows, cols, value), 0.0);
    }
    for (float alpha : {0.0f, 1.0f, -1.5f, value}) {
      TestMat x = m;
      Ref want(m);
      for (double &v : want.v) v *= alpha;
      cpu.Scale(alpha, x.view());
      CheckMat(x, m, want, 1e-6);
    }
    {
      TestMat x = m;
      Ref want(m);
      for (double &v : want.v) v += value;
      cpu.AddConst(value, x.view());
      CheckMat(x, m, want, 1e-6);
    }
  }
  // Scaling by zero clears NaN (as Kaldi's Scale does).
  TestMat nan(3, 4, &rng);
  nan.SetView(kNaN);
  const TestMat before = nan;
  cpu.Scale(0.0f, nan.view());
  CheckMat(nan, before, Ref(3, 4, 0.0), 0.0);
}

// want = alpha * op(src) (+ dst when add).
Ref CopyOrAddRef(float alpha, const TestMat &src, Trans trans,
                 const TestMat &dst, bool add) {
  Ref want = add ? Ref(dst) : Ref(dst.rows(), dst.cols());
  for (int32_t r = 0; r < dst.rows(); r++)
    for (int32_t c = 0; c < dst.cols(); c++)
      want(r, c) += alpha * (trans == Trans::kYes ? src(c, r) : src(r, c));
  return want;
}

TEST_CASE("CpuBackend CopyMat and AddMat", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 103;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 60; trial++) {
    // Up to 70 so that the 32x32 transpose tiles have ragged edges.
    const int32_t rows = RandDim(&rng, 70), cols = RandDim(&rng, 70);
    for (Trans trans : {Trans::kNo, Trans::kYes}) {
      for (float alpha : {1.0f, -0.5f, 0.0f}) {
        INFO("trial " << trial << " trans " << (trans == Trans::kYes)
                      << " alpha " << alpha);
        TestMat src = trans == Trans::kYes ? TestMat(cols, rows, &rng)
                                           : TestMat(rows, cols, &rng);
        const TestMat dst(rows, cols, &rng);
        TestMat x = dst;
        cpu.CopyMat(alpha, src.cview(), trans, x.view());
        CheckMat(x, dst, CopyOrAddRef(alpha, src, trans, dst, false), 1e-6);
        x = dst;
        cpu.AddMat(alpha, src.cview(), trans, x.view());
        CheckMat(x, dst, CopyOrAddRef(alpha, src, trans, dst, true), 1e-6);
      }
    }
    // In place: a scale, and dst += alpha * dst.
    const TestMat m(rows, cols, &rng);
    TestMat x = m;
    cpu.CopyMat(-2.0f, x.cview(), Trans::kNo, x.view());
    CheckMat(x, m, CopyOrAddRef(-2.0f, m, Trans::kNo, m, false), 1e-6);
    x = m;
    cpu.AddMat(0.5f, x.cview(), Trans::kNo, x.view());
    CheckMat(x, m, CopyOrAddRef(0.5f, m, Trans::kNo, m, true), 1e-6);
  }
}

// C = alpha * op(A) op(B) + beta * C in double; tol scales with sum |a||b|.
void CheckGemm(CpuBackend *cpu, Rng *rng, int32_t m, int32_t k, int32_t n,
               Trans ta, Trans tb, float alpha, float beta) {
  const bool a_t = ta == Trans::kYes, b_t = tb == Trans::kYes;
  const TestMat a = a_t ? TestMat(k, m, rng) : TestMat(m, k, rng);
  const TestMat b = b_t ? TestMat(n, k, rng) : TestMat(k, n, rng);
  TestMat c0(m, n, rng);
  if (beta == 0.0f) c0.SetView(kNaN);  // must be ignored
  INFO("m " << m << " k " << k << " n " << n << " ta " << a_t << " tb " << b_t
            << " alpha " << alpha << " beta " << beta << " A " << a.Describe()
            << " B " << b.Describe() << " C " << c0.Describe());
  Ref want(m, n);
  double scale = 1.0;
  for (int32_t i = 0; i < m; i++) {
    for (int32_t j = 0; j < n; j++) {
      double sum = 0.0, abs_sum = 0.0;
      for (int32_t l = 0; l < k; l++) {
        const double p = (a_t ? a(l, i) : a(i, l)) * (b_t ? b(j, l) : b(l, j));
        sum += p;
        abs_sum += std::fabs(p);
      }
      want(i, j) = alpha * sum + (beta == 0.0f ? 0.0 : beta * c0(i, j));
      scale = std::max(scale, abs_sum);
    }
  }
  TestMat c = c0;
  cpu->Gemm(alpha, a.cview(), ta, b.cview(), tb, beta, c.view());
  CheckMat(c, c0, want, 1e-5 * scale);
}

TEST_CASE("CpuBackend Gemm on random shapes", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 104;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 40; trial++) {
    const int32_t m = RandDim(&rng, 40), k = RandDim(&rng, 40),
                  n = RandDim(&rng, 40);
    for (Trans ta : {Trans::kNo, Trans::kYes})
      for (Trans tb : {Trans::kNo, Trans::kYes})
        for (float alpha : {1.0f, -0.7f})
          for (float beta : {0.0f, 1.0f, 0.3f})
            CheckGemm(&cpu, &rng, m, k, n, ta, tb, alpha, beta);
  }
}

TEST_CASE("CpuBackend Gemm edge shapes", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 105;
  INFO("seed " << seed);
  Rng rng(seed);
  // One row or one column (the sgemv path), k == 0, alpha == 0, empty
  // outputs, and a product big enough for OpenBLAS's blocked kernels.
  const int32_t shapes[][3] = {{1, 7, 9},     {9, 7, 1},     {1, 1, 1},
                               {1, 9, 1},     {5, 0, 6},     {1, 0, 6},
                               {0, 5, 6},     {5, 6, 0},     {0, 0, 0},
                               {1, 300, 200}, {200, 300, 1}, {130, 70, 90}};
  for (const auto &s : shapes)
    for (Trans ta : {Trans::kNo, Trans::kYes})
      for (Trans tb : {Trans::kNo, Trans::kYes})
        for (float alpha : {1.0f, 0.0f, 2.5f})
          for (float beta : {0.0f, 1.0f, -0.5f})
            CheckGemm(&cpu, &rng, s[0], s[1], s[2], ta, tb, alpha, beta);
}

TEST_CASE("CpuBackend Gemm few-row products (the small-product kernel)",
          "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 106;
  INFO("seed " << seed);
  Rng rng(seed);
  // m = 2..13 rows times a transposed B, long k (vector tails), odd n.
  const int32_t shapes[][3] = {{2, 300, 201}, {3, 1029, 7}, {12, 40, 33},
                               {13, 17, 5},   {4, 1, 9},    {7, 64, 1000}};
  for (const auto &s : shapes)
    for (float alpha : {1.0f, -0.7f})
      for (float beta : {0.0f, 1.0f, 0.3f})
        CheckGemm(&cpu, &rng, s[0], s[1], s[2], Trans::kNo, Trans::kYes, alpha,
                  beta);
}

TEST_CASE("CpuBackend AddMatAndScaleSrc", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 107;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 30; trial++) {
    const int32_t rows = RandDim(&rng, 40), cols = RandDim(&rng, 40);
    for (float src_scale : {0.9f, 0.0f, -1.5f}) {
      INFO("trial " << trial << " src_scale " << src_scale);
      TestMat src(rows, cols, &rng), dst(rows, cols, &rng);
      if (src_scale == 0.0f && rows > 0 && cols > 0) src(0, 0) = kNaN;
      const TestMat src0 = src, dst0 = dst;
      cpu.AddMatAndScaleSrc(0.25f, src.view(), src_scale, dst.view());
      Ref want_dst(dst0), want_src(src0);
      for (int32_t r = 0; r < rows; r++)
        for (int32_t c = 0; c < cols; c++) {
          want_dst(r, c) += 0.25 * src0(r, c);
          want_src(r, c) = src_scale == 0.0f ? 0.0 : src_scale * src0(r, c);
        }
      CheckMat(dst, dst0, want_dst, 1e-6);
      CheckMat(src, src0, want_src, 1e-6);  // zeros even over NaN
    }
  }
}

}  // namespace
}  // namespace nnet3
