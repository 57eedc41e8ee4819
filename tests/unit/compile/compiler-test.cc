// Tests of compile/compiler.h: hand-checked command sequences for a tiny
// network, computations of assorted networks passing the checker, and the
// not-computable error.
#include "compile/compiler.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <iostream>
#include <memory>
#include <sstream>

#include "base/error.h"
#include "compile/computation-checker.h"
#include "compile/computation-steps.h"
#include "compiler-test-utils.h"

namespace nnet3 {

namespace {

NnetComputation Compile(const Nnet &nnet, const ComputationRequest &request,
                        bool debug_info = true) {
  NnetComputation computation;
  Compiler compiler(request, nnet);
  CompilerOptions opts;
  opts.output_debug_info = debug_info;
  compiler.CreateComputation(opts, &computation);
  return computation;
}

std::string PrintToString(const Nnet &nnet, const NnetComputation &c) {
  std::ostringstream os;
  c.Print(os, nnet);
  return os.str();
}

std::vector<std::string> Commands(const Nnet &nnet, const NnetComputation &c) {
  std::vector<std::string> strings;
  c.GetCommandStrings(nnet, &strings);
  return strings;
}

// Compiles and checks with the pre-optimization checks (check_rewrite).
NnetComputation CompileAndCheck(const Nnet &nnet,
                                const ComputationRequest &request) {
  NnetComputation computation = Compile(nnet, request);
  INFO(PrintToString(nnet, computation));
  CheckComputationOptions opts;
  opts.check_rewrite = true;
  ComputationChecker(opts, nnet, computation).Check();
  return computation;
}

int32_t CountCommands(const NnetComputation &c, CommandType type) {
  int32_t n = 0;
  for (const auto &cmd : c.commands) n += (cmd.command_type == type);
  return n;
}

const char *const kTinyConfig = R"(
input-node name=input dim=2
component name=affine1 type=AffineComponent input-dim=4 output-dim=3
component-node name=affine1 component=affine1 input=Append(Offset(input, -1), input)
component name=relu1 type=RectifiedLinearComponent dim=3
component-node name=relu1 component=relu1 input=affine1
output-node name=output input=Sum(relu1, Scale(-1.0, Offset(affine1, 1)))
)";

}  // namespace

TEST_CASE("Compiler: hand-checked commands for a tiny network", "[compiler]") {
  // affine1 at t reads input t-1 and t; the output at t is
  // relu1(t) - affine1(t+1). Outputs t = 1, 2 from inputs t = 0..3.
  Nnet nnet = CompilerTestNnet(kTinyConfig);
  ComputationRequest request = SimpleRequest(0, 4, 1, 3);
  request.inputs[0].has_deriv = true;
  request.outputs[0].has_deriv = true;
  request.need_model_derivative = true;
  request.store_component_stats = true;
  NnetComputation c = CompileAndCheck(nnet, request);
  // Matrices (with their rows' cindexes): m1 input t=0..3 (value), m2 its
  // deriv; m3/m4 affine1_input t=1..3; m5/m6 affine1 t=1..3; m7/m8
  // relu1_input t=1..2; m9/m10 relu1 t=1..2; m11/m12 output t=1..2.
  REQUIRE(c.matrices.size() == 13);
  REQUIRE(c.matrix_debug_info.size() == 13);
  REQUIRE(c.matrix_debug_info[5].cindexes ==
          std::vector<Cindex>{
              {2, Index(0, 1)}, {2, Index(0, 2)}, {2, Index(0, 3)}});
  REQUIRE_FALSE(c.matrix_debug_info[5].is_deriv);
  REQUIRE(c.matrix_debug_info[6].is_deriv);
  std::vector<std::string> expected;
  // Everything but the input values and the output deriv is allocated and
  // zeroed.
  for (int32_t m = 2; m <= 11; m++) {
    std::string size = (m <= 2   ? "4x2"
                        : m <= 4 ? "3x4"
                        : m <= 6 ? "3x3"
                                 : "2x3");
    expected.push_back("m" + std::to_string(m) + " = undefined(" + size + ")");
    expected.push_back("m" + std::to_string(m) + " = 0");
  }
  std::vector<std::string> rest = {
      "m1 = user input [for node: 'input']",
      // After the inputs (Kaldi's; a pass is never empty).
      "# (no-op, permanent)",
      // Append(Offset(input, -1), input) for t = 1..3.
      "m3(:, 0:1) = m1.CopyRows([0:2])",
      "m3(:, 2:3) = m1.CopyRows([1:3])",
      "component-node 'affine1' propagate: m3 -> m5",
      // relu1 is needed at t = 1..2 only: rows 0..1 of affine1.
      "m7 = m5.CopyRows([0:1])",
      "component-node 'relu1' propagate: m7 -> m9 [and store stats]",
      // Sum(relu1, Scale(-1, Offset(affine1, 1))), grouped by scale.
      "m11 = -1 * m5.CopyRows([1:2])",
      "m11 += m9",
      "output m11 to user [for node: 'output']",
      "# begin backward commands",
      "m12 = user input [for node: 'output']",
      "m6 += -1 * m12.AddRows([-1 0:1])",
      "m10 += m12",
      "component-node 'relu1' backprop: ([], m9, m10) -> m8",
      "m6 += m8.AddRows([0:1 -1])",
      "component-node 'affine1' backprop: (m3, [], m6) -> m4 [and update "
      "model]",
      "m2 += m4(:, 0:1).AddRows([0:2 -1])",
      "m2 += m4(:, 2:3).AddRows([-1 0:2])",
      "output m2 to user [for node: 'input']",
      "# (no-op, permanent)",
  };
  expected.insert(expected.end(), rest.begin(), rest.end());
  // All matrices are freed except the output (m11) and the input deriv (m2).
  for (int32_t m = 1; m <= 12; m++)
    if (m != 2 && m != 11)
      expected.push_back("m" + std::to_string(m) + " = []");
  std::vector<std::string> got = Commands(nnet, c);
  for (size_t i = 0; i < std::min(got.size(), expected.size()); i++) {
    INFO("command c" << i);
    REQUIRE(got[i] == expected[i]);
  }
  REQUIRE(got.size() == expected.size());
  REQUIRE(c.need_model_derivative);
  // The relu's kBackprop lets the executor store its backprop stats.
  REQUIRE(CountCommands(c, kBackprop) == 2);
}

TEST_CASE("Compiler: no derivatives, no backward pass", "[compiler]") {
  Nnet nnet = CompilerTestNnet(kTinyConfig);
  NnetComputation c = CompileAndCheck(nnet, SimpleRequest(0, 4, 1, 3));
  std::vector<std::string> got = Commands(nnet, c);
  REQUIRE(CountCommands(c, kBackprop) +
              CountCommands(c, kBackpropNoModelUpdate) ==
          0);
  REQUIRE(got.back() == "m5 = []");  // the output (m6) is not freed
  REQUIRE(c.matrices.size() == 7);   // values only
  REQUIRE(CountCommands(c, kPropagate) == 2);
  for (const auto &cmd : c.commands)
    if (cmd.command_type == kPropagate) REQUIRE(cmd.arg6 == 0);  // no stats
  // Without debug info.
  NnetComputation c2 = Compile(nnet, SimpleRequest(0, 4, 1, 3), false);
  REQUIRE(c2.matrix_debug_info.empty());
  REQUIRE(Commands(nnet, c2) == got);
}

TEST_CASE("Compiler: derivative flags", "[compiler]") {
  Nnet nnet = CompilerTestNnet(kFeedForwardConfig);
  // Output deriv only, no model update: the backward pass is only the
  // deriv's acceptance (nothing needs derivatives).
  ComputationRequest r = SimpleRequest(0, 3, 0, 3);
  r.outputs[0].has_deriv = true;
  NnetComputation c = CompileAndCheck(nnet, r);
  REQUIRE(CountCommands(c, kBackprop) +
              CountCommands(c, kBackpropNoModelUpdate) ==
          0);
  REQUIRE(CountCommands(c, kAcceptInput) == 2);
  // Input deriv without model update: every layer backprops, without
  // update.
  r.inputs[0].has_deriv = true;
  c = CompileAndCheck(nnet, r);
  REQUIRE(CountCommands(c, kBackpropNoModelUpdate) == 3);
  REQUIRE(CountCommands(c, kBackprop) == 0);
  REQUIRE(CountCommands(c, kProvideOutput) == 2);
  // Model update only: the first affine layer needs no input derivative.
  r.inputs[0].has_deriv = false;
  r.need_model_derivative = true;
  c = CompileAndCheck(nnet, r);
  REQUIRE(CountCommands(c, kBackprop) == 3);
  bool first_affine_has_no_in_deriv = false;
  for (const auto &cmd : c.commands)
    if (cmd.command_type == kBackprop && cmd.arg1 == 0)
      first_affine_has_no_in_deriv = (cmd.arg6 == 0);
  REQUIRE(first_affine_has_no_in_deriv);
}

TEST_CASE("Compiler: assorted networks pass the checker", "[compiler]") {
  const char *const configs[] = {kFeedForwardConfig, kTdnnConfig,
                                 kRnnConfig,         kFailoverConfig,
                                 kClockworkConfig,   kDimRangeConfig};
  const ComputationRequest requests[] = {
      SimpleRequest(0, 5, 0, 5, 2),   SimpleRequest(0, 14, 4, 10, 2),
      SimpleRequest(0, 7, 0, 7, 3),   SimpleRequest(0, 6, 0, 5),
      SimpleRequest(0, 10, 0, 10, 2), SimpleRequest(-2, 8, 0, 5, 2)};
  for (size_t i = 0; i < 6; i++) {
    Nnet nnet = CompilerTestNnet(configs[i]);
    for (int32_t flags = 0; flags < 16; flags++) {
      INFO("network " << i << ", flags " << flags);
      ComputationRequest r = requests[i];
      r.inputs[0].has_deriv = flags & 1;
      r.outputs[0].has_deriv = flags & 2;
      r.need_model_derivative = flags & 4;
      r.store_component_stats = flags & 8;
      NnetComputation c = CompileAndCheck(nnet, r);
      REQUIRE(CountCommands(c, kNoOperationMarker) == 1);
    }
  }
}

TEST_CASE("Compiler: recurrent computation has one propagate per frame",
          "[compiler]") {
  Nnet nnet = CompilerTestNnet(kRnnConfig);
  ComputationRequest r = SimpleRequest(0, 8, 0, 8, 2);
  r.outputs[0].has_deriv = true;
  r.need_model_derivative = true;
  NnetComputation c = CompileAndCheck(nnet, r);
  // affine1 and relu1 per frame, final once.
  REQUIRE(CountCommands(c, kPropagate) == 8 * 2 + 1);
  REQUIRE(CountCommands(c, kBackprop) == 8 * 2 + 1);
  // The final layer reads relu1 from 8 steps: a gather from several
  // matrices, and its transpose in the backward pass.
  REQUIRE(CountCommands(c, kCopyRowsMulti) == 1);
  REQUIRE(CountCommands(c, kAddToRowsMulti) == 1);
}

TEST_CASE("Compiler: a row read by many rows backprops with AddRowRanges",
          "[compiler]") {
  Nnet nnet = CompilerTestNnet(R"(
input-node name=input dim=2
input-node name=ivector dim=3
component name=a type=AffineComponent input-dim=5 output-dim=2
component-node name=a component=a input=Append(input, ReplaceIndex(ivector, t, 0))
output-node name=output input=a
)");
  ComputationRequest r = SimpleRequest(0, 6, 0, 6);
  r.inputs.emplace_back("ivector", MakeIndexes(0, 1));
  r.inputs[1].has_deriv = true;
  NnetComputation c = CompileAndCheck(nnet, r);
  REQUIRE(CountCommands(c, kAddRowRanges) == 1);
  for (const auto &cmd : c.commands)
    if (cmd.command_type == kAddRowRanges)
      REQUIRE(c.indexes_ranges[cmd.arg3] ==
              std::vector<std::pair<int32_t, int32_t>>{{0, 6}});
}

TEST_CASE("Compiler: non-simple components get precomputed indexes and memos",
          "[compiler]") {
  Nnet nnet = CompilerTestNnet(R"(
input-node name=input dim=4
component name=affine1 type=AffineComponent input-dim=4 output-dim=4
component-node name=affine1 component=affine1 input=input
component name=drop type=GeneralDropoutComponent dim=4 dropout-proportion=0.5
component-node name=drop component=drop input=affine1
output-node name=output input=drop
)");
  ComputationRequest r = SimpleRequest(0, 3, 0, 3, 2);
  r.inputs[0].has_deriv = true;
  NnetComputation c = CompileAndCheck(nnet, r);
  REQUIRE(c.component_precomputed_indexes.size() == 2);
  std::vector<Index> sorted = MakeIndexes(0, 3, 2);
  std::sort(sorted.begin(), sorted.end());  // by t, then n
  REQUIRE(c.component_precomputed_indexes[1].output_indexes == sorted);
  REQUIRE(c.component_precomputed_indexes[1].input_indexes == sorted);
  int32_t memo = -1;
  for (const auto &cmd : c.commands)
    if (cmd.command_type == kPropagate && cmd.arg1 == 1) {
      REQUIRE(cmd.arg2 == 1);
      memo = cmd.arg5;
    }
  REQUIRE(memo > 0);
  for (const auto &cmd : c.commands)
    if (cmd.command_type == kBackpropNoModelUpdate && cmd.arg1 == 1)
      REQUIRE(cmd.arg7 == memo);
}

namespace {

// A non-simple component for the compiler's sake only (never run): output
// t reads input t-1 and t+1; it reorders its Indexes (reversed, with a
// blank row appended), as convolution-like components do.
class TestReorderingComponent : public Component {
 public:
  std::string Type() const override { return "TestReorderingComponent"; }
  void InitFromConfig(ConfigLine *) override {}
  int32_t InputDim() const override { return 2; }
  int32_t OutputDim() const override { return 2; }
  int32_t Properties() const override {
    return kReordersIndexes | kBackpropNeedsInput;
  }
  std::unique_ptr<Component> Copy() const override {
    return std::make_unique<TestReorderingComponent>();
  }
  void Read(std::istream &, bool) override {}
  void Write(std::ostream &, bool) const override {}
  void *Propagate(const ComponentPrecomputedIndexes *, const MatrixView &,
                  MatrixView *) const override {
    return nullptr;
  }
  void Backprop(const std::string &, const ComponentPrecomputedIndexes *,
                const MatrixView &, const MatrixView &, const MatrixView &,
                void *, Component *, MatrixView *) const override {}
  void GetInputIndexes(const MiscComputationInfo &, const Index &output,
                       std::vector<Index> *desired) const override {
    desired->clear();
    desired->push_back(Index(output.n, output.t - 1, output.x));
    desired->push_back(Index(output.n, output.t + 1, output.x));
  }
  bool IsComputable(const MiscComputationInfo &, const Index &output,
                    const IndexSet &input,
                    std::vector<Index> *used) const override {
    std::vector<Index> desired;
    GetInputIndexes(MiscComputationInfo(), output, &desired);
    for (const Index &i : desired)
      if (!input(i)) return false;
    if (used) *used = desired;
    return true;
  }
  void ReorderIndexes(std::vector<Index> *input_indexes,
                      std::vector<Index> *output_indexes) const override {
    std::reverse(input_indexes->begin(), input_indexes->end());
    std::reverse(output_indexes->begin(), output_indexes->end());
    input_indexes->push_back(Index(0, kNoTime, 0));
    output_indexes->push_back(Index(0, kNoTime, 0));
  }
};

}  // namespace

TEST_CASE("Compiler: a non-simple component that reorders its Indexes",
          "[compiler]") {
  Nnet nnet;
  nnet.AddComponent("reorder", std::make_unique<TestReorderingComponent>());
  std::istringstream config(R"(
input-node name=input dim=2
component name=a type=AffineComponent input-dim=2 output-dim=2
component-node name=a component=a input=input
component-node name=r component=reorder input=a
output-node name=output input=Sum(r, Offset(a, 1))
)");
  nnet.ReadConfig(config);
  ComputationRequest r = SimpleRequest(0, 8, 1, 6, 2);
  r.inputs[0].has_deriv = true;
  r.outputs[0].has_deriv = true;
  r.need_model_derivative = true;
  ComputationGraph graph;
  ComputationGraphBuilder builder(nnet, r, &graph);
  builder.Compute();
  REQUIRE(builder.AllOutputsAreComputable());
  builder.Prune();
  std::vector<std::vector<int32_t>> phases, steps;
  ComputeComputationPhases(nnet, graph, &phases);
  ComputeComputationSteps(nnet, r, phases, &graph, &steps);
  CheckStepRules(nnet, r, graph, steps);
  // The reordered steps: r's input (a at t = 0..6, for n = 0, 1, reversed,
  // then a blank) and r at t = 1..5 reversed, then a blank.
  const int32_t r_node = nnet.GetNodeIndex("r");
  bool found = false;
  for (size_t s = 1; s < steps.size(); s++) {
    if (graph.cindexes[steps[s][0]].first != r_node) continue;
    found = true;
    REQUIRE(steps[s].size() == 11);
    REQUIRE(steps[s - 1].size() == 15);
    REQUIRE(graph.cindexes[steps[s][0]].second == Index(1, 5));
    REQUIRE(graph.cindexes[steps[s].back()].second.t == kNoTime);
  }
  REQUIRE(found);
  NnetComputation c = CompileAndCheck(nnet, r);
  // The propagate reads the reordered input step (15 rows).
  const int32_t reorder = nnet.GetComponentIndex("reorder");
  int32_t num_propagates = 0;
  for (const auto &cmd : c.commands)
    if (cmd.command_type == kPropagate && cmd.arg1 == reorder) {
      REQUIRE(c.submatrices[cmd.arg3].num_rows == 15);
      REQUIRE(c.submatrices[cmd.arg4].num_rows == 11);
      num_propagates++;
    }
  REQUIRE(num_propagates == 1);
}

TEST_CASE("Compiler: outputs that cannot be computed give a UserError",
          "[compiler]") {
  Nnet nnet = CompilerTestNnet(kTdnnConfig);
  // A 3-frame utterance through a model with 4 frames of context each side.
  Compiler compiler(SimpleRequest(0, 3, 0, 3), nnet);
  NnetComputation c;
  try {
    compiler.CreateComputation(CompilerOptions(), &c);
    FAIL("no error");
  } catch (const UserError &e) {
    std::string msg = e.what();
    INFO(msg);
    REQUIRE(msg.find('\n') == std::string::npos);
    REQUIRE_THAT(msg, Catch::Contains("output 'output' at t=0..2"));
    REQUIRE_THAT(msg, Catch::Contains("input 'input' at t=-4..-1,3..6"));
    REQUIRE_THAT(msg, Catch::Contains("Supply frames t=-4..6 of 'input'"));
  }
}

TEST_CASE("Compiler: print a computation", "[.print]") {
  Nnet nnet = CompilerTestNnet(kTinyConfig);
  ComputationRequest request = SimpleRequest(0, 4, 1, 3);
  request.inputs[0].has_deriv = true;
  request.outputs[0].has_deriv = true;
  request.need_model_derivative = true;
  request.store_component_stats = true;
  std::cout << PrintToString(nnet, Compile(nnet, request));
}

}  // namespace nnet3
