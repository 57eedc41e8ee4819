// A trivial kernel whose attributes tell whether this build carries code
// (SASS for the device's architecture, or PTX that the driver can compile)
// that the current device can run.
#include "kernels/kernel-utils.cuh"
#include "kernels/launchers.h"

namespace nnet3 {
namespace kernels {

namespace {

__global__ void ProbeKernel(float *x) {
  if (x != nullptr) x[threadIdx.x] = 0.0f;
}

}  // namespace

cudaError_t ProbeKernelImage() {
  cudaFuncAttributes attributes;
  return cudaFuncGetAttributes(&attributes, ProbeKernel);
}

}  // namespace kernels
}  // namespace nnet3
