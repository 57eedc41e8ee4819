// ComputationAnalysis queries on a hand-written computation whose accesses
// are known command by command.
#include "optimize/computation-analysis-queries.h"

#include <catch2/catch.hpp>

#include "compile/computation-analysis.h"
#include "optimize-a-test-utils.h"

namespace nnet3 {

TEST_CASE("ComputationAnalysis answers first/last access queries",
          "[optimize-a]") {
  const Nnet nnet = passes_a::IoNnet();
  using Cmd = NnetComputation::Command;
  const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
  NnetComputation c;
  int32_t m1 = c.NewMatrix(4, 3, kDefault), m2 = c.NewMatrix(4, 3, kDefault),
          m3 = c.NewMatrix(2, 3, kDefault);
  int32_t m2_top = c.NewSubMatrix(m2, 0, 2, 0, -1),
          m2_bottom = c.NewSubMatrix(m2, 2, 2, 0, -1),
          m1_top = c.NewSubMatrix(m1, 0, 2, 0, -1);
  c.commands = {
      Cmd(kAcceptInput, m1, nnet.GetNodeIndex("input")),  // c0
      Cmd(kAllocMatrix, m2),                              // c1
      Cmd(0.0f, kSetConst, m2),                           // c2
      Cmd(kMatrixCopy, m2_top, m1_top),                   // c3
      Cmd(kMatrixAdd, m2, m1),                            // c4
      Cmd(kProvideOutput, m2, nnet.GetNodeIndex("o1")),   // c5
      Cmd(kDeallocMatrix, m1),                            // c6
      Cmd(kAllocMatrix, m3),                              // c7 (unused)
      Cmd(kDeallocMatrix, m3),                            // c8
  };
  const int32_t num_commands = 9;
  Analyzer analyzer;
  analyzer.Init(nnet, c);
  ComputationAnalysis a(c, analyzer);
  // Zeroing is skipped by the "nontrivial" queries only.
  CHECK(a.FirstNontrivialAccess(m2) == 3);
  CHECK(a.FirstNontrivialAccess(m2_bottom) == 4);
  CHECK(a.FirstAccess(m2) == 2);
  CHECK(a.FirstAccess(m1) == 0);
  CHECK(a.LastAccess(m2) == 5);
  CHECK(a.LastAccess(m1_top) == 4);
  CHECK(a.LastWriteAccess(m2) == 4);
  CHECK(a.LastWriteAccess(m1) == 0);
  CHECK(a.LastWriteAccess(m2_top) == 4);
  // Data read at c3 from m2_top stays valid until c4 writes it; m2 itself
  // is never freed (an output), m1 is freed at c6.
  CHECK(a.DataInvalidatedCommand(3, m2_top) == 4);
  CHECK(a.DataInvalidatedCommand(4, m2) == num_commands);
  CHECK(a.DataInvalidatedCommand(0, m1) == 6);
  CHECK(a.FirstNontrivialMatrixAccess(2) == 3);
  CHECK(a.LastMatrixAccess(2) == 5);
  CHECK(a.LastMatrixAccess(1) == 4);
  // A matrix that is only sized has no accesses.
  CHECK(a.FirstNontrivialMatrixAccess(3) == num_commands);
  CHECK(a.LastMatrixAccess(3) == -1);
  CHECK(a.FirstAccess(m3) == num_commands);
  CHECK(a.LastAccess(m3) == -1);
  CHECK(a.LastWriteAccess(m3) == -1);
}

}  // namespace nnet3
