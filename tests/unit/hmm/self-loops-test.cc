// AddSelfLoops with the two-phone topology and monophone tree of
// hmm-test-utils.h: a chain of forward transitions with and without
// reordering, states split because two transition states meet (into a
// state with --reorder, out of one without), disambiguation and grammar
// symbols, and the errors. Every state, arc and weight is worked out by
// hand.
#include "hmm/self-loops.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <tuple>
#include <vector>

#include "base/error.h"
#include "hmm-test-utils.h"

namespace nnet3 {
namespace {

using fst::StdArc;
using fst::StdVectorFst;
using testing::MonophoneTree;
using testing::TwoPhoneTopology;

struct ExpectedArc {
  int from, ilabel, olabel, to;
  float weight;
};

StdVectorFst MakeFst(const std::vector<ExpectedArc> &arcs, int num_states,
                     int final_state) {
  StdVectorFst f;
  for (int s = 0; s < num_states; s++) f.AddState();
  f.SetStart(0);
  for (const auto &a : arcs)
    f.AddArc(a.from, StdArc(a.ilabel, a.olabel, a.weight, a.to));
  f.SetFinal(final_state, StdArc::Weight::One());
  return f;
}

void CheckFst(const StdVectorFst &f, int num_states,
              const std::vector<ExpectedArc> &arcs) {
  REQUIRE(f.NumStates() == num_states);
  size_t k = 0;
  for (int s = 0; s < f.NumStates(); s++)
    for (fst::ArcIterator<StdVectorFst> it(f, s); !it.Done(); it.Next()) {
      REQUIRE(k < arcs.size());
      const StdArc &arc = it.Value();
      const ExpectedArc &e = arcs[k++];
      INFO("arc " << k - 1);
      CHECK(std::make_tuple(s, arc.ilabel, arc.olabel, arc.nextstate) ==
            std::make_tuple(e.from, e.ilabel, e.olabel, e.to));
      CHECK(arc.weight.Value() == Approx(e.weight).margin(1e-6));
    }
  CHECK(k == arcs.size());
}

// Transition-ids of the monophone model (transition-model-tree-test):
// phone 1 state 0: 1 self-loop 0.5, 2 on 0.25, 3 skip 0.25; state 1: 4
// self-loop 0.5, 5 on 0.5; phone 2: 6 self-loop 0.6, 7 on 0.4.
constexpr float kScale = 0.1f;
const float kLeave1 = -std::log(0.5f) * kScale;  // leave / loop, phone 1
const float kLoop2 = -std::log(0.6f) * kScale;
const float kLeave2 = -std::log(0.4f) * kScale;

TEST_CASE("self-loops on a chain, reordered and not") {
  const TransitionModel tm(MonophoneTree(), TwoPhoneTopology());
  // 0 -2:10-> 1 -5-> 2 -7:11-> 3 (final).
  const std::vector<ExpectedArc> chain = {
      {0, 2, 10, 1, 0}, {1, 5, 0, 2, 0}, {2, 7, 11, 3, 0}};
  {
    // Reordered: the self-loop follows the transition into a state, whose
    // arcs out and final weight then carry the probability of leaving.
    StdVectorFst f = MakeFst(chain, 4, 3);
    AddSelfLoops(tm, {}, kScale, /*reorder=*/true, true, &f);
    CheckFst(f, 4,
             {{0, 2, 10, 1, 0},
              {1, 5, 0, 2, kLeave1},
              {1, 1, 0, 1, kLeave1},
              {2, 7, 11, 3, kLeave1},
              {2, 4, 0, 2, kLeave1},
              {3, 6, 0, 3, kLoop2}});
    CHECK(f.Final(3).Value() == Approx(kLeave2));
  }
  {
    // Not reordered: the self-loop comes before the transition out.
    StdVectorFst f = MakeFst(chain, 4, 3);
    AddSelfLoops(tm, {}, kScale, /*reorder=*/false, true, &f);
    CheckFst(f, 4,
             {{0, 2, 10, 1, kLeave1},
              {0, 1, 0, 0, kLeave1},
              {1, 5, 0, 2, kLeave1},
              {1, 4, 0, 1, kLeave1},
              {2, 7, 11, 3, kLeave2},
              {2, 6, 0, 2, kLoop2}});
    CHECK(f.Final(3) == StdArc::Weight::One());
  }
}

TEST_CASE("self-loops: states split where transition states meet") {
  const TransitionModel tm(MonophoneTree(), TwoPhoneTopology());
  // Two transition states (phone 1 state 0, phone 2 state 0) go from 0 to
  // the final state 1.
  const std::vector<ExpectedArc> fork = {{0, 2, 10, 1, 0}, {0, 7, 11, 1, 0}};
  {
    // Reordered: state 1 is entered by both, so each arc goes to a new
    // state (2, 3) with its own self-loop and an epsilon arc on to 1.
    StdVectorFst f = MakeFst(fork, 2, 1);
    AddSelfLoops(tm, {}, kScale, true, true, &f);
    CheckFst(f, 4,
             {{0, 2, 10, 2, 0},
              {0, 7, 11, 3, 0},
              {2, 0, 0, 1, kLeave1},
              {2, 1, 0, 2, kLeave1},
              {3, 0, 0, 1, kLeave2},
              {3, 6, 0, 3, kLoop2}});
    CHECK(f.Final(1) == StdArc::Weight::One());
  }
  {
    // Not reordered: state 0 is left by both, so each becomes an epsilon
    // arc (keeping its output) to a new state that carries the
    // transition-id, and there gets its self-loop.
    StdVectorFst f = MakeFst(fork, 2, 1);
    AddSelfLoops(tm, {}, kScale, false, true, &f);
    CheckFst(f, 4,
             {{0, 0, 10, 2, 0},
              {0, 0, 11, 3, 0},
              {2, 2, 0, 1, kLeave1},
              {2, 1, 0, 2, kLeave1},
              {3, 7, 0, 1, kLeave2},
              {3, 6, 0, 3, kLoop2}});
  }
}

TEST_CASE("self-loops: disambiguation symbols and errors") {
  const TransitionModel tm(MonophoneTree(), TwoPhoneTopology());
  // A disambiguation symbol (20) into state 1: no self-loop there.
  StdVectorFst f = MakeFst({{0, 2, 10, 1, 0}, {1, 20, 0, 2, 0}}, 3, 2);
  CHECK_THROWS_WITH(AddSelfLoops(tm, {}, kScale, true, true, &f),
                    Catch::Contains("input label 20"));
  f = MakeFst({{0, 2, 10, 1, 0}, {1, 20, 0, 2, 0}}, 3, 2);
  AddSelfLoops(tm, {20}, kScale, true, true, &f);
  CheckFst(f, 3,
           {{0, 2, 10, 1, 0}, {1, 20, 0, 2, kLeave1}, {1, 1, 0, 1, kLeave1}});
  // Grammar-FST symbols (10000000 and above) pass like disambiguation ones.
  f = MakeFst({{0, 10000001, 0, 1, 0}}, 2, 1);
  AddSelfLoops(tm, {}, kScale, true, true, &f);
  CHECK(f.NumArcs(1) == 0);
  // A graph that already has self-loops.
  f = MakeFst({{0, 1, 0, 1, 0}}, 2, 1);
  CHECK_THROWS_WITH(AddSelfLoops(tm, {}, kScale, true, true, &f),
                    Catch::Contains("already has self-loops"));
  StdVectorFst empty;
  CHECK_THROWS_AS(AddSelfLoops(tm, {}, kScale, true, true, &empty), UserError);
}

}  // namespace
}  // namespace nnet3
