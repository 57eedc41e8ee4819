// Factor, ConvertLattice (both directions, invert, precisions, tropical),
// ScaleLattice and the alignment helpers, GetLinearSymbolSequence: on small
// hand-made lattices with the expected results written out, and on random
// acyclic lattices, whose paths (labels and weights) every conversion must
// keep.
#include <fst/fstlib.h>

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "fstext/factor.h"
#include "fstext/lattice-convert.h"
#include "fstext/lattice-scale.h"
#include "fstext/linear-symbol-sequence.h"
#include "lat/kaldi-lattice.h"

namespace nnet3 {
namespace {

using LW = LatticeWeight;
using CLW = CompactLatticeWeight;
using Path = std::tuple<std::vector<int>, std::vector<int>, std::string>;

std::string Text(const LW &w) {
  std::ostringstream os;
  os << w;
  return os.str();
}

bool SameArc(const LatticeArc &a, const LatticeArc &b) {
  return a.ilabel == b.ilabel && a.olabel == b.olabel && a.weight == b.weight &&
         a.nextstate == b.nextstate;
}

// Every path of an acyclic lattice: input labels, output labels (no
// epsilons), total weight as text.
void CollectPaths(const Lattice &lat, int s, std::vector<int> in,
                  std::vector<int> out, LW w, std::multiset<Path> *paths) {
  if (lat.Final(s) != LW::Zero())
    paths->insert(Path(in, out, Text(Times(w, lat.Final(s)))));
  for (fst::ArcIterator<Lattice> aiter(lat, s); !aiter.Done(); aiter.Next()) {
    const LatticeArc &arc = aiter.Value();
    std::vector<int> in2 = in, out2 = out;
    if (arc.ilabel != 0) in2.push_back(arc.ilabel);
    if (arc.olabel != 0) out2.push_back(arc.olabel);
    CollectPaths(lat, arc.nextstate, in2, out2, Times(w, arc.weight), paths);
  }
}

std::multiset<Path> Paths(const Lattice &lat) {
  std::multiset<Path> paths;
  if (lat.Start() != fst::kNoStateId)
    CollectPaths(lat, lat.Start(), {}, {}, LW::One(), &paths);
  return paths;
}

// A random acyclic lattice: arcs only go to higher states, many with
// epsilon output labels (so that chains form), costs multiples of 1/4.
Lattice RandomLattice(std::mt19937 *rng) {
  std::uniform_int_distribution<int> num_states(2, 7), label(0, 4), cost(0, 8),
      coin(0, 2);
  Lattice lat;
  const int n = num_states(*rng);
  for (int i = 0; i < n; ++i) lat.AddState();
  lat.SetStart(0);
  for (int s = 0; s + 1 < n; ++s) {
    const int num_arcs = 1 + coin(*rng) / 2;
    for (int a = 0; a < num_arcs; ++a) {
      std::uniform_int_distribution<int> next(s + 1, n - 1);
      const int olabel = coin(*rng) == 0 ? 10 + label(*rng) : 0;
      lat.AddArc(s, LatticeArc(label(*rng), olabel,
                               LW(cost(*rng) * 0.25f, cost(*rng) * 0.25f),
                               next(*rng)));
    }
  }
  lat.SetFinal(n - 1, LW(0.5, 0));
  if (coin(*rng) == 0) lat.SetFinal(n / 2, LW(1, 0.25));
  return lat;
}

// 0 -(1:7)-> 1 -(2:0)-> 2 -(3:0)-> 3 (final), and 0 -(4:8)-> 3.
Lattice ChainLattice() {
  Lattice lat;
  for (int i = 0; i < 4; ++i) lat.AddState();
  lat.SetStart(0);
  lat.AddArc(0, LatticeArc(1, 7, LW(1, 0.5), 1));
  lat.AddArc(1, LatticeArc(2, 0, LW(0, 0.25), 2));
  lat.AddArc(2, LatticeArc(3, 0, LW(0, 0.25), 3));
  lat.AddArc(0, LatticeArc(4, 8, LW(2, 2), 3));
  lat.SetFinal(3, LW(0.5, 0));
  return lat;
}

TEST_CASE("Factor folds chains into label sequences", "[fstext]") {
  Lattice factored;
  std::vector<std::vector<int32_t>> sequences;
  Factor(ChainLattice(), &factored, &sequences);
  REQUIRE(sequences.size() == 3);
  CHECK(sequences[0].empty());
  CHECK(sequences[1] == std::vector<int32_t>{1, 2, 3});
  CHECK(sequences[2] == std::vector<int32_t>{4});
  REQUIRE(factored.NumStates() == 2);
  REQUIRE(factored.NumArcs(0) == 2);
  fst::ArcIterator<Lattice> aiter(factored, 0);
  CHECK(aiter.Value().ilabel == 1);
  CHECK(aiter.Value().olabel == 7);
  CHECK(aiter.Value().weight == LW(1, 1));
  CHECK(aiter.Value().nextstate == 1);
  CHECK(factored.Final(1) == LW(0.5, 0));
}

TEST_CASE("ConvertLattice between Lattice and CompactLattice", "[fstext]") {
  CompactLattice clat;
  ConvertLattice(ChainLattice(), &clat);
  REQUIRE(clat.NumStates() == 2);
  fst::ArcIterator<CompactLattice> aiter(clat, 0);
  CHECK(aiter.Value().ilabel == 7);
  CHECK(aiter.Value().olabel == 7);
  CHECK(aiter.Value().weight == CLW(LW(1, 1), {1, 2, 3}));
  aiter.Next();
  CHECK(aiter.Value().weight == CLW(LW(2, 2), {4}));
  CHECK(clat.Final(1) == CLW(LW(0.5, 0), {}));
  // invert = false: the output labels become the strings.
  CompactLattice by_words;
  ConvertLattice(ChainLattice(), &by_words, /*invert=*/false);
  fst::ArcIterator<CompactLattice> witer(by_words, by_words.Start());
  CHECK(witer.Value().ilabel == 1);
  CHECK(witer.Value().weight.String() == std::vector<int32_t>{7});
  // Back: the arc's string becomes a chain, weight on the first arc.
  Lattice back;
  ConvertLattice(clat, &back);
  CHECK(Paths(back) == Paths(ChainLattice()));
  REQUIRE(back.NumStates() == 4);
  fst::ArcIterator<Lattice> biter(back, 0);
  CHECK(SameArc(biter.Value(), LatticeArc(1, 7, LW(1, 1), 2)));
  // A final weight with a string becomes a chain to a new final state.
  CompactLattice final_string;
  final_string.AddState();
  final_string.SetStart(0);
  final_string.SetFinal(0, CLW(LW(1, 2), {5, 6}));
  ConvertLattice(final_string, &back);
  REQUIRE(back.NumStates() == 3);
  CHECK(SameArc(fst::ArcIterator<Lattice>(back, 0).Value(),
                LatticeArc(5, 0, LW(1, 2), 1)));
  CHECK(SameArc(fst::ArcIterator<Lattice>(back, 1).Value(),
                LatticeArc(6, 0, LW::One(), 2)));
  CHECK(back.Final(2) == LW::One());
}

TEST_CASE("Conversions keep every path of random lattices", "[fstext]") {
  INFO("seed 2911");
  std::mt19937 rng(2911);
  for (int i = 0; i < 300; ++i) {
    const Lattice lat = RandomLattice(&rng);
    const std::multiset<Path> paths = Paths(lat);
    CompactLattice clat;
    ConvertLattice(lat, &clat);
    CHECK(clat.Properties(fst::kTopSorted, true) == fst::kTopSorted);
    Lattice back;
    ConvertLattice(clat, &back);
    REQUIRE(Paths(back) == paths);
    fst::VectorFst<fst::ArcTpl<LatticeWeightTpl<double>>> lat8;
    ConvertLattice(lat, &lat8);
    Lattice lat4;
    ConvertLattice(lat8, &lat4);
    REQUIRE(fst::Equal(lat4, lat));
  }
}

TEST_CASE("ConvertLattice to and from the tropical semiring", "[fstext]") {
  fst::StdVectorFst tropical;
  ConvertLattice(ChainLattice(), &tropical);
  fst::ArcIterator<fst::StdVectorFst> aiter(tropical, 0);
  CHECK(aiter.Value().weight == fst::TropicalWeight(1.5));
  Lattice lat;
  ConvertFstToLattice(tropical, &lat);
  CHECK(fst::ArcIterator<Lattice>(lat, 0).Value().weight == LW(1.5, 0));
  CHECK(lat.Final(3) == LW(0.5, 0));
  CHECK(lat.Final(0) == LW::Zero());
}

TEST_CASE("ScaleLattice and the alignment helpers", "[fstext]") {
  Lattice lat = ChainLattice();
  ScaleLattice(LatticeScale(2, 0.5), &lat);
  CHECK(fst::ArcIterator<Lattice>(lat, 0).Value().weight == LW(2, 0.25));
  CHECK(lat.Final(3) == LW(1, 0));
  CHECK(lat.Final(0) == LW::Zero());
  ScaleLattice(DefaultLatticeScale(), &lat);
  CHECK(fst::ArcIterator<Lattice>(lat, 0).Value().weight == LW(2, 0.25));
  ScaleLattice(std::vector<std::vector<double>>{{0, 1}, {1, 0}}, &lat);
  CHECK(fst::ArcIterator<Lattice>(lat, 0).Value().weight == LW(0.25, 2));
  // Rows give the new costs: graph <- graph + 0.5 * acoustic.
  ScaleLattice(std::vector<std::vector<double>>{{1, 0.5}, {0, 1}}, &lat);
  CHECK(fst::ArcIterator<Lattice>(lat, 0).Value().weight == LW(1.25, 2));
  CHECK(AcousticLatticeScale(0.1) == LatticeScale(1, 0.1));
  CHECK(GraphLatticeScale(3) == LatticeScale(3, 1));

  CompactLattice clat;
  ConvertLattice(ChainLattice(), &clat);
  ScaleLattice(AcousticLatticeScale(4), &clat);
  CHECK(fst::ArcIterator<CompactLattice>(clat, 0).Value().weight ==
        CLW(LW(1, 4), {1, 2, 3}));
  CHECK(CompactLatticeHasAlignment(clat));
  RemoveAlignmentsFromCompactLattice(&clat);
  CHECK_FALSE(CompactLatticeHasAlignment(clat));
  CHECK(fst::ArcIterator<CompactLattice>(clat, 0).Value().weight ==
        CLW(LW(1, 4), {}));
  CHECK(clat.Final(1) == CLW(LW(0.5, 0), {}));
}

TEST_CASE("GetLinearSymbolSequence", "[fstext]") {
  Lattice best;
  fst::ShortestPath(ChainLattice(), &best);
  std::vector<int32_t> alignment, words;
  LW weight;
  REQUIRE(GetLinearSymbolSequence(best, &alignment, &words, &weight));
  CHECK(alignment == std::vector<int32_t>{1, 2, 3});
  CHECK(words == std::vector<int32_t>{7});
  CHECK(weight == LW(1.5, 1));
  // Epsilons are left out: 0 -(0:9)-> 1 -(4:0)-> 2.
  Lattice linear;
  for (int i = 0; i < 3; ++i) linear.AddState();
  linear.SetStart(0);
  linear.AddArc(0, LatticeArc(0, 9, LW(1, 0), 1));
  linear.AddArc(1, LatticeArc(4, 0, LW(0, 2), 2));
  linear.SetFinal(2, LW(0.5, 0.5));
  REQUIRE(GetLinearSymbolSequence(linear, &alignment, &words, &weight));
  CHECK(alignment == std::vector<int32_t>{4});
  CHECK(words == std::vector<int32_t>{9});
  CHECK(weight == LW(1.5, 2.5));
  // Not a single path.
  CHECK_FALSE(
      GetLinearSymbolSequence(ChainLattice(), &alignment, &words, &weight));
  // A cycle without a final state.
  Lattice cycle;
  cycle.AddState();
  cycle.SetStart(0);
  cycle.AddArc(0, LatticeArc(1, 1, LW::One(), 0));
  CHECK_FALSE(GetLinearSymbolSequence(cycle, &alignment, &words, &weight));
  // Empty: empty sequences, weight Zero.
  Lattice empty;
  REQUIRE(GetLinearSymbolSequence<LatticeArc, int32_t>(empty, &alignment,
                                                       nullptr, &weight));
  CHECK(alignment.empty());
  CHECK(weight == LW::Zero());
}

}  // namespace
}  // namespace nnet3
