// Host-side random numbers with explicit, seedable state, so that every
// program's --srand makes runs repeatable and threads never share a generator.
//
//   RandomState rng(srand);            // one per thread / per task
//   int k = rng.Int(0, 9);             // inclusive
//   float u = rng.Uniform();           // [0, 1)
//   float g = rng.Gauss();             // N(0, 1)
//   uint64_t s = rng.NextSeed();       // seed for a device random fill
//
// Device-side fills (Backend::RandUniform / RandGaussian) are counter-based
// and take a seed, typically from NextSeed().
#ifndef NNET3_BASE_RANDOM_H_
#define NNET3_BASE_RANDOM_H_

#include <cstdint>
#include <random>

namespace nnet3 {

class RandomState {
 public:
  explicit RandomState(uint32_t seed = 0) : engine_(seed) {}
  void Seed(uint32_t seed) { engine_.seed(seed); }
  // Uniform integer in [lo, hi] (inclusive, as Kaldi's RandInt).
  int32_t Int(int32_t lo, int32_t hi);
  float Uniform();  // [0, 1)
  float Gauss();    // N(0, 1)
  uint64_t NextSeed();
  std::mt19937 &engine() { return engine_; }

 private:
  std::mt19937 engine_;
};

}  // namespace nnet3

#endif  // NNET3_BASE_RANDOM_H_
