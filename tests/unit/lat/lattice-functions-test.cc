// LatticeStateTimes, CompactLatticeStateTimes, the TopSort helpers,
// PruneLattice and CompactLatticeShortestPath on small hand-made lattices
// whose answers are worked out in the comments, plus random lattices for
// the best path (checked against OpenFst's ShortestPath).
#include <fst/fstlib.h>

#include <catch2/catch.hpp>
#include <random>
#include <vector>

#include "../util/util-test-common.h"
#include "fstext/lattice-convert.h"
#include "lat/kaldi-lattice.h"
#include "lat/lattice-best-path.h"
#include "lat/lattice-state-times.h"
#include "lat/prune-lattice.h"

namespace nnet3 {
namespace {

using test::ExpectUserError;
using LW = LatticeWeight;
using CLW = CompactLatticeWeight;

// Three paths from 0 to the final state 5 (final weight (0.5, 0)):
//   a: 0 -1-> 1 -2-> 2 -7-> 5    (1,2)+(0.5,1)+(0,0)+(0.5,0) = (2,3)    5
//   b: 0 -3-> 3 -4-> 4 -5-> 5    (2,0.5)+(0,0.5)+(0,0)+(0.5,0) = (2.5,1) 3.5
//   c: 0 -1-> 1 -6-> 4 -5-> 5    (1,2)+(0.5,0)+(0,0)+(0.5,0) = (2,2)    4
// Every arc has a transition-id, so the state times are 0 1 2 1 2 3.
Lattice ThreePathLattice() {
  Lattice lat;
  for (int i = 0; i < 6; ++i) lat.AddState();
  lat.SetStart(0);
  lat.AddArc(0, LatticeArc(1, 10, LW(1, 2), 1));
  lat.AddArc(0, LatticeArc(3, 11, LW(2, 0.5), 3));
  lat.AddArc(1, LatticeArc(2, 0, LW(0.5, 1), 2));
  lat.AddArc(1, LatticeArc(6, 0, LW(0.5, 0), 4));
  lat.AddArc(2, LatticeArc(7, 12, LW::One(), 5));  // frame 3
  lat.AddArc(3, LatticeArc(4, 0, LW(0, 0.5), 4));
  lat.AddArc(4, LatticeArc(5, 0, LW::One(), 5));
  lat.SetFinal(5, LW(0.5, 0));
  return lat;
}

TEST_CASE("LatticeStateTimes", "[lat]") {
  std::vector<int32_t> times;
  CHECK(LatticeStateTimes(ThreePathLattice(), &times) == 3);
  CHECK(times == std::vector<int32_t>{0, 1, 2, 1, 2, 3});
  // An epsilon input label does not advance the frame.
  Lattice lat = ThreePathLattice();
  lat.AddArc(5, LatticeArc(0, 13, LW::One(), 5));  // self-loop: not sorted
  ExpectUserError([&] { LatticeStateTimes(lat, &times); },
                  {"not topologically sorted"});
  Lattice eps = ThreePathLattice();
  fst::MutableArcIterator<Lattice> aiter(&eps, 2);
  LatticeArc arc = aiter.Value();
  arc.ilabel = 0;  // path a now reaches 5 at frame 2, path b at 3
  aiter.SetValue(arc);
  ExpectUserError([&] { LatticeStateTimes(eps, &times); },
                  {"reaches state 5 at frames 2 and 3"});
  Lattice empty;
  CHECK(LatticeStateTimes(empty, &times) == 0);
  CHECK(times.empty());
}

TEST_CASE("CompactLatticeStateTimes", "[lat]") {
  CompactLattice clat;
  ConvertLattice(ThreePathLattice(), &clat);
  std::vector<int32_t> times;
  CHECK(CompactLatticeStateTimes(clat, &times) == 3);
  // A final weight's string counts too.
  CompactLattice one;
  one.AddState();
  one.AddState();
  one.SetStart(0);
  one.AddArc(0, CompactLatticeArc(4, 4, CLW(LW(1, 1), {1, 2}), 1));
  one.SetFinal(1, CLW(LW::One(), {3, 3, 3}));
  CHECK(CompactLatticeStateTimes(one, &times) == 5);
  CHECK(times == std::vector<int32_t>{0, 2});
  one.SetFinal(1, CLW::Zero());
  CHECK(CompactLatticeStateTimes(one, &times) == 0);  // warns: no final
}

TEST_CASE("TopSort helpers", "[lat]") {
  // States numbered backwards: 2 -> 1 -> 0.
  Lattice lat;
  for (int i = 0; i < 3; ++i) lat.AddState();
  lat.SetStart(2);
  lat.AddArc(2, LatticeArc(1, 1, LW::One(), 1));
  lat.AddArc(1, LatticeArc(2, 2, LW::One(), 0));
  lat.SetFinal(0, LW::One());
  TopSortLatticeIfNeeded(&lat);
  CHECK(lat.Start() == 0);
  CHECK(lat.Final(2) == LW::One());
  lat.AddArc(2, LatticeArc(3, 3, LW::One(), 0));
  ExpectUserError([&] { TopSortLatticeIfNeeded(&lat); }, {"cycles"});
  CompactLattice clat;
  clat.AddState();
  clat.SetStart(0);
  clat.AddArc(0, CompactLatticeArc(1, 1, CLW::One(), 0));
  ExpectUserError([&] { TopSortCompactLatticeIfNeeded(&clat); }, {"cycles"});
}

TEST_CASE("PruneLattice", "[lat]") {
  // Totals: b 3.5 (best), c 4, a 5.
  Lattice lat = ThreePathLattice();
  REQUIRE(PruneLattice(0.75f, &lat));  // keeps b and c (4 <= 4.25)
  std::vector<LW> distance;
  fst::ShortestDistance(lat, &distance, true);
  CHECK(distance[lat.Start()] == LW(2.5, 1));
  CHECK(lat.NumStates() == 5);  // state 2 (only on path a) is gone
  CHECK(lat.NumArcs(lat.Start()) == 2);
  lat = ThreePathLattice();
  REQUIRE(PruneLattice(0.25f, &lat));  // only b
  CHECK(lat.NumStates() == 4);
  CHECK(lat.NumArcs(lat.Start()) == 1);
  lat = ThreePathLattice();
  REQUIRE(PruneLattice(10.0f, &lat));
  CHECK(lat.NumStates() == 6);
  CompactLattice clat;
  ConvertLattice(ThreePathLattice(), &clat);
  REQUIRE(PruneLattice(0.25f, &clat));
  CHECK(clat.NumArcs(clat.Start()) == 1);
  Lattice empty;
  CHECK_FALSE(PruneLattice(1.0f, &empty));
}

TEST_CASE("CompactLatticeShortestPath", "[lat]") {
  CompactLattice clat;
  ConvertLattice(ThreePathLattice(), &clat);
  CompactLattice best;
  CompactLatticeShortestPath(clat, &best);
  Lattice best_lat;
  ConvertLattice(best, &best_lat);
  std::vector<LW> distance;
  fst::ShortestDistance(best_lat, &distance, true);
  CHECK(distance[best_lat.Start()] == LW(2.5, 1));
  // Path b: state 3 folds into the first arc (string 3_4), then 4 -> 5.
  REQUIRE(best.NumStates() == 3);
  CHECK(fst::ArcIterator<CompactLattice>(best, 0).Value().ilabel == 11);

  // Between the same two states the cheapest of parallel arcs is taken.
  CompactLattice parallel;
  parallel.AddState();
  parallel.AddState();
  parallel.SetStart(0);
  parallel.AddArc(0, CompactLatticeArc(5, 5, CLW(LW(2, 2), {1}), 1));
  parallel.AddArc(0, CompactLatticeArc(6, 6, CLW(LW(1, 1), {2}), 1));
  parallel.AddArc(0, CompactLatticeArc(7, 7, CLW(LW(3, 0), {3}), 1));
  parallel.SetFinal(1, CLW::One());
  CompactLatticeShortestPath(parallel, &best);
  REQUIRE(best.NumStates() == 2);
  CHECK(fst::ArcIterator<CompactLattice>(best, 0).Value().ilabel == 6);

  INFO("seed 2921");
  std::mt19937 rng(2921);
  std::uniform_int_distribution<int> cost(0, 40), label(1, 5);
  for (int i = 0; i < 100; ++i) {
    // A random acyclic lattice with distinct-enough costs.
    Lattice lat;
    const int n = 6;
    for (int s = 0; s < n; ++s) lat.AddState();
    lat.SetStart(0);
    for (int s = 0; s + 1 < n; ++s)
      for (int t = s + 1; t < n; ++t)
        if (cost(rng) < 25)
          lat.AddArc(s,
                     LatticeArc(label(rng), label(rng),
                                LW(cost(rng) * 0.125f, cost(rng) * 0.5f), t));
    lat.SetFinal(n - 1, LW::One());
    CompactLattice c, path;
    ConvertLattice(lat, &c);
    CompactLatticeShortestPath(c, &path);
    Lattice reference;
    fst::ShortestPath(lat, &reference);
    std::vector<LW> d1, d2;
    fst::ShortestDistance(reference, &d1, true);
    Lattice path_lat;
    ConvertLattice(path, &path_lat);
    fst::ShortestDistance(path_lat, &d2, true);
    const LW w1 = reference.Start() < 0 ? LW::Zero() : d1[reference.Start()];
    const LW w2 = path_lat.Start() < 0 ? LW::Zero() : d2[path_lat.Start()];
    INFO("lattice " << i);
    REQUIRE(ConvertToCost(w1) == ConvertToCost(w2));
  }
}

}  // namespace
}  // namespace nnet3
