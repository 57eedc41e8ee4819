// RenumberComputation and the editing helpers (InsertCommands,
// RemoveNoOps, RowsKnownToBeZero).
#include "optimize/renumber-computation.h"

#include <catch2/catch.hpp>

#include "optimize/computation-edit.h"
#include "rowops-test-utils.h"

namespace nnet3 {

namespace {

using Cmd = NnetComputation::Command;
const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;

}  // namespace

TEST_CASE("RenumberComputation removes unused and duplicate entries",
          "[optimize-b]") {
  Nnet nnet = RowOpsNnet();
  NnetComputation c;
  c.NewMatrix(5, 3, kDefault);                           // m1, s1: input
  c.NewMatrix(4, 3, kDefault);                           // m2, s2: unused
  c.NewMatrix(6, 3, kDefault);                           // m3, s3: output
  const int32_t top_a = c.NewSubMatrix(3, 0, 3, 0, -1);  // s4
  c.NewSubMatrix(1, 1, 2, 0, -1);                        // s5: unused
  const int32_t top_b = c.NewSubMatrix(3, 0, 3, 0, -1);  // s6 == s4
  c.matrix_debug_info.resize(4);
  for (int32_t m = 1; m <= 3; m++) {
    c.matrix_debug_info[m].is_deriv = (m == 2);
    for (int32_t r = 0; r < c.matrices[m].num_rows; r++)
      c.matrix_debug_info[m].cindexes.push_back(
          Cindex(m == 3 ? kOutputNode : kInputNode, Index(0, 10 * m + r, 0)));
  }
  c.indexes = {{9, 9}, {0, 1, 2}, {2, 1, 0}, {0, 1, 2}};
  c.indexes_multi = {{{1, 0}, {1, 0}, {1, 0}}, {{5, 0}, {5, 0}, {5, 0}}};
  c.commands = {Cmd(kAcceptInput, 1, kInputNode),
                Cmd(kAllocMatrix, 3),
                Cmd(0.0f, kSetConst, 3),
                Cmd(kAddRows, top_a, 1, 1),
                Cmd(kAddRows, top_b, 1, 3),
                Cmd(kAddRows, top_b, 1, 2),
                Cmd(kAddRowsMulti, top_a, 0),
                Cmd(kProvideOutput, 3, kOutputNode),
                Cmd(kDeallocMatrix, 1)};
  NnetComputation before = c;
  REQUIRE(RenumberComputation(&c));
  // m2 and s5, indexes 0 (and 3 as a copy of 1) and indexes_multi 1 go.
  REQUIRE(c.matrices.size() == 3);
  REQUIRE(c.submatrices.size() == 4);
  CHECK(c.submatrices[3] == NnetComputation::SubMatrixInfo(2, 0, 3, 0, 3));
  CHECK(c.indexes == std::vector<std::vector<int32_t>>{{0, 1, 2}, {2, 1, 0}});
  CHECK(c.indexes_multi.size() == 1);
  CHECK(c.commands[4].arg1 == 3);
  CHECK(c.commands[4].arg3 == 0);
  CHECK(c.commands[5].arg3 == 1);
  REQUIRE(c.matrix_debug_info.size() == 3);
  CHECK(c.matrix_debug_info[2].cindexes[0].second.t == 30);
  CHECK_FALSE(c.matrix_debug_info[2].is_deriv);
  // Unused matrix m2 fails the checker before; compare results only.
  CheckEquivalent(nnet, before, c, 301, /*check_before=*/false);
  CHECK(Listing(nnet, c) ==
        "m1 = user input [for node: 'input']\n"
        "m2 = undefined(6x3)\n"
        "m2 = 0\n"
        "m2(0:2, :) += m1.AddRows([0:2])\n"
        "m2(0:2, :) += m1.AddRows([0:2])\n"
        "m2(0:2, :) += m1.AddRows([2 1 0])\n"
        "m2(0:2, :).AddRowsMulti([m1[0x3]])\n"
        "output m2 to user [for node: 'output']\n"
        "m1 = []\n");
  CHECK_FALSE(RenumberComputation(&c));
}

TEST_CASE("RenumberComputation renumbers memos and precomputed indexes",
          "[optimize-b]") {
  Nnet nnet = NnetFromText(
      "input-node name=input dim=3\n"
      "component name=bn type=BatchNormComponent dim=3\n"
      "component-node name=bn component=bn input=input\n"
      "output-node name=output input=bn\n");
  NnetComputation c;
  c.NewMatrix(4, 3, kDefault);
  c.NewMatrix(4, 3, kDefault);
  c.NewMatrix(4, 3, kDefault);
  c.NewMatrix(4, 3, kDefault);
  c.component_precomputed_indexes.resize(3);  // entries 1, 2 unused
  c.commands = {Cmd(kAcceptInput, 1, 0),
                Cmd(kAllocMatrix, 2),
                Cmd(kPropagate, 0, 0, 1, 2, 7, 0),
                Cmd(kProvideOutput, 2, 3),
                Cmd(kNoOperationMarker),
                Cmd(kAcceptInput, 3, 3),
                Cmd(kAllocMatrix, 4),
                Cmd(kBackpropNoModelUpdate, 0, 0, 0, 2, 3, 4, 7),
                Cmd(kProvideOutput, 4, 0),
                Cmd(kDeallocMatrix, 1),
                Cmd(kDeallocMatrix, 3)};
  NnetComputation before = c;
  REQUIRE(RenumberComputation(&c));
  CHECK(c.component_precomputed_indexes.size() == 1);
  CHECK(c.commands[2].arg5 == 1);
  CHECK(c.commands[7].arg7 == 1);
  // The unused null entries fail the checker before.
  CheckEquivalent(nnet, before, c, 311, /*check_before=*/false);
}

TEST_CASE("InsertCommands and RemoveNoOps keep goto targets", "[optimize-b]") {
  NnetComputation c;
  c.NewMatrix(2, 3, kDefault);
  c.commands = {Cmd(kAllocMatrix, 1),     // c0
                Cmd(kNoOperationLabel),   // c1
                Cmd(0.0f, kSetConst, 1),  // c2
                Cmd(kNoOperation),        // c3
                Cmd(kGotoLabel, 1)};      // c4
  std::vector<std::pair<int32_t, Cmd>> extra = {{5, Cmd(kNoOperationPermanent)},
                                                {1, Cmd(1.0f, kSetConst, 1)},
                                                {1, Cmd(2.0f, kSetConst, 1)},
                                                {0, Cmd(kNoOperation)}};
  InsertCommands(&extra, &c);
  REQUIRE(c.commands.size() == 9);
  CHECK(c.commands[2].alpha == 1.0f);  // same position: given order
  CHECK(c.commands[3].alpha == 2.0f);
  CHECK(c.commands[4].command_type == kNoOperationLabel);
  CHECK(c.commands[7].command_type == kGotoLabel);
  CHECK(c.commands[7].arg1 == 4);
  CHECK(c.commands[8].command_type == kNoOperationPermanent);
  REQUIRE(RemoveNoOps(&c));
  REQUIRE(c.commands.size() == 7);
  CHECK(c.commands[3].command_type == kNoOperationLabel);
  CHECK(c.commands[5].command_type == kGotoLabel);
  CHECK(c.commands[5].arg1 == 3);
  CHECK_FALSE(RemoveNoOps(&c));
}

TEST_CASE("RowsKnownToBeZero looks back to the last write", "[optimize-b]") {
  NnetComputation c;
  c.NewMatrix(6, 3, kDefault);                    // s1
  c.NewMatrix(6, 3, kDefault);                    // s2
  int32_t top = c.NewSubMatrix(1, 0, 3, 0, -1);   // s3
  int32_t right = c.NewSubMatrix(1, 0, 6, 1, 2);  // s4
  c.commands = {Cmd(kAllocMatrix, 1), Cmd(0.0f, kSetConst, 1),
                Cmd(kCopyRows, top, 2, 0),  // (indexes not needed here)
                Cmd(1.0f, kSetConst, right)};
  auto region = [](int32_t row, int32_t rows, int32_t col, int32_t cols) {
    return NnetComputation::SubMatrixInfo(1, row, rows, col, cols);
  };
  CHECK(RowsKnownToBeZero(c, 2, region(0, 6, 0, 3)));
  CHECK_FALSE(RowsKnownToBeZero(c, 1, region(0, 6, 0, 3)));  // allocation
  CHECK_FALSE(RowsKnownToBeZero(c, 3, region(2, 2, 0, 3)));  // copied to
  CHECK(RowsKnownToBeZero(c, 3, region(3, 3, 0, 3)));
  CHECK(RowsKnownToBeZero(c, 4, region(3, 3, 0, 1)));
  CHECK_FALSE(RowsKnownToBeZero(c, 4, region(3, 3, 0, 2)));  // set to 1
  CHECK(RowsKnownToBeZero(c, 0, region(0, 1, 0, 1)) == false);
}

}  // namespace nnet3
