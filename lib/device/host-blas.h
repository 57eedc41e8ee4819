// HostBlas: OpenBLAS's float dot product and matrix-vector product on
// plain host arrays, for code that must round exactly as a Kaldi program
// does. Kaldi's feature programs form mel energies, frame energies, the
// frame's mean and the MFCC's cosine transform with cblas_sdot /
// cblas_sgemv; OpenBLAS's kernels
// sum in vector lanes (and with fused multiply-adds where the processor
// has them), so a plain loop differs from them by an ulp or two, which the
// DCT and the lifter turn into 1e-4 of an MFCC coefficient. Calling the
// same routines of the same library gives Kaldi's bits wherever Kaldi is
// linked against the OpenBLAS we are (Debian's, as /opt/kaldi is here).
//
//   float e = HostDot(n, x, y);
//   float s = HostSum(n, x);                 // as Kaldi's VectorBase::Sum
//   HostGemv(rows, cols, a, stride, x, y);   // y = A x, A row-major
//
// Single-threaded for these sizes; no allocation.
#ifndef NNET3_DEVICE_HOST_BLAS_H_
#define NNET3_DEVICE_HOST_BLAS_H_

#include <cstdint>

namespace nnet3 {

// sum_i x[i] y[i] by cblas_sdot.
float HostDot(int32_t n, const float *x, const float *y);
// sum_i x[i] as Kaldi sums a vector: cblas_sdot with a 1 of stride 0.
float HostSum(int32_t n, const float *x);
// y = A x by cblas_sgemv (row-major, no transpose, alpha 1, beta 0);
// stride >= cols floats between rows.
void HostGemv(int32_t rows, int32_t cols, const float *a, int32_t stride,
              const float *x, float *y);

}  // namespace nnet3

#endif  // NNET3_DEVICE_HOST_BLAS_H_
