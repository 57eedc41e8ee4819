// What every backend shares: the counter-based random generator (the numbers
// of a fill depend only on (seed, counter), never on the order in which
// elements are visited, so a CPU loop and a GPU kernel produce the same
// matrix) and the quantization steps of compressed matrices (computed on
// the host once, so that every backend quantizes with the same floats).
#include "device/backend.h"

#include "base/error.h"
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

size_t CompressedTypeBytes(CompressedType type) {
  switch (type) {
    case CompressedType::kInt8:
    case CompressedType::kUint8:
      return 1;
    case CompressedType::kInt16:
    case CompressedType::kUint16:
      return 2;
  }
  NNET3_INTERNAL_ERR << "unknown compressed-matrix type "
                     << static_cast<int32_t>(type);
  return 0;  // not reached
}

CompressionScales GetCompressionScales(CompressedType type, float range) {
  float max_value = 0.0f;
  switch (type) {
    case CompressedType::kInt8:
      max_value = 127.0f;
      break;
    case CompressedType::kUint8:
      max_value = 255.0f;
      break;
    case CompressedType::kInt16:
      max_value = 32767.0f;
      break;
    case CompressedType::kUint16:
      max_value = 65535.0f;
      break;
    default:
      NNET3_INTERNAL_ERR << "unknown compressed-matrix type "
                         << static_cast<int32_t>(type);
  }
  NNET3_ASSERT(range >= 0.0f);
  CompressionScales s;
  if (range == 0.0f) return s;
  s.scale = range / max_value;
  s.inv_scale = static_cast<float>(1.0 / static_cast<double>(s.scale));
  return s;
}

}  // namespace nnet3
