// Optimize(): the pass list, its logging and its per-pass checking.
#include "optimize/nnet-optimize.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "optimize-a-test-utils.h"

namespace nnet3 {

TEST_CASE("MaxOutputTimeInRequest", "[optimize-a]") {
  ComputationRequest request =
      passes_a::SimpleTrainingRequest(-3, 10, 2, 7, false);
  CHECK(MaxOutputTimeInRequest(request) == 6);
  request.outputs.emplace_back("output2", 0, 12);
  CHECK(MaxOutputTimeInRequest(request) == 11);
}

TEST_CASE("Optimize puts I/O at segment boundaries even when off",
          "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(passes_a::kFeedForwardConfig);
  const NnetComputation before = passes_a::Compile(
      nnet, passes_a::SimpleTrainingRequest(0, 5, 0, 4, true));
  for (bool optimize : {false, true}) {
    NnetComputation c = before;
    NnetOptimizeOptions opts;
    opts.optimize = optimize;
    Optimize(opts, nnet, 3, &c);
    CHECK(c.commands[0].command_type == kAcceptInput);
    CHECK(c.commands.back().command_type == kProvideOutput);
    CHECK((c.commands.size() < before.commands.size()) == optimize);
    passes_a::CheckSameResults(nnet, before, c, 91);
  }
}

TEST_CASE("Optimize logs each pass and names the pass a check fails after",
          "[optimize-a]") {
  const Nnet nnet = passes_a::IoNnet();
  using Cmd = NnetComputation::Command;
  NnetComputation c;
  int32_t m1 = c.NewMatrix(4, 3, MatrixStrideType::kDefaultStride),
          m2 = c.NewMatrix(4, 3, MatrixStrideType::kDefaultStride);
  c.commands = {
      Cmd(kAcceptInput, m1, nnet.GetNodeIndex("input")),
      Cmd(kAllocMatrix, m2),
      Cmd(kMatrixCopy, m2, m1),
      Cmd(kProvideOutput, m2, nnet.GetNodeIndex("o1")),
      Cmd(kDeallocMatrix, m1),
  };
  NnetOptimizeOptions opts;
  opts.check_after_each_pass = true;
  std::string log;
  {
    passes_a::CaptureStderr capture(&log);
    NnetComputation good = c;
    Optimize(opts, nnet, 0, &good);
  }
  CHECK(log.find("pass ConsolidateIoOperations: changed=no, ") !=
        std::string::npos);
  CHECK(log.find("pass MoveSizingCommands: changed=") != std::string::npos);
  // A computation that reads m2 before writing it fails the check after
  // the first pass that runs.
  NnetComputation bad = c;
  bad.commands[2] = Cmd(kMatrixAdd, m2, m1);
  NnetOptimizeOptions off = AllPassesOffOptions();
  off.check_after_each_pass = true;
  passes_a::QuietStderr quiet;
  CHECK_THROWS_WITH(
      Optimize(off, nnet, 0, &bad),
      Catch::Contains("after optimization pass ConsolidateIoOperations"));
}

}  // namespace nnet3
