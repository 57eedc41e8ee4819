// The CPU backend's general matrix products (internal to lib/device):
// row-major SGEMM through oneDNN's dnnl_sgemm where the build found oneDNN
// (meson option -Donednn, Debian's libdnnl-dev), else through OpenBLAS.
//
//   cpu::Sgemm(cpu::ActiveGemmLibrary(), false, true, m, n, k, 1.0f, a, lda,
//              b, ldb, 0.0f, c, ldc);    // C = A B^T
//
// oneDNN generates its kernels at run time for the processor's widest
// vector ISA (AVX-512 where there is one), while OpenBLAS uses the kernels of
// the core type it detects or is told (OPENBLAS_CORETYPE); on processors
// with full-width AVX-512 that is about twice the FP32 throughput. The
// environment variable NNET3_CPU_GEMM=openblas chooses OpenBLAS anyway
// (=onednn asks for oneDNN; without it in the build, OpenBLAS is used).
// Threads: with oneDNN, its OpenMP pool (OMP_NUM_THREADS) runs the
// products and OpenBLAS is set to one thread (it then only gets the small
// matrix-vector products), so that two pools do not spin on the same
// cores; with OpenBLAS alone, OPENBLAS_NUM_THREADS. Both libraries leave C
// unread when beta == 0.
#ifndef NNET3_DEVICE_CPU_GEMM_H_
#define NNET3_DEVICE_CPU_GEMM_H_

#include <cstdint>

namespace nnet3 {
namespace cpu {

enum class GemmLibrary { kOpenBlas, kOneDnn };

// Whether this build can call oneDNN.
bool OneDnnAvailable();
// oneDNN when available unless NNET3_CPU_GEMM=openblas; fixed at first use.
GemmLibrary ActiveGemmLibrary();
const char *GemmLibraryName(GemmLibrary library);

// C = alpha op(A) op(B) + beta C, row-major, op = transpose where ta / tb.
// m, n, k > 0; leading dimensions >= the rows' lengths.
void Sgemm(GemmLibrary library, bool ta, bool tb, int32_t m, int32_t n,
           int32_t k, float alpha, const float *a, int32_t lda, const float *b,
           int32_t ldb, float beta, float *c, int32_t ldc);

}  // namespace cpu
}  // namespace nnet3

#endif  // NNET3_DEVICE_CPU_GEMM_H_
