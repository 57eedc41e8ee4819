// SplitRowOps: hand-written computations, before and after.
#include "optimize/split-row-ops.h"

#include <catch2/catch.hpp>

#include "optimize/renumber-computation.h"
#include "rowops-test-utils.h"

namespace nnet3 {

namespace {

using Cmd = NnetComputation::Command;
using PairList = std::vector<std::pair<int32_t, int32_t>>;
const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;

// m1 = input (5x3), m2 = input2 (5x3), m3 (6x3, zeroed) = output; the row
// op in between uses indexes_multi[0] = `list`.
NnetComputation TwoSources(const Cmd &row_op, const PairList &list) {
  NnetComputation c;
  c.NewMatrix(5, 3, kDefault);
  c.NewMatrix(5, 3, kDefault);
  c.NewMatrix(6, 3, kDefault);
  c.indexes_multi = {list};
  c.commands = {Cmd(kAcceptInput, 1, kInputNode),
                Cmd(kAcceptInput, 2, kInput2Node),
                Cmd(kAllocMatrix, 3),
                Cmd(0.0f, kSetConst, 3),
                row_op,
                Cmd(kProvideOutput, 3, kOutputNode),
                Cmd(kDeallocMatrix, 1),
                Cmd(kDeallocMatrix, 2)};
  return c;
}

// Splits, checks the listing of the row-op commands and the results.
void ExpectSplit(const NnetComputation &before, const std::string &expected,
                 uint64_t seed) {
  Nnet nnet = RowOpsNnet();
  NnetComputation after = before;
  REQUIRE(SplitRowOps(&after));
  CheckEquivalent(nnet, before, after, seed);
  RenumberComputation(&after);
  CHECK(after.indexes_multi.empty());
  std::string listing = Listing(nnet, after);
  INFO(listing);
  CHECK(listing.find(expected) != std::string::npos);
  CheckEquivalent(nnet, before, after, seed + 1);
}

}  // namespace

TEST_CASE("SplitRowOps: kCopyRowsMulti from two matrices", "[optimize-b]") {
  NnetComputation before =
      TwoSources(Cmd(kCopyRowsMulti, 3, 0),
                 {{1, 0}, {1, 1}, {1, 2}, {2, 4}, {2, 1}, {2, 3}});
  ExpectSplit(before,
              "m3(0:2, :) = m1(0:2, :)\n"
              "m3(3:5, :) = m2(1:4, :).CopyRows([3 0 2])\n",
              101);
}

TEST_CASE("SplitRowOps: kAddRowsMulti with alpha, one matrix", "[optimize-b]") {
  NnetComputation before =
      TwoSources(Cmd(0.5f, kAddRowsMulti, 3, 0),
                 {{2, 0}, {2, 1}, {2, 2}, {2, 3}, {2, 4}, {2, 4}});
  // Not consecutive (row 4 twice): kAddRows over rows 0-4 of m2.
  ExpectSplit(before, "m3 += 0.5 * m2.AddRows([0:4 4])\n", 111);
}

TEST_CASE("SplitRowOps: kAddToRowsMulti inverts the indexes", "[optimize-b]") {
  NnetComputation before = TwoSources(Cmd(kAddToRowsMulti, 1, 0),
                                      {{3, 5}, {3, 1}, {3, 3}, {3, 0}, {3, 2}});
  ExpectSplit(before, "m3 += m1.AddRows([3 1 4 2 -1 0])\n", 121);
}

TEST_CASE("SplitRowOps: kAddToRowsMulti with consecutive rows",
          "[optimize-b]") {
  NnetComputation before = TwoSources(Cmd(2.0f, kAddToRowsMulti, 1, 0),
                                      {{3, 1}, {3, 2}, {3, 3}, {3, 4}, {3, 5}});
  ExpectSplit(before, "m3(1:5, :) += 2 * m1\n", 131);
}

TEST_CASE("SplitRowOps: kCopyToRowsMulti only as a permutation",
          "[optimize-b]") {
  SECTION("a permutation of rows 0-4 becomes kCopyRows") {
    NnetComputation before = TwoSources(
        Cmd(kCopyToRowsMulti, 1, 0), {{3, 1}, {3, 0}, {3, 2}, {3, 4}, {3, 3}});
    ExpectSplit(before, "m3(0:4, :) = m1.CopyRows([1 0 2 4 3])\n", 141);
  }
  SECTION("with a gap it stays (kCopyRows would zero the gap)") {
    NnetComputation c = TwoSources(Cmd(kCopyToRowsMulti, 1, 0),
                                   {{3, 5}, {3, 1}, {3, 3}, {3, 0}, {3, 2}});
    CHECK_FALSE(SplitRowOps(&c));
  }
  SECTION("consecutive rows become kMatrixCopy") {
    NnetComputation before = TwoSources(
        Cmd(kCopyToRowsMulti, 1, 0), {{3, 0}, {3, 1}, {3, 2}, {3, 3}, {3, 4}});
    ExpectSplit(before, "m3(0:4, :) = m1\n", 151);
  }
}

TEST_CASE("SplitRowOps leaves what it cannot split", "[optimize-b]") {
  SECTION("a (-1, -1) pair") {
    NnetComputation c =
        TwoSources(Cmd(kCopyRowsMulti, 3, 0),
                   {{1, 0}, {-1, -1}, {1, 2}, {2, 4}, {2, 1}, {2, 3}});
    CHECK_FALSE(SplitRowOps(&c));
  }
  SECTION("three runs") {
    NnetComputation c =
        TwoSources(Cmd(kCopyRowsMulti, 3, 0),
                   {{1, 0}, {1, 1}, {2, 2}, {2, 4}, {1, 1}, {1, 3}});
    CHECK_FALSE(SplitRowOps(&c));
  }
  SECTION("rows spread too thinly") {
    NnetComputation c =
        TwoSources(Cmd(kCopyRowsMulti, 3, 0),
                   {{1, 0}, {1, 4}, {2, 0}, {2, 4}, {2, 0}, {2, 4}});
    // The first run uses 2 of 5 rows (5 > 2 * 2); the second is fine.
    CHECK_FALSE(SplitRowOps(&c));
  }
  SECTION("reading the matrix it writes") {
    NnetComputation c =
        TwoSources(Cmd(kAddRowsMulti, 3, 0),
                   {{3, 0}, {3, 1}, {3, 2}, {3, 3}, {3, 4}, {3, 4}});
    CHECK_FALSE(SplitRowOps(&c));
  }
}

}  // namespace nnet3
