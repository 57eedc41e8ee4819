// Vectorised inner loops of the CPU backend (internal to lib/device): the
// transcendental functions, row softmax and its derivatives, and the
// reductions that accumulate in double, each over one contiguous row.
//
//   const cpu::Kernels &k = cpu::ActiveKernels();
//   k.exp(x, y, n);                  // y[i] = exp(x[i]), i < n; y may be x
//
// The same source (cpu-kernels-impl.h, written with GCC/Clang vector
// extensions, one register per vector) is compiled twice: for the baseline ISA
// (cpu-kernels-generic.cc) and, on x86-64, with AVX2 (cpu-kernels-avx2.cc).
// ActiveKernels() picks the AVX2 table when the processor has AVX2 and the
// environment variable NNET3_CPU_KERNELS is not "generic". Both tables give
// bit-identical elementwise results (exp, sigmoid, tanh): the code is the
// same, floating-point contraction is off, and every element, the tail of a
// row included, goes through the same vector code; sums may differ in the
// last bits (the additions are grouped by vector width).
//
// Accuracy (tested against double precision in tests/unit/device):
// exp, sigmoid and tanh within a few float ulps (relative 1e-6) over the
// whole float range, with exp's underflow to denormals and zero, overflow
// to +inf, and NaN propagated as std::exp does; sums and dot products
// accumulate in double (only the order of the additions differs from a
// sequential loop).
#ifndef NNET3_DEVICE_CPU_KERNELS_H_
#define NNET3_DEVICE_CPU_KERNELS_H_

#include <cstdint>

namespace nnet3 {
namespace cpu {

struct Kernels {
  const char *name;  // "avx2" or "generic"
  // y[i] = f(x[i]) for i < n; y may equal x.
  void (*exp)(const float *x, float *y, int64_t n);
  void (*sigmoid)(const float *x, float *y, int64_t n);
  void (*tanh)(const float *x, float *y, int64_t n);
  // One row of n > 0 values; y may equal x (and g may equal d).
  //   softmax:      y = exp(x - max) / sum(exp(x - max))   (sum in double)
  //   log-softmax:  y = (x - max) - log(sum(exp(x - max)))
  //   diff softmax: g = y .* (d - sum(d .* y))
  //   diff log-softmax: g = d - exp(y) * sum(d)
  void (*softmax_row)(const float *x, float *y, int32_t n);
  void (*log_softmax_row)(const float *x, float *y, int32_t n);
  void (*diff_softmax_row)(const float *y, const float *d, float *g, int32_t n);
  void (*diff_log_softmax_row)(const float *y, const float *d, float *g,
                               int32_t n);
  // Reductions in double.
  double (*sum)(const float *x, int64_t n);
  double (*dot)(const float *x, const float *y, int64_t n);
  // acc[i] += x[i] and acc[i] += x[i] * y[i], i < n (column accumulation).
  void (*accumulate)(const float *x, double *acc, int32_t n);
  void (*accumulate_products)(const float *x, const float *y, double *acc,
                              int32_t n);
  // Small products C = alpha * A * B^T + beta * C (row-major, A m x k with
  // stride lda, B n x k with stride ldb, C m x n with stride ldc) for m <= 4:
  // each row of B is read once for all rows of A. beta == 0 ignores C.
  void (*gemm_small_nt)(int32_t m, int32_t n, int32_t k, float alpha,
                        const float *a, int32_t lda, const float *b,
                        int32_t ldb, float beta, float *c, int32_t ldc);
};

// The table for this processor (see the file comment); never changes.
const Kernels &ActiveKernels();
// The baseline table, and the AVX2 one or nullptr where it was not built or
// the processor lacks AVX2 (tests compare the two).
const Kernels &GenericKernels();
const Kernels *Avx2Kernels();

}  // namespace cpu
}  // namespace nnet3

#endif  // NNET3_DEVICE_CPU_KERNELS_H_
