// Turning CUDA runtime and cuBLAS statuses into exceptions (internal to the
// CUDA backend, lib/device/cuda-*.cc). Every call into CUDA or cuBLAS goes
// through NNET3_CUDA_CHECK / NNET3_CUBLAS_CHECK, whose second argument is a
// stream expression naming the call and the shapes involved; it is
// evaluated only when the call failed:
//
//   NNET3_CUDA_CHECK(kernels::Apply(stream_, f, in, out),
//                    "Apply " << ShapeOf(in) << " -> " << ShapeOf(out));
//
// Out of memory is a UserError (the user can use smaller minibatches);
// anything else is an InternalError. Kernel faults are reported by the
// next call that synchronizes; run with CUDA_LAUNCH_BLOCKING=1 to have them
// reported by the primitive that caused them.
#ifndef NNET3_DEVICE_CUDA_CHECK_H_
#define NNET3_DEVICE_CUDA_CHECK_H_

#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <sstream>
#include <string>

#include "device/backend.h"

namespace nnet3 {

// "128x512 (stride 520)" (the stride only when it differs from cols).
std::string ShapeOf(const ConstMatView &m);

[[noreturn]] void ThrowCudaError(cudaError_t status, const std::string &call);
[[noreturn]] void ThrowCublasError(cublasStatus_t status,
                                   const std::string &call);

}  // namespace nnet3

#define NNET3_CUDA_CHECK(expr, what)                             \
  do {                                                           \
    const cudaError_t nnet3_status_ = (expr);                    \
    if (nnet3_status_ != cudaSuccess) {                          \
      std::ostringstream nnet3_what_;                            \
      nnet3_what_ << what;                                       \
      ::nnet3::ThrowCudaError(nnet3_status_, nnet3_what_.str()); \
    }                                                            \
  } while (0)

#define NNET3_CUBLAS_CHECK(expr, what)                             \
  do {                                                             \
    const cublasStatus_t nnet3_status_ = (expr);                   \
    if (nnet3_status_ != CUBLAS_STATUS_SUCCESS) {                  \
      std::ostringstream nnet3_what_;                              \
      nnet3_what_ << what;                                         \
      ::nnet3::ThrowCublasError(nnet3_status_, nnet3_what_.str()); \
    }                                                              \
  } while (0)

#endif  // NNET3_DEVICE_CUDA_CHECK_H_
