#include "nnet/init-random.h"

#include <mutex>

#include "base/random.h"

namespace nnet3 {

namespace {

struct InitRandom {
  std::mutex mutex;
  RandomState state{0};
};

InitRandom &Global() {
  static InitRandom g;
  return g;
}

}  // namespace

void SetComponentInitSeed(uint32_t seed) {
  InitRandom &g = Global();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.state.Seed(seed);
}

uint64_t NextComponentInitSeed() {
  InitRandom &g = Global();
  std::lock_guard<std::mutex> lock(g.mutex);
  return g.state.NextSeed();
}

uint64_t BiasSeed(uint64_t weight_seed) {
  return weight_seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
}

}  // namespace nnet3
