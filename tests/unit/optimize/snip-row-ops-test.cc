// SnipRowOps: hand-written computations, before and after.
#include "optimize/snip-row-ops.h"

#include <catch2/catch.hpp>

#include "optimize/renumber-computation.h"
#include "rowops-test-utils.h"

namespace nnet3 {

namespace {

using Cmd = NnetComputation::Command;
const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;

// m1 = input (5x3); m2 (6x3) allocated (and zeroed if `zero`); then
// `row_op` (with m2 as arg1 or m1 as arg1, as the op needs); m2 to output.
NnetComputation OneRowOp(const Cmd &row_op, bool zero) {
  NnetComputation c;
  c.NewMatrix(5, 3, kDefault);
  c.NewMatrix(6, 3, kDefault);
  c.commands.push_back(Cmd(kAcceptInput, 1, kInputNode));
  c.commands.push_back(Cmd(kAllocMatrix, 2));
  if (zero) c.commands.push_back(Cmd(0.0f, kSetConst, 2));
  c.commands.push_back(row_op);
  c.commands.push_back(Cmd(kProvideOutput, 2, kOutputNode));
  c.commands.push_back(Cmd(kDeallocMatrix, 1));
  return c;
}

}  // namespace

TEST_CASE("SnipRowOps narrows kAddRows to the rows it adds to",
          "[optimize-b]") {
  Nnet nnet = RowOpsNnet();
  NnetComputation before = OneRowOp(Cmd(0.5f, kAddRows, 2, 1, 0), true);
  before.indexes = {{-1, -1, 0, 4, 1, -1}};
  NnetComputation after = before;
  REQUIRE(SnipRowOps(&after));
  CHECK(
      Listing(nnet, before).find("m2 += 0.5 * m1.AddRows([-1 -1 0 4 1 -1])") !=
      std::string::npos);
  CHECK(Listing(nnet, after).find("m2(2:4, :) += 0.5 * m1.AddRows([0 4 1])") !=
        std::string::npos);
  CheckEquivalent(nnet, before, after, 11);
  REQUIRE(RenumberComputation(&after));
  REQUIRE(after.indexes.size() == 1);
  CHECK(after.indexes[0] == std::vector<int32_t>{0, 4, 1});
  CheckEquivalent(nnet, before, after, 12);
  // A second run finds nothing to do.
  CHECK_FALSE(SnipRowOps(&after));
}

TEST_CASE("SnipRowOps snips kCopyRows only where the rows are known zero",
          "[optimize-b]") {
  Nnet nnet = RowOpsNnet();
  SECTION("after zeroing: both ends") {
    NnetComputation before = OneRowOp(Cmd(kCopyRows, 2, 1, 0), true);
    before.indexes = {{-1, 3, 2, 0, -1, -1}};
    NnetComputation after = before;
    REQUIRE(SnipRowOps(&after));
    CHECK(Listing(nnet, after).find("m2(1:3, :) = m1.CopyRows([3 2 0])") !=
          std::string::npos);
    CheckEquivalent(nnet, before, after, 21);
  }
  SECTION("not zeroed: nothing") {
    NnetComputation before = OneRowOp(Cmd(kCopyRows, 2, 1, 0), false);
    before.indexes = {{-1, 3, 2, 0, -1, -1}};
    NnetComputation after = before;
    CHECK_FALSE(SnipRowOps(&after));
  }
  SECTION("rows written after the zeroing: only the other end") {
    NnetComputation before = OneRowOp(Cmd(kCopyRows, 2, 1, 0), true);
    before.indexes = {{-1, 3, 2, 0, -1, -1}};
    // Write rows 0-1 of m2 between the zeroing and the copy.
    int32_t top = before.NewSubMatrix(2, 0, 2, 0, -1);
    int32_t src = before.NewSubMatrix(1, 0, 2, 0, -1);
    before.commands.insert(before.commands.begin() + 3,
                           Cmd(kMatrixCopy, top, src));
    NnetComputation after = before;
    REQUIRE(SnipRowOps(&after));
    CHECK(Listing(nnet, after).find("m2(0:3, :) = m1.CopyRows([-1 3 2 0])") !=
          std::string::npos);
    CheckEquivalent(nnet, before, after, 22);
  }
}

TEST_CASE("SnipRowOps on the multi and range commands", "[optimize-b]") {
  Nnet nnet = RowOpsNnet();
  SECTION("kAddRowsMulti") {
    NnetComputation before = OneRowOp(Cmd(kAddRowsMulti, 2, 0), true);
    before.indexes_multi = {
        {{-1, -1}, {1, 2}, {1, 0}, {-1, -1}, {1, 4}, {-1, -1}}};
    NnetComputation after = before;
    REQUIRE(SnipRowOps(&after));
    const NnetComputation::SubMatrixInfo &s =
        after.submatrices[after.commands[3].arg1];
    CHECK(s.row_offset == 1);
    CHECK(s.num_rows == 4);
    CHECK(after.indexes_multi[after.commands[3].arg2].size() == 4);
    CheckEquivalent(nnet, before, after, 31);
  }
  SECTION("kAddToRowsMulti snips the source") {
    // Rows 1, 3, 4 of m1 go to rows 5, 0, 2 of m2.
    NnetComputation before = OneRowOp(Cmd(kAddToRowsMulti, 1, 0), true);
    before.indexes_multi = {{{-1, -1}, {2, 5}, {-1, -1}, {2, 0}, {2, 2}}};
    NnetComputation after = before;
    REQUIRE(SnipRowOps(&after));
    const NnetComputation::SubMatrixInfo &s =
        after.submatrices[after.commands[3].arg1];
    CHECK(s.matrix_index == 1);
    CHECK(s.row_offset == 1);
    CHECK(s.num_rows == 4);
    CheckEquivalent(nnet, before, after, 32);
  }
  SECTION("kCopyToRowsMulti snips the source") {
    NnetComputation before = OneRowOp(Cmd(kCopyToRowsMulti, 1, 0), true);
    before.indexes_multi = {{{-1, -1}, {2, 1}, {2, 3}, {2, 0}, {-1, -1}}};
    NnetComputation after = before;
    REQUIRE(SnipRowOps(&after));
    const NnetComputation::SubMatrixInfo &s =
        after.submatrices[after.commands[3].arg1];
    CHECK(s.matrix_index == 1);
    CHECK(s.row_offset == 1);
    CHECK(s.num_rows == 3);
    CheckEquivalent(nnet, before, after, 33);
  }
  SECTION("kCopyRowsMulti after zeroing") {
    NnetComputation before = OneRowOp(Cmd(kCopyRowsMulti, 2, 0), true);
    before.indexes_multi = {
        {{-1, -1}, {1, 2}, {-1, -1}, {1, 1}, {1, 1}, {-1, -1}}};
    NnetComputation after = before;
    REQUIRE(SnipRowOps(&after));
    CHECK(after.indexes_multi.back().size() == 4);
    CheckEquivalent(nnet, before, after, 34);
  }
  SECTION("kAddRowRanges") {
    NnetComputation before = OneRowOp(Cmd(kAddRowRanges, 2, 1, 0), true);
    before.indexes_ranges = {{{0, 0}, {0, 2}, {3, 3}, {1, 5}, {2, 2}, {4, 4}}};
    NnetComputation after = before;
    REQUIRE(SnipRowOps(&after));
    CHECK(
        Listing(nnet, after).find("m2(1:3, :).AddRowRanges(m1, [0:1 - 1:4])") !=
        std::string::npos);
    CheckEquivalent(nnet, before, after, 35);
  }
}

TEST_CASE("SnipRowOps leaves lists without end entries, or only them",
          "[optimize-b]") {
  NnetComputation c = OneRowOp(Cmd(kAddRows, 2, 1, 0), true);
  c.indexes = {{0, -1, 1, 2, -1, 3}};
  CHECK_FALSE(SnipRowOps(&c));
  c.indexes = {{-1, -1, -1, -1, -1, -1}};
  CHECK_FALSE(SnipRowOps(&c));
}

}  // namespace nnet3
