// ReplaceRowWithMatrixOps: hand-written computations, before and after.
#include "optimize/replace-row-with-matrix-ops.h"

#include <catch2/catch.hpp>

#include "optimize/renumber-computation.h"
#include "rowops-test-utils.h"

namespace nnet3 {

namespace {

using Cmd = NnetComputation::Command;
const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;

// m1 = input (5x3); m2 (6x3) allocated, zeroed if `zero`, then rows 0-1
// written from m1 if `write_top`; then `row_op` (indexes[0] = `indexes`);
// m2 to output.
NnetComputation Computation(const Cmd &row_op,
                            const std::vector<int32_t> &indexes, bool zero,
                            bool write_top) {
  NnetComputation c;
  c.NewMatrix(5, 3, kDefault);
  c.NewMatrix(6, 3, kDefault);
  c.indexes = {indexes};
  c.commands.push_back(Cmd(kAcceptInput, 1, kInputNode));
  c.commands.push_back(Cmd(kAllocMatrix, 2));
  if (zero) c.commands.push_back(Cmd(0.0f, kSetConst, 2));
  if (write_top) {
    int32_t top = c.NewSubMatrix(2, 0, 2, 0, -1),
            src = c.NewSubMatrix(1, 3, 2, 0, -1);
    c.commands.push_back(Cmd(kMatrixCopy, top, src));
  }
  c.commands.push_back(row_op);
  c.commands.push_back(Cmd(kProvideOutput, 2, kOutputNode));
  c.commands.push_back(Cmd(kDeallocMatrix, 1));
  return c;
}

// Replaces, renumbers, and compares the listing's lines from `first_line`.
void ExpectReplaced(const NnetComputation &before, size_t first_line,
                    const std::string &expected, uint64_t seed) {
  Nnet nnet = RowOpsNnet();
  NnetComputation after = before;
  REQUIRE(ReplaceRowWithMatrixOps(&after));
  RenumberComputation(&after);
  CHECK(after.indexes.empty());
  std::vector<std::string> lines;
  after.GetCommandStrings(nnet, &lines);
  std::string got;
  for (size_t i = first_line; i < lines.size(); i++) got += lines[i] + "\n";
  CHECK(got == expected);
  CheckEquivalent(nnet, before, after, seed);
}

}  // namespace

TEST_CASE("ReplaceRowWithMatrixOps: kAddRows over a range", "[optimize-b]") {
  NnetComputation before = Computation(Cmd(0.5f, kAddRows, 2, 1, 0),
                                       {-1, 1, 2, 3, -1, -1}, true, false);
  ExpectReplaced(before, 3,
                 "m2(1:3, :) += 0.5 * m1(1:3, :)\n"
                 "output m2 to user [for node: 'output']\n"
                 "m1 = []\n",
                 201);
}

TEST_CASE("ReplaceRowWithMatrixOps: kCopyRows of all rows", "[optimize-b]") {
  NnetComputation before = Computation(Cmd(2.0f, kCopyRows, 2, 1, 0),
                                       {0, 1, 2, 3, 4, -1}, false, false);
  // The -1 row is not known to be zero: it is zeroed first.
  ExpectReplaced(before, 2,
                 "m2(5:5, :) = 0\n"
                 "m2(0:4, :) = 2 * m1\n"
                 "output m2 to user [for node: 'output']\n"
                 "m1 = []\n",
                 211);
}

TEST_CASE("ReplaceRowWithMatrixOps: kCopyRows -1 rows known to be zero",
          "[optimize-b]") {
  SECTION("zeroed: no kSetConst needed") {
    NnetComputation before = Computation(Cmd(kCopyRows, 2, 1, 0),
                                         {-1, -1, 2, 3, 4, -1}, true, false);
    ExpectReplaced(before, 3,
                   "m2(2:4, :) = m1(2:4, :)\n"
                   "output m2 to user [for node: 'output']\n"
                   "m1 = []\n",
                   221);
  }
  SECTION("rows 0-1 written after the zeroing: they are zeroed again") {
    NnetComputation before =
        Computation(Cmd(kCopyRows, 2, 1, 0), {-1, -1, 2, 3, 4, -1}, true, true);
    ExpectReplaced(before, 4,
                   "m2(0:1, :) = 0\n"
                   "m2(2:4, :) = m1(2:4, :)\n"
                   "output m2 to user [for node: 'output']\n"
                   "m1 = []\n",
                   222);
  }
}

TEST_CASE("ReplaceRowWithMatrixOps: only -1", "[optimize-b]") {
  // A copy of nothing is a zeroing; an add of nothing is left alone.
  NnetComputation before = Computation(Cmd(kCopyRows, 2, 1, 0),
                                       {-1, -1, -1, -1, -1, -1}, false, false);
  ExpectReplaced(before, 2,
                 "m2 = 0\n"
                 "output m2 to user [for node: 'output']\n"
                 "m1 = []\n",
                 231);
  NnetComputation add = Computation(Cmd(kAddRows, 2, 1, 0),
                                    {-1, -1, -1, -1, -1, -1}, true, false);
  CHECK_FALSE(ReplaceRowWithMatrixOps(&add));
}

TEST_CASE("ReplaceRowWithMatrixOps leaves other index lists", "[optimize-b]") {
  for (const std::vector<int32_t> &indexes : std::vector<std::vector<int32_t>>{
           {0, 1, 3, 4, -1, -1}, {0, 1, -1, 2, 3, -1}, {1, 0, 2, 3, 4, 4}}) {
    NnetComputation c =
        Computation(Cmd(kAddRows, 2, 1, 0), indexes, true, false);
    CHECK_FALSE(ReplaceRowWithMatrixOps(&c));
  }
}

}  // namespace nnet3
