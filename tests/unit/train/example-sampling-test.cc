// Shuffling and subsetting egs: permutations, determinism per seed, and
// every eg coming out exactly once (seeds fixed in each test).
#include "train/example-sampling.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace nnet3 {
namespace {

std::vector<KeyedExample> MakeEgs(int32_t n) {
  std::vector<KeyedExample> egs;
  for (int32_t i = 0; i < n; i++) {
    NnetExample eg;
    eg.io.emplace_back("output", 3, 0, Posterior{{{i % 3, 1.0f}}});
    egs.emplace_back("eg" + std::to_string(i), eg);
  }
  return egs;
}

std::vector<std::string> Keys(const std::vector<KeyedExample> &egs) {
  std::vector<std::string> keys;
  for (const KeyedExample &eg : egs) keys.push_back(eg.first);
  return keys;
}

TEST_CASE("ShuffleExamples is a seeded permutation", "[egs]") {
  std::vector<KeyedExample> a = MakeEgs(20), b = MakeEgs(20), c = MakeEgs(20);
  RandomState r1(5), r2(5), r3(6);
  ShuffleExamples(&r1, &a);
  ShuffleExamples(&r2, &b);
  ShuffleExamples(&r3, &c);
  CHECK(Keys(a) == Keys(b));
  CHECK(Keys(a) != Keys(c));
  CHECK(Keys(a) != Keys(MakeEgs(20)));
  std::vector<std::string> sorted = Keys(a), orig = Keys(MakeEgs(20));
  std::sort(sorted.begin(), sorted.end());
  std::sort(orig.begin(), orig.end());
  CHECK(sorted == orig);
}

TEST_CASE("BufferShuffler outputs every eg once", "[egs]") {
  RandomState rng(3);
  BufferShuffler shuffler(4, &rng);
  std::vector<KeyedExample> out;
  KeyedExample evicted;
  for (const KeyedExample &eg : MakeEgs(30))
    if (shuffler.Accept(eg.first, eg.second, &evicted)) out.push_back(evicted);
  CHECK(out.size() >= 26);
  shuffler.Flush(&out);
  REQUIRE(out.size() == 30);
  std::vector<std::string> keys = Keys(out), orig = Keys(MakeEgs(30));
  CHECK(keys != orig);
  std::sort(keys.begin(), keys.end());
  std::sort(orig.begin(), orig.end());
  CHECK(keys == orig);
  std::vector<KeyedExample> empty;
  shuffler.Flush(&empty);
  CHECK(empty.empty());
}

TEST_CASE("ReservoirSampler keeps n distinct egs", "[egs]") {
  RandomState rng(11);
  ReservoirSampler sampler(5, &rng);
  for (const KeyedExample &eg : MakeEgs(100))
    sampler.Accept(eg.first, eg.second);
  CHECK(sampler.NumSeen() == 100);
  std::vector<std::string> keys = Keys(*sampler.Samples());
  REQUIRE(keys.size() == 5);
  std::sort(keys.begin(), keys.end());
  CHECK(std::unique(keys.begin(), keys.end()) == keys.end());
  // Later egs get in too (not just the first five).
  CHECK(keys != std::vector<std::string>{"eg0", "eg1", "eg2", "eg3", "eg4"});

  ReservoirSampler small(10, &rng);
  for (const KeyedExample &eg : MakeEgs(3)) small.Accept(eg.first, eg.second);
  CHECK(Keys(*small.Samples()) == Keys(MakeEgs(3)));
}

TEST_CASE("GetCount rounds randomly around the expectation", "[egs]") {
  RandomState rng(1);
  int64_t total = 0;
  for (int32_t i = 0; i < 2000; i++) {
    int32_t c = GetCount(1.25, &rng);
    CHECK((c == 1 || c == 2));
    total += c;
  }
  CHECK(total / 2000.0 == Approx(1.25).margin(0.05));
  CHECK(GetCount(0.0, &rng) == 0);
  CHECK(GetCount(3.0, &rng) == 3);
}

}  // namespace
}  // namespace nnet3
