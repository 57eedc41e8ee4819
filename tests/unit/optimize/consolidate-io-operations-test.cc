// ConsolidateIoOperations: inputs at the start and outputs at the end of
// each segment, so that NnetComputer accepts every input before Run().
#include "optimize/consolidate-io-operations.h"

#include <catch2/catch.hpp>

#include "base/error.h"
#include "compute/nnet-computer.h"
#include "optimize-a-test-utils.h"

namespace nnet3 {

TEST_CASE("ConsolidateIoOperations moves I/O to segment boundaries",
          "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(
      "input-node name=input dim=2\n"
      "input-node name=input2 dim=2\n"
      "component name=affine type=AffineComponent input-dim=2 output-dim=2\n"
      "component-node name=affine component=affine input=input\n"
      "output-node name=output input=Sum(affine, input2)\n");
  ComputationRequest request;
  request.inputs.emplace_back("input", 0, 3);
  request.inputs.emplace_back("input2", 0, 3);
  request.outputs.emplace_back("output", 0, 3);
  request.inputs[0].has_deriv = true;
  request.outputs[0].has_deriv = true;
  request.need_model_derivative = true;
  const NnetComputation before = passes_a::Compile(nnet, request);
  NnetComputation after = before;
  REQUIRE(ConsolidateIoOperations(nnet, &after));
  INFO("before:\n"
       << passes_a::Listing(nnet, before) << "after:\n"
       << passes_a::Listing(nnet, after));
  const auto &commands = after.commands;
  REQUIRE(commands.size() == before.commands.size());
  CHECK(commands[0].command_type == kAcceptInput);
  CHECK(commands[1].command_type == kAcceptInput);
  int32_t marker = -1;
  for (size_t k = 0; k < commands.size(); k++)
    if (commands[k].command_type == kNoOperationMarker) marker = int32_t(k);
  REQUIRE(marker > 0);
  CHECK(commands[marker - 1].command_type == kProvideOutput);
  CHECK(commands[marker + 1].command_type == kAcceptInput);
  CHECK(commands.back().command_type == kProvideOutput);
  // The I/O commands of a segment are all at its ends now.
  for (int32_t k = 2; k + 1 < marker; k++)
    CHECK(commands[k].command_type != kAcceptInput);
  passes_a::CheckSameResults(nnet, before, after, 51);
  // NnetComputer takes both inputs before the first Run().
  Nnet delta(nnet);
  NnetComputer computer(NnetComputeOptions(), after, nnet, &delta);
  Matrix x(3, 2), x2(3, 2), dy(3, 2);
  computer.AcceptInput("input", &x);
  computer.AcceptInput("input2", &x2);
  computer.Run();
  CHECK(computer.GetOutput("output").NumRows() == 3);
  computer.AcceptInput("output", &dy);
  computer.Run();
  CHECK(computer.GetOutput("input").NumRows() == 3);
  NnetComputation again = after;
  CHECK_FALSE(ConsolidateIoOperations(nnet, &again));
}

TEST_CASE("ConsolidateIoOperations refuses to move I/O across a use",
          "[optimize-a]") {
  const Nnet nnet = passes_a::IoNnet();
  using Cmd = NnetComputation::Command;
  NnetComputation c;
  int32_t m1 = c.NewMatrix(4, 3, MatrixStrideType::kDefaultStride);
  // The input matrix is sized before it is accepted: moving the
  // kAcceptInput in front of the allocation would be wrong.
  c.commands = {
      Cmd(kAllocMatrix, m1),
      Cmd(kAcceptInput, m1, nnet.GetNodeIndex("input")),
      Cmd(kProvideOutput, m1, nnet.GetNodeIndex("o1")),
  };
  CHECK_THROWS_AS(ConsolidateIoOperations(nnet, &c), InternalError);
}

}  // namespace nnet3
