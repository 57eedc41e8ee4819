// ConvertAdditionToAssignment: adds into still-zero destinations become
// copies; everything else stays.
#include "optimize/convert-addition-to-assignment.h"

#include <catch2/catch.hpp>

#include "optimize-a-test-utils.h"
#include "optimize/nnet-optimize.h"

namespace nnet3 {

namespace {

using Cmd = NnetComputation::Command;

// m2 += m1 twice; m3 += rows of m1; m4 += rows from a multi list; m1's rows
// added to m5 by a scatter with alpha 0.5 (cannot become a copy). Outputs
// o1..o4 are m2..m5.
NnetComputation AddComputation(const Nnet &nnet) {
  const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
  NnetComputation c;
  int32_t m1 = c.NewMatrix(4, 3, kDefault), m2 = c.NewMatrix(4, 3, kDefault),
          m3 = c.NewMatrix(4, 3, kDefault), m4 = c.NewMatrix(4, 3, kDefault),
          m5 = c.NewMatrix(4, 3, kDefault);
  c.indexes.push_back({3, -1, 1, 0});
  c.indexes_multi.push_back({{m1, 2}, {-1, -1}, {m1, 0}, {m1, 0}});
  c.indexes_multi.push_back({{m5, 1}, {m5, 0}, {-1, -1}, {m5, 3}});
  c.commands = {
      Cmd(kAcceptInput, m1, nnet.GetNodeIndex("input")),
      Cmd(kAllocMatrix, m2),
      Cmd(0.0f, kSetConst, m2),
      Cmd(kMatrixAdd, m2, m1),  // becomes a copy
      Cmd(kMatrixAdd, m2, m1),  // stays
      Cmd(kAllocMatrix, m3),
      Cmd(0.0f, kSetConst, m3),
      Cmd(2.0f, kAddRows, m3, m1, 0),  // becomes CopyRows
      Cmd(kAllocMatrix, m4),
      Cmd(0.0f, kSetConst, m4),
      Cmd(kAddRowsMulti, m4, 0),  // becomes CopyRowsMulti
      Cmd(kAllocMatrix, m5),
      Cmd(0.0f, kSetConst, m5),
      Cmd(0.5f, kAddToRowsMulti, m1, 1),  // alpha != 1: stays
      Cmd(kProvideOutput, m2, nnet.GetNodeIndex("o1")),
      Cmd(kProvideOutput, m3, nnet.GetNodeIndex("o2")),
      Cmd(kProvideOutput, m4, nnet.GetNodeIndex("o3")),
      Cmd(kProvideOutput, m5, nnet.GetNodeIndex("o4")),
      Cmd(kDeallocMatrix, m1),
  };
  return c;
}

}  // namespace

TEST_CASE("ConvertAdditionToAssignment converts adds into zero",
          "[optimize-a]") {
  const Nnet nnet = passes_a::IoNnet();
  const NnetComputation before = AddComputation(nnet);
  NnetComputation after = before;
  REQUIRE(ConvertAdditionToAssignment(nnet, &after));
  const std::string listing = passes_a::Listing(nnet, after);
  INFO("before:\n" << passes_a::Listing(nnet, before) << "after:\n" << listing);
  CHECK(after.commands[3].command_type == kMatrixCopy);
  CHECK(after.commands[4].command_type == kMatrixAdd);
  CHECK(after.commands[7].command_type == kCopyRows);
  CHECK(after.commands[7].alpha == 2.0f);
  CHECK(after.commands[10].command_type == kCopyRowsMulti);
  CHECK(after.commands[13].command_type == kAddToRowsMulti);
  CHECK(passes_a::CountOf(listing, " = 0\n") == 4);  // zeroing is kept
  passes_a::CheckSameResults(nnet, before, after, 11);
  // Nothing left to convert.
  NnetComputation again = after;
  CHECK_FALSE(ConvertAdditionToAssignment(nnet, &again));
}

TEST_CASE("ConvertAdditionToAssignment on a compiled computation",
          "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(passes_a::kFeedForwardConfig);
  const NnetComputation before = passes_a::Compile(
      nnet, passes_a::SimpleTrainingRequest(0, 5, 0, 4, true));
  NnetComputation after = before;
  REQUIRE(ConvertAdditionToAssignment(nnet, &after));
  const std::string b = passes_a::Listing(nnet, before),
                    a = passes_a::Listing(nnet, after);
  INFO("before:\n" << b << "after:\n" << a);
  // The first of the two terms of the output's Sum becomes a copy (it was
  // already one), and in the backward pass the first AddRows into the
  // relu's derivative becomes CopyRows; the second stays an add.
  CHECK(passes_a::CountOf(a, ".CopyRows(") ==
        passes_a::CountOf(b, ".CopyRows(") + 1);
  CHECK(passes_a::CountOf(a, " += ") < passes_a::CountOf(b, " += "));
  passes_a::CheckSameResults(nnet, before, after, 12);
}

}  // namespace nnet3
