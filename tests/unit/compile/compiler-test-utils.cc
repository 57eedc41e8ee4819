#include "compiler-test-utils.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

#include "base/error.h"

namespace nnet3 {

Nnet CompilerTestNnet(const std::string &config) {
  Nnet nnet;
  std::istringstream is(config);
  try {
    nnet.ReadConfig(is, "test.config");
  } catch (const UserError &e) {
    FAIL("config error: " << e.what());
  }
  return nnet;
}

std::vector<Index> MakeIndexes(int32_t t_begin, int32_t t_end, int32_t num_n) {
  std::vector<Index> indexes;
  for (int32_t n = 0; n < num_n; n++)
    for (int32_t t = t_begin; t < t_end; t++) indexes.emplace_back(n, t, 0);
  return indexes;
}

ComputationRequest SimpleRequest(int32_t in_begin, int32_t in_end,
                                 int32_t out_begin, int32_t out_end,
                                 int32_t num_n) {
  ComputationRequest request;
  request.inputs.emplace_back("input", MakeIndexes(in_begin, in_end, num_n));
  request.outputs.emplace_back("output",
                               MakeIndexes(out_begin, out_end, num_n));
  return request;
}

namespace {

std::vector<Cindex> IoCindexes(const Nnet &nnet, const IoSpecification &io) {
  std::vector<Cindex> ans;
  int32_t node = nnet.GetNodeIndex(io.name);
  for (const Index &index : io.indexes) ans.emplace_back(node, index);
  return ans;
}

}  // namespace

void CheckStepRules(const Nnet &nnet, const ComputationRequest &request,
                    const ComputationGraph &graph,
                    const std::vector<std::vector<int32_t>> &steps) {
  const int32_t num_steps = static_cast<int32_t>(steps.size());
  std::vector<std::vector<Cindex>> step_cindexes(num_steps);
  std::vector<int32_t> location(graph.cindexes.size(), -1);
  for (int32_t s = 0; s < num_steps; s++) {
    REQUIRE(!steps[s].empty());
    for (int32_t c : steps[s]) {
      step_cindexes[s].push_back(graph.cindexes[c]);
      REQUIRE(graph.cindexes[c].first == graph.cindexes[steps[s][0]].first);
      if (!nnet.IsComponentInputNode(graph.cindexes[c].first))
        REQUIRE(location[c] == -1);  // only component inputs repeat
      location[c] = s;
    }
  }
  for (size_t c = 0; c < graph.cindexes.size(); c++) REQUIRE(location[c] >= 0);
  // Dependencies come earlier.
  for (int32_t s = 0; s < num_steps; s++)
    for (int32_t c : steps[s])
      for (int32_t d : graph.dependencies[c]) {
        if (nnet.IsComponentInputNode(graph.cindexes[d].first)) continue;
        REQUIRE(location[d] < s);
      }
  // (a) inputs first, outputs last, in request order.
  int32_t s = 0;
  for (const IoSpecification &io : request.inputs) {
    if (io.indexes.empty()) continue;
    REQUIRE(step_cindexes[s++] == IoCindexes(nnet, io));
  }
  const int32_t first_intermediate = s;
  s = num_steps - 1;
  for (auto it = request.outputs.rbegin(); it != request.outputs.rend(); ++it)
    if (!it->indexes.empty())
      REQUIRE(step_cindexes[s--] == IoCindexes(nnet, *it));
  const int32_t last_intermediate = s;
  for (s = first_intermediate; s <= last_intermediate; s++) {
    const int32_t node = step_cindexes[s][0].first;
    REQUIRE(!graph.is_input[steps[s][0]]);
    REQUIRE(!nnet.IsOutputNode(node));
    REQUIRE(!nnet.IsInputNode(node));
    std::vector<Index> indexes;
    for (const Cindex &c : step_cindexes[s]) indexes.push_back(c.second);
    if (nnet.IsComponentNode(node)) {  // (b)
      REQUIRE(s > 0);
      REQUIRE(step_cindexes[s - 1][0].first == node - 1);
      std::vector<Index> input_indexes;
      for (const Cindex &c : step_cindexes[s - 1])
        input_indexes.push_back(c.second);
      const Component *comp =
          nnet.GetComponent(nnet.GetNode(node).component_index);
      if (comp->Properties() & kSimpleComponent)
        REQUIRE(input_indexes == indexes);
    } else if (nnet.IsComponentInputNode(node)) {
      REQUIRE(s + 1 <= last_intermediate);
      REQUIRE(step_cindexes[s + 1][0].first == node + 1);
    } else if (nnet.IsDimRangeNode(node)) {  // (c)
      int32_t source = nnet.GetNode(node).node_index;
      bool found = false;
      for (int32_t t = 0; t < s && !found; t++) {
        if (step_cindexes[t][0].first != source) continue;
        std::vector<Index> source_indexes;
        for (const Cindex &c : step_cindexes[t])
          source_indexes.push_back(c.second);
        found = (source_indexes == indexes);
      }
      REQUIRE(found);
      continue;
    }
    // Intermediate steps are sorted by Index, unless a component reorders
    // them.
    int32_t component_node = nnet.IsComponentInputNode(node) ? node + 1 : node;
    if (nnet.IsComponentNode(component_node) &&
        (nnet.GetComponent(nnet.GetNode(component_node).component_index)
             ->Properties() &
         kReordersIndexes))
      continue;
    for (size_t i = 1; i < indexes.size(); i++)
      REQUIRE(indexes[i - 1] < indexes[i]);
  }
}

const char *const kFeedForwardConfig = R"(
input-node name=input dim=4
component name=affine1 type=AffineComponent input-dim=4 output-dim=5
component-node name=affine1 component=affine1 input=input
component name=relu1 type=RectifiedLinearComponent dim=5
component-node name=relu1 component=relu1 input=affine1
component name=affine2 type=AffineComponent input-dim=5 output-dim=3
component-node name=affine2 component=affine2 input=relu1
output-node name=output input=affine2
)";

const char *const kTdnnConfig = R"(
input-node name=input dim=2
component name=tdnn1 type=AffineComponent input-dim=6 output-dim=3
component-node name=tdnn1 component=tdnn1 input=Append(Offset(input, -2), input, Offset(input, 2))
component name=relu1 type=RectifiedLinearComponent dim=3
component-node name=relu1 component=relu1 input=tdnn1
component name=tdnn2 type=AffineComponent input-dim=9 output-dim=2
component-node name=tdnn2 component=tdnn2 input=Append(Offset(relu1, -2), relu1, Offset(relu1, 2))
output-node name=output input=tdnn2
)";

const char *const kRnnConfig = R"(
input-node name=input dim=3
component name=affine1 type=AffineComponent input-dim=7 output-dim=4
component-node name=affine1 component=affine1 input=Append(input, IfDefined(Offset(relu1, -1)))
component name=relu1 type=RectifiedLinearComponent dim=4
component-node name=relu1 component=relu1 input=affine1
component name=final type=AffineComponent input-dim=4 output-dim=2
component-node name=final component=final input=relu1
output-node name=output input=final
)";

const char *const kFailoverConfig = R"(
input-node name=input dim=4
component name=affine1 type=AffineComponent input-dim=4 output-dim=4
component-node name=affine1 component=affine1 input=Sum(input, Failover(Offset(relu1, -1), Offset(input, 1)))
component name=relu1 type=RectifiedLinearComponent dim=4
component-node name=relu1 component=relu1 input=affine1
output-node name=output input=relu1
)";

const char *const kClockworkConfig = R"(
input-node name=input dim=2
component name=fast type=AffineComponent input-dim=5 output-dim=3
component-node name=fast component=fast input=Append(input, IfDefined(Offset(fast, -1)))
component name=slow type=AffineComponent input-dim=6 output-dim=3
component-node name=slow component=slow input=Append(Round(fast, 3), IfDefined(Offset(slow, -3)))
component name=final type=AffineComponent input-dim=6 output-dim=2
component-node name=final component=final input=Append(Switch(fast, Offset(fast, -1)), slow)
output-node name=output input=final
)";

const char *const kDimRangeConfig = R"(
input-node name=input dim=6
dim-range-node name=in_a input-node=input dim-offset=0 dim=4
dim-range-node name=in_b input-node=input dim-offset=4 dim=2
component name=a1 type=AffineComponent input-dim=6 output-dim=5
component-node name=a1 component=a1 input=Append(Offset(in_a, -1), in_b)
dim-range-node name=a1_part input-node=a1 dim-offset=1 dim=3
component name=r1 type=RectifiedLinearComponent dim=3
component-node name=r1 component=r1 input=Sum(Scale(0.5, a1_part), Const(1.0, 3))
component name=a2 type=AffineComponent input-dim=6 output-dim=2
component-node name=a2 component=a2 input=Append(r1, Offset(a1_part, 1))
output-node name=output input=a2
)";

}  // namespace nnet3
