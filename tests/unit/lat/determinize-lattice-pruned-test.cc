// Pruned lattice determinization on random raw lattices (fixed, printed
// seeds), checked against the input's paths enumerated one by one: the
// output is deterministic on words and epsilon-free; every word sequence
// whose best path is within the beam is there with that path's alignment
// and costs; every word sequence there has the alignment and costs of an
// input path (its best one, for word determinization alone); every arc of
// the output is on an output path within the beam; with minimization the
// result is equivalent and no larger. Also the string and weight pushing.
#include "lat/determinize-lattice-pruned.h"

#include <fst/arcsort.h>
#include <fst/connect.h>
#include <fst/invert.h>
#include <fst/topsort.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>

#include "base/error.h"
#include "base/io-funcs.h"
#include "lat/determinize-lattice-phone-pruned.h"
#include "lat/minimize-lattice.h"
#include "lat/push-lattice.h"
#include "lattice-test-utils.h"

namespace nnet3 {
namespace {

constexpr double kTolerance = 1e-4;

TransitionModel ReadHmmModel() {
  std::ifstream is(std::string(NNET3_TEST_DATA) + "/train/hmm.mdl",
                   std::ios::binary);
  REQUIRE(is.good());
  bool binary = false;
  REQUIRE(InitKaldiInputStream(is, &binary));
  TransitionModel tm;
  tm.Read(is, binary);
  return tm;
}

bool SameWeight(const LatticeWeight &a, const LatticeWeight &b) {
  return std::fabs(a.Value1() - b.Value1()) <= kTolerance &&
         std::fabs(a.Value2() - b.Value2()) <= kTolerance;
}

// No state has two arcs with the same word, and no arc has epsilon.
void CheckDeterministic(const CompactLattice &clat) {
  for (int32_t s = 0; s < clat.NumStates(); s++) {
    std::set<int32_t> labels;
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next()) {
      const CompactLatticeArc &arc = aiter.Value();
      CHECK(arc.ilabel != 0);
      CHECK(arc.ilabel == arc.olabel);
      CHECK(labels.insert(arc.ilabel).second);
    }
  }
}

// Every arc and final weight of `clat` is on a path that costs at most
// best + beam.
void CheckWithinBeam(const CompactLattice &clat, double beam) {
  const int32_t n = clat.NumStates();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> forward(n, inf), backward(n, inf);
  REQUIRE(clat.Properties(fst::kTopSorted, true));
  forward[clat.Start()] = 0;
  for (int32_t s = 0; s < n; s++)
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next())
      forward[aiter.Value().nextstate] =
          std::min(forward[aiter.Value().nextstate],
                   forward[s] + ConvertToCost(aiter.Value().weight));
  for (int32_t s = n - 1; s >= 0; s--) {
    backward[s] = ConvertToCost(clat.Final(s));
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next())
      backward[s] =
          std::min(backward[s], ConvertToCost(aiter.Value().weight) +
                                    backward[aiter.Value().nextstate]);
  }
  const double cutoff = backward[clat.Start()] + beam + 1e-3;
  for (int32_t s = 0; s < n; s++) {
    if (clat.Final(s) != CompactLatticeWeight::Zero())
      CHECK(forward[s] + ConvertToCost(clat.Final(s)) <= cutoff);
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next())
      CHECK(forward[s] + ConvertToCost(aiter.Value().weight) +
                backward[aiter.Value().nextstate] <=
            cutoff);
  }
}

// The checks of the file comment. exact_best: every output word sequence
// has its input-best path (word determinization alone; after a phone pass
// a sequence outside the beam may keep a worse path).
void CheckDeterminized(const Lattice &raw, const CompactLattice &det_in,
                       double beam, bool exact_best) {
  CompactLattice det(det_in);
  fst::Connect(&det);
  fst::TopSort(&det);
  CheckDeterministic(det);
  CHECK(BestCost(det) == Approx(BestCost(raw)).margin(kTolerance));
  const auto in = BestPathsByWords(raw, false);
  const auto out = BestPathsByWords(det);
  const auto all = AllPaths(raw, false);
  const double best = BestCost(raw);
  for (const auto &kv : in) {
    if (ConvertToCost(kv.second.weight) > best + beam - 1e-3) continue;
    auto it = out.find(kv.first);
    REQUIRE(it != out.end());
    CHECK(it->second.tids == kv.second.tids);
    CHECK(SameWeight(it->second.weight, kv.second.weight));
  }
  for (const auto &kv : out) {
    auto it = all.find({kv.first, kv.second.tids});
    REQUIRE(it != all.end());
    CHECK(SameWeight(it->second, kv.second.weight));
    if (exact_best) {
      CHECK(kv.second.tids == in.at(kv.first).tids);
      CHECK(SameWeight(kv.second.weight, in.at(kv.first).weight));
    }
  }
  CheckWithinBeam(det, beam);
}

RandomLatticeOptions OptionsForSeed(std::mt19937 *rng) {
  RandomLatticeOptions opts;
  opts.num_states = std::uniform_int_distribution<int>(2, 14)(*rng);
  opts.max_arcs_per_state = std::uniform_int_distribution<int>(1, 3)(*rng);
  opts.num_words = std::uniform_int_distribution<int>(1, 5)(*rng);
  return opts;
}

double BeamForSeed(std::mt19937 *rng) {
  const double beams[] = {0.5, 2.0, 4.0, 8.0, 100.0};
  return beams[std::uniform_int_distribution<int>(0, 4)(*rng)];
}

TEST_CASE(
    "DeterminizeLatticePruned keeps the best path of each word "
    "sequence within the beam") {
  for (int seed = 1; seed <= 300; seed++) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const Lattice raw = RandomRawLattice(OptionsForSeed(&rng), &rng);
    const double beam = BeamForSeed(&rng);
    CAPTURE(beam);
    Lattice words_in(raw);
    fst::Invert(&words_in);
    if (seed % 2 == 0)
      fst::ArcSort(&words_in, fst::ILabelCompare<LatticeArc>());
    CompactLattice det;
    CHECK(DeterminizeLatticePruned(words_in, beam, &det));
    CheckDeterminized(raw, det, beam, true);

    // The Lattice form holds the same paths.
    Lattice det_lattice;
    CHECK(DeterminizeLatticePruned(words_in, beam, &det_lattice));
    const auto compact_paths = BestPathsByWords(det);
    const auto lattice_paths = BestPathsByWords(det_lattice, true);
    REQUIRE(compact_paths.size() == lattice_paths.size());
    for (const auto &kv : compact_paths) {
      CHECK(lattice_paths.at(kv.first).tids == kv.second.tids);
      CHECK(SameWeight(lattice_paths.at(kv.first).weight, kv.second.weight));
    }
  }
}

TEST_CASE(
    "DeterminizeLatticePhonePrunedWrapper keeps the best path of each "
    "word sequence within the beam") {
  const TransitionModel tm = ReadHmmModel();
  int num_pruned = 0;
  for (int seed = 1; seed <= 300; seed++) {
    CAPTURE(seed);
    std::mt19937 rng(1000 + seed);
    RandomLatticeOptions lat_opts = OptionsForSeed(&rng);
    lat_opts.num_transition_ids = tm.NumTransitionIds();
    const Lattice raw = RandomRawLattice(lat_opts, &rng);
    const double beam = BeamForSeed(&rng);
    CAPTURE(beam);
    Lattice copy(raw);
    CompactLattice det;
    DeterminizeLatticePhonePrunedOptions opts;
    CHECK(DeterminizeLatticePhonePrunedWrapper(tm, &copy, beam, &det, opts));
    CheckDeterminized(raw, det, beam, false);
    if (BestPathsByWords(det).size() < BestPathsByWords(raw, false).size())
      num_pruned++;
  }
  // The beams are small enough to prune in many cases.
  CHECK(num_pruned > 50);
}

TEST_CASE(
    "Minimizing after determinization keeps the paths and does not "
    "grow the lattice") {
  const TransitionModel tm = ReadHmmModel();
  int num_smaller = 0;
  for (int seed = 1; seed <= 200; seed++) {
    CAPTURE(seed);
    std::mt19937 rng(5000 + seed);
    RandomLatticeOptions lat_opts = OptionsForSeed(&rng);
    lat_opts.num_transition_ids = tm.NumTransitionIds();
    lat_opts.num_states += 6;
    const Lattice raw = RandomRawLattice(lat_opts, &rng);
    DeterminizeLatticePhonePrunedOptions opts;
    CompactLattice det, min;
    Lattice copy1(raw), copy2(raw);
    DeterminizeLatticePhonePrunedWrapper(tm, &copy1, 100.0, &det, opts);
    opts.minimize = true;
    DeterminizeLatticePhonePrunedWrapper(tm, &copy2, 100.0, &min, opts);
    fst::Connect(&det);
    CheckDeterministic(min);
    CHECK(min.NumStates() <= det.NumStates());
    if (min.NumStates() < det.NumStates()) num_smaller++;
    const auto a = BestPathsByWords(det), b = BestPathsByWords(min);
    REQUIRE(a.size() == b.size());
    for (const auto &kv : a) {
      CHECK(b.at(kv.first).tids == kv.second.tids);
      CHECK(SameWeight(b.at(kv.first).weight, kv.second.weight));
    }
  }
  CHECK(num_smaller > 20);
}

TEST_CASE("Pushing strings and weights keeps every path") {
  const TransitionModel tm = ReadHmmModel();
  for (int seed = 1; seed <= 100; seed++) {
    CAPTURE(seed);
    std::mt19937 rng(9000 + seed);
    RandomLatticeOptions lat_opts = OptionsForSeed(&rng);
    lat_opts.num_transition_ids = tm.NumTransitionIds();
    Lattice raw = RandomRawLattice(lat_opts, &rng);
    CompactLattice det;
    DeterminizeLatticePhonePrunedWrapper(tm, &raw, 100.0, &det);
    fst::Connect(&det);
    CompactLattice pushed(det);
    REQUIRE(PushCompactLatticeStrings(&pushed));
    REQUIRE(PushCompactLatticeWeights(&pushed));
    const auto a = BestPathsByWords(det), b = BestPathsByWords(pushed);
    REQUIRE(a.size() == b.size());
    for (const auto &kv : a) {
      CHECK(b.at(kv.first).tids == kv.second.tids);
      CHECK(ConvertToCost(b.at(kv.first).weight) ==
            Approx(ConvertToCost(kv.second.weight)).margin(kTolerance));
    }
    // After weight pushing the best way to the end costs nothing, except
    // from the start state, which keeps the total.
    for (int32_t s = 0; s < pushed.NumStates(); s++) {
      if (s == pushed.Start()) continue;
      double best = ConvertToCost(pushed.Final(s));
      for (fst::ArcIterator<CompactLattice> aiter(pushed, s); !aiter.Done();
           aiter.Next())
        best = std::min(best, ConvertToCost(aiter.Value().weight));
      CHECK(best == Approx(0.0).margin(kTolerance));
    }
  }
}

TEST_CASE("Determinization rejects lattices with cycles or out of order") {
  // 0 -> 2 -> 1 -> final: acyclic but not topologically sorted.
  Lattice unsorted;
  for (int i = 0; i < 3; i++) unsorted.AddState();
  unsorted.SetStart(0);
  unsorted.AddArc(0, LatticeArc(1, 1, LatticeWeight(1, 1), 2));
  unsorted.AddArc(2, LatticeArc(2, 0, LatticeWeight(1, 1), 1));
  unsorted.SetFinal(1, LatticeWeight::One());
  CompactLattice clat;
  CHECK_THROWS_AS(DeterminizeLatticePruned(unsorted, 10.0, &clat), UserError);
  // The wrapper sorts it; with a cycle it cannot.
  const TransitionModel tm = ReadHmmModel();
  Lattice lat(unsorted);
  CHECK(DeterminizeLatticePhonePrunedWrapper(tm, &lat, 10.0, &clat));
  CHECK(BestPathsByWords(clat).size() == 1);
  Lattice cyclic(unsorted);
  cyclic.AddArc(1, LatticeArc(3, 0, LatticeWeight(1, 1), 2));
  CHECK_THROWS_AS(
      DeterminizeLatticePhonePrunedWrapper(tm, &cyclic, 10.0, &clat),
      UserError);
  // A transition-id the model does not have (not out of the start state,
  // whose arcs get no phones).
  Lattice bad_tid(unsorted);
  bad_tid.AddArc(2, LatticeArc(99, 0, LatticeWeight(1, 1), 1));
  CHECK_THROWS_AS(
      DeterminizeLatticePhonePrunedWrapper(tm, &bad_tid, 10.0, &clat),
      UserError);
}

}  // namespace
}  // namespace nnet3
