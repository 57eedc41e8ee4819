// The counter-based random generator of Backend::RandUniform / RandGaussian
// (backend.h), written once for the host and for CUDA kernels: the CPU
// backend (through backend.cc) and the CUDA kernels (kernels/random.cu)
// include this header, so that both compute the same function. Integer
// mixing and the uniform conversion are exact, so uniform fills (dropout
// masks) are identical bit for bit; the Gaussian's double-precision log and
// cos may differ in the last bit of a double between libm and CUDA, which
// changes the float result by one unit in the last place only rarely.
#ifndef NNET3_DEVICE_RANDOM_BITS_H_
#define NNET3_DEVICE_RANDOM_BITS_H_

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define NNET3_HOST_DEVICE __host__ __device__
#else
#define NNET3_HOST_DEVICE
#endif

namespace nnet3 {
namespace random_bits {

// The splitmix64 output function (Steele, Lea and Flood): a bijection on 64
// bits whose output bits each depend on all input bits.
NNET3_HOST_DEVICE inline uint64_t Mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The seed is mixed first so that nearby seeds give unrelated streams; the
// result is then output number `counter` of a splitmix64 stream started at
// that state, which is what splitmix64 would give after counter + 1 steps.
NNET3_HOST_DEVICE inline uint64_t Bits(uint64_t seed, uint64_t counter) {
  const uint64_t kGolden = 0x9e3779b97f4a7c15ULL;
  const uint64_t state = Mix64(seed + kGolden);
  return Mix64(state + (counter + 1) * kGolden);
}

// The 24 high bits: every value is exactly representable, and 1 - u is in
// (0, 1], so log(1 - u) is finite.
NNET3_HOST_DEVICE inline float Uniform(uint64_t bits) {
  return static_cast<float>(bits >> 40) * (1.0f / 16777216.0f);
}

// Box-Muller in double so that backends agree to float rounding; the cosine
// branch only (the sine branch would tie pairs of elements together).
NNET3_HOST_DEVICE inline float Gaussian(uint64_t bits1, uint64_t bits2) {
  const double u1 = Uniform(bits1), u2 = Uniform(bits2);
  const double kTwoPi = 6.283185307179586476925286766559;
#if defined(__CUDA_ARCH__)
  return static_cast<float>(::sqrt(-2.0 * ::log(1.0 - u1)) *
                            ::cos(kTwoPi * u2));
#else
  return static_cast<float>(std::sqrt(-2.0 * std::log(1.0 - u1)) *
                            std::cos(kTwoPi * u2));
#endif
}

}  // namespace random_bits
}  // namespace nnet3

#endif  // NNET3_DEVICE_RANDOM_BITS_H_
