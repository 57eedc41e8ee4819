#include "base/random.h"

#include <cmath>

#include "base/error.h"

namespace nnet3 {

int32_t RandomState::Int(int32_t lo, int32_t hi) {
  NNET3_ASSERT(lo <= hi);
  std::uniform_int_distribution<int32_t> dist(lo, hi);
  return dist(engine_);
}

float RandomState::Uniform() {
  // 24 random bits: exactly representable, never 1.0.
  return static_cast<float>(engine_() >> 8) * (1.0f / 16777216.0f);
}

float RandomState::Gauss() {
  // Box-Muller; u1 in (0, 1] so that log never sees 0.
  float u1 = 1.0f - Uniform(), u2 = Uniform();
  return static_cast<float>(std::sqrt(-2.0 * std::log(u1)) *
                            std::cos(2.0 * M_PI * u2));
}

uint64_t RandomState::NextSeed() {
  uint64_t hi = engine_(), lo = engine_();
  return (hi << 32) | lo;
}

}  // namespace nnet3
