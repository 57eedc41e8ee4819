#include "device/host-blas.h"

#include <cblas.h>

#include "base/error.h"

namespace nnet3 {

float HostDot(int32_t n, const float *x, const float *y) {
  NNET3_ASSERT(n >= 0);
  return cblas_sdot(n, x, 1, y, 1);
}

float HostSum(int32_t n, const float *x) {
  NNET3_ASSERT(n >= 0);
  const float one = 1.0f;
  return cblas_sdot(n, x, 1, &one, 0);
}

void HostGemv(int32_t rows, int32_t cols, const float *a, int32_t stride,
              const float *x, float *y) {
  NNET3_ASSERT(rows > 0 && cols > 0 && stride >= cols);
  cblas_sgemv(CblasRowMajor, CblasNoTrans, rows, cols, 1.0f, a, stride, x, 1,
              0.0f, y, 1);
}

}  // namespace nnet3
