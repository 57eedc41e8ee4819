// The smaller graph algorithms, on examples worked out by hand and checked
// against OpenFst where it has the same operation: RemoveEpsLocal (and its
// log-stochastic form), PushSpecial, MinimizeEncoded (fst::Minimize on
// unweighted acceptors), the symbol removals, AddDisambigSelfLoops and the
// stochasticity tests.
#include <fst/fstlib.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "../util/util-test-common.h"
#include "fst-test-common.h"
#include "fstext/disambig-self-loops.h"
#include "fstext/minimize-encoded.h"
#include "fstext/push-special.h"
#include "fstext/remove-eps-local.h"
#include "fstext/remove-symbols.h"
#include "fstext/stochastic.h"

namespace nnet3 {
namespace {

using test::ExpectUserError;
using test::FstFromText;
using test::FstToText;
using test::RandomFst;
using test::RandomFstOptions;
using test::RandomPathsEquivalent;

TEST_CASE("RemoveEpsLocal by hand", "[fstext]") {
  // The epsilon's next state has one way out: the two arcs become one.
  fst::StdVectorFst f = FstFromText("0 1 0 0 0.5\n1 2 3 4 0.25\n2\n");
  RemoveEpsLocal(&f);
  CHECK(FstToText(f) == "0\t1\t3\t4\t0.75\n1\n");
  // One way in, two out: both are pulled forward and the state goes.
  f = FstFromText("0 1 0 0 1\n1 2 5 5 0.5\n1 3 6 6 0.25\n2\n3\n");
  RemoveEpsLocal(&f);
  CHECK(FstToText(f) == "0\t1\t5\t5\t1.5\n0\t2\t6\t6\t1.25\n1\n2\n");
  // The second arc cannot be joined (two output labels): it stays, the
  // first is pulled forward; tropical reweighting by min(kept)/min(all).
  const fst::StdVectorFst in =
      FstFromText("0 1 0 7 1\n1 2 5 0 0.5\n1 3 6 8 0.25\n2\n3\n");
  f = in;
  RemoveEpsLocal(&f);
  CHECK(FstToText(f) ==
        "0\t1\t0\t7\t1\n0\t2\t5\t7\t1.5\n1\t3\t6\t8\t0.25\n2\n3\n");
  // In the log-stochastic form the kept arc is scaled so that state 1
  // still sums to what it kept, and paths keep their weights.
  f = in;
  RemoveEpsLocalSpecial(&f);
  CHECK(f.NumStates() == 4);
  CHECK(RandomPathsEquivalent(in, fst::StdVectorFst(f), 7));
  fst::ArcIterator<fst::StdVectorFst> it(f, 1);
  const double kept = std::exp(-0.25), moved = std::exp(-0.5);
  CHECK(it.Value().weight.Value() ==
        Approx(0.25 + std::log(kept / (kept + moved))).epsilon(1e-5));
}

size_t TotalArcs(const fst::StdVectorFst &f) {
  size_t n = 0;
  for (fst::StateIterator<fst::StdVectorFst> s(f); !s.Done(); s.Next())
    n += f.NumArcs(s.Value());
  return n;
}

TEST_CASE("RemoveEpsLocal keeps random FSTs equivalent", "[fstext]") {
  RandomFstOptions opts;
  opts.input_epsilon_prob = 0.4;
  opts.output_epsilon_prob = 0.5;
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    INFO("seed " << seed);
    const fst::StdVectorFst in = RandomFst(seed, opts);
    fst::StdVectorFst out = in;
    RemoveEpsLocal(&out);
    CHECK(out.NumStates() + TotalArcs(out) <= in.NumStates() + TotalArcs(in));
    CHECK(RandomPathsEquivalent(in, out, seed));
    fst::VectorFst<fst::LogArc> log_in, log_out;
    fst::Cast(in, &log_in);
    log_out = log_in;
    RemoveEpsLocal(&log_out);
    CHECK(RandomPathsEquivalent(log_in, log_out, seed));
  }
}

TEST_CASE("PushSpecial makes every state sum to the same", "[fstext]") {
  // Two states: arc cost 2, final cost 3; the top eigenvalue is e^-2.5,
  // so both become 2.5.
  fst::StdVectorFst f = FstFromText("0 1 1 1 2\n1 3\n");
  PushSpecial(&f);
  fst::ArcIterator<fst::StdVectorFst> it(f, 0);
  CHECK(it.Value().weight.Value() == Approx(2.5).margin(0.002));
  CHECK(f.Final(1).Value() == Approx(2.5).margin(0.002));
  RandomFstOptions opts;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    INFO("seed " << seed);
    const fst::StdVectorFst in = RandomFst(seed, opts);
    fst::StdVectorFst out = in;
    PushSpecial(&out, 0.001);
    float min_sum, max_sum;
    IsStochasticFstInLog(out, 1.0e6, &min_sum, &max_sum);
    CHECK(min_sum == Approx(max_sum).margin(0.002));
    CHECK(RandomPathsEquivalent(in, out, seed));
  }
}

TEST_CASE("MinimizeEncoded by hand and against fst::Minimize", "[fstext]") {
  fst::StdVectorFst f =
      FstFromText("0 1 1 1 0.5\n0 2 2 2 0.5\n1 3 3 3 1\n2 4 3 3 1\n3\n4\n");
  MinimizeEncoded(&f);
  CHECK(f.NumStates() == 3);
  CHECK(TotalArcs(f) == 3);
  RandomFstOptions opts;
  opts.num_states = 9;
  opts.num_ilabels = 2;
  opts.output_epsilon_prob = 0;
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    INFO("seed " << seed);
    fst::StdVectorFst in = RandomFst(seed, opts), det;
    fst::Project(&in, fst::ProjectType::INPUT);
    fst::ArcMap(&in, fst::RmWeightMapper<fst::StdArc>());
    fst::Determinize(in, &det);
    fst::StdVectorFst ours = det, theirs = det;
    MinimizeEncoded(&ours);
    fst::Minimize(&theirs);
    CHECK(ours.NumStates() == theirs.NumStates());
    CHECK(fst::Equivalent(ours, det));
  }
}

TEST_CASE("Removing and penalizing symbols", "[fstext]") {
  const fst::StdVectorFst in = FstFromText("0 0 1 1\n0 0 3 2\n0 0\n");
  fst::StdVectorFst f = in;
  RemoveSomeInputSymbols({3, 4}, &f);
  CHECK(FstToText(f) == "0\t0\t1\t1\n0\t0\t0\t2\n0\n");
  f = in;
  RemoveArcsWithSomeInputSymbols({3, 4}, &f);
  CHECK(FstToText(f) == "0\t0\t1\t1\n0\n");
  f = in;
  PenalizeArcsWithSomeInputSymbols({3, 4, 5}, 2.0, &f);
  CHECK(FstToText(f) == "0\t0\t1\t1\n0\t0\t3\t2\t2\n0\n");
  f = in;
  ExpectUserError([&] { RemoveSomeInputSymbols({0}, &f); }, {"epsilon"});
}

TEST_CASE("AddDisambigSelfLoops on a two-word lexicon", "[fstext]") {
  // Loop state 0 (final, word outputs) gets the loop; the word-internal
  // states 1 and 2 do not.
  fst::StdVectorFst l = FstFromText("0 1 1 1\n1 0 2 0\n0 2 2 2\n2 0 1 0\n0\n");
  AddDisambigSelfLoops({9}, {5}, &l);
  CHECK(FstToText(l) ==
        "0\t1\t1\t1\n0\t2\t2\t2\n0\t0\t9\t5\n0\n1\t0\t2\t0\n2\t0\t1\t0\n");
  ExpectUserError(
      [&] {
        AddDisambigSelfLoops({9}, {5, 6}, &l);
      },
      {"differ in length"});
  ExpectUserError([&] { AddDisambigSelfLoops({9}, {5}, &l); },
                  {"already has an arc"});
}

TEST_CASE("IsStochasticFst in the log and tropical semirings", "[fstext]") {
  // State 0: two arcs of probability 1/2 each.
  const float half = -std::log(0.5f);
  fst::StdVectorFst f =
      FstFromText("0 1 1 1 " + std::to_string(half) + "\n0 2 2 2 " +
                  std::to_string(half) + "\n1\n2\n");
  float min_sum, max_sum;
  CHECK(IsStochasticFstInLog(f, 0.01, &min_sum, &max_sum));
  CHECK(min_sum == Approx(0).margin(1e-5));
  CHECK(!IsStochasticFst(f, 0.01, &min_sum, &max_sum));
  CHECK(min_sum == 0);
  CHECK(max_sum == Approx(half));
  // 0.25 + 0.25: state 0 sums to 1/2 (cost log 2): min_sum (Kaldi's log
  // naming: the largest cost) is log 2, max_sum 0.
  fst::StdVectorFst g =
      FstFromText("0 1 1 1 1.3862944\n0 1 2 2 1.3862944\n1\n");
  CHECK(!IsStochasticFstInLog(g, 0.01, &min_sum, &max_sum));
  CHECK(min_sum == Approx(std::log(2.0)).epsilon(1e-5));
  CHECK(max_sum == 0);
  fst::StdVectorFst empty;
  CHECK(IsStochasticFstInLog(empty, 0.01, &min_sum, &max_sum));
  CHECK(min_sum == 0);
  CHECK(max_sum == 0);
}

}  // namespace
}  // namespace nnet3
