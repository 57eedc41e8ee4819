// Minimum Bayes Risk decoding (lat/minimum-bayes-risk.h). The hand-worked
// lattice utt-mbr of tests/data/lat/mbr/hand-lat.txt has three paths, at
// acoustic scale 0.1 "b c" (posterior 0.4), "b d" (0.3) and "e d" (0.3)
// (b=2, c=3, d=4, e=5): its best path is "b c", but the consensus is "b d"
// (b: 0.7, d: 0.6), whose expected word errors are 0.4 + 0.3 = 0.7 (0.9 for
// "b c"). Word-aligned, b and e cover frames 2-6, c and d 6-8.
#include "lat/minimum-bayes-risk.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/io-funcs.h"
#include "fstext/lattice-convert.h"
#include "fstext/lattice-scale.h"
#include "lat/word-align-lattice.h"
#include "lattice-test-utils.h"
#include "random-frame-lattice.h"

namespace nnet3 {
namespace {

using Bin = std::vector<std::pair<int32_t, float>>;
using TimePair = MinimumBayesRisk::TimePair;

std::string MbrData(const std::string &name) {
  return std::string(NNET3_TEST_DATA) + "/lat/mbr/" + name;
}

// utt-mbr, word-aligned, at acoustic scale 0.1.
CompactLattice AlignedMbrLattice() {
  std::ifstream is(MbrData("model.txt"), std::ios::binary);
  bool binary = false;
  REQUIRE(InitKaldiInputStream(is, &binary));
  TransitionModel tm;
  tm.Read(is, binary);
  const WordBoundaryInfo info(WordBoundaryInfoOptions(),
                              MbrData("word_boundary.int"));
  for (auto &entry : ReadCompactLatticeArchiveText(MbrData("hand-lat.txt"))) {
    if (entry.first != "utt-mbr") continue;
    CompactLattice aligned;
    REQUIRE(WordAlignLattice(entry.second, tm, info, 0, &aligned));
    ScaleLattice(LatticeScale(1.0, 0.1), &aligned);
    return aligned;
  }
  FAIL("no utt-mbr in hand-lat.txt");
  return CompactLattice();
}

void CheckBins(const std::vector<Bin> &got, const std::vector<Bin> &want) {
  REQUIRE(got.size() == want.size());
  for (size_t q = 0; q < got.size(); ++q) {
    INFO("bin " << q);
    REQUIRE(got[q].size() == want[q].size());
    for (size_t j = 0; j < got[q].size(); ++j) {
      CHECK(got[q][j].first == want[q][j].first);
      CHECK(got[q][j].second == Approx(want[q][j].second).margin(1e-5));
    }
  }
}

void CheckTimes(const std::vector<TimePair> &got,
                const std::vector<TimePair> &want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].first == Approx(want[i].first).margin(1e-4));
    CHECK(got[i].second == Approx(want[i].second).margin(1e-4));
  }
}

TEST_CASE("MBR picks the consensus, not the best path (hand-worked)") {
  const CompactLattice clat = AlignedMbrLattice();
  const MinimumBayesRisk mbr(clat);
  CHECK(mbr.GetOneBest() == std::vector<int32_t>{2, 4});
  REQUIRE(mbr.GetOneBestConfidences().size() == 2);
  CHECK(mbr.GetOneBestConfidences()[0] == Approx(0.7).margin(1e-5));
  CHECK(mbr.GetOneBestConfidences()[1] == Approx(0.6).margin(1e-5));
  CHECK(mbr.GetBayesRisk() == Approx(0.7).margin(1e-4));
  CheckBins(mbr.GetSausageStats(), {{{0, 1}},
                                    {{2, 0.7}, {5, 0.3}},
                                    {{0, 1}},
                                    {{4, 0.6}, {3, 0.4}},
                                    {{0, 1}}});
  CheckTimes(mbr.GetOneBestTimes(), {{2, 6}, {6, 8}});
  CheckTimes(mbr.GetSausageTimes(), {{0, 2}, {2, 6}, {6, 6}, {6, 8}, {8, 9}});
  REQUIRE(mbr.GetTimes().size() == 5);
  CheckTimes(mbr.GetTimes()[3], {{6, 8}, {6, 8}});  // d, then c

  MinimumBayesRiskOptions map_opts;
  map_opts.decode_mbr = false;  // keep the best path, report its stats
  const MinimumBayesRisk map(clat, map_opts);
  CHECK(map.GetOneBest() == std::vector<int32_t>{2, 3});
  CHECK(map.GetOneBestConfidences()[1] == Approx(0.4).margin(1e-5));
  CHECK(map.GetBayesRisk() == Approx(0.9).margin(1e-4));

  MinimumBayesRiskOptions silence_opts;
  silence_opts.print_silence = true;
  const MinimumBayesRisk with_eps(clat, silence_opts);
  CHECK(with_eps.GetOneBest() == std::vector<int32_t>{0, 2, 0, 4, 0});
  CHECK(with_eps.GetOneBestConfidences().size() == 5);
  CheckTimes(with_eps.GetOneBestTimes(),
             {{0, 2}, {2, 6}, {6, 6}, {6, 8}, {8, 9}});

  // From given words ("e c", epsilons ignored), with and without MBR.
  const MinimumBayesRisk given(clat, {0, 5, 3}, map_opts);
  CHECK(given.GetOneBest() == std::vector<int32_t>{5, 3});
  CHECK(given.GetOneBestConfidences()[0] == Approx(0.3).margin(1e-5));
  CHECK(given.GetOneBestConfidences()[1] == Approx(0.4).margin(1e-5));
  const MinimumBayesRisk improved(clat, {5, 3}, {{0, 1}, {1, 2}},
                                  MinimumBayesRiskOptions());
  CHECK(improved.GetOneBest() == std::vector<int32_t>{2, 4});
  CheckTimes(improved.GetSausageTimes(), mbr.GetSausageTimes());
}

TEST_CASE("MBR of a linear lattice is its words, and of nothing nothing") {
  CompactLattice linear;
  linear.SetStart(linear.AddState());
  for (int32_t w : {7, 0, 8}) {
    const int s = linear.AddState();
    linear.AddArc(
        s - 1, CompactLatticeArc(
                   w, w, CompactLatticeWeight(LatticeWeight(1, 2), {1, 1}), s));
  }
  linear.SetFinal(3, CompactLatticeWeight::One());
  const MinimumBayesRisk mbr(linear);
  CHECK(mbr.GetOneBest() == std::vector<int32_t>{7, 8});
  CHECK(mbr.GetBayesRisk() == 0.0f);
  CheckTimes(mbr.GetOneBestTimes(), {{0, 2}, {4, 6}});
  // An empty lattice: as Kaldi, one epsilon bin and nothing else.
  const MinimumBayesRisk empty{CompactLattice()};
  CHECK(empty.GetOneBest().empty());
  CHECK(empty.GetBayesRisk() == 0.0f);
  CheckBins(empty.GetSausageStats(), {{{0, 1}}});
}

TEST_CASE("MBR on random lattices: bins sum to one, risk below the MAP's") {
  const unsigned seed = 131;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  for (int i = 0; i < 40; ++i) {
    INFO("lattice " << i);
    const Lattice raw = RandomFrameLattice(2 + i % 6, 4, &rng);
    CompactLattice clat;
    ConvertLattice(raw, &clat);
    const MinimumBayesRisk mbr(clat);
    MinimumBayesRiskOptions map_opts;
    map_opts.decode_mbr = false;
    const MinimumBayesRisk map(clat, map_opts);
    CHECK(mbr.GetBayesRisk() <= map.GetBayesRisk() + 1e-4);
    CHECK(mbr.GetBayesRisk() >= 0.0f);
    for (const Bin &bin : mbr.GetSausageStats()) {
      double sum = 0;
      for (size_t j = 0; j < bin.size(); ++j) {
        sum += bin[j].second;
        if (j > 0) CHECK(bin[j - 1].second >= bin[j].second);
      }
      CHECK(sum == Approx(1.0).margin(1e-4));
    }
    // Each MBR word is the most likely word of its bin.
    const std::vector<float> &conf = mbr.GetOneBestConfidences();
    REQUIRE(conf.size() == mbr.GetOneBest().size());
    size_t k = 0;
    for (const Bin &bin : mbr.GetSausageStats()) {
      if (bin[0].first == 0) continue;
      CHECK(mbr.GetOneBest()[k] == bin[0].first);
      CHECK(conf[k] == bin[0].second);
      ++k;
    }
    CHECK(k == mbr.GetOneBest().size());
  }
}

}  // namespace
}  // namespace nnet3
