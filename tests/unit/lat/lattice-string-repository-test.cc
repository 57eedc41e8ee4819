// LatticeStringRepository against plain vectors: random strings built by
// Successor, Concatenate and RemovePrefix read back as the vectors they
// stand for, equal strings get equal ids, CommonPrefix and Compare agree
// with the vector forms, and Rebuild keeps exactly the needed strings and
// their prefixes (ids stay valid, freed ids are reused).
#include "lat/lattice-string-repository.h"

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>
#include <vector>

namespace nnet3 {
namespace {

using Labels = std::vector<int32_t>;

Labels ToVector(const LatticeStringRepository &repo, StringId s) {
  Labels v;
  repo.ToVector(s, &v);
  return v;
}

// Kaldi's order: the shorter string is greater; then lexicographic.
int VectorCompare(const Labels &a, const Labels &b) {
  if (a.size() != b.size()) return a.size() > b.size() ? -1 : 1;
  if (a == b) return 0;
  return a < b ? -1 : 1;
}

TEST_CASE("LatticeStringRepository matches vectors") {
  const int seed = 7;
  CAPTURE(seed);
  std::mt19937 rng(seed);
  auto uniform = [&rng](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  LatticeStringRepository repo;
  std::vector<StringId> ids{kEmptyString};
  std::map<Labels, StringId> by_content{{Labels(), kEmptyString}};
  for (int i = 0; i < 5000; i++) {
    const StringId a = ids[uniform(0, ids.size() - 1)];
    const StringId b = ids[uniform(0, ids.size() - 1)];
    const Labels va = ToVector(repo, a), vb = ToVector(repo, b);
    StringId c;
    Labels vc;
    switch (uniform(0, 2)) {
      case 0: {
        const int label = uniform(1, 4);
        c = repo.Successor(a, label);
        vc = va;
        vc.push_back(label);
        break;
      }
      case 1:
        c = repo.Concatenate(a, b);
        vc = va;
        vc.insert(vc.end(), vb.begin(), vb.end());
        break;
      default: {
        const size_t n = uniform(0, va.size());
        c = repo.RemovePrefix(a, n);
        vc.assign(va.begin() + n, va.end());
      }
    }
    REQUIRE(ToVector(repo, c) == vc);
    REQUIRE(repo.Length(c) == static_cast<int32_t>(vc.size()));
    auto it = by_content.find(vc);
    if (it != by_content.end()) REQUIRE(it->second == c);
    by_content[vc] = c;
    if (vc.size() < 12) ids.push_back(c);

    size_t common = 0;
    while (common < va.size() && common < vb.size() && va[common] == vb[common])
      common++;
    REQUIRE(ToVector(repo, repo.CommonPrefix(a, b)) ==
            Labels(va.begin(), va.begin() + common));
    REQUIRE(repo.Compare(a, b) == VectorCompare(va, vb));
  }
  // One entry per distinct non-empty string made, and its prefixes.
  std::set<Labels> prefixes;
  for (const auto &kv : by_content)
    for (size_t n = 1; n <= kv.first.size(); n++)
      prefixes.insert(Labels(kv.first.begin(), kv.first.begin() + n));
  REQUIRE(repo.NumStrings() == prefixes.size());
}

TEST_CASE("LatticeStringRepository::Rebuild keeps what is needed") {
  LatticeStringRepository repo;
  const StringId ab = repo.FromVector({1, 2});
  const StringId abc = repo.Successor(ab, 3);
  const StringId xy = repo.FromVector({7, 8});
  const StringId q = repo.FromVector({9});
  REQUIRE(repo.NumStrings() == 6);  // 1, 1 2, 1 2 3, 7, 7 8, 9
  repo.Rebuild({abc, q});
  REQUIRE(repo.NumStrings() == 4);  // 1, 1 2, 1 2 3, 9
  REQUIRE(ToVector(repo, abc) == Labels{1, 2, 3});
  REQUIRE(ToVector(repo, q) == Labels{9});
  REQUIRE(repo.Successor(repo.Successor(kEmptyString, 1), 2) == ab);
  // The freed strings are made again, reusing ids.
  const StringId xy2 = repo.FromVector({7, 8});
  REQUIRE(ToVector(repo, xy2) == Labels{7, 8});
  REQUIRE(repo.NumStrings() == 6);
  REQUIRE(xy2 <= 6);  // a freed id, not a new one
  (void)xy;
  repo.Rebuild({});
  REQUIRE(repo.NumStrings() == 0);
  REQUIRE(ToVector(repo, repo.FromVector({5, 6, 7})) == Labels{5, 6, 7});
}

}  // namespace
}  // namespace nnet3
