// DeterminizeStar: results worked out by hand on small FSTs (output
// strings longer than one label become chains, epsilons are removed),
// fst::Determinize's result (same number of states, equivalent) on
// acyclic acceptors without epsilons, equivalence to the input on random
// functional FSTs (tropical with epsilons, log without), and the errors: not
// functional, too many states. LabelSequenceRepository's ids.
#include "fstext/determinize-star.h"

#include <fst/fstlib.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "../util/util-test-common.h"
#include "fst-test-common.h"
#include "fstext/label-sequence-repository.h"

namespace nnet3 {
namespace {

using test::ExpectUserError;
using test::FstFromText;
using test::FstToText;
using test::RandomFst;
using test::RandomFstOptions;
using test::RandomPathsEquivalent;

fst::StdVectorFst Det(const fst::StdVectorFst &in, int max_states = -1) {
  fst::StdVectorFst out;
  DeterminizeStar(in, &out, fst::kDelta, max_states);
  return out;
}

TEST_CASE("DeterminizeStar by hand", "[fstext]") {
  // An epsilon self-loop without output disappears.
  CHECK(FstToText(Det(FstFromText("0 0 0 0\n0 0\n"))) == "0\n");
  // Two arcs with input 1 and the same output merge; costs: the better
  // path, here 0.5 (tropical).
  CHECK(FstToText(Det(FstFromText("0 1 1 5 0.5\n0 2 1 5 1.5\n1 0\n2 0\n"))) ==
        "0\t1\t1\t5\t0.5\n1\n");
  // Input 1 has output 5 on one path and nothing on the other: the output
  // waits until the next input tells the paths apart, and "1 2" then
  // gives "5 6" on a chain (its middle state numbered after the subsets).
  const fst::StdVectorFst delayed =
      Det(FstFromText("0 1 1 5\n"
                      "0 2 1 0\n"
                      "1 3 2 6\n"
                      "2 3 3 7\n"
                      "3\n"));
  CHECK(FstToText(delayed) ==
        "0\t1\t1\t0\n"
        "1\t3\t2\t5\n"
        "1\t2\t3\t7\n"
        "2\n"
        "3\t2\t0\t6\n");
  // An input epsilon before the first arc is removed; a final weight with
  // a pending output becomes a chain.
  CHECK(FstToText(Det(FstFromText("0 1 0 4 0.25\n1 2 1 0\n2 0.5\n"))) ==
        "0\t1\t1\t4\t0.25\n1\t0.5\n");
  CHECK(FstToText(Det(FstFromText("0 1 1 0\n1 2 0 4\n2 3 0 5\n3 2\n"))) ==
        "0\t1\t1\t0\n1\t2\t0\t4\t2\n2\t3\t0\t5\n3\n");
}

TEST_CASE("DeterminizeStar in the log semiring adds paths", "[fstext]") {
  fst::StdVectorFst f = FstFromText("0 1 1 5 1\n0 2 1 5 1\n1 0\n2 0\n");
  DeterminizeStarInLog(&f);
  REQUIRE(f.NumStates() == 2);
  fst::ArcIterator<fst::StdVectorFst> it(f, 0);
  CHECK(it.Value().weight.Value() == Approx(1.0 - std::log(2.0)).epsilon(1e-6));
}

TEST_CASE("DeterminizeStar matches fst::Determinize without epsilons",
          "[fstext]") {
  RandomFstOptions opts;
  opts.num_states = 7;
  opts.arcs_per_state = 4;
  opts.num_ilabels = 3;
  opts.output_epsilon_prob = 0.0;
  // Acyclic: a cyclic weighted acceptor need not be determinizable (neither
  // algorithm would stop).
  opts.acyclic = true;
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    INFO("seed " << seed);
    fst::StdVectorFst in = RandomFst(seed, opts);
    fst::Project(&in, fst::ProjectType::INPUT);  // an acceptor
    fst::StdVectorFst ours = Det(in), theirs;
    fst::Determinize(in, &theirs);
    CHECK(ours.NumStates() == theirs.NumStates());
    // Both keep weights within kDelta per subset, not exactly (they meet
    // residuals in different orders): equal paths within 0.01.
    CHECK(RandomPathsEquivalent(ours, theirs, seed));
    CHECK(RandomPathsEquivalent(in, ours, seed));
    CHECK(ours.Properties(fst::kIDeterministic, true) & fst::kIDeterministic);
  }
}

TEST_CASE("DeterminizeStar keeps random functional FSTs equivalent",
          "[fstext]") {
  // Outputs are a function of the input label (label + 10), so any input
  // string has one output string; input epsilons carry no output.
  RandomFstOptions opts;
  opts.num_states = 8;
  opts.arcs_per_state = 3;
  opts.num_ilabels = 3;
  opts.input_epsilon_prob = 0.25;
  opts.acyclic = true;
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    INFO("seed " << seed);
    fst::StdVectorFst in = RandomFst(seed, opts);
    for (fst::StateIterator<fst::StdVectorFst> s(in); !s.Done(); s.Next())
      for (fst::MutableArcIterator<fst::StdVectorFst> a(&in, s.Value());
           !a.Done(); a.Next()) {
        fst::StdArc arc = a.Value();
        arc.olabel = arc.ilabel == 0 ? 0 : arc.ilabel + 10;
        a.SetValue(arc);
      }
    fst::StdVectorFst det = Det(in);
    CHECK(RandomPathsEquivalent(in, det, seed));
  }
}

TEST_CASE(
    "DeterminizeStar in the log semiring keeps epsilon-free FSTs "
    "equivalent",
    "[fstext]") {
  // Only without input epsilons: with them, Kaldi's epsilon closure (and
  // ours, the same) can count a weight twice where epsilon paths meet
  // again; ours is byte-identical to Kaldi's fstdeterminizestar
  // --use-log=true there, which is what the programs promise.
  RandomFstOptions opts;
  opts.num_states = 8;
  opts.arcs_per_state = 3;
  opts.num_ilabels = 3;
  opts.acyclic = true;
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    INFO("seed " << seed);
    fst::StdVectorFst in = RandomFst(seed, opts);
    for (fst::StateIterator<fst::StdVectorFst> s(in); !s.Done(); s.Next())
      for (fst::MutableArcIterator<fst::StdVectorFst> a(&in, s.Value());
           !a.Done(); a.Next()) {
        fst::StdArc arc = a.Value();
        arc.olabel = arc.ilabel + 10;
        a.SetValue(arc);
      }
    fst::StdVectorFst log_det = in;
    DeterminizeStarInLog(&log_det);
    fst::VectorFst<fst::LogArc> in_log, det_log;
    fst::Cast(in, &in_log);
    fst::Cast(log_det, &det_log);
    CHECK(RandomPathsEquivalent(in_log, det_log, seed));
  }
}

TEST_CASE("DeterminizeStar errors", "[fstext]") {
  // An epsilon loop that outputs 1: input "" has outputs "", "1", "1 1"...
  ExpectUserError([] { Det(FstFromText("0 0 0 1\n0 0\n")); },
                  {"not functional", "not determinizable"});
  // Input 1 has outputs 2 and 3.
  ExpectUserError([] { Det(FstFromText("0 1 1 2\n0 2 1 3\n1\n2\n")); },
                  {"not functional"});
  // A chain of 6 states with max 3.
  const fst::StdVectorFst chain =
      FstFromText("0 1 1 0\n1 2 1 0\n2 3 1 0\n3 4 1 0\n4 5 1 0\n5\n");
  ExpectUserError([&] { Det(chain, 3); },
                  {"Determinization aborted since passed 3 states"});
  fst::StdVectorFst partial;
  CHECK(DeterminizeStar(chain, &partial, fst::kDelta, 3, true));
  CHECK(partial.NumStates() == 4);
  CHECK(Det(chain, 6).NumStates() == 6);
}

TEST_CASE("LabelSequenceRepository ids", "[fstext]") {
  LabelSequenceRepository repo;
  const SequenceId e = repo.Empty();
  CHECK(repo.IsEmpty(e));
  CHECK(repo.IdOf({}) == e);
  const SequenceId a = repo.Append(e, 7);
  CHECK(a == repo.IdOf({7}));
  const SequenceId ab = repo.Append(a, 9);
  CHECK(ab == repo.IdOf({7, 9}));
  CHECK(ab != a);
  CHECK(repo.RemovePrefix(ab, 1) == repo.IdOf({9}));
  CHECK(repo.RemovePrefix(ab, 2) == e);
  std::vector<int32_t> labels;
  repo.SequenceOf(repo.Append(ab, 3), &labels);
  CHECK(labels == std::vector<int32_t>({7, 9, 3}));
  // Kaldi's numbering: empty 2^30 - 1, single labels 2^30 + l, longer
  // sequences from 0.
  CHECK(e == (1 << 30) - 1);
  CHECK(a == (1 << 30) + 7);
  CHECK(ab == 0);
}

}  // namespace
}  // namespace nnet3
