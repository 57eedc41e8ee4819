// The counter-based random generator shared by every backend. The numbers of
// a fill depend only on (seed, counter), never on the order in which elements
// are visited, so a CPU loop and a GPU kernel produce the same matrix.
#include "device/backend.h"

#include <cmath>

namespace nnet3 {

namespace {

// The splitmix64 output function (Steele, Lea and Flood): a bijection on 64
// bits whose output bits each depend on all input bits.
inline uint64_t Mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

}  // namespace

// The seed is mixed first so that nearby seeds give unrelated streams; the
// result is then output number `counter` of a splitmix64 stream started at
// that state, which is what splitmix64 would give after counter + 1 steps.
uint64_t RandomBits(uint64_t seed, uint64_t counter) {
  const uint64_t state = Mix64(seed + kGolden);
  return Mix64(state + (counter + 1) * kGolden);
}

// The 24 high bits: every value is exactly representable, and 1 - u is in
// (0, 1], so log(1 - u) is finite.
float UniformFromBits(uint64_t bits) {
  return static_cast<float>(bits >> 40) * (1.0f / 16777216.0f);
}

// Box-Muller in double so that backends agree to float rounding; the cosine
// branch only (the sine branch would tie pairs of elements together).
float GaussianFromBits(uint64_t bits1, uint64_t bits2) {
  const double u1 = UniformFromBits(bits1), u2 = UniformFromBits(bits2);
  const double kTwoPi = 6.283185307179586476925286766559;
  return static_cast<float>(std::sqrt(-2.0 * std::log(1.0 - u1)) *
                            std::cos(kTwoPi * u2));
}

}  // namespace nnet3
