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

}  // namespace nnet3
