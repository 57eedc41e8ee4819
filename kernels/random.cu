// Counter-based random fills: element (r, c) of an m.rows x m.cols fill uses
// the counter r * m.cols + c (independent of the stride) and the generator
// of device/random-bits.h, which the CPU backend uses too, so a GPU fill
// equals the CPU fill of the same seed and shape (Backend::RandUniform).
#include "device/random-bits.h"
#include "kernels/kernel-utils.cuh"
#include "kernels/launchers.h"

namespace nnet3 {
namespace kernels {

namespace {

struct UniformFill {
  uint64_t seed;
  int32_t cols;
  __device__ float operator()(int32_t r, int32_t c, float) const {
    const uint64_t k = static_cast<uint64_t>(r) * cols + c;
    return random_bits::Uniform(random_bits::Bits(seed, k));
  }
};

struct GaussianFill {
  uint64_t seed;
  int32_t cols;
  __device__ float operator()(int32_t r, int32_t c, float) const {
    const uint64_t k = static_cast<uint64_t>(r) * cols + c;
    return random_bits::Gaussian(random_bits::Bits(seed, 2 * k),
                                 random_bits::Bits(seed, 2 * k + 1));
  }
};

}  // namespace

cudaError_t RandUniform(cudaStream_t stream, uint64_t seed, MatView m) {
  return LaunchIndexed(stream, m, UniformFill{seed, m.cols});
}

cudaError_t RandGaussian(cudaStream_t stream, uint64_t seed, MatView m) {
  return LaunchIndexed(stream, m, GaussianFill{seed, m.cols});
}

}  // namespace kernels
}  // namespace nnet3
