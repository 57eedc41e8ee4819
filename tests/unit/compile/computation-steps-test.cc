// Tests of compile/computation-steps.h: phases and steps obey the rules
// (a), (b), (c) on assorted networks.
#include "compile/computation-steps.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "compiler-test-utils.h"

namespace nnet3 {

namespace {

struct Steps {
  ComputationGraph graph;
  std::vector<std::vector<int32_t>> phases, steps;
};

void ComputeSteps(const Nnet &nnet, const ComputationRequest &request,
                  Steps *s) {
  ComputationGraphBuilder builder(nnet, request, &s->graph);
  builder.Compute();
  REQUIRE(builder.AllOutputsAreComputable());
  builder.Prune();
  ComputeComputationPhases(nnet, s->graph, &s->phases);
  // Every cindex is in exactly one phase.
  std::vector<int32_t> count(s->graph.cindexes.size(), 0);
  for (const auto &phase : s->phases)
    for (int32_t c : phase) count[c]++;
  for (int32_t n : count) REQUIRE(n == 1);
  ComputeComputationSteps(nnet, request, s->phases, &s->graph, &s->steps);
  CheckStepRules(nnet, request, s->graph, s->steps);
}

int32_t NumStepsOfNode(const Nnet &nnet, const Steps &s,
                       const std::string &node) {
  int32_t n = nnet.GetNodeIndex(node), ans = 0;
  for (const auto &step : s.steps)
    ans += (s.graph.cindexes[step[0]].first == n);
  return ans;
}

const char *const kNonSimpleConfig = R"(
input-node name=input dim=4
component name=affine1 type=AffineComponent input-dim=8 output-dim=4
component-node name=affine1 component=affine1 input=Append(input, Offset(input, 1))
component name=drop type=GeneralDropoutComponent dim=4 dropout-proportion=0.5
component-node name=drop component=drop input=affine1
output-node name=output input=drop
)";

}  // namespace

TEST_CASE("Steps obey the rules on assorted networks", "[compiler]") {
  struct Case {
    const char *config;
    ComputationRequest request;
  };
  std::vector<Case> cases = {
      {kFeedForwardConfig, SimpleRequest(0, 5, 0, 5, 3)},
      {kTdnnConfig, SimpleRequest(0, 12, 4, 8, 2)},
      {kRnnConfig, SimpleRequest(0, 6, 0, 6, 2)},
      {kFailoverConfig, SimpleRequest(0, 6, 0, 5)},
      {kClockworkConfig, SimpleRequest(0, 9, 0, 9)},
      {kDimRangeConfig, SimpleRequest(-2, 8, 0, 5)},
      {kNonSimpleConfig, SimpleRequest(0, 6, 0, 5, 2)},
  };
  // Input and output Indexes in reverse order.
  std::reverse(cases[0].request.inputs[0].indexes.begin(),
               cases[0].request.inputs[0].indexes.end());
  std::reverse(cases[0].request.outputs[0].indexes.begin(),
               cases[0].request.outputs[0].indexes.end());
  for (size_t i = 0; i < cases.size(); i++) {
    INFO("case " << i);
    Nnet nnet = CompilerTestNnet(cases[i].config);
    Steps s;
    ComputeSteps(nnet, cases[i].request, &s);
  }
}

TEST_CASE(
    "Steps: a recurrent layer is one step per frame, the rest one "
    "step per layer",
    "[compiler]") {
  Nnet nnet = CompilerTestNnet(kRnnConfig);
  Steps s;
  ComputeSteps(nnet, SimpleRequest(0, 10, 0, 10, 2), &s);
  REQUIRE(NumStepsOfNode(nnet, s, "relu1") == 10);
  REQUIRE(NumStepsOfNode(nnet, s, "affine1") == 10);
  REQUIRE(NumStepsOfNode(nnet, s, "final") == 1);
  REQUIRE(NumStepsOfNode(nnet, s, "output") == 1);
  // input, then (affine1_input, affine1, relu1_input, relu1) x 10, then
  // final_input, final, output.
  REQUIRE(s.steps.size() == 1 + 40 + 3);
}

TEST_CASE("Steps: dim-range steps copy their source step's Indexes",
          "[compiler]") {
  Nnet nnet = CompilerTestNnet(kDimRangeConfig);
  Steps s;
  ComputeSteps(nnet, SimpleRequest(-2, 8, 0, 5), &s);
  // in_a is needed at t = -1..4 only (Offset -1 of the a1 rows 0..5) but
  // its step has all of the input's Indexes.
  int32_t in_a = nnet.GetNodeIndex("in_a");
  for (const auto &step : s.steps)
    if (s.graph.cindexes[step[0]].first == in_a) REQUIRE(step.size() == 10);
  REQUIRE(NumStepsOfNode(nnet, s, "a1_part") == 1);
}

}  // namespace nnet3
