#include "train/example-sampling.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"

namespace nnet3 {

void ShuffleExamples(RandomState *rng, std::vector<KeyedExample> *egs) {
  std::shuffle(egs->begin(), egs->end(), rng->engine());
}

BufferShuffler::BufferShuffler(int32_t buffer_size, RandomState *rng)
    : slots_(buffer_size), used_(buffer_size, false), rng_(rng) {
  NNET3_ASSERT(buffer_size > 0);
}

bool BufferShuffler::Accept(const std::string &key, const NnetExample &eg,
                            KeyedExample *out) {
  int32_t slot = rng_->Int(0, static_cast<int32_t>(slots_.size()) - 1);
  bool evicted = used_[slot];
  if (evicted) std::swap(*out, slots_[slot]);
  slots_[slot].first = key;
  slots_[slot].second = eg;
  used_[slot] = true;
  return evicted;
}

void BufferShuffler::Flush(std::vector<KeyedExample> *out) {
  for (size_t i = 0; i < slots_.size(); i++) {
    if (!used_[i]) continue;
    out->push_back(std::move(slots_[i]));
    slots_[i] = KeyedExample();
    used_[i] = false;
  }
}

ReservoirSampler::ReservoirSampler(int32_t n, RandomState *rng)
    : n_(n), rng_(rng) {
  NNET3_ASSERT(n >= 0);
}

void ReservoirSampler::Accept(const std::string &key, const NnetExample &eg) {
  num_seen_++;
  if (num_seen_ <= n_) {
    samples_.emplace_back(key, eg);
  } else if (rng_->WithProb(static_cast<float>(n_) /
                            static_cast<float>(num_seen_))) {
    KeyedExample &slot = samples_[rng_->Int(0, n_ - 1)];
    slot.first = key;
    slot.second = eg;
  }
}

int32_t GetCount(double expected_count, RandomState *rng) {
  NNET3_ASSERT(expected_count >= 0.0);
  int32_t ans = static_cast<int32_t>(std::floor(expected_count));
  if (rng->WithProb(static_cast<float>(expected_count - ans))) ans++;
  return ans;
}

}  // namespace nnet3
