// The machine's GPUs as the CUDA runtime sees them (GpuProbe for
// gpu-selection.h), and the creation of the CUDA backend on the chosen one,
// with the check that this build has kernels its compute capability runs.
#include <unistd.h>

#include <cmath>
#include <memory>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "device/cuda-backend.h"
#include "device/cuda-check.h"
#include "kernels/launchers.h"

#ifndef NNET3_GPU_ARCHS
#define NNET3_GPU_ARCHS "unknown"
#endif

namespace nnet3 {

namespace {

std::string Describe(cudaError_t e) {
  cudaGetLastError();  // clear it, so that the next call starts clean
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

class CudaProbe : public GpuProbe {
 public:
  int NumDevices(std::string *why_none) override {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
      *why_none = "cudaGetDeviceCount: " + Describe(e);
      if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice)
        *why_none += " (no NVIDIA driver or GPU on this machine?)";
      return 0;
    }
    if (n == 0) *why_none = "cudaGetDeviceCount found no device";
    return n;
  }

  bool IsExclusive(int id) override {
    int mode = cudaComputeModeDefault;
    if (cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, id) !=
        cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    return mode == cudaComputeModeExclusive ||
           mode == cudaComputeModeExclusiveProcess;
  }

  // Needs a context on the device: creates it and releases it again.
  double FreeMemoryRatio(int id) override {
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaSetDevice(id) != cudaSuccess ||
        cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
      cudaGetLastError();
      return 0.0;
    }
    cudaDeviceReset();
    return total_bytes > 0 ? static_cast<double>(free_bytes) / total_bytes
                           : 0.0;
  }

  bool TryAcquire(int id, std::string *why) override {
    cudaError_t e = cudaSetDevice(id);
    if (e == cudaSuccess) e = cudaFree(nullptr);  // creates the context
    if (e != cudaSuccess) {
      *why = Describe(e);
      return false;
    }
    return true;
  }

  void Sleep(double seconds) override {
    usleep(static_cast<useconds_t>(std::lround(seconds * 1e6)));
  }
};

}  // namespace

std::unique_ptr<GpuProbe> NewCudaProbe() {
  return std::make_unique<CudaProbe>();
}

std::unique_ptr<Backend> NewCudaBackend(int id,
                                        const CudaBackendOptions &opts) {
  cudaDeviceProp prop;
  NNET3_CUDA_CHECK(cudaGetDeviceProperties(&prop, id),
                   "cudaGetDeviceProperties(" << id << ")");
  const cudaError_t image = kernels::ProbeKernelImage();
  if (image != cudaSuccess)
    NNET3_ERR << "GPU " << id << " (" << prop.name
              << ") has compute capability " << prop.major << "." << prop.minor
              << ", but this build has CUDA kernels only for "
              << NNET3_GPU_ARCHS << " (" << Describe(image)
              << "): reconfigure with -Dgpu_arch=" << prop.major << prop.minor
              << " (or add it to the list) and rebuild";
  std::string why;
  const CublasApi *cublas = LoadCublas(&why);
  if (cublas == nullptr) NNET3_ERR << "GPU " << id << ": " << why;
  auto backend = std::make_unique<CudaBackend>(id, *cublas, opts);
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess)
    cudaGetLastError();
  NNET3_LOG << "The active GPU is [" << id << "]: " << prop.name
            << "\tfree:" << free_bytes / 1048576
            << "M, used:" << (total_bytes - free_bytes) / 1048576
            << "M, total:" << total_bytes / 1048576 << "M, free/total:"
            << (total_bytes > 0 ? static_cast<double>(free_bytes) / total_bytes
                                : 0.0)
            << " version " << prop.major << "." << prop.minor
            << (opts.use_tf32 ? " (TF32 GEMM on)" : "");
  return backend;
}

}  // namespace nnet3
