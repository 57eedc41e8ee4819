// RemoveUnnecessaryZeroing: a zeroing goes only when every part of the
// matrix is written before it is read.
#include "optimize/remove-unnecessary-zeroing.h"

#include <catch2/catch.hpp>

#include "optimize-a-test-utils.h"

namespace nnet3 {

TEST_CASE("RemoveUnnecessaryZeroing removes only dead zeroing",
          "[optimize-a]") {
  const Nnet nnet = passes_a::IoNnet();
  using Cmd = NnetComputation::Command;
  const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
  NnetComputation c;
  int32_t m1 = c.NewMatrix(4, 3, kDefault), m2 = c.NewMatrix(4, 3, kDefault),
          m3 = c.NewMatrix(4, 3, kDefault), m4 = c.NewMatrix(4, 3, kDefault),
          m5 = c.NewMatrix(4, 3, kDefault);
  auto top = [&](int32_t s) { return c.NewSubMatrix(s, 0, 2, 0, -1); };
  auto bottom = [&](int32_t s) { return c.NewSubMatrix(s, 2, 2, 0, -1); };
  c.commands = {
      Cmd(kAcceptInput, m1, nnet.GetNodeIndex("input")),
      Cmd(kAllocMatrix, m2),
      Cmd(0.0f, kSetConst, m2),
      Cmd(kMatrixCopy, m2, m1),  // fully written: zeroing dead
      Cmd(kAllocMatrix, m3),
      Cmd(0.0f, kSetConst, m3),
      Cmd(kMatrixAdd, m3, m1),  // read first: zeroing needed
      Cmd(kAllocMatrix, m4),
      Cmd(0.0f, kSetConst, m4),
      Cmd(kMatrixCopy, top(m4), top(m1)),  // bottom rows stay zero
      Cmd(kAllocMatrix, m5),
      Cmd(0.0f, kSetConst, m5),
      Cmd(kMatrixCopy, top(m5), top(m1)),  // written in two halves
      Cmd(kMatrixCopy, bottom(m5), bottom(m1)),
      Cmd(kProvideOutput, m2, nnet.GetNodeIndex("o1")),
      Cmd(kProvideOutput, m3, nnet.GetNodeIndex("o2")),
      Cmd(kProvideOutput, m4, nnet.GetNodeIndex("o3")),
      Cmd(kProvideOutput, m5, nnet.GetNodeIndex("o4")),
      Cmd(kDeallocMatrix, m1),
  };
  NnetComputation after = c;
  REQUIRE(RemoveUnnecessaryZeroing(nnet, &after));
  const std::string listing = passes_a::Listing(nnet, after);
  INFO(listing);
  CHECK(passes_a::CountOf(listing, "m2 = 0\n") == 0);
  CHECK(passes_a::CountOf(listing, "m3 = 0\n") == 1);
  CHECK(passes_a::CountOf(listing, "m4 = 0\n") == 1);
  CHECK(passes_a::CountOf(listing, "m5 = 0\n") == 0);
  CHECK(after.commands.size() == c.commands.size() - 2);
  passes_a::CheckSameResults(nnet, c, after, 21);
  NnetComputation again = after;
  CHECK_FALSE(RemoveUnnecessaryZeroing(nnet, &again));
}

TEST_CASE("RemoveUnnecessaryZeroing: parts nothing reads stay undefined",
          "[optimize-a]") {
  // As Kaldi: a part of a matrix that only the zeroing touches needs no
  // zeroing, unless the matrix goes to the user (m4 in the test above).
  const Nnet nnet = passes_a::IoNnet();
  using Cmd = NnetComputation::Command;
  const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
  NnetComputation c;
  int32_t m1 = c.NewMatrix(4, 3, kDefault), m2 = c.NewMatrix(4, 3, kDefault),
          m3 = c.NewMatrix(4, 3, kDefault);
  auto top = [&](int32_t s) { return c.NewSubMatrix(s, 0, 2, 0, -1); };
  c.commands = {
      Cmd(kAcceptInput, m1, nnet.GetNodeIndex("input")),
      Cmd(kAllocMatrix, m2),
      Cmd(0.0f, kSetConst, m2),
      Cmd(kMatrixCopy, top(m2), top(m1)),  // bottom rows: zeroing only
      Cmd(kAllocMatrix, m3),
      Cmd(0.0f, kSetConst, m3),
      Cmd(kMatrixCopy, top(m3), top(m2)),  // reads only the top of m2
      Cmd(kMatrixCopy, c.NewSubMatrix(m3, 2, 2, 0, -1), top(m1)),
      Cmd(kDeallocMatrix, m2),
      Cmd(kProvideOutput, m3, nnet.GetNodeIndex("o1")),
      Cmd(kDeallocMatrix, m1),
  };
  NnetComputation after = c;
  REQUIRE(RemoveUnnecessaryZeroing(nnet, &after));
  const std::string listing = passes_a::Listing(nnet, after);
  INFO(listing);
  CHECK(passes_a::CountOf(listing, "m2 = 0\n") == 0);
  CHECK(passes_a::CountOf(listing, "m3 = 0\n") == 0);
  passes_a::CheckSameResults(nnet, c, after, 22);
}

TEST_CASE("RemoveUnnecessaryZeroing on a compiled computation",
          "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(passes_a::kFeedForwardConfig);
  const NnetComputation before = passes_a::Compile(
      nnet, passes_a::SimpleTrainingRequest(0, 5, 0, 4, true));
  NnetComputation after = before;
  REQUIRE(RemoveUnnecessaryZeroing(nnet, &after));
  INFO(passes_a::Listing(nnet, after));
  // Matrices written by a propagate or a copy lose their zeroing; those
  // that are added to keep it.
  CHECK(after.commands.size() < before.commands.size());
  passes_a::CheckSameResults(nnet, before, after, 22);
}

}  // namespace nnet3
