// GlibcRandom: the sequence of glibc's rand() for a given seed, with its
// state in the object (no global generator). Kaldi's programs draw from
// rand() (RandInt), and compute-wer-bootci never seeds it, so its
// bootstrap resamples are rand()'s sequence for seed 1; this class lets us
// draw the same numbers and print the same confidence intervals.
//
//   GlibcRandom rng;              // seed 1, as a program that never srand()s
//   int r = rng.Next();           // == rand(): 1804289383 first
//   int i = rng.RandInt(0, 9);    // Kaldi's RandInt: lo + Next() % (hi-lo+1),
//                                 // no draw at all when lo == hi
//
// The generator is glibc's default TYPE_3 additive feedback generator
// (degree 31, separation 3): 31 words from the seed by the minimal standard
// generator (16807 * x mod 2^31-1), then x[i] = x[i-31] + x[i-3] (mod 2^32),
// the first 310 outputs discarded, each result x[i] >> 1.
#ifndef NNET3_BASE_GLIBC_RANDOM_H_
#define NNET3_BASE_GLIBC_RANDOM_H_

#include <cstdint>

namespace nnet3 {

class GlibcRandom {
 public:
  explicit GlibcRandom(uint32_t seed = 1) { Seed(seed); }
  void Seed(uint32_t seed);
  // In [0, 2^31).
  int32_t Next();
  // Kaldi's RandInt(lo, hi) over rand(): slightly biased, as Kaldi's.
  int32_t RandInt(int32_t lo, int32_t hi);

 private:
  static constexpr int kDegree = 31, kSeparation = 3;
  uint32_t state_[kDegree];
  int front_ = kSeparation, rear_ = 0;  // positions in the ring
};

}  // namespace nnet3

#endif  // NNET3_BASE_GLIBC_RANDOM_H_
