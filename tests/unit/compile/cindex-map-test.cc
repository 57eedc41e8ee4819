// Tests of compile/cindex-map.h: lookups, inserts of present and missing
// keys, growth past many doublings, collisions (a hash that maps every key
// to one slot, and one that keeps only two bits), Clear and Reserve, all
// checked against std::map.
#include "compile/cindex-map.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

namespace nnet3 {

namespace {

// Every key hashes to the same slot: each lookup walks the probe chain.
struct ConstantHash {
  uint64_t operator()(const Cindex &) const noexcept { return 12345; }
};

// The last or the one-but-last slot, whatever the table size: two long
// clusters that wrap around the end of the table to its start.
struct LastSlotsHash {
  uint64_t operator()(const Cindex &c) const noexcept {
    return ~static_cast<uint64_t>(c.second.t & 1);
  }
};

Cindex RandomCindex(std::mt19937 *rng) {
  std::uniform_int_distribution<int32_t> node(0, 20), n(0, 63), t(-50, 50),
      x(0, 2);
  return Cindex(node(*rng), Index(n(*rng), t(*rng), x(*rng)));
}

// Inserts `num_ops` random cindexes (many repeated) into `map` and a
// std::map, checking every answer, then looks up present and absent keys.
template <typename Map>
void CheckAgainstStdMap(Map *map, int32_t num_ops, uint32_t seed) {
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  std::map<Cindex, int32_t> reference;
  for (int32_t i = 0; i < num_ops; i++) {
    Cindex c = RandomCindex(&rng);
    const int32_t id = static_cast<int32_t>(reference.size());
    bool inserted = false;
    int32_t got = map->Insert(c, id, &inserted);
    auto it = reference.find(c);
    if (it == reference.end()) {
      REQUIRE(inserted);
      REQUIRE(got == id);
      reference[c] = id;
    } else {
      REQUIRE_FALSE(inserted);
      REQUIRE(got == it->second);
    }
    REQUIRE(map->Size() == reference.size());
  }
  for (const auto &p : reference) REQUIRE(map->Find(p.first) == p.second);
  for (int32_t i = 0; i < num_ops; i++) {
    Cindex c = RandomCindex(&rng);
    auto it = reference.find(c);
    REQUIRE(map->Find(c) == (it == reference.end() ? -1 : it->second));
  }
}

}  // namespace

TEST_CASE("CindexMap finds what was inserted and nothing else",
          "[compile][cindex-map]") {
  CindexMap map;
  REQUIRE(map.Find(Cindex(0, Index(0, 0))) == -1);  // empty table
  bool inserted = false;
  REQUIRE(map.Insert(Cindex(1, Index(0, 5)), 0, &inserted) == 0);
  REQUIRE(inserted);
  REQUIRE(map.Insert(Cindex(1, Index(0, 6)), 1, &inserted) == 1);
  REQUIRE(inserted);
  // Present: the old id comes back, the new one is ignored.
  REQUIRE(map.Insert(Cindex(1, Index(0, 5)), 9, &inserted) == 0);
  REQUIRE_FALSE(inserted);
  REQUIRE(map.Size() == 2);
  REQUIRE(map.Find(Cindex(1, Index(0, 5))) == 0);
  REQUIRE(map.Find(Cindex(1, Index(0, 6))) == 1);
  // Keys that differ in one field only are different keys.
  REQUIRE(map.Find(Cindex(2, Index(0, 5))) == -1);
  REQUIRE(map.Find(Cindex(1, Index(1, 5))) == -1);
  REQUIRE(map.Find(Cindex(1, Index(0, 5, 1))) == -1);
  REQUIRE(map.Find(Cindex(1, Index(0, 7))) == -1);
}

TEST_CASE("CindexMap grows through many doublings", "[compile][cindex-map]") {
  CindexMap map;
  const int32_t num = 20000;  // from 16 slots to 65536
  bool inserted = false;
  for (int32_t i = 0; i < num; i++) {
    REQUIRE(map.Insert(Cindex(i % 7, Index(i / 7, i - 5000)), i, &inserted) ==
            i);
    REQUIRE(inserted);
  }
  REQUIRE(map.Size() == static_cast<size_t>(num));
  for (int32_t i = 0; i < num; i++)
    REQUIRE(map.Find(Cindex(i % 7, Index(i / 7, i - 5000))) == i);
  REQUIRE(map.Find(Cindex(0, Index(0, num))) == -1);
}

TEST_CASE("CindexMap agrees with std::map on random keys",
          "[compile][cindex-map]") {
  for (uint32_t seed : {1u, 2u, 3u}) {
    CindexMap map;
    CheckAgainstStdMap(&map, 30000, seed);
  }
}

TEST_CASE("CindexMap stays correct when keys collide",
          "[compile][cindex-map]") {
  SECTION("every key in one probe chain") {
    CindexMapT<ConstantHash> map;
    CheckAgainstStdMap(&map, 600, 4);
  }
  SECTION("clusters that wrap around the table's end") {
    CindexMapT<LastSlotsHash> map;
    CheckAgainstStdMap(&map, 3000, 5);
  }
}

TEST_CASE("CindexMap Clear empties it and Reserve keeps entries",
          "[compile][cindex-map]") {
  CindexMap map;
  bool inserted = false;
  for (int32_t i = 0; i < 100; i++)
    map.Insert(Cindex(3, Index(0, i)), i, &inserted);
  map.Clear();
  REQUIRE(map.Size() == 0);
  for (int32_t i = 0; i < 100; i++)
    REQUIRE(map.Find(Cindex(3, Index(0, i))) == -1);
  // Re-inserted with other ids after Clear: the new ids count.
  for (int32_t i = 0; i < 100; i++) {
    REQUIRE(map.Insert(Cindex(3, Index(0, i)), 1000 + i, &inserted) ==
            1000 + i);
    REQUIRE(inserted);
  }
  map.Reserve(5000);  // rehash with entries present
  for (int32_t i = 0; i < 100; i++)
    REQUIRE(map.Find(Cindex(3, Index(0, i))) == 1000 + i);
  map.Clear();  // reuse of the grown table
  CheckAgainstStdMap(&map, 5000, 6);
}

}  // namespace nnet3
