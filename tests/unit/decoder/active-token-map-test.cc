// ActiveTokenMap: lookups, and the iteration order of Kaldi's HashList
// (entries grouped by bucket, buckets in order of first use since the last
// Clear, entries of a bucket in insertion order), checked against that
// rule written out directly, on random insertions, across Clear and growth.
#include "decoder/active-token-map.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

namespace nnet3 {

TEST_CASE("ActiveTokenMap iterates in Kaldi's HashList order", "[decoder]") {
  const uint32_t seed = 1234;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  ActiveTokenMap map;
  map.SetSize(7);
  for (int32_t round = 0; round < 20; round++) {
    INFO("round " << round << ", size " << map.Size());
    std::uniform_int_distribution<int32_t> state(0, 40 + 20 * round);
    std::map<int32_t, int32_t> entry_of;  // state -> entry
    std::vector<int32_t> inserted;        // states, first insertion
    const int32_t num_inserts = 1 + round * 5;
    for (int32_t i = 0; i < num_inserts; i++) {
      const int32_t s = state(rng);
      const int32_t e = map.Insert(s);
      CHECK(map.StateAt(e) == s);
      auto it = entry_of.find(s);
      if (it != entry_of.end()) {
        CHECK(it->second == e);
        CHECK(map.TokenAt(e) == static_cast<TokenId>(s + 1));
      } else {
        CHECK(map.TokenAt(e) == kNoId);
        map.SetToken(e, static_cast<TokenId>(s + 1));
        entry_of[s] = e;
        inserted.push_back(s);
      }
    }
    // The rule: sort by (first insertion into the bucket, insertion).
    const size_t size = map.Size();
    std::map<size_t, size_t> bucket_first;
    for (size_t i = 0; i < inserted.size(); i++)
      bucket_first.emplace(static_cast<size_t>(inserted[i]) % size, i);
    std::vector<int32_t> expected(inserted);
    std::stable_sort(expected.begin(), expected.end(),
                     [&](int32_t a, int32_t b) {
                       return bucket_first[static_cast<size_t>(a) % size] <
                              bucket_first[static_cast<size_t>(b) % size];
                     });
    std::vector<int32_t> visited;
    map.ForEach([&](int32_t e) { visited.push_back(map.StateAt(e)); });
    CHECK(visited == expected);
    std::vector<ActiveTokenMap::Entry> previous;
    map.Clear(&previous);
    CHECK(map.Empty());
    std::vector<int32_t> cleared;
    for (const ActiveTokenMap::Entry &entry : previous) {
      cleared.push_back(entry.state);
      CHECK(entry.tok == static_cast<TokenId>(entry.state + 1));
    }
    CHECK(cleared == expected);
    // Grows sometimes; never shrinks.
    map.SetSize(round % 3 == 0 ? size * 2 + 1 : size / 2);
    CHECK(map.Size() >= size);
  }
}

}  // namespace nnet3
