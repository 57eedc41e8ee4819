// The bodies of the vectorised CPU kernels (cpu-kernels.h), included by
// cpu-kernels-generic.cc and cpu-kernels-avx2.cc, each of which defines
// NNET3_CPU_KERNELS_NS (the namespace the copy lives in) and is compiled for
// its own ISA. Everything here has internal linkage (an unnamed namespace
// inside NNET3_CPU_KERNELS_NS), so that no function compiled for AVX2 can be
// picked by the linker for the baseline copy.
//
// Vectors are GCC/Clang vector extensions of one register (8 floats with
// AVX2, 4 on the baseline). A row's tail shorter than a vector goes through
// the same vector code via a small padded buffer, so every element gets the
// same arithmetic wherever it sits (and the same in both copies: only the
// order of the additions in sums differs between them).
//
// exp follows the classic Cody-Waite scheme: n = round(x / ln 2),
// r = x - n ln 2 in two parts, e^r by a degree-7 polynomial on
// [-ln2/2, ln2/2] (the Cephes single-precision coefficients), then 2^n
// applied as two exponent scalings so that results down to denormals and up
// to +inf come out right. tanh uses an odd polynomial for |x| < 0.625 and
// 1 - 2 / (e^{2|x|} + 1) above; sigmoid is 1 / (1 + e^{-x}).
#ifndef NNET3_CPU_KERNELS_NS
#error "define NNET3_CPU_KERNELS_NS before including cpu-kernels-impl.h"
#endif

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#if defined(__FMA__) && defined(__AVX__)
#include <immintrin.h>
#endif

#include "device/cpu-kernels.h"

// Vectors of 8 floats are passed by value only between inlined functions of
// this file; the baseline copy need not warn that AVX would pass them
// differently.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace nnet3 {
namespace cpu {
namespace NNET3_CPU_KERNELS_NS {
namespace {

// One native vector: 8 floats with AVX, else 4 (SSE2, NEON). Wider vector
// types than the ISA has are lowered element by element for comparisons
// and conversions, so the width follows the ISA.
#if defined(__AVX__)
constexpr int kW = 8;
#else
constexpr int kW = 4;
#endif
typedef float V8 __attribute__((vector_size(4 * kW)));
typedef int32_t I8 __attribute__((vector_size(4 * kW)));
typedef uint32_t U8 __attribute__((vector_size(4 * kW)));
typedef float V4 __attribute__((vector_size(2 * kW)));   // half a vector
typedef double D4 __attribute__((vector_size(4 * kW)));  // kW / 2 doubles

inline V8 Load(const float *p) {
  V8 v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
inline void Store(float *p, V8 v) { std::memcpy(p, &v, sizeof(v)); }
inline V8 Splat(float f) {  // not V8{} + f, which turns -0 into +0
  V8 v;
  for (int i = 0; i < kW; i++) v[i] = f;
  return v;
}
// mask ? a : b per lane (mask lanes all ones or zero), as bit operations:
// GCC lowers these well on every ISA (a vector ?: may become scalar code).
inline V8 Select(I8 mask, V8 a, V8 b) {
  return (V8)(((I8)a & mask) | ((I8)b & ~mask));
}

// a * b + c, fused where the ISA has it (the products of small GEMMs only).
inline V8 MulAdd(V8 a, V8 b, V8 c) {
#if defined(__FMA__) && defined(__AVX__)
  return (V8)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c);
#else
  return a * b + c;
#endif
}

inline float HorizontalMax(V8 v) {
  float m = v[0];
  for (int i = 1; i < kW; i++) m = v[i] > m ? v[i] : m;
  return m;
}

inline float HorizontalSum(V8 v) {
  float s = 0.0f;
  for (int i = 0; i < kW; i++) s += v[i];
  return s;
}

// Two double vectors from the kW floats of v.
inline void ToDoubles(V8 v, D4 *lo, D4 *hi) {
  V4 a, b;
  std::memcpy(&a, &v, sizeof(a));
  std::memcpy(&b, reinterpret_cast<const char *>(&v) + sizeof(a), sizeof(b));
  *lo = __builtin_convertvector(a, D4);
  *hi = __builtin_convertvector(b, D4);
}

inline double HorizontalSum(D4 v) {
  double s = 0.0;
  for (int i = 0; i < kW / 2; i++) s += v[i];
  return s;
}

// ---- the functions on one vector ----

inline V8 Exp8(V8 x) {
  // Clamp: below -104, e^x rounds to 0; above 88.8 the scaling overflows
  // to +inf. A NaN passes both comparisons unchanged and stays NaN.
  x = Select(x < Splat(-104.0f), Splat(-104.0f), x);
  x = Select(x > Splat(88.8f), Splat(88.8f), x);
  // n = round-to-nearest(x / ln 2) by the 1.5 * 2^23 trick (exact for
  // |x / ln 2| < 2^22).
  const V8 magic = Splat(12582912.0f);
  const V8 n = (x * Splat(1.44269504088896341f) + magic) - magic;
  const V8 r = (x - n * Splat(0.693359375f)) - n * Splat(-2.12194440e-4f);
  const V8 z = r * r;
  V8 p = Splat(1.9875691500e-4f);
  p = p * r + Splat(1.3981999507e-3f);
  p = p * r + Splat(8.3334519073e-3f);
  p = p * r + Splat(4.1665795894e-2f);
  p = p * r + Splat(1.6666665459e-1f);
  p = p * r + Splat(5.0000001201e-1f);
  p = (p * z + r) + Splat(1.0f);
  // 2^n = 2^n1 * 2^n2 with n1 = floor(n / 2), both in the normal range for
  // n in [-150, 128].
  const I8 ni = __builtin_convertvector(n, I8);
  const I8 n1 = ni >> 1, n2 = ni - n1;
  const U8 e1 = (U8)(n1 + 127) << 23, e2 = (U8)(n2 + 127) << 23;
  return (p * (V8)e1) * (V8)e2;
}

inline V8 Sigmoid8(V8 x) { return Splat(1.0f) / (Splat(1.0f) + Exp8(-x)); }

inline V8 Tanh8(V8 x) {
  const U8 sign_bit = (U8)x & (U8)Splat(-0.0f);
  const V8 ax = (V8)((U8)x & ~(U8)Splat(-0.0f));
  // Large |x|: 1 - 2 / (e^{2|x|} + 1) (1 for e^{2|x|} = inf).
  const V8 big = Splat(1.0f) - Splat(2.0f) / (Exp8(ax + ax) + Splat(1.0f));
  // Small |x|: x + x^3 P(x^2).
  const V8 z = ax * ax;
  V8 p = Splat(-5.70498872745e-3f);
  p = p * z + Splat(2.06390887954e-2f);
  p = p * z - Splat(5.37397155531e-2f);
  p = p * z + Splat(1.33314422036e-1f);
  p = p * z - Splat(3.33332819422e-1f);
  const V8 small = p * z * ax + ax;
  const V8 mag = Select(ax < Splat(0.625f), small, big);
  // NaN: ax < 0.625 is false and big is NaN, so mag is NaN.
  return (V8)((U8)mag | sign_bit);
}

// ---- elementwise over n values, tail through a padded buffer ----

template <class F>
inline void MapN(const float *x, float *y, int64_t n, F f) {
  int64_t i = 0;
  for (; i + kW <= n; i += kW) Store(y + i, f(Load(x + i)));
  if (i < n) {
    float buf[kW] = {};
    std::memcpy(buf, x + i, sizeof(float) * (n - i));
    Store(buf, f(Load(buf)));
    std::memcpy(y + i, buf, sizeof(float) * (n - i));
  }
}

void ExpN(const float *x, float *y, int64_t n) { MapN(x, y, n, Exp8); }
void SigmoidN(const float *x, float *y, int64_t n) { MapN(x, y, n, Sigmoid8); }
void TanhN(const float *x, float *y, int64_t n) { MapN(x, y, n, Tanh8); }

// A row's tail as a vector: the n - i (< 8) remaining values, the rest
// `fill`.
inline V8 LoadTail(const float *x, int32_t count, float fill) {
  float buf[kW];
  for (int j = 0; j < kW; j++) buf[j] = j < count ? x[j] : fill;
  return Load(buf);
}

float RowMax(const float *x, int32_t n) {
  V8 m = Splat(-std::numeric_limits<float>::infinity());
  int32_t i = 0;
  for (; i + kW <= n; i += kW) {
    const V8 v = Load(x + i);
    m = Select(v > m, v, m);
  }
  if (i < n) {
    const V8 v =
        LoadTail(x + i, n - i, -std::numeric_limits<float>::infinity());
    m = Select(v > m, v, m);
  }
  return HorizontalMax(m);
}

// y = exp(x - shift) for the row; returns the sum of y in double.
double ExpShiftedSum(const float *x, float *y, int32_t n, float shift) {
  D4 s0 = {}, s1 = {};
  const V8 sh = Splat(shift);
  int32_t i = 0;
  for (; i + kW <= n; i += kW) {
    const V8 e = Exp8(Load(x + i) - sh);
    if (y != nullptr) Store(y + i, e);
    D4 lo, hi;
    ToDoubles(e, &lo, &hi);
    s0 += lo;
    s1 += hi;
  }
  double sum = HorizontalSum(s0 + s1);
  if (i < n) {
    const V8 e = Exp8(LoadTail(x + i, n - i, 0.0f) - sh);
    for (int32_t j = 0; j < n - i; j++) {
      if (y != nullptr) y[i + j] = e[j];
      sum += e[j];
    }
  }
  return sum;
}

// A row whose maximum is +inf or NaN: std::exp's results, as the plain loop
// gives them (NaN everywhere for softmax, as exp(inf - inf) is NaN).
void SoftmaxRow(const float *x, float *y, int32_t n) {
  const float max = RowMax(x, n);
  const double sum = ExpShiftedSum(x, y, n, max);
  const V8 scale = Splat(static_cast<float>(1.0 / sum));
  int32_t i = 0;
  for (; i + kW <= n; i += kW) Store(y + i, Load(y + i) * scale);
  for (; i < n; i++) y[i] *= scale[0];
}

void LogSoftmaxRow(const float *x, float *y, int32_t n) {
  const float max = RowMax(x, n);
  const double sum = ExpShiftedSum(x, nullptr, n, max);
  const V8 mx = Splat(max), ls = Splat(static_cast<float>(std::log(sum)));
  int32_t i = 0;
  for (; i + kW <= n; i += kW) Store(y + i, (Load(x + i) - mx) - ls);
  for (; i < n; i++) y[i] = (x[i] - max) - ls[0];
}

double DotN(const float *x, const float *y, int64_t n);
double SumN(const float *x, int64_t n);

void DiffSoftmaxRow(const float *y, const float *d, float *g, int32_t n) {
  const V8 s = Splat(static_cast<float>(DotN(y, d, n)));
  int32_t i = 0;
  for (; i + kW <= n; i += kW) {
    const V8 v = Load(y + i);
    Store(g + i, v * (Load(d + i) - s));
  }
  for (; i < n; i++) g[i] = y[i] * (d[i] - s[0]);
}

void DiffLogSoftmaxRow(const float *y, const float *d, float *g, int32_t n) {
  const V8 s = Splat(static_cast<float>(SumN(d, n)));
  int64_t i = 0;
  for (; i + kW <= n; i += kW)
    Store(g + i, Load(d + i) - Exp8(Load(y + i)) * s);
  if (i < n) {
    const V8 e = Exp8(LoadTail(y + i, static_cast<int32_t>(n - i), 0.0f));
    for (int64_t j = 0; i + j < n; j++) g[i + j] = d[i + j] - e[j] * s[0];
  }
}

// ---- reductions in double ----

double SumN(const float *x, int64_t n) {
  D4 s0 = {}, s1 = {}, s2 = {}, s3 = {};
  int64_t i = 0;
  for (; i + 2 * kW <= n; i += 2 * kW) {
    D4 a, b, c, d;
    ToDoubles(Load(x + i), &a, &b);
    ToDoubles(Load(x + i + kW), &c, &d);
    s0 += a;
    s1 += b;
    s2 += c;
    s3 += d;
  }
  double sum = HorizontalSum((s0 + s1) + (s2 + s3));
  for (; i < n; i++) sum += x[i];
  return sum;
}

// Products of two floats are exact in double; only the additions round.
double DotN(const float *x, const float *y, int64_t n) {
  D4 s0 = {}, s1 = {}, s2 = {}, s3 = {};
  int64_t i = 0;
  for (; i + 2 * kW <= n; i += 2 * kW) {
    D4 a, b, c, d, e, f, g, h;
    ToDoubles(Load(x + i), &a, &b);
    ToDoubles(Load(y + i), &c, &d);
    ToDoubles(Load(x + i + kW), &e, &f);
    ToDoubles(Load(y + i + kW), &g, &h);
    s0 += a * c;
    s1 += b * d;
    s2 += e * g;
    s3 += f * h;
  }
  double sum = HorizontalSum((s0 + s1) + (s2 + s3));
  for (; i < n; i++) sum += static_cast<double>(x[i]) * y[i];
  return sum;
}

void AccumulateN(const float *x, double *acc, int32_t n) {
  int32_t i = 0;
  for (; i + kW <= n; i += kW) {
    D4 lo, hi, a0, a1;
    ToDoubles(Load(x + i), &lo, &hi);
    std::memcpy(&a0, acc + i, sizeof(a0));
    std::memcpy(&a1, acc + i + kW / 2, sizeof(a1));
    a0 += lo;
    a1 += hi;
    std::memcpy(acc + i, &a0, sizeof(a0));
    std::memcpy(acc + i + kW / 2, &a1, sizeof(a1));
  }
  for (; i < n; i++) acc[i] += x[i];
}

void AccumulateProductsN(const float *x, const float *y, double *acc,
                         int32_t n) {
  int32_t i = 0;
  for (; i + kW <= n; i += kW) {
    D4 xl, xh, yl, yh, a0, a1;
    ToDoubles(Load(x + i), &xl, &xh);
    ToDoubles(Load(y + i), &yl, &yh);
    std::memcpy(&a0, acc + i, sizeof(a0));
    std::memcpy(&a1, acc + i + kW / 2, sizeof(a1));
    a0 += xl * yl;
    a1 += xh * yh;
    std::memcpy(acc + i, &a0, sizeof(a0));
    std::memcpy(acc + i + kW / 2, &a1, sizeof(a1));
  }
  for (; i < n; i++) acc[i] += static_cast<double>(x[i]) * y[i];
}

// ---- small products: C = alpha A B^T + beta C for m <= 4 rows of A ----

// Dot products of rows a[0..M) with rows b0 and b1 (length k), into
// out[2 * M]: out[2 r] = a_r . b0, out[2 r + 1] = a_r . b1.
template <int M>
inline void DotRows2(const float *const *a, const float *b0, const float *b1,
                     int32_t k, float *out) {
  V8 s0[M], s1[M];
  for (int r = 0; r < M; r++) s0[r] = s1[r] = Splat(0.0f);
  int32_t i = 0;
  for (; i + kW <= k; i += kW) {
    const V8 x0 = Load(b0 + i), x1 = Load(b1 + i);
    for (int r = 0; r < M; r++) {
      const V8 v = Load(a[r] + i);
      s0[r] = MulAdd(v, x0, s0[r]);
      s1[r] = MulAdd(v, x1, s1[r]);
    }
  }
  for (int r = 0; r < M; r++) {
    float t0 = HorizontalSum(s0[r]), t1 = HorizontalSum(s1[r]);
    for (int32_t j = i; j < k; j++) {
      t0 += a[r][j] * b0[j];
      t1 += a[r][j] * b1[j];
    }
    out[2 * r] = t0;
    out[2 * r + 1] = t1;
  }
}

template <int M>
void GemmSmallNtM(int32_t n, int32_t k, float alpha, const float *a,
                  int32_t lda, const float *b, int32_t ldb, float beta,
                  float *c, int32_t ldc) {
  const float *rows[M];
  for (int r = 0; r < M; r++) rows[r] = a + static_cast<int64_t>(r) * lda;
  float out[2 * M];
  for (int32_t j = 0; j < n; j += 2) {
    const float *b0 = b + static_cast<int64_t>(j) * ldb;
    const float *b1 = j + 1 < n ? b0 + ldb : b0;
    DotRows2<M>(rows, b0, b1, k, out);
    for (int r = 0; r < M; r++) {
      float *cr = c + static_cast<int64_t>(r) * ldc + j;
      for (int q = 0; q < 2 && j + q < n; q++) {
        const float v = alpha * out[2 * r + q];
        cr[q] = beta == 0.0f ? v : v + beta * cr[q];
      }
    }
  }
}

void GemmSmallNt(int32_t m, int32_t n, int32_t k, float alpha, const float *a,
                 int32_t lda, const float *b, int32_t ldb, float beta, float *c,
                 int32_t ldc) {
  switch (m) {
    case 1:
      GemmSmallNtM<1>(n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      break;
    case 2:
      GemmSmallNtM<2>(n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      break;
    case 3:
      GemmSmallNtM<3>(n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      break;
    default:
      for (int32_t r = 0; r < m; r += 4) {
        const int32_t rows = m - r < 4 ? m - r : 4;
        const int64_t off = static_cast<int64_t>(r);
        if (rows == 4)
          GemmSmallNtM<4>(n, k, alpha, a + off * lda, lda, b, ldb, beta,
                          c + off * ldc, ldc);
        else
          GemmSmallNt(rows, n, k, alpha, a + off * lda, lda, b, ldb, beta,
                      c + off * ldc, ldc);
      }
  }
}

const Kernels kTable = {
    NNET3_CPU_KERNELS_NAME,
    ExpN,
    SigmoidN,
    TanhN,
    SoftmaxRow,
    LogSoftmaxRow,
    DiffSoftmaxRow,
    DiffLogSoftmaxRow,
    SumN,
    DotN,
    AccumulateN,
    AccumulateProductsN,
    GemmSmallNt,
};

}  // namespace

const Kernels &Table() { return kTable; }

}  // namespace NNET3_CPU_KERNELS_NS
}  // namespace cpu
}  // namespace nnet3
