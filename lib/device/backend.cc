// The counter-based random generator shared by every backend. The numbers of
// a fill depend only on (seed, counter), never on the order in which elements
// are visited, so a CPU loop and a GPU kernel produce the same matrix.
#include "device/backend.h"

#include "device/random-bits.h"

namespace nnet3 {

// The generator itself is in random-bits.h, shared with the CUDA kernels.
uint64_t RandomBits(uint64_t seed, uint64_t counter) {
  return random_bits::Bits(seed, counter);
}

float UniformFromBits(uint64_t bits) { return random_bits::Uniform(bits); }

float GaussianFromBits(uint64_t bits1, uint64_t bits2) {
  return random_bits::Gaussian(bits1, bits2);
}

}  // namespace nnet3
