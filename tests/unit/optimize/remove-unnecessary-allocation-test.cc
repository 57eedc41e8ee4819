// RemoveUnnecessaryAllocation: a free followed by an allocation of the same
// shape becomes a swap, unless holding the memory would raise the peak.
#include "optimize/remove-unnecessary-allocation.h"

#include <catch2/catch.hpp>

#include "compile/computation-analysis.h"
#include "optimize-a-test-utils.h"
#include "optimize/move-sizing-commands.h"

namespace nnet3 {

namespace {
using Cmd = NnetComputation::Command;
const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
}  // namespace

TEST_CASE("RemoveUnnecessaryAllocation reuses a freed matrix", "[optimize-a]") {
  const Nnet nnet = passes_a::IoNnet();
  NnetComputation c;
  int32_t m1 = c.NewMatrix(4, 3, kDefault), m2 = c.NewMatrix(4, 3, kDefault),
          m3 = c.NewMatrix(4, 3, kDefault), m4 = c.NewMatrix(2, 3, kDefault);
  c.commands = {
      Cmd(kAcceptInput, m1, nnet.GetNodeIndex("input")),
      Cmd(kAllocMatrix, m2),
      Cmd(kMatrixCopy, m2, m1),
      Cmd(kDeallocMatrix, m1),
      Cmd(kAllocMatrix, m3),  // same shape as m1: takes its memory
      Cmd(2.0f, kMatrixCopy, m3, m2),
      Cmd(kDeallocMatrix, m2),
      Cmd(kAllocMatrix, m4),  // another shape: stays
      Cmd(kMatrixCopy, m4, c.NewSubMatrix(m3, 0, 2, 0, -1)),
      Cmd(kProvideOutput, m3, nnet.GetNodeIndex("o1")),
      Cmd(kProvideOutput, m4, nnet.GetNodeIndex("o2")),
  };
  NnetComputation after = c;
  REQUIRE(RemoveUnnecessaryAllocation(nnet, &after));
  const std::string listing = passes_a::Listing(nnet, after);
  INFO(listing);
  CHECK(passes_a::CountOf(listing, "m3.swap(m1) [4x3]\n") == 1);
  CHECK(passes_a::CountOf(listing, "m1 = []") == 0);
  CHECK(passes_a::CountOf(listing, "m4 = undefined(2x3)") == 1);
  CHECK(GetMaxMemoryUse(after) <= GetMaxMemoryUse(c));
  passes_a::CheckSameResults(nnet, c, after, 41);
}

TEST_CASE("RemoveUnnecessaryAllocation never raises the peak memory",
          "[optimize-a]") {
  const Nnet nnet = passes_a::IoNnet();
  NnetComputation c;
  int32_t m1 = c.NewMatrix(4, 3, kDefault), m2 = c.NewMatrix(4, 3, kDefault),
          m3 = c.NewMatrix(4, 3, kDefault), m5 = c.NewMatrix(8, 3, kDefault);
  c.commands = {
      Cmd(kAcceptInput, m1, nnet.GetNodeIndex("input")),
      Cmd(kAllocMatrix, m2),
      Cmd(kMatrixCopy, m2, m1),
      Cmd(kDeallocMatrix, m1),
      // The peak (m2 + m5) is here: keeping m1 until m3 would raise it.
      Cmd(kAllocMatrix, m5),
      Cmd(kMatrixCopy, c.NewSubMatrix(m5, 0, 4, 0, -1), m2),
      Cmd(kMatrixCopy, c.NewSubMatrix(m5, 4, 4, 0, -1), m2),
      Cmd(kDeallocMatrix, m2),
      Cmd(kAllocMatrix, m3),  // takes m2's memory instead
      Cmd(kMatrixCopy, m3, c.NewSubMatrix(m5, 2, 4, 0, -1)),
      Cmd(kDeallocMatrix, m5),
      Cmd(kProvideOutput, m3, nnet.GetNodeIndex("o1")),
  };
  NnetComputation after = c;
  REQUIRE(RemoveUnnecessaryAllocation(nnet, &after));
  const std::string listing = passes_a::Listing(nnet, after);
  INFO(listing);
  CHECK(passes_a::CountOf(listing, "m3.swap(m2) [4x3]\n") == 1);
  CHECK(passes_a::CountOf(listing, "m1 = []\n") == 1);
  CHECK(GetMaxMemoryUse(after) == GetMaxMemoryUse(c));
  passes_a::CheckSameResults(nnet, c, after, 42);
}

TEST_CASE("RemoveUnnecessaryAllocation after MoveSizingCommands",
          "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(passes_a::kRecurrentConfig);
  const NnetComputation compiled = passes_a::Compile(
      nnet, passes_a::SimpleTrainingRequest(0, 4, 0, 4, true));
  NnetComputation before = compiled;
  MoveSizingCommands(nnet, &before);
  NnetComputation after = before;
  REQUIRE(RemoveUnnecessaryAllocation(nnet, &after));
  INFO(passes_a::Listing(nnet, after));
  CHECK(passes_a::CountOf(passes_a::Listing(nnet, after), ".swap(") > 0);
  CHECK(GetMaxMemoryUse(after) <= GetMaxMemoryUse(before));
  passes_a::CheckSameResults(nnet, compiled, after, 43);
}

}  // namespace nnet3
