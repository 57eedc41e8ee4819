#include "compile/computation-analysis.h"

#include <catch2/catch.hpp>

#include "computation-test-utils.h"

namespace nnet3 {

namespace {

using Cmd = NnetComputation::Command;
using Ints = std::vector<int32_t>;

}  // namespace

TEST_CASE("ComputationVariables splits matrices at submatrix boundaries",
          "[computation]") {
  NnetComputation c;
  int32_t m1 = c.NewMatrix(10, 20, MatrixStrideType::kDefaultStride);
  int32_t rows = c.NewSubMatrix(m1, 0, 5, 0, -1);   // m1(0:4, :)
  int32_t cols = c.NewSubMatrix(m1, 0, -1, 5, -1);  // m1(:, 5:19)
  int32_t m2 = c.NewMatrix(3, 3, MatrixStrideType::kDefaultStride);
  int32_t corner = c.NewSubMatrix(m2, 1, 1, 1, 1);  // m2(1:1, 1:1)
  ComputationVariables vars;
  vars.Init(c);
  // m1: rows {0,5,10} x cols {0,5,20} = 4 variables; m2: 3x3 = 9.
  REQUIRE(vars.NumVariables() == 13);
  Ints v;
  vars.AppendVariablesForSubmatrix(m1, &v);
  REQUIRE(v == Ints{0, 1, 2, 3});
  v.clear();
  vars.AppendVariablesForSubmatrix(rows, &v);
  REQUIRE(v == Ints{0, 1});
  v.clear();
  vars.AppendVariablesForSubmatrix(cols, &v);
  REQUIRE(v == Ints{1, 3});
  v.clear();
  vars.AppendVariablesForSubmatrix(corner, &v);
  REQUIRE(v == Ints{4 + 4});
  v.clear();
  vars.AppendVariablesForMatrix(2, &v);
  REQUIRE(v.size() == 9);
  REQUIRE(vars.GetMatrixForVariable(3) == 1);
  REQUIRE(vars.GetMatrixForVariable(4) == 2);
  REQUIRE(vars.VariableInfo(1) ==
          NnetComputation::SubMatrixInfo(1, 0, 5, 5, 15));
  REQUIRE(vars.DescribeVariable(1) == "m1(0:4, 5:19)");
  REQUIRE(vars.DescribeVariable(2) == "m1(5:9, 0:4)");
  REQUIRE(vars.DescribeVariable(8) == "m2(1:1, 1:1)");
}

TEST_CASE("RecordAccessForSubmatrix: partial writes read the matrix",
          "[computation]") {
  NnetComputation c;
  int32_t m1 = c.NewMatrix(4, 6, MatrixStrideType::kDefaultStride);
  int32_t left = c.NewSubMatrix(m1, 0, -1, 0, 3);
  c.NewSubMatrix(m1, 0, -1, 3, 3);
  ComputationVariables vars;
  vars.Init(c);
  CommandAttributes partial, whole, rw;
  vars.RecordAccessForSubmatrix(left, kWriteAccess, &partial);
  REQUIRE(partial.variables_written == Ints{0});
  REQUIRE(partial.variables_read.empty());
  REQUIRE(partial.matrices_written == Ints{1});
  REQUIRE(partial.matrices_read == Ints{1});
  vars.RecordAccessForSubmatrix(m1, kWriteAccess, &whole);
  REQUIRE(whole.variables_written == Ints{0, 1});
  REQUIRE(whole.matrices_read.empty());
  vars.RecordAccessForSubmatrix(left, kReadWriteAccess, &rw);
  REQUIRE(rw.variables_read == Ints{0});
  REQUIRE(rw.variables_written == Ints{0});
  REQUIRE(rw.submatrices_read == Ints{left});
  CommandAttributes none;
  vars.RecordAccessForSubmatrix(0, kReadAccess, &none);
  REQUIRE(none.variables_read.empty());
}

TEST_CASE("CommandAttributesList keeps each command's lists apart",
          "[computation]") {
  CommandAttributesList list;
  CommandAttributes a, b, c;
  a.variables_read = {5, 2, 5, 9};  // unsorted, with a duplicate
  a.matrices_written = {3};
  a.has_side_effects = true;
  // b: every list empty.
  c.variables_written = {1, 0};
  c.submatrices_read = {7, 7};
  c.submatrices_written = {4};
  c.matrices_read = {2, 1};
  list.Append(&a);
  list.Append(&b);
  list.Append(&c);
  REQUIRE(list.size() == 3);
  REQUIRE(list[0].variables_read == Ints{2, 5, 9});
  REQUIRE(list[0].variables_written.empty());
  REQUIRE(list[0].matrices_written == Ints{3});
  REQUIRE(list[0].has_side_effects);
  for (IntSpan s : {list[1].variables_read, list[1].variables_written,
                    list[1].submatrices_read, list[1].submatrices_written,
                    list[1].matrices_read, list[1].matrices_written})
    REQUIRE(s.empty());
  REQUIRE_FALSE(list[1].has_side_effects);
  REQUIRE(list[2].variables_read.empty());
  REQUIRE(list[2].variables_written == Ints{0, 1});
  REQUIRE(list[2].submatrices_read == Ints{7});
  REQUIRE(list[2].submatrices_written == Ints{4});
  REQUIRE(list[2].matrices_read == Ints{1, 2});
  REQUIRE(list[2].matrices_written.empty());
  REQUIRE_FALSE(list[2].has_side_effects);
  REQUIRE_FALSE(list[2].matrices_read == Ints{1});  // sizes differ
  list.Clear();
  REQUIRE(list.size() == 0);
  list.Append(&c);
  REQUIRE(list[0].variables_written == Ints{0, 1});
}

TEST_CASE("CommandAttributes of a forward/backward computation",
          "[computation]") {
  Nnet nnet = SmallNnet();
  NnetComputation c = SmallComputation(false);
  Analyzer a;
  a.Init(nnet, c);
  // One variable per matrix: variable v is matrix v + 1.
  REQUIRE(a.variables.NumVariables() == 8);
  const CommandAttributesList &attr = a.command_attributes;
  // c0 accepts m1: a write.
  REQUIRE(attr[0].variables_written == Ints{0});
  REQUIRE(attr[0].variables_read.empty());
  // Allocation touches no variables.
  REQUIRE(attr[1].variables_written.empty());
  REQUIRE(attr[1].variables_read.empty());
  // c2 affine1 propagate m1 -> m2.
  REQUIRE(attr[2].variables_read == Ints{0});
  REQUIRE(attr[2].variables_written == Ints{1});
  REQUIRE_FALSE(attr[2].has_side_effects);
  // c4 relu1 propagate with stats: a side effect.
  REQUIRE(attr[4].has_side_effects);
  // c7 provides m4: a read.
  REQUIRE(attr[7].variables_read == Ints{3});
  REQUIRE(attr[7].variables_written.empty());
  // c12 affine2 backprop: needs its input (m3) and out-deriv (m5), writes
  // in-deriv m6 (kBackpropAdds: read and written), updates the model.
  REQUIRE(attr[12].variables_read == Ints{2, 4, 5});
  REQUIRE(attr[12].variables_written == Ints{5});
  REQUIRE(attr[12].has_side_effects);
  REQUIRE(attr[12].matrices_read == Ints{3, 5, 6});
  // c14 relu1 backprop: needs its output (m3) and m6, writes m7.
  REQUIRE(attr[14].variables_read == Ints{2, 5});
  REQUIRE(attr[14].variables_written == Ints{6});
  REQUIRE_FALSE(attr[14].has_side_effects);
  // The marker and deallocations touch nothing.
  REQUIRE(attr[8].variables_read.empty());
  REQUIRE(attr[19].variables_written.empty());
}

TEST_CASE("CommandAttributes of row operations", "[computation]") {
  Nnet nnet = SmallNnet();
  NnetComputation c;
  const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
  int32_t m1 = c.NewMatrix(4, 3, kDefault), m2 = c.NewMatrix(4, 3, kDefault),
          m3 = c.NewMatrix(2, 3, kDefault);
  c.indexes.push_back({0, -1, 2, 3});
  c.indexes_multi.push_back({{m1, 0}, {-1, -1}, {m3, 1}, {m3, 0}});
  c.indexes_ranges.push_back({{0, 2}, {2, 4}, {-1, -1}, {1, 2}});
  c.commands = {Cmd(kCopyRows, m2, m1, 0),    Cmd(kAddRows, m2, m1, 0),
                Cmd(kCopyRowsMulti, m2, 0),   Cmd(kAddRowsMulti, m2, 0),
                Cmd(kCopyToRowsMulti, m2, 0), Cmd(kAddRowRanges, m2, m1, 0),
                Cmd(kSetConst, m3),           Cmd(kMatrixCopy, m2, m1),
                Cmd(kMatrixAdd, m2, m1),      Cmd(0.5f, kMatrixCopy, m2, m2)};
  Analyzer a;
  a.Init(nnet, c);
  const CommandAttributesList &attr = a.command_attributes;
  auto check = [&](int32_t k, const Ints &read, const Ints &written) {
    INFO("command c" << k);
    REQUIRE(attr[k].variables_read == read);
    REQUIRE(attr[k].variables_written == written);
  };
  check(0, {0}, {1});           // CopyRows writes (-1 rows are zeroed)
  check(1, {0, 1}, {1});        // AddRows adds
  check(2, {0, 2}, {1});        // CopyRowsMulti reads m1, m3
  check(3, {0, 1, 2}, {1});     // AddRowsMulti
  check(4, {0, 1, 2}, {0, 2});  // CopyToRowsMulti may not cover every row
  check(5, {0, 1}, {1});        // AddRowRanges
  check(6, {}, {2});            // SetConst
  check(7, {0}, {1});           // MatrixCopy
  check(8, {0, 1}, {1});        // MatrixAdd
  check(9, {1}, {1});           // in-place scale
}

TEST_CASE("Variable and matrix accesses", "[computation]") {
  Nnet nnet = SmallNnet();
  NnetComputation c = SmallComputation(false);
  Analyzer a;
  a.Init(nnet, c);
  // m1: accepted at c0, read by the affine1 propagate and backprop.
  const std::vector<Access> &v0 = a.variable_accesses[0];
  REQUIRE(v0.size() == 3);
  REQUIRE(v0[0].command_index == 0);
  REQUIRE(v0[0].access_type == kWriteAccess);
  REQUIRE(v0[1].command_index == 2);
  REQUIRE(v0[1].access_type == kReadAccess);
  REQUIRE(v0[2].command_index == 17);
  // m6 (relu1 deriv): zeroed by c11, added to by c12 (kBackpropAdds),
  // read by c14.
  const std::vector<Access> &v5 = a.variable_accesses[5];
  REQUIRE(v5.size() == 3);
  REQUIRE(v5[0].access_type == kWriteAccess);
  REQUIRE(v5[1].command_index == 12);
  REQUIRE(v5[1].access_type == kReadWriteAccess);
  REQUIRE(v5[2].command_index == 14);
  REQUIRE(v5[2].access_type == kReadAccess);

  REQUIRE(a.matrix_accesses.size() == 9);
  const MatrixAccesses &m1 = a.matrix_accesses[1];
  REQUIRE(m1.allocate_command == 0);  // kAcceptInput allocates
  REQUIRE(m1.deallocate_command == 19);
  REQUIRE(m1.is_input);
  REQUIRE_FALSE(m1.is_output);
  REQUIRE(m1.accesses.size() == 3);
  const MatrixAccesses &m4 = a.matrix_accesses[4];
  REQUIRE(m4.allocate_command == 5);
  REQUIRE(m4.deallocate_command == -1);
  REQUIRE(m4.is_output);
  REQUIRE(m4.accesses.size() == 2);
  REQUIRE(m4.accesses[0].command_index == 6);
  REQUIRE(m4.accesses[0].access_type == kWriteAccess);
  REQUIRE(m4.accesses[1].command_index == 7);
  REQUIRE(m4.accesses[1].access_type == kReadAccess);
  const MatrixAccesses &m5 = a.matrix_accesses[5];
  REQUIRE(m5.is_input);  // the output derivative comes from the user
  REQUIRE(m5.allocate_command == 9);
  const MatrixAccesses &m8 = a.matrix_accesses[8];
  REQUIRE(m8.is_output);
  REQUIRE(m8.allocate_command == 15);
}

TEST_CASE("Swaps allocate and deallocate", "[computation]") {
  Nnet nnet = SmallNnet();
  NnetComputation c;
  int32_t m1 = c.NewMatrix(2, 3, MatrixStrideType::kDefaultStride),
          m2 = c.NewMatrix(2, 3, MatrixStrideType::kDefaultStride);
  c.commands = {Cmd(kAllocMatrix, m1), Cmd(kSetConst, m1),
                Cmd(kSwapMatrix, m2, m1), Cmd(kProvideOutput, m2, 7)};
  Analyzer a;
  a.Init(nnet, c);
  REQUIRE(a.matrix_accesses[1].allocate_command == 0);
  REQUIRE(a.matrix_accesses[1].deallocate_command == 2);
  REQUIRE(a.matrix_accesses[2].allocate_command == 2);
  REQUIRE(a.matrix_accesses[2].deallocate_command == -1);
  REQUIRE(a.command_attributes[2].variables_written.empty());
  REQUIRE(GetMaxMemoryUse(c) == 2 * 3 * 4);
  // Allocating twice is an internal error.
  c.commands.push_back(Cmd(kAllocMatrix, m1));
  REQUIRE_THROWS_AS(a.Init(nnet, c), InternalError);
}

TEST_CASE("GetMaxMemoryUse", "[computation]") {
  NnetComputation c = SmallComputation(false);
  // Bytes: m1 80, m2..m7 60 each, m8 80; all but m4, m8 freed at the end.
  // The peak is after c15: 80 + 6 * 60 + 80.
  REQUIRE(GetMaxMemoryUse(c) == 80 + 6 * 60 + 80);
  NnetComputation empty;
  REQUIRE(GetMaxMemoryUse(empty) == 0);
  // Freeing before allocating the next matrix lowers the peak.
  NnetComputation d;
  int32_t m1 = d.NewMatrix(10, 10, MatrixStrideType::kDefaultStride),
          m2 = d.NewMatrix(10, 20, MatrixStrideType::kDefaultStride);
  d.commands = {Cmd(kAllocMatrix, m1), Cmd(kDeallocMatrix, m1),
                Cmd(kAllocMatrix, m2), Cmd(kCompressMatrix, m2, 1, 0),
                Cmd(kAllocMatrix, m1)};
  // 800 bytes for m2, 200 more (int8) while it is compressed, then 200 +
  // 400.
  REQUIRE(GetMaxMemoryUse(d) == 1000);
  // The decompression holds 600 + 800 before the packed 200 go.
  d.commands.push_back(Cmd(kDecompressMatrix, m2));
  REQUIRE(GetMaxMemoryUse(d) == 1400);
}

}  // namespace nnet3
