#include "base/glibc-random.h"

#include "base/error.h"

namespace nnet3 {

void GlibcRandom::Seed(uint32_t seed) {
  if (seed == 0) seed = 1;  // glibc's rule
  state_[0] = seed;
  int32_t word = static_cast<int32_t>(seed);
  for (int i = 1; i < kDegree; ++i) {
    // 16807 * word mod (2^31 - 1), by Schrage's method to stay in 32 bits.
    const int32_t hi = word / 127773, lo = word % 127773;
    word = 16807 * lo - 2836 * hi;
    if (word < 0) word += 2147483647;
    state_[i] = static_cast<uint32_t>(word);
  }
  front_ = kSeparation;
  rear_ = 0;
  for (int i = 0; i < 10 * kDegree; ++i) Next();
}

int32_t GlibcRandom::Next() {
  state_[front_] += state_[rear_];
  const uint32_t result = state_[front_] >> 1;
  front_ = (front_ + 1) % kDegree;
  rear_ = (rear_ + 1) % kDegree;
  return static_cast<int32_t>(result);
}

int32_t GlibcRandom::RandInt(int32_t lo, int32_t hi) {
  NNET3_ASSERT(lo <= hi);
  if (lo == hi) return lo;
  return lo + Next() % (hi + 1 - lo);
}

}  // namespace nnet3
