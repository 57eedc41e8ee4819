// Tests of compile/compile-utils.h (the idea of Kaldi's
// nnet-compile-utils-test): SplitLocations, SplitLocationsBackward,
// ConvertToIndexes, HasContiguousProperty, EnsureContiguousProperty.
#include "compile/compile-utils.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "base/random.h"

namespace nnet3 {

namespace {

using Lists = std::vector<std::vector<SubmatLocation>>;

// Random per-row lists: each row sums 0..max_len terms from a few
// submatrices (some frequent, some rare).
Lists RandomLists(RandomState *rng, int32_t num_rows, int32_t max_len) {
  Lists lists(num_rows);
  for (auto &list : lists) {
    int32_t len = rng->Int(0, max_len);
    for (int32_t k = 0; k < len; k++) {
      int32_t sub = rng->Int(0, 3) == 0 ? rng->Int(1, 20) : rng->Int(1, 3);
      list.emplace_back(sub, rng->Int(0, 9));
    }
  }
  return lists;
}

// The split vectors together hold exactly the per-row multisets.
void CheckSplit(const Lists &lists, const Lists &split) {
  for (const auto &v : split) {
    REQUIRE(v.size() == lists.size());
    bool any = false;
    for (const auto &p : v) any |= (p.first != -1);
    REQUIRE(any);
  }
  for (size_t r = 0; r < lists.size(); r++) {
    std::multiset<SubmatLocation> want, got;
    for (const auto &p : lists[r]) want.insert(p);
    for (const auto &v : split)
      if (v[r].first != -1)
        got.insert(v[r]);
      else
        REQUIRE(v[r].second == -1);
    REQUIRE(want == got);
  }
}

}  // namespace

TEST_CASE("SplitLocations keeps terms and prefers one submatrix per vector",
          "[compiler]") {
  // Sum(a, b): every row one term from submatrix 1 and one from 2; the
  // order within rows varies.
  Lists lists = {{{1, 0}, {2, 0}}, {{2, 1}, {1, 1}}, {{1, 2}, {2, 2}}};
  Lists split;
  SplitLocations(lists, &split);
  CheckSplit(lists, split);
  REQUIRE(split.size() == 2);
  for (const auto &v : split) {
    int32_t sub;
    std::vector<int32_t> rows;
    REQUIRE(ConvertToIndexes(v, &sub, &rows));
    REQUIRE(rows == std::vector<int32_t>{0, 1, 2});
  }
  // A recurrence: x (submatrix 1) in every row plus the previous frame from
  // a different submatrix in each row: x gets its own vector, the rest
  // share one.
  lists = {{{1, 0}}, {{1, 1}, {5, 0}}, {{6, 0}, {1, 2}}};
  SplitLocations(lists, &split);
  CheckSplit(lists, split);
  REQUIRE(split.size() == 2);
  int32_t sub;
  std::vector<int32_t> rows;
  REQUIRE(ConvertToIndexes(split[0], &sub, &rows));
  REQUIRE(sub == 1);
  REQUIRE_FALSE(ConvertToIndexes(split[1], &sub, &rows));
  // Nothing at all.
  SplitLocations(Lists(4), &split);
  REQUIRE(split.empty());

  const uint32_t seed = 1234;
  INFO("seed " << seed);
  RandomState rng(seed);
  for (int32_t i = 0; i < 200; i++) {
    Lists random = RandomLists(&rng, rng.Int(1, 30), rng.Int(1, 4));
    SplitLocations(random, &split);
    CheckSplit(random, split);
    size_t max_len = 0;
    for (const auto &l : random) max_len = std::max(max_len, l.size());
    REQUIRE(split.size() <= max_len);  // never more vectors than needed
  }
}

TEST_CASE("SplitLocationsBackward gives scatter-safe vectors", "[compiler]") {
  const uint32_t seed = 99;
  INFO("seed " << seed);
  RandomState rng(seed);
  for (int32_t i = 0; i < 300; i++) {
    Lists random = RandomLists(&rng, rng.Int(1, 30), rng.Int(1, 3));
    Lists split;
    SplitLocationsBackward(random, &split);
    CheckSplit(random, split);
    for (const auto &v : split) {
      int32_t sub;
      std::vector<int32_t> rows;
      if (ConvertToIndexes(v, &sub, &rows)) {
        std::vector<std::pair<int32_t, int32_t>> ranges;
        REQUIRE(HasContiguousProperty(rows, &ranges));
      } else {
        std::set<SubmatLocation> seen;
        for (const auto &p : v)
          if (p.first != -1) REQUIRE(seen.insert(p).second);
      }
    }
  }
}

TEST_CASE("ConvertToIndexes and the contiguous property", "[compiler]") {
  int32_t sub;
  std::vector<int32_t> rows;
  REQUIRE(ConvertToIndexes({{3, 1}, {-1, -1}, {3, 0}}, &sub, &rows));
  REQUIRE(sub == 3);
  REQUIRE(rows == std::vector<int32_t>{1, -1, 0});
  REQUIRE_FALSE(ConvertToIndexes({{3, 1}, {4, 0}}, &sub, &rows));
  REQUIRE(ConvertToIndexes({{-1, -1}}, &sub, &rows));
  REQUIRE(sub == -1);

  std::vector<std::pair<int32_t, int32_t>> ranges;
  REQUIRE(HasContiguousProperty({0, 0, 2, -1, 1, 1}, &ranges));
  REQUIRE(ranges ==
          std::vector<std::pair<int32_t, int32_t>>{{0, 2}, {4, 6}, {2, 3}});
  REQUIRE(HasContiguousProperty({-1, 1}, &ranges));
  REQUIRE(ranges == std::vector<std::pair<int32_t, int32_t>>{{-1, -1}, {1, 2}});
  REQUIRE_FALSE(HasContiguousProperty({0, 1, 0}, &ranges));
  REQUIRE_FALSE(HasContiguousProperty({0, -1, 0}, &ranges));

  std::vector<std::vector<int32_t>> pieces;
  EnsureContiguousProperty({0, 1, 0, 0, 1, -1, 2}, &pieces);
  REQUIRE(pieces == std::vector<std::vector<int32_t>>{
                        {0, 1, -1, -1, -1, -1, 2}, {-1, -1, 0, 0, 1, -1, -1}});
  EnsureContiguousProperty({-1, -1}, &pieces);
  REQUIRE(pieces.empty());

  const uint32_t seed = 7;
  INFO("seed " << seed);
  RandomState rng(seed);
  for (int32_t i = 0; i < 200; i++) {
    std::vector<int32_t> v(rng.Int(0, 20));
    for (int32_t &x : v) x = rng.Int(-1, 4);
    EnsureContiguousProperty(v, &pieces);
    std::vector<int32_t> sum(v.size(), -1);
    for (const auto &piece : pieces) {
      REQUIRE(HasContiguousProperty(piece, &ranges));
      for (size_t k = 0; k < v.size(); k++)
        if (piece[k] != -1) {
          REQUIRE(sum[k] == -1);
          sum[k] = piece[k];
        }
    }
    REQUIRE(sum == v);
  }

  Lists pairs_split;
  SplitPairList({{1, 2}, {1, 2}, {-1, -1}, {2, 0}, {1, 2}}, &pairs_split);
  REQUIRE(pairs_split ==
          Lists{{{1, 2}, {-1, -1}, {-1, -1}, {2, 0}, {-1, -1}},
                {{-1, -1}, {1, 2}, {-1, -1}, {-1, -1}, {-1, -1}},
                {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {1, 2}}});
}

}  // namespace nnet3
