// The H transducer (GetHTransducer, GetHmmAsFsa) for the two-phone
// topology and the left-biphone tree of hmm-test-utils.h, with a tiny
// ilabel set: every state and arc worked out by hand (sharing of identical
// HMMs, a disambiguation symbol, the transition scale), local epsilon
// removal for a topology with a non-emitting state, and bad ilabels.
#include "hmm/h-transducer.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "base/error.h"
#include "hmm-test-utils.h"

namespace nnet3 {
namespace {

using fst::StdArc;
using fst::StdVectorFst;
using testing::LeftBiphoneTree;
using testing::MonophoneTree;
using testing::TwoPhoneTopology;

struct ExpectedArc {
  int from, ilabel, olabel, to;
  float weight;
};

void CheckFst(const StdVectorFst &f, int num_states,
              const std::vector<ExpectedArc> &arcs) {
  REQUIRE(f.Start() == 0);
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

// -log(0.25 / 0.5): leaving state 0 of phone 1 (forward transitions only,
// the self-loop's 0.5 factored out).
const float kLeave = std::log(2.0f);

TEST_CASE("H for left-biphone windows") {
  const TransitionModel tm(LeftBiphoneTree(), TwoPhoneTopology());
  // Transition-ids (transition-model-tree-test): phone 1 state 0 pdf 0:
  // 1-3, pdf 2: 4-6; state 1 pdf 1: 7-8, pdf 3: 9-10; phone 2: 11-12.
  const ILabelInfo ilabels({{}, {0, 1}, {1, 1}, {-4}, {2, 1}, {1, 2}});
  HTransducerConfig config;
  std::vector<int32_t> disambig;
  const auto h =
      GetHTransducer(ilabels, LeftBiphoneTree(), tm, config, &disambig);
  CHECK(disambig == std::vector<int32_t>{13});
  CHECK(h->Final(0) == StdArc::Weight::One());
  CheckFst(*h, 9,
           {// State 0: into each HMM; {2, 1} shares {1, 1}'s (same pdfs);
            // phone 2's single first arc leaves state 0 itself.
            {0, 0, 1, 1, 0},
            {0, 0, 2, 4, 0},
            {0, 13, 3, 7, 0},
            {0, 0, 4, 4, 0},
            {0, 12, 5, 8, 0},
            // {0, 1}: pdfs 0, 1.
            {1, 2, 0, 2, kLeave},
            {1, 3, 0, 3, kLeave},
            {2, 8, 0, 3, 0},
            {3, 0, 0, 0, 0},
            // {1, 1}: pdfs 2, 3.
            {4, 5, 0, 5, kLeave},
            {4, 6, 0, 6, kLeave},
            {5, 10, 0, 6, 0},
            {6, 0, 0, 0, 0},
            // #-4 and phone 2.
            {7, 0, 0, 0, 0},
            {8, 0, 0, 0, 0}});
  // The transition scale multiplies every HMM weight.
  config.transition_scale = 0.5f;
  const auto scaled =
      GetHTransducer(ilabels, LeftBiphoneTree(), tm, config, &disambig);
  fst::ArcIterator<StdVectorFst> it(*scaled, 1);
  CHECK(it.Value().weight.Value() == Approx(0.5f * kLeave));
}

TEST_CASE("GetHmmAsFsa: local epsilon removal of a non-emitting state") {
  // Phone 1: emitting 0 -> non-emitting 1 -> emitting 2 -> final 3.
  std::istringstream is(
      "<Topology>\n"
      "<TopologyEntry> <ForPhones> 1 </ForPhones>\n"
      "<State> 0 <PdfClass> 0 <Transition> 0 0.5 <Transition> 1 0.5 "
      "</State>\n"
      "<State> 1 <Transition> 2 1.0 </State>\n"
      "<State> 2 <PdfClass> 1 <Transition> 2 0.5 <Transition> 3 0.5 "
      "</State>\n"
      "<State> 3 </State>\n"
      "</TopologyEntry>\n"
      "</Topology>\n");
  HmmTopology topo;
  topo.Read(is, false);
  const ContextDependency tree = MonophoneTree();
  const TransitionModel tm(tree, topo);
  std::vector<int32_t> pdfs;
  const auto fsa = GetHmmAsFsa({1}, tree, tm, HTransducerConfig(), &pdfs);
  CHECK(pdfs == std::vector<int32_t>{0, 1});
  // The epsilon arc 1 -> 2 is merged into 0 -> 1 (state 1 goes).
  CheckFst(*fsa, 3, {{0, 2, 2, 1, 0}, {1, 4, 4, 2, 0}});
  CHECK(fsa->Final(2) == StdArc::Weight::One());
}

TEST_CASE("H: ilabels the tree cannot interpret") {
  const TransitionModel tm(MonophoneTree(), TwoPhoneTopology());
  const ContextDependency tree = MonophoneTree();
  std::vector<int32_t> disambig;
  auto error = [&](const ILabelInfo &ilabels) -> std::string {
    try {
      GetHTransducer(ilabels, tree, tm, HTransducerConfig(), &disambig);
    } catch (const UserError &e) {
      return e.what();
    }
    return "";
  };
  CHECK_THAT(error(ILabelInfo({{}, {1, 2}})),
             Catch::Contains("Context size mismatch"));
  CHECK_THAT(error(ILabelInfo({{}, {3}})),
             Catch::Contains("no topology entry"));
  CHECK_THAT(error(ILabelInfo(std::vector<std::vector<int32_t>>{{1}})),
             Catch::Contains("entry 0"));
  CHECK_THAT(error(ILabelInfo({{}, {}})), Catch::Contains("is empty"));
  CHECK_THAT(error(ILabelInfo({{}, {-3, 1}})), Catch::Contains("grammar"));
  // A tree whose pdfs the model does not have (another tree's model).
  const TransitionModel other(LeftBiphoneTree(), TwoPhoneTopology());
  try {
    GetHTransducer(ILabelInfo({{}, {2}}), tree, other, HTransducerConfig(),
                   &disambig);
    FAIL("expected a UserError");
  } catch (const UserError &e) {
    CHECK_THAT(e.what(), Catch::Contains("belong together"));
  }
}

}  // namespace
}  // namespace nnet3
