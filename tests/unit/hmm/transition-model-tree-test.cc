// TransitionModel(tree, topology): the tuples and log-probabilities worked
// out by hand for the two-phone topology with a monophone, a left-biphone
// and a separate-self-loop-pdf tree; Kaldi's own models for the refsys
// topology (gmm-init-mono's for the monophone tree, nnet3-am-init's for a
// small triphone tree) byte for byte; a tree that does not match the
// topology.
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "hmm-test-utils.h"
#include "hmm/transition-model.h"

namespace nnet3 {
namespace {

using testing::LeftBiphoneTree;
using testing::MonophoneTree;
using testing::ReadFromBytes;
using testing::ReadGolden;
using testing::TwoPhoneTopology;
using testing::WriteToBytes;
using Tuple = TransitionModel::Tuple;

std::vector<Tuple> Tuples(
    const std::vector<std::vector<int32_t>> &phone_state_pdfs) {
  std::vector<Tuple> tuples;
  for (const auto &t : phone_state_pdfs)
    tuples.push_back({t[0], t[1], t[2], t.size() > 3 ? t[3] : t[2]});
  return tuples;
}

TEST_CASE("a monophone tree and the two-phone topology") {
  const TransitionModel tm(MonophoneTree(), TwoPhoneTopology());
  CHECK(tm.Tuples() == Tuples({{1, 0, 0}, {1, 1, 1}, {2, 0, 2}}));
  CHECK(tm.NumPdfs() == 3);
  CHECK(tm.NumTransitionIds() == 7);
  // Transition-ids in tuple order, each state's transitions in topology
  // order: 1-3 leave (1, 0), 4-5 leave (1, 1), 6-7 leave (2, 0).
  const std::vector<float> probs = {0.5f, 0.25f, 0.25f, 0.5f, 0.5f, 0.6f, 0.4f};
  for (int32_t tid = 1; tid <= 7; tid++)
    CHECK(tm.GetTransitionLogProb(tid) == std::log(probs[tid - 1]));
  CHECK(tm.SelfLoopOf(1) == 1);
  CHECK(tm.SelfLoopOf(2) == 4);
  CHECK(tm.SelfLoopOf(3) == 6);
  // Written as Kaldi writes a model: <Triples> for a plain HMM.
  CHECK_THAT(WriteToBytes(tm, false), Catch::Contains("<Triples> 3"));
  TransitionModel read;
  ReadFromBytes(WriteToBytes(tm, true), &read);
  CHECK(read == tm);
}

TEST_CASE("a left-biphone tree: one transition state per pdf") {
  const TransitionModel tm(LeftBiphoneTree(), TwoPhoneTopology());
  CHECK(tm.Tuples() ==
        Tuples({{1, 0, 0}, {1, 0, 2}, {1, 1, 1}, {1, 1, 3}, {2, 0, 4}}));
  CHECK(tm.NumTransitionIds() == 12);
  CHECK(tm.TransitionIdToPdf(5) == 2);   // (1, 0, pdf 2), to state 1
  CHECK(tm.TransitionIdToPdf(10) == 3);  // (1, 1, pdf 3), to the end
}

TEST_CASE("separate self-loop pdf-classes: <Tuples>") {
  std::istringstream is(
      "<Topology>\n"
      "<TopologyEntry> <ForPhones> 1 </ForPhones>\n"
      "<State> 0 <ForwardPdfClass> 0 <SelfLoopPdfClass> 1 "
      "<Transition> 0 0.5 <Transition> 1 0.5 </State>\n"
      "<State> 1 </State>\n"
      "</TopologyEntry>\n"
      "<TopologyEntry> <ForPhones> 2 </ForPhones>\n"
      "<State> 0 <ForwardPdfClass> 0 <SelfLoopPdfClass> 0 "
      "<Transition> 0 0.5 <Transition> 1 0.5 </State>\n"
      "<State> 1 </State>\n"
      "</TopologyEntry>\n"
      "</Topology>\n");
  HmmTopology topo;
  topo.Read(is, false);
  const TransitionModel tm(LeftBiphoneTree(), topo);
  // (forward, self-loop) pdfs of one context each: (0, 1) and (2, 3).
  CHECK(tm.Tuples() == Tuples({{1, 0, 0, 1}, {1, 0, 2, 3}, {2, 0, 4, 4}}));
  CHECK(tm.TransitionIdToPdf(1) == 1);  // the self-loop of (1, 0, 0, 1)
  CHECK(tm.TransitionIdToPdf(2) == 0);
  CHECK_THAT(WriteToBytes(tm, false), Catch::Contains("<Tuples> 3"));
}

TEST_CASE("Kaldi's transition models from the refsys trees") {
  HmmTopology topo;
  ReadFromBytes(ReadGolden("topo"), &topo);
  // gmm-init-mono's (the refsys exp/mono/0.mdl), text.
  ContextDependency mono;
  ReadFromBytes(ReadGolden("mono.tree"), &mono);
  CHECK(WriteToBytes(TransitionModel(mono, topo), false) ==
        ReadGolden("mono-0.trans.txt"));
  // nnet3-am-init's, binary: the front of tri.mdl.
  ContextDependency tri;
  ReadFromBytes(ReadGolden("tri.tree"), &tri);
  const std::string mdl = ReadGolden("tri.mdl");
  const std::string end = "</TransitionModel> ";
  const size_t pos = mdl.find(end);
  REQUIRE(pos != std::string::npos);
  const TransitionModel tm(tri, topo);
  CHECK(WriteToBytes(tm, true) == mdl.substr(0, pos + end.size()));
  CHECK(tm.NumPdfs() == 144);
}

TEST_CASE("a tree that does not match the topology") {
  // The monophone tree knows no phone 3.
  std::istringstream is(
      "<Topology>\n"
      "<TopologyEntry> <ForPhones> 1 3 </ForPhones>\n"
      "<State> 0 <PdfClass> 0 <Transition> 0 0.5 <Transition> 1 0.5 "
      "</State>\n"
      "<State> 1 </State>\n"
      "</TopologyEntry>\n"
      "</Topology>\n");
  HmmTopology topo;
  topo.Read(is, false);
  try {
    TransitionModel tm(MonophoneTree(), topo);
    FAIL("expected a UserError");
  } catch (const UserError &e) {
    CHECK_THAT(e.what(), Catch::Contains("no pdfs returned for position 0 "
                                         "of phone 3"));
  }
}

}  // namespace
}  // namespace nnet3
