#include "rowops-test-utils.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "compile/compiler.h"
#include "compile/computation-checker.h"
#include "compute/nnet-computer.h"
#include "nnet/nnet-utils.h"

namespace nnet3 {

Nnet NnetFromText(const std::string &config) {
  std::istringstream is(config);
  Nnet nnet;
  nnet.ReadConfig(is, "optimize-b-test.config");
  return nnet;
}

Nnet RowOpsNnet() {
  Nnet nnet = NnetFromText(
      "input-node name=input dim=3\n"
      "input-node name=input2 dim=3\n"
      "output-node name=output input=input\n"
      "output-node name=output2 input=Append(input, input2)\n");
  REQUIRE(nnet.GetNodeIndex("input") == kInputNode);
  REQUIRE(nnet.GetNodeIndex("input2") == kInput2Node);
  REQUIRE(nnet.GetNodeIndex("output") == kOutputNode);
  REQUIRE(nnet.GetNodeIndex("output2") == kOutput2Node);
  return nnet;
}

Nnet MergingNnet() {
  return NnetFromText(
      "input-node name=input dim=3\n"
      "input-node name=input2 dim=3\n"
      "component name=relu type=RectifiedLinearComponent dim=3\n"
      "component-node name=relu component=relu input=input\n"
      "component name=softmax type=SoftmaxComponent dim=3\n"
      "component-node name=softmax component=softmax input=relu\n"
      "component name=affine type=AffineComponent input-dim=3 output-dim=3 "
      "learning-rate=0.1\n"
      "component-node name=affine component=affine input=input2\n"
      "component name=normalize type=NormalizeComponent dim=3\n"
      "component-node name=normalize component=normalize input=affine\n"
      "output-node name=output input=softmax\n"
      "output-node name=output2 input=normalize\n"
      "output-node name=output3 input=Append(relu, affine)\n");
}

std::string Listing(const Nnet &nnet, const NnetComputation &computation) {
  std::vector<std::string> lines;
  computation.GetCommandStrings(nnet, &lines);
  std::string ans;
  for (const std::string &line : lines) ans += line + "\n";
  return ans;
}

namespace {

bool IsIo(const NnetComputation::Command &c) {
  return c.command_type == kAcceptInput || c.command_type == kProvideOutput;
}

}  // namespace

RunResults RunComputation(const Nnet &nnet, const NnetComputation &computation,
                          uint64_t seed) {
  RunResults results;
  results.has_gradient = computation.need_model_derivative;
  results.gradient = nnet;
  ScaleNnet(0.0f, &results.gradient);
  SetNnetAsGradient(&results.gradient);
  Nnet stats_nnet = nnet;  // keeps `nnet` itself unchanged
  NnetComputeOptions opts;
  NnetComputer computer(opts, computation, stats_nnet, &results.gradient);
  const auto &commands = computation.commands;
  const int32_t n = static_cast<int32_t>(commands.size());
  int32_t pc = 0, num_inputs = 0;
  while (true) {
    // The I/O commands at the program counter (markers are skipped too).
    for (; pc < n && (IsIo(commands[pc]) ||
                      commands[pc].command_type == kNoOperationMarker);
         pc++) {
      const NnetComputation::Command &c = commands[pc];
      if (c.command_type == kNoOperationMarker) continue;
      const std::string &name = nnet.GetNodeName(c.arg2);
      if (c.command_type == kAcceptInput) {
        const NnetComputation::SubMatrixInfo &info =
            computation.submatrices[c.arg1];
        Matrix input(info.num_rows, info.num_cols);
        input.SetRandn(seed + num_inputs++);
        computer.AcceptInput(name, &input);
      } else {
        results.names.push_back(name);
        results.values.emplace_back(computer.GetOutput(name));
      }
    }
    if (pc >= n) break;
    computer.Run();
    while (pc < n && !IsIo(commands[pc])) pc++;
  }
  return results;
}

void CheckEquivalent(const Nnet &nnet, const NnetComputation &before,
                     const NnetComputation &after, uint64_t seed,
                     bool check_before, float tol) {
  INFO("before:\n"
       << Listing(nnet, before) << "after:\n"
       << Listing(nnet, after));
  CheckComputationOptions check_opts;
  if (check_before) ComputationChecker(check_opts, nnet, before).Check();
  // An optimized computation may leave parts of a matrix nothing reads
  // untouched (RemoveUnnecessaryZeroing), as Kaldi's may.
  check_opts.check_unused_variables = false;
  ComputationChecker(check_opts, nnet, after).Check();
  RunResults a = RunComputation(nnet, before, seed),
             b = RunComputation(nnet, after, seed);
  REQUIRE(a.names == b.names);
  for (size_t i = 0; i < a.values.size(); i++) {
    INFO("output " << i << " (" << a.names[i] << ")");
    REQUIRE(a.values[i].NumRows() == b.values[i].NumRows());
    REQUIRE(a.values[i].NumCols() == b.values[i].NumCols());
    std::vector<float> x = a.values[i].ToHost(), y = b.values[i].ToHost();
    for (size_t j = 0; j < x.size(); j++) {
      INFO("element " << j);
      REQUIRE(y[j] == Approx(x[j]).margin(tol).epsilon(tol));
    }
  }
  REQUIRE(a.has_gradient == b.has_gradient);
  if (a.has_gradient) {
    double aa = DotProduct(a.gradient, a.gradient),
           bb = DotProduct(b.gradient, b.gradient),
           ab = DotProduct(a.gradient, b.gradient);
    REQUIRE(aa - 2 * ab + bb <= 1e-8 * (aa + 1e-10));
  }
}

NnetComputation CompileForTest(const Nnet &nnet,
                               const ComputationRequest &request) {
  Compiler compiler(request, nnet);
  NnetComputation computation;
  compiler.CreateComputation(CompilerOptions(), &computation);
  CheckComputationOptions opts;
  opts.check_rewrite = true;
  ComputationChecker(opts, nnet, computation).Check();
  return computation;
}

ComputationRequest TimeRequest(int32_t in_begin, int32_t in_end,
                               int32_t out_begin, int32_t out_end,
                               int32_t num_n, bool backprop) {
  ComputationRequest request;
  std::vector<Index> in, out;
  for (int32_t n = 0; n < num_n; n++) {
    for (int32_t t = in_begin; t < in_end; t++) in.push_back(Index(n, t, 0));
    for (int32_t t = out_begin; t < out_end; t++) out.push_back(Index(n, t, 0));
  }
  request.inputs.emplace_back("input", in, backprop);
  request.outputs.emplace_back("output", out, backprop);
  request.need_model_derivative = backprop;
  return request;
}

}  // namespace nnet3
