#include "device/cuda-check.h"

#include "base/error.h"

namespace nnet3 {

namespace {

const char *CublasStatusName(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED:
      return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR:
      return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR:
      return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "CUBLAS_STATUS_NOT_SUPPORTED";
    default:
      return "unknown cuBLAS status";
  }
}

}  // namespace

std::string ShapeOf(const ConstMatView &m) {
  std::ostringstream os;
  os << m.rows << "x" << m.cols;
  if (m.rows > 1 && m.stride != m.cols) os << " (stride " << m.stride << ")";
  return os.str();
}

void ThrowCudaError(cudaError_t status, const std::string &call) {
  // Clear a non-sticky error, so that a caller that recovers (the caching
  // allocator after running out of memory) starts clean.
  cudaGetLastError();
  const SourceLocation where{__FILE__, __LINE__, __func__};
  std::ostringstream os;
  if (status == cudaErrorMemoryAllocation) {
    os << "CUDA out of memory in " << call
       << "; use a smaller minibatch (or a smaller model)";
    throw UserError(os.str(), where);
  }
  os << "CUDA error in " << call << ": " << cudaGetErrorName(status) << " ("
     << cudaGetErrorString(status) << ")";
  throw InternalError(os.str(), where);
}

void ThrowCublasError(cublasStatus_t status, const std::string &call) {
  const SourceLocation where{__FILE__, __LINE__, __func__};
  std::ostringstream os;
  os << "cuBLAS error in " << call << ": " << CublasStatusName(status) << " ("
     << static_cast<int>(status) << ")";
  if (status == CUBLAS_STATUS_ALLOC_FAILED) {
    os << "; out of GPU memory: use a smaller minibatch";
    throw UserError(os.str(), where);
  }
  throw InternalError(os.str(), where);
}

}  // namespace nnet3
