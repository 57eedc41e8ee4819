/* The single-core FP32 peak and OpenBLAS's sgemm on this machine, for
 * scripts/bench/cpu.sh (compiled there with cc -O2 -mavx2 -mfma, linked with
 * OpenBLAS).
 *
 *   peak_flops [seconds]
 *
 * Prints three lines:
 *   peak_gflops <G>   8-wide AVX2 FMAs on 12 independent accumulators (enough
 *                     to cover the FMA latency on two FMA pipes): the bound
 *                     for code that uses the ISA OpenBLAS uses here (the
 *                     benchmark keeps OPENBLAS_CORETYPE as it finds it).
 *   peak512_gflops <G> the same with 16-wide AVX-512 FMAs (0 where the
 *                     processor has no AVX-512): twice the AVX2 figure where
 *                     the FMA units are 512 bits wide (Zen 5, Intel server
 *                     cores), the same where AVX-512 is split in halves
 *                     (Zen 4). oneDNN's kernels use it.
 *   sgemm_gflops <G>  cblas_sgemm 128 x 1024 x 1024 (a minibatch-sized layer),
 *                     NN, on the calling thread's BLAS threads.
 * Each is the best of many short timed rounds (about `seconds` each). */
#include <cblas.h>
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* 12 chains x 8 lanes x 2 flops per iteration, in named registers (an array
 * would be kept in memory by some compilers and time the stores instead). */
static float FmaLoop(long iterations, float seed) {
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
  __m256 c0 = _mm256_set1_ps(seed), c1 = _mm256_set1_ps(seed + 1.0f),
         c2 = _mm256_set1_ps(seed + 2.0f), c3 = _mm256_set1_ps(seed + 3.0f),
         c4 = _mm256_set1_ps(seed + 4.0f), c5 = _mm256_set1_ps(seed + 5.0f),
         c6 = _mm256_set1_ps(seed + 6.0f), c7 = _mm256_set1_ps(seed + 7.0f),
         c8 = _mm256_set1_ps(seed + 8.0f), c9 = _mm256_set1_ps(seed + 9.0f),
         c10 = _mm256_set1_ps(seed + 10.0f), c11 = _mm256_set1_ps(seed + 11.0f);
  for (long it = 0; it < iterations; it++) {
    c0 = _mm256_fmadd_ps(c0, a, b);
    c1 = _mm256_fmadd_ps(c1, a, b);
    c2 = _mm256_fmadd_ps(c2, a, b);
    c3 = _mm256_fmadd_ps(c3, a, b);
    c4 = _mm256_fmadd_ps(c4, a, b);
    c5 = _mm256_fmadd_ps(c5, a, b);
    c6 = _mm256_fmadd_ps(c6, a, b);
    c7 = _mm256_fmadd_ps(c7, a, b);
    c8 = _mm256_fmadd_ps(c8, a, b);
    c9 = _mm256_fmadd_ps(c9, a, b);
    c10 = _mm256_fmadd_ps(c10, a, b);
    c11 = _mm256_fmadd_ps(c11, a, b);
  }
  __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0, c1),
                                           _mm256_add_ps(c2, c3)),
                             _mm256_add_ps(_mm256_add_ps(c4, c5),
                                           _mm256_add_ps(c6, c7)));
  sum = _mm256_add_ps(sum, _mm256_add_ps(_mm256_add_ps(c8, c9),
                                         _mm256_add_ps(c10, c11)));
  float out[8];
  _mm256_storeu_ps(out, sum);
  return out[0] + out[7];
}

/* The same with 16-wide vectors, compiled for AVX-512 only here. */
__attribute__((target("avx512f"))) static float FmaLoop512(long iterations,
                                                          float seed) {
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
  __m512 c0 = _mm512_set1_ps(seed), c1 = _mm512_set1_ps(seed + 1.0f),
         c2 = _mm512_set1_ps(seed + 2.0f), c3 = _mm512_set1_ps(seed + 3.0f),
         c4 = _mm512_set1_ps(seed + 4.0f), c5 = _mm512_set1_ps(seed + 5.0f),
         c6 = _mm512_set1_ps(seed + 6.0f), c7 = _mm512_set1_ps(seed + 7.0f),
         c8 = _mm512_set1_ps(seed + 8.0f), c9 = _mm512_set1_ps(seed + 9.0f),
         c10 = _mm512_set1_ps(seed + 10.0f), c11 = _mm512_set1_ps(seed + 11.0f);
  for (long it = 0; it < iterations; it++) {
    c0 = _mm512_fmadd_ps(c0, a, b);
    c1 = _mm512_fmadd_ps(c1, a, b);
    c2 = _mm512_fmadd_ps(c2, a, b);
    c3 = _mm512_fmadd_ps(c3, a, b);
    c4 = _mm512_fmadd_ps(c4, a, b);
    c5 = _mm512_fmadd_ps(c5, a, b);
    c6 = _mm512_fmadd_ps(c6, a, b);
    c7 = _mm512_fmadd_ps(c7, a, b);
    c8 = _mm512_fmadd_ps(c8, a, b);
    c9 = _mm512_fmadd_ps(c9, a, b);
    c10 = _mm512_fmadd_ps(c10, a, b);
    c11 = _mm512_fmadd_ps(c11, a, b);
  }
  __m512 sum = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0, c1),
                                           _mm512_add_ps(c2, c3)),
                             _mm512_add_ps(_mm512_add_ps(c4, c5),
                                           _mm512_add_ps(c6, c7)));
  sum = _mm512_add_ps(sum, _mm512_add_ps(_mm512_add_ps(c8, c9),
                                         _mm512_add_ps(c10, c11)));
  return _mm512_reduce_add_ps(sum);
}

/* Best GFLOP/s over rounds of about 1 ms for about `seconds` in all: on a
 * shared machine short rounds are the ones that run without being
 * preempted, and the best of many is the processor's rate. */
static double Peak(float (*loop)(long, float), int lanes, double seconds) {
  long iterations = 100000;
  double t = Now();
  volatile float sink = loop(iterations, 1.0f);
  t = Now() - t;
  iterations = (long)(iterations * 1e-3 / (t > 1e-7 ? t : 1e-7));
  if (iterations < 1000) iterations = 1000;
  double best = 0.0;
  const double end = Now() + seconds;
  for (int round = 0; round < 20 || Now() < end; round++) {
    t = Now();
    sink = loop(iterations, (float)round);
    t = Now() - t;
    const double g = 12.0 * lanes * 2.0 * (double)iterations / t / 1e9;
    if (g > best) best = g;
  }
  (void)sink;
  return best;
}

int main(int argc, char **argv) {
  const double seconds = argc > 1 ? atof(argv[1]) : 1.0;
  double best = Peak(FmaLoop, 8, seconds);
  printf("peak_gflops %.2f\n", best);
  __builtin_cpu_init();
  printf("peak512_gflops %.2f\n", __builtin_cpu_supports("avx512f")
                                       ? Peak(FmaLoop512, 16, seconds)
                                       : 0.0);
  double t;

  const int m = 128, n = 1024, k = 1024;
  float *a = aligned_alloc(64, sizeof(float) * m * k);
  float *b = aligned_alloc(64, sizeof(float) * k * n);
  float *c = aligned_alloc(64, sizeof(float) * m * n);
  if (!a || !b || !c) return 1;
  for (long i = 0; i < (long)m * k; i++) a[i] = (float)(i % 17) * 0.01f;
  for (long i = 0; i < (long)k * n; i++) b[i] = (float)(i % 13) * 0.01f;
  const double flops = 2.0 * m * n * k;
  /* One product per round (about 2.5 ms at 100 GFLOP/s), best of many. */
  best = 0.0;
  const double end = Now() + seconds;
  for (int round = 0; round < 20 || Now() < end; round++) {
    t = Now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k,
                b, n, 0.0f, c, n);
    t = Now() - t;
    const double g = flops / t / 1e9;
    if (g > best) best = g;
  }
  printf("sgemm_gflops %.2f\n", best);
  free(a);
  free(b);
  free(c);
  return 0;
}
