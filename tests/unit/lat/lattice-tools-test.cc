// The operations of the scoring programs (lattice-scale, lattice-add-penalty,
// lattice-prune, lattice-best-path, lattice-1best, the acoustic-scores map)
// on a small compact lattice whose answers are worked out by hand below.
#include <fst/fstlib.h>

#include <catch2/catch.hpp>
#include <vector>

#include "../util/util-test-common.h"
#include "fstext/lattice-convert.h"
#include "fstext/lattice-scale.h"
#include "lat/kaldi-lattice.h"
#include "lat/lattice-acoustic-scores.h"
#include "lat/lattice-best-path.h"
#include "lat/lattice-scale-options.h"
#include "lat/prune-lattice.h"
#include "lat/word-insertion-penalty.h"

namespace nnet3 {
namespace {

using test::ExpectUserError;
using LW = LatticeWeight;
using CLW = CompactLatticeWeight;
using Words = std::vector<int32_t>;

// Three paths from 0 to 3, three frames each; final weight (0.5, 0) at 3:
//   A: 0 -w1 [1 1]-> 1 -w3 [3]-> 3   graph 1+2+0.5 = 3.5    acoustic 10+4 = 14
//   B: 0 -w2 [2 2]-> 2 -w3 [4]-> 3   graph 3+1+0.5 = 4.5    acoustic  6+2 =  8
//   C: 0 -w4 [5 5 6]-----------> 3   graph 4.75+0.5 = 5.25  acoustic 9
// Totals at acoustic scale 1: A 17.5, B 12.5 (best), C 14.25.
// At acoustic scale 0.1:      A 4.9 (best), B 5.3, C 6.15.
// At lm scale 2 (acoustic 1): A 21, B 17 (best), C 19.5.
CompactLattice Diamond() {
  CompactLattice clat;
  for (int i = 0; i < 4; ++i) clat.AddState();
  clat.SetStart(0);
  clat.AddArc(0, CompactLatticeArc(1, 1, CLW(LW(1, 10), {1, 1}), 1));
  clat.AddArc(0, CompactLatticeArc(2, 2, CLW(LW(3, 6), {2, 2}), 2));
  clat.AddArc(0, CompactLatticeArc(4, 4, CLW(LW(4.75, 9), {5, 5, 6}), 3));
  clat.AddArc(1, CompactLatticeArc(3, 3, CLW(LW(2, 4), {3}), 3));
  clat.AddArc(2, CompactLatticeArc(3, 3, CLW(LW(1, 2), {4}), 3));
  clat.SetFinal(3, CLW(LW(0.5, 0), {}));
  return clat;
}

TEST_CASE("CompactLatticeBestPath", "[lat]") {
  LatticeBestPath best;
  REQUIRE(CompactLatticeBestPath(Diamond(), 1.0, 1.0, &best));
  CHECK(best.words == (Words{2, 3}));  // B
  CHECK(best.alignment == (Words{2, 2, 4}));
  CHECK(best.weight == LW(4.5, 8));
  REQUIRE(CompactLatticeBestPath(Diamond(), 1.0, 0.1, &best));
  CHECK(best.words == (Words{1, 3}));  // A
  CHECK(best.alignment == (Words{1, 1, 3}));
  CHECK(best.weight.Value1() == Approx(3.5));
  CHECK(best.weight.Value2() == Approx(1.4));  // the scaled cost
  REQUIRE(CompactLatticeBestPath(Diamond(), 2.0, 1.0, &best));
  CHECK(best.words == (Words{2, 3}));
  CHECK(best.weight == LW(9, 8));
  CHECK_FALSE(CompactLatticeBestPath(CompactLattice(), 1.0, 1.0, &best));
}

TEST_CASE("AddWordInsPenToCompactLattice", "[lat]") {
  // Penalty 2 per word at acoustic scale 0.1: A 4.9+4 = 8.9, B 5.3+4 = 9.3,
  // C (one word) 6.15+2 = 8.15: C wins; with 1 per word A (6.9) stays.
  CompactLattice clat = Diamond();
  AddWordInsPenToCompactLattice(2.0f, &clat);
  CHECK(fst::ArcIterator<CompactLattice>(clat, 0).Value().weight.Weight() ==
        LW(3, 10));
  CHECK(clat.Final(3).Weight() == LW(0.5, 0));  // final weights untouched
  LatticeBestPath best;
  REQUIRE(CompactLatticeBestPath(clat, 1.0, 0.1, &best));
  CHECK(best.words == (Words{4}));
  clat = Diamond();
  AddWordInsPenToCompactLattice(1.0f, &clat);
  REQUIRE(CompactLatticeBestPath(clat, 1.0, 0.1, &best));
  CHECK(best.words == (Words{1, 3}));
  // An arc without a word gets no penalty.
  CompactLattice eps;
  eps.AddState();
  eps.AddState();
  eps.SetStart(0);
  eps.AddArc(0, CompactLatticeArc(0, 0, CLW(LW(1, 1), {7}), 1));
  eps.SetFinal(1, CLW::One());
  AddWordInsPenToCompactLattice(5.0f, &eps);
  CHECK(fst::ArcIterator<CompactLattice>(eps, 0).Value().weight.Weight() ==
        LW(1, 1));
}

TEST_CASE("CompactLatticeOneBest", "[lat]") {
  CompactLattice best;
  REQUIRE(CompactLatticeOneBest(Diamond(), 1.0f, 0.1f, 0.0f, &best));
  // Path A at the input's scale (acoustic back to 10 and 4, within float
  // rounding of the scaling there and back).
  REQUIRE(best.NumStates() == 3);
  const CompactLatticeArc first =
      fst::ArcIterator<CompactLattice>(best, 0).Value();
  CHECK(first.ilabel == 1);
  CHECK(first.weight.Weight().Value1() == 1.0f);
  CHECK(first.weight.Weight().Value2() == Approx(10.0f));
  // With the penalty, path C, its graph cost without the penalty.
  REQUIRE(CompactLatticeOneBest(Diamond(), 1.0f, 0.1f, 2.0f, &best));
  REQUIRE(best.NumStates() == 2);
  const CompactLatticeArc c = fst::ArcIterator<CompactLattice>(best, 0).Value();
  CHECK(c.ilabel == 4);
  CHECK(c.weight.Weight().Value1() == 4.75f);
  CHECK(c.weight.Weight().Value2() == Approx(9.0f));
  CHECK_FALSE(CompactLatticeOneBest(CompactLattice(), 1.0f, 1.0f, 0.0f, &best));
  ExpectUserError(
      [&] { CompactLatticeOneBest(Diamond(), 0.0f, 1.0f, 0.0f, &best); },
      {"zero acoustic or LM scale"});
}

TEST_CASE("LatticeScaleOptions", "[lat]") {
  LatticeScaleOptions opts;
  opts.inv_acoustic_scale = 7.0f;
  // 1/7 stored as a float first, as Kaldi does.
  CHECK(opts.AcousticScale() == static_cast<float>(1.0 / 7.0));
  CHECK(opts.ScaleMatrix()[1][1] != 1.0 / 7.0);
  opts.lm_scale = 0.5f;
  opts.acoustic2lm_scale = 0.25f;
  CompactLattice clat = Diamond();
  ScaleLattice(opts.ScaleMatrix(), &clat);
  // Arc 0->1 (1, 10): graph 0.5*1 + 0.25*10 = 3, acoustic 10/7.
  const LW w =
      fst::ArcIterator<CompactLattice>(clat, 0).Value().weight.Weight();
  CHECK(w.Value1() == 3.0f);
  CHECK(w.Value2() == Approx(10.0 / 7.0));
  opts.acoustic_scale = 0.1f;
  ExpectUserError([&] { opts.AcousticScale(); }, {"not both"});
}

TEST_CASE("PruneLattice on the scoring lattice", "[lat]") {
  // Beam 2 from B (12.5) keeps C (14.25) and drops A (17.5) with its state.
  CompactLattice clat = Diamond();
  REQUIRE(PruneLattice(2.0f, &clat));
  CHECK(clat.NumStates() == 3);
  CHECK(clat.NumArcs(clat.Start()) == 2);
  clat = Diamond();
  REQUIRE(PruneLattice(1.5f, &clat));  // only B
  CHECK(clat.NumStates() == 3);
  CHECK(clat.NumArcs(clat.Start()) == 1);
  // With the acoustics scaled by 0.1 (A 4.9, B 5.3, C 6.15), beam 1 keeps
  // A and B and drops C.
  clat = Diamond();
  ScaleLattice(AcousticLatticeScale(0.1), &clat);
  REQUIRE(PruneLattice(1.0f, &clat));
  CHECK(clat.NumStates() == 4);
  CHECK(clat.NumArcs(clat.Start()) == 2);
}

TEST_CASE("Acoustic scores map", "[lat]") {
  // A state-level lattice: two arcs with transition-id 7 on frame 0
  // (acoustic 1 and 3: average 2), one with 8 on frame 1.
  Lattice lat;
  for (int i = 0; i < 4; ++i) lat.AddState();
  lat.SetStart(0);
  lat.AddArc(0, LatticeArc(7, 1, LW(0.5, 1), 1));
  lat.AddArc(0, LatticeArc(7, 2, LW(0.25, 3), 2));
  lat.AddArc(1, LatticeArc(8, 0, LW(0, 4), 3));
  lat.AddArc(2, LatticeArc(8, 0, LW(0, 4), 3));
  lat.SetFinal(3, LW(1, 0));
  AcousticScoresMap scores;
  ComputeAcousticScoresMap(lat, &scores);
  REQUIRE(scores.size() == 2);
  CHECK(scores.at({0, 7}) == std::make_pair(4.0f, 2));
  CHECK(scores.at({1, 8}) == std::make_pair(8.0f, 2));
  Lattice out = lat;
  fst::MutableArcIterator<Lattice> aiter(&out, 0);
  LatticeArc arc = aiter.Value();
  arc.weight = LW(0.5, 100);  // replaced by the average
  aiter.SetValue(arc);
  out.SetFinal(3, LW(1, 5));  // final acoustic cost becomes 0
  ReplaceAcousticScoresFromMap(scores, &out);
  CHECK(fst::ArcIterator<Lattice>(out, 0).Value().weight == LW(0.5, 2));
  CHECK(out.Final(3) == LW(1, 0));
  lat.AddState();
  lat.AddArc(3, LatticeArc(0, 0, LW(0, 1), 4));  // no tid, acoustic cost 1
  lat.SetFinal(4, LW::One());
  ExpectUserError([&] { ComputeAcousticScoresMap(lat, &scores); },
                  {"out of state 3", "has acoustic cost 1"});
  AcousticScoresMap other{{{0, 9}, {1.0f, 1}}};
  ExpectUserError([&] { ReplaceAcousticScoresFromMap(other, &out); },
                  {"Transition-id 7 at frame 0"});
}

}  // namespace
}  // namespace nnet3
