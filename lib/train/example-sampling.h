// Random reordering and subsetting of keyed egs, as nnet3-shuffle-egs,
// nnet3-subset-egs and nnet3-copy-egs --keep-proportion do. Every function
// draws from a caller's RandomState, so a given --srand repeats exactly; with
// RandomState::KaldiDraws the draws are those of Kaldi's programs (full
// shuffles: std::shuffle over rng->engine(); the rest: Int and WithProb).
//
//   RandomState rng(srand);
//   ShuffleExamples(&rng, &all);                     // full shuffle
//   BufferShuffler shuffler(1000, &rng);             // partial shuffle
//   for (...) if (shuffler.Accept(key, eg, &out)) write(out);
//   shuffler.Flush(&rest);
//   ReservoirSampler sampler(100, &rng);             // uniform subset
//   for (...) sampler.Accept(key, eg);
//   int32_t copies = GetCount(1.5, &rng);            // 1 or 2
#ifndef NNET3_TRAIN_EXAMPLE_SAMPLING_H_
#define NNET3_TRAIN_EXAMPLE_SAMPLING_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/random.h"
#include "train/nnet-example.h"

namespace nnet3 {

using KeyedExample = std::pair<std::string, NnetExample>;

// std::shuffle with rng's mt19937 engine.
void ShuffleExamples(RandomState *rng, std::vector<KeyedExample> *egs);

// Kaldi's buffer-replacement shuffle: each eg goes to a random slot of a
// buffer of buffer_size; when the slot is taken, its old eg comes out.
class BufferShuffler {
 public:
  BufferShuffler(int32_t buffer_size, RandomState *rng);
  // Returns true and sets *out when an eg leaves the buffer.
  bool Accept(const std::string &key, const NnetExample &eg, KeyedExample *out);
  // The egs still held, in slot order; empties the buffer.
  void Flush(std::vector<KeyedExample> *out);

 private:
  std::vector<KeyedExample> slots_;
  std::vector<bool> used_;
  RandomState *rng_;
};

// A uniform random subset of at most n egs (reservoir sampling): after the
// i-th eg (i > n) it replaces a random slot with probability n / i.
class ReservoirSampler {
 public:
  ReservoirSampler(int32_t n, RandomState *rng);
  void Accept(const std::string &key, const NnetExample &eg);
  int64_t NumSeen() const { return num_seen_; }
  std::vector<KeyedExample> *Samples() { return &samples_; }

 private:
  int32_t n_;
  int64_t num_seen_ = 0;
  std::vector<KeyedExample> samples_;
  RandomState *rng_;
};

// floor(expected_count), plus one with probability equal to the fraction.
int32_t GetCount(double expected_count, RandomState *rng);

}  // namespace nnet3

#endif  // NNET3_TRAIN_EXAMPLE_SAMPLING_H_
