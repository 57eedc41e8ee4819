// ExtendMatrices: hand-written computations, before and after, alone and
// followed by VariableMergingOptimization.
#include "optimize/extend-matrices.h"

#include <catch2/catch.hpp>

#include "optimize/variable-merging-optimization.h"
#include "rowops-test-utils.h"

namespace nnet3 {

namespace {

using Cmd = NnetComputation::Command;
const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;

struct SpliceOptions {
  int32_t src_rows_copied = 8;  // rows 0.. of m1 copied to the first block
  bool zero_dest = true;
  bool dest_is_output = false;
  bool with_debug_info = false;
};

// m1 = input (10x3); m2 (9x6) = [rows 1..8 of block 0 from m1 rows 0..7;
// block 1 from m1 rows 1..9]; m3 (9x6) = m2 -> output2. The first copy is
// the one ExtendMatrices can extend (m2 grows to 11 rows).
NnetComputation Splice(const SpliceOptions &opts) {
  NnetComputation c;
  c.NewMatrix(10, 3, kDefault);  // s1
  c.NewMatrix(9, 6, kDefault);   // s2
  c.NewMatrix(9, 6, kDefault);   // s3
  const int32_t rows = opts.src_rows_copied;
  int32_t block0 = c.NewSubMatrix(2, 9 - rows, rows, 0, 3),
          src0 = c.NewSubMatrix(1, 0, rows, 0, 3),
          block1 = c.NewSubMatrix(2, 0, 9, 3, 3),
          src1 = c.NewSubMatrix(1, 1, 9, 0, 3);
  c.commands.push_back(Cmd(kAcceptInput, 1, kInputNode));
  c.commands.push_back(Cmd(kAllocMatrix, 2));
  if (opts.zero_dest) c.commands.push_back(Cmd(0.0f, kSetConst, 2));
  c.commands.push_back(Cmd(kMatrixCopy, block0, src0));
  c.commands.push_back(Cmd(kMatrixCopy, block1, src1));
  if (opts.dest_is_output) {
    c.commands.push_back(Cmd(kProvideOutput, 2, kOutput2Node));
  } else {
    c.commands.push_back(Cmd(kAllocMatrix, 3));
    c.commands.push_back(Cmd(kMatrixCopy, 3, 2));
    c.commands.push_back(Cmd(kProvideOutput, 3, kOutput2Node));
    c.commands.push_back(Cmd(kDeallocMatrix, 2));
  }
  c.commands.push_back(Cmd(kDeallocMatrix, 1));
  if (opts.with_debug_info) {
    c.matrix_debug_info.resize(4);
    for (int32_t m = 1; m <= 3; m++)
      for (int32_t r = 0; r < c.matrices[m].num_rows; r++)
        c.matrix_debug_info[m].cindexes.push_back(
            Cindex(m == 1 ? kInputNode : kOutput2Node, Index(0, r, 0)));
  }
  return c;
}

}  // namespace

TEST_CASE("ExtendMatrices grows the destination of a splice copy",
          "[optimize-b]") {
  Nnet nnet = RowOpsNnet();
  SpliceOptions opts;
  opts.with_debug_info = true;
  NnetComputation before = Splice(opts), after = before;
  REQUIRE(ExtendMatrices(&after));
  CHECK(Listing(nnet, after) ==
        "m1 = user input [for node: 'input']\n"
        "m2 = undefined(11x6)\n"
        "m2 = 0\n"
        "m2(1:10, 0:2) = m1\n"
        "m2(0:8, 3:5) = m1(1:9, :)\n"
        "m3 = undefined(9x6)\n"
        "m3 = m2(0:8, :)\n"
        "output m3 to user [for node: 'output2']\n"
        "m2 = []\n"
        "m1 = []\n");
  REQUIRE(after.matrix_debug_info[2].cindexes.size() == 11);
  CHECK(after.matrix_debug_info[2].cindexes[8].second.t == 8);
  CHECK(after.matrix_debug_info[2].cindexes[9].second.t == kNoTime);
  CHECK(after.matrix_debug_info[2].cindexes[10].second.t == kNoTime);
  CheckEquivalent(nnet, before, after, 401);
  CHECK_FALSE(ExtendMatrices(&after));
}

TEST_CASE("ExtendMatrices leaves copies it must not extend", "[optimize-b]") {
  SpliceOptions opts;
  SECTION("the source submatrix has under 80% of the rows") {
    opts.src_rows_copied = 7;
  }
  SECTION("the destination is an output") { opts.dest_is_output = true; }
  SECTION("new columns would stay unwritten (no zeroing)") {
    opts.zero_dest = false;
  }
  NnetComputation c = Splice(opts);
  CHECK_FALSE(ExtendMatrices(&c));
}

TEST_CASE("ExtendMatrices needs the missing source rows to be written",
          "[optimize-b]") {
  Nnet nnet = RowOpsNnet();
  // m4 (10x3) gets rows 0..7 from m1 before the copy, rows 8..9 after.
  NnetComputation c = Splice(SpliceOptions());
  const int32_t m4 = c.NewMatrix(10, 3, kDefault);
  int32_t top = c.NewSubMatrix(m4, 0, 8, 0, -1),
          bottom = c.NewSubMatrix(m4, 8, 2, 0, -1),
          m1_top = c.NewSubMatrix(1, 0, 8, 0, -1),
          m1_bottom = c.NewSubMatrix(1, 8, 2, 0, -1);
  // Command 3 is the first block's copy: read from m4 instead.
  REQUIRE(c.commands[3].command_type == kMatrixCopy);
  c.commands[3].arg2 = top;
  c.commands.insert(c.commands.begin() + 3,
                    {Cmd(kAllocMatrix, m4), Cmd(kMatrixCopy, top, m1_top)});
  c.commands.insert(c.commands.begin() + 6,
                    Cmd(kMatrixCopy, bottom, m1_bottom));
  c.commands.insert(c.commands.end() - 1, Cmd(kDeallocMatrix, m4));
  INFO(Listing(nnet, c));
  CheckEquivalent(nnet, c, c, 411);  // checks it is valid
  CHECK_FALSE(ExtendMatrices(&c));
}

TEST_CASE("ExtendMatrices then VariableMergingOptimization removes the copy",
          "[optimize-b]") {
  Nnet nnet = MergingNnet();
  const int32_t input = nnet.GetNodeIndex("input2"),
                output3 = nnet.GetNodeIndex("output3");
  // m1 = input2 (10x3); m2 = affine(m1) (10x3); m3 (9x6) spliced from m2
  // as in Splice(); m4 = m3 -> output3.
  NnetComputation c;
  c.NewMatrix(10, 3, kDefault);
  c.NewMatrix(10, 3, kDefault);
  c.NewMatrix(9, 6, kDefault);
  c.NewMatrix(9, 6, kDefault);
  int32_t block0 = c.NewSubMatrix(3, 1, 8, 0, 3),
          src0 = c.NewSubMatrix(2, 0, 8, 0, 3),
          block1 = c.NewSubMatrix(3, 0, 9, 3, 3),
          src1 = c.NewSubMatrix(2, 1, 9, 0, 3);
  c.commands = {
      Cmd(kAllocMatrix, 2),           Cmd(0.0f, kSetConst, 2),
      Cmd(kAllocMatrix, 3),           Cmd(0.0f, kSetConst, 3),
      Cmd(kAllocMatrix, 4),           Cmd(0.0f, kSetConst, 4),
      Cmd(kAcceptInput, 1, input),    Cmd(kPropagate, 2, 0, 1, 2, 0, 0),
      Cmd(kMatrixCopy, block0, src0), Cmd(kMatrixCopy, block1, src1),
      Cmd(kMatrixCopy, 4, 3),         Cmd(kProvideOutput, 4, output3),
      Cmd(kDeallocMatrix, 1),         Cmd(kDeallocMatrix, 2),
      Cmd(kDeallocMatrix, 3)};
  NnetComputation after = c;
  REQUIRE(ExtendMatrices(&after));
  CheckEquivalent(nnet, c, after, 421);
  NnetOptimizeOptions opts;
  REQUIRE(VariableMergingOptimization(opts, nnet, &after));
  CheckEquivalent(nnet, c, after, 422);
  // The affine output now lives inside the spliced matrix (a right merge):
  CHECK(Listing(nnet, after) ==
        "m2 = undefined(11x6)\n"
        "m2 = 0\n"
        "m3 = undefined(9x6)\n"
        "m3 = 0\n"
        "m1 = user input [for node: 'input2']\n"
        "component-node 'affine' propagate: m1 -> m2(1:10, 0:2)\n"
        "m2(0:8, 3:5) = m2(2:10, 0:2)\n"
        "m3 = m2(0:8, :)\n"
        "output m3 to user [for node: 'output3']\n"
        "m1 = []\n"
        "m2 = []\n");
  // Without ExtendMatrices both splice copies stay (only m4 = m3 merges).
  NnetComputation merged_only = c;
  REQUIRE(VariableMergingOptimization(opts, nnet, &merged_only));
  CheckEquivalent(nnet, c, merged_only, 423);
  int32_t num_copies = 0;
  for (const NnetComputation::Command &command : merged_only.commands)
    if (command.command_type == kMatrixCopy) num_copies++;
  CHECK(num_copies == 2);
}

}  // namespace nnet3
