#include "base/random.h"

#include <cmath>
#include <cstdlib>

#include "base/error.h"

namespace nnet3 {

RandomState RandomState::KaldiDraws(uint32_t seed, uint32_t c_seed) {
  RandomState state(seed);
  state.c_library_ = true;
  std::srand(c_seed);
  return state;
}

int32_t RandomState::RandMax() { return RAND_MAX; }

int32_t RandomState::Raw() {
  if (c_library_) return std::rand();
  return static_cast<int32_t>(engine_() >> 1);
}

int32_t RandomState::Int(int32_t lo, int32_t hi) {
  NNET3_ASSERT(lo <= hi);
  if (lo == hi) return lo;
  if (c_library_) return lo + std::rand() % (hi + 1 - lo);  // Kaldi's RandInt
  std::uniform_int_distribution<int32_t> dist(lo, hi);
  return dist(engine_);
}

float RandomState::Uniform() {
  if (c_library_)  // Kaldi's RandUniform: never 0 or 1
    return static_cast<float>((std::rand() + 1.0) / (RAND_MAX + 2.0));
  // 24 random bits: exactly representable, never 1.0.
  return static_cast<float>(engine_() >> 8) * (1.0f / 16777216.0f);
}

float RandomState::Gauss() {
  if (c_library_) {
    // Kaldi's RandGauss, the draw of the square root's factor first (the
    // order GCC gives Kaldi's expression).
    const float u1 = Uniform(), u2 = Uniform();
    return sqrtf(-2 * logf(u1)) * cosf(2 * M_PI * u2);
  }
  // Box-Muller; u1 in (0, 1] so that log never sees 0.
  float u1 = 1.0f - Uniform(), u2 = Uniform();
  return static_cast<float>(std::sqrt(-2.0 * std::log(u1)) *
                            std::cos(2.0 * M_PI * u2));
}

bool RandomState::WithProb(float p) {
  NNET3_ASSERT(p >= 0.0f && p <= 1.1f);  // a little over 1 from roundoff
  if (p == 0.0f) return false;
  if (p == 1.0f) return true;
  if (!c_library_) return Uniform() < p;
  // Kaldi's WithProb: a very small p first passes a 1/128 draw, then is
  // tried again scaled by 128.
  if (p * RAND_MAX < 128.0f)
    return std::rand() < RAND_MAX / 128 && WithProb(p * 128.0f);
  return std::rand() < (RAND_MAX + 1.0f) * p;
}

uint64_t RandomState::NextSeed() {
  uint64_t hi = engine_(), lo = engine_();
  return (hi << 32) | lo;
}

}  // namespace nnet3
