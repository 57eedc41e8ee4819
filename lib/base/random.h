// Host-side random numbers with explicit, seedable state, so that every
// program's --srand makes runs repeatable and threads never share a generator.
//
//   RandomState rng(srand);            // one per thread / per task
//   int k = rng.Int(0, 9);             // inclusive
//   float u = rng.Uniform();           // [0, 1)
//   float g = rng.Gauss();             // N(0, 1)
//   bool b = rng.WithProb(0.3f);       // true with probability 0.3
//   uint64_t s = rng.NextSeed();       // seed for a device random fill
//
// Device-side fills (Backend::RandUniform / RandGaussian) are counter-based
// and take a seed, typically from NextSeed().
//
// Kaldi's draws: a program that must choose exactly as Kaldi's does (the
// chunks of nnet3-get-egs, the copies of nnet3-copy-egs, ...) uses
//
//   RandomState rng = RandomState::KaldiDraws(srand, srand);
//
// whose Int, Uniform, Gauss and WithProb take every draw from the C
// library's rand(), with Kaldi's arithmetic (RandInt, RandUniform,
// RandGauss, WithProb of Kaldi's base/kaldi-math), after srand(c_seed).
// With the same C library (glibc) and the same calls in the same order, the
// results are Kaldi's, draw for draw. rand() is one global state: such a
// RandomState is not thread-safe, and two of them share one sequence (as
// all of Kaldi's draws do); use it on one thread only. engine() and
// NextSeed() keep the state's own mt19937, seeded with `seed` (Kaldi's
// programs shuffle with std::shuffle over std::mt19937(srand)).
#ifndef NNET3_BASE_RANDOM_H_
#define NNET3_BASE_RANDOM_H_

#include <cstdint>
#include <random>

namespace nnet3 {

class RandomState {
 public:
  explicit RandomState(uint32_t seed = 0) : engine_(seed) {}
  // See the file comment. Calls srand(c_seed). (glibc treats seed 0 as 1,
  // the sequence of a program that never calls srand.)
  static RandomState KaldiDraws(uint32_t seed, uint32_t c_seed);
  void Seed(uint32_t seed) { engine_.seed(seed); }
  // Uniform integer in [lo, hi] (inclusive, as Kaldi's RandInt; no draw
  // when lo == hi).
  int32_t Int(int32_t lo, int32_t hi);
  float Uniform();  // [0, 1); Kaldi's draws: (0, 1)
  float Gauss();    // N(0, 1)
  // True with probability p in [0, 1]; no draw when p is 0 or 1.
  bool WithProb(float p);
  // One raw draw in [0, RandMax()]: rand() with Kaldi's draws (Kaldi's
  // Rand()), else 31 bits of the engine.
  int32_t Raw();
  static int32_t RandMax();
  uint64_t NextSeed();
  std::mt19937 &engine() { return engine_; }

 private:
  std::mt19937 engine_;
  bool c_library_ = false;
};

}  // namespace nnet3

#endif  // NNET3_BASE_RANDOM_H_
