// MoveSizingCommands: allocations just before the first use, deallocations
// just after the last one.
#include "optimize/move-sizing-commands.h"

#include <catch2/catch.hpp>

#include "compile/computation-analysis.h"
#include "optimize-a-test-utils.h"

namespace nnet3 {

namespace {

bool IsSizing(const NnetComputation::Command &c) {
  return c.command_type == kAllocMatrix || c.command_type == kDeallocMatrix ||
         (c.command_type == kSetConst && c.alpha == 0.0f);
}

// Between each kAllocMatrix and the first real access of its matrix, and
// between the last access and the kDeallocMatrix, there are only sizing
// commands (allocations, zeroings, deallocations).
void CheckSizingIsTight(const Nnet &nnet, const NnetComputation &c) {
  Analyzer a;
  a.Init(nnet, c);
  for (size_t m = 1; m < c.matrices.size(); m++) {
    const MatrixAccesses &ma = a.matrix_accesses[m];
    if (ma.accesses.empty()) continue;
    INFO("matrix m" << m);
    if (ma.allocate_command != -1 &&
        c.commands[ma.allocate_command].command_type == kAllocMatrix) {
      int32_t first = -1;
      for (const Access &access : ma.accesses)
        if (!IsSizing(c.commands[access.command_index])) {
          first = access.command_index;
          break;
        }
      for (int32_t k = ma.allocate_command + 1; k < first; k++)
        CHECK(IsSizing(c.commands[k]));
    }
    if (ma.deallocate_command != -1)
      for (int32_t k = ma.accesses.back().command_index + 1;
           k < ma.deallocate_command; k++)
        CHECK(IsSizing(c.commands[k]));
  }
}

}  // namespace

TEST_CASE("MoveSizingCommands moves sizing next to the uses", "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(passes_a::kFeedForwardConfig);
  for (bool backward : {false, true}) {
    INFO("backward " << backward);
    const NnetComputation before = passes_a::Compile(
        nnet, passes_a::SimpleTrainingRequest(0, 5, 0, 4, backward));
    NnetComputation after = before;
    REQUIRE(MoveSizingCommands(nnet, &after));
    const std::string listing = passes_a::Listing(nnet, after);
    INFO("before:\n"
         << passes_a::Listing(nnet, before) << "after:\n"
         << listing);
    CHECK(after.commands.size() == before.commands.size());
    // The compiler allocates everything first; now the first command is an
    // allocation of the first matrix used, followed by its zeroing.
    CheckSizingIsTight(nnet, after);
    CHECK(GetMaxMemoryUse(after) < GetMaxMemoryUse(before));
    passes_a::CheckSameResults(nnet, before, after, 31);
    NnetComputation again = after;
    CHECK_FALSE(MoveSizingCommands(nnet, &again));
  }
}

TEST_CASE("MoveSizingCommands keeps an allocation with its zeroing",
          "[optimize-a]") {
  const Nnet nnet = passes_a::IoNnet();
  using Cmd = NnetComputation::Command;
  const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
  NnetComputation c;
  int32_t m1 = c.NewMatrix(4, 3, kDefault), m2 = c.NewMatrix(4, 3, kDefault),
          m3 = c.NewMatrix(4, 3, kDefault);
  c.commands = {
      Cmd(kAllocMatrix, m2),
      Cmd(0.0f, kSetConst, m2),
      Cmd(kAllocMatrix, m3),
      Cmd(0.0f, kSetConst, m3),
      Cmd(kAcceptInput, m1, nnet.GetNodeIndex("input")),
      Cmd(kMatrixAdd, m2, m1),
      Cmd(kProvideOutput, m2, nnet.GetNodeIndex("o1")),
      Cmd(kMatrixAdd, m3, m1),
      Cmd(kDeallocMatrix, m1),
      Cmd(kProvideOutput, m3, nnet.GetNodeIndex("o2")),
  };
  NnetComputation after = c;
  REQUIRE(MoveSizingCommands(nnet, &after));
  CHECK(passes_a::Listing(nnet, after) ==
        "m1 = user input [for node: 'input']\n"
        "m2 = undefined(4x3)\n"
        "m2 = 0\n"
        "m2 += m1\n"
        "output m2 to user [for node: 'o1']\n"
        "m3 = undefined(4x3)\n"
        "m3 = 0\n"
        "m3 += m1\n"
        "m1 = []\n"
        "output m3 to user [for node: 'o2']\n");
  passes_a::CheckSameResults(nnet, c, after, 32);
}

TEST_CASE("MoveSizingCommands moves a zeroing that a merge set apart",
          "[optimize-a]") {
  // VariableMergingOptimization keeps the earlier of two allocations, which
  // can leave another matrix's allocation between an allocation and its
  // zeroing. The zeroing still belongs to the allocation: both move to the
  // first real use (else the matrix would live from the start, as the
  // derivatives of a TDNN did, raising its peak memory by a fifth).
  const Nnet nnet = passes_a::IoNnet();
  using Cmd = NnetComputation::Command;
  const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
  NnetComputation c;
  int32_t m1 = c.NewMatrix(4, 3, kDefault), m2 = c.NewMatrix(4, 3, kDefault),
          m3 = c.NewMatrix(4, 3, kDefault);
  c.commands = {
      Cmd(kAllocMatrix, m2),
      Cmd(kAllocMatrix, m3),
      Cmd(0.0f, kSetConst, m2),
      Cmd(0.0f, kSetConst, m3),
      Cmd(kAcceptInput, m1, nnet.GetNodeIndex("input")),
      Cmd(kMatrixAdd, m2, m1),
      Cmd(kProvideOutput, m2, nnet.GetNodeIndex("o1")),
      Cmd(kMatrixAdd, m3, m1),
      Cmd(kDeallocMatrix, m1),
      Cmd(kProvideOutput, m3, nnet.GetNodeIndex("o2")),
  };
  NnetComputation after = c;
  REQUIRE(MoveSizingCommands(nnet, &after));
  CHECK(passes_a::Listing(nnet, after) ==
        "m1 = user input [for node: 'input']\n"
        "m2 = undefined(4x3)\n"
        "m2 = 0\n"
        "m2 += m1\n"
        "output m2 to user [for node: 'o1']\n"
        "m3 = undefined(4x3)\n"
        "m3 = 0\n"
        "m3 += m1\n"
        "m1 = []\n"
        "output m3 to user [for node: 'o2']\n");
  passes_a::CheckSameResults(nnet, c, after, 33);
  NnetComputation again = after;
  CHECK_FALSE(MoveSizingCommands(nnet, &again));
}

}  // namespace nnet3
