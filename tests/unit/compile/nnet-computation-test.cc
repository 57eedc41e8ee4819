#include "compile/nnet-computation.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "base/error.h"
#include "computation-test-utils.h"

namespace nnet3 {

namespace {

using Cmd = NnetComputation::Command;

// One command of (almost) every type, not meant to be a valid computation:
// for Print and serialization.
NnetComputation EveryCommandComputation() {
  NnetComputation c;
  const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
  int32_t m1 = c.NewMatrix(10, 4, kDefault),
          m2 = c.NewMatrix(10, 6, MatrixStrideType::kStrideEqualNumCols),
          m3 = c.NewMatrix(10, 6, kDefault);
  int32_t s4 = c.NewSubMatrix(m2, 0, 5, 0, -1);   // m2(0:4, :)
  int32_t s5 = c.NewSubMatrix(m3, 2, 3, 1, 2);    // m3(2:4, 1:2)
  int32_t s6 = c.NewSubMatrix(m2, 5, -1, 0, -1);  // m2(5:9, :)
  c.indexes.push_back({0, 1, 2, 3, 4, 5, 6, 7, -1, -1});
  c.indexes.push_back({9, 9, 9, 3, 4});
  c.indexes_multi.push_back({{s4, 0},
                             {s4, 1},
                             {s4, 2},
                             {-1, -1},
                             {-1, -1},
                             {s6, 4},
                             {s6, 3},
                             {s4, 3},
                             {s4, 4},
                             {s6, 0}});
  c.indexes_ranges.push_back({{0, 2}, {2, 3}, {3, 3}, {-1, -1}, {4, 10}});
  c.need_model_derivative = true;
  auto dropout = ComponentPrecomputedIndexes::NewOfType(
      "GeneralDropoutComponentPrecomputedIndexes");
  REQUIRE(dropout != nullptr);
  std::istringstream is(
      "<GeneralDropoutComponentPrecomputedIndexes> <NumMaskRows> 2 "
      "<Indexes> [ 0 1 1 0 ] </GeneralDropoutComponentPrecomputedIndexes> ");
  dropout->Read(is, false);
  NnetComputation::PrecomputedIndexesInfo info;
  info.data = std::move(dropout);
  info.input_indexes = {Index(0, 0), Index(0, 1), Index(1, 0), Index(1, 1)};
  info.output_indexes = info.input_indexes;
  c.component_precomputed_indexes.push_back(info);
  c.commands = {
      Cmd(kAcceptInput, m1, 0),
      Cmd(kAllocMatrix, m2),
      Cmd(0.0f, kSetConst, m2),
      Cmd(0.5f, kSetConst, s5),
      Cmd(kPropagate, 0, 0, m1, m3, 0, 0),
      Cmd(kPropagate, 1, 0, m3, m3, 2, 1),
      Cmd(kMatrixCopy, s4, s6),
      Cmd(2.0f, kMatrixCopy, s4, s6),
      Cmd(kMatrixAdd, m2, m3),
      Cmd(-1.0f, kMatrixAdd, m2, m3),
      Cmd(kCopyRows, m2, m3, 0),
      Cmd(0.5f, kAddRows, s4, m2, 1),
      Cmd(kCopyRowsMulti, m3, 0),
      Cmd(kAddRowsMulti, m3, 0),
      Cmd(kCopyToRowsMulti, m3, 0),
      Cmd(3.0f, kAddToRowsMulti, m3, 0),
      Cmd(kAddRowRanges, s4, m3, 0),
      Cmd(2.0f, kCompressMatrix, m3, 1, 1),
      Cmd(kDecompressMatrix, m3),
      Cmd(kSwapMatrix, m2, m3),
      Cmd(kProvideOutput, m3, 7),
      Cmd(kNoOperation),
      Cmd(kNoOperationPermanent),
      Cmd(kNoOperationMarker),
      Cmd(kBackprop, 2, 0, m3, 0, m2, m3, 0),
      Cmd(kBackprop, 1, 1, 0, m3, m2, 0, 2),
      Cmd(kBackpropNoModelUpdate, 0, 0, m1, 0, m2, m1, 0),
      Cmd(kNoOperationMarker),
      Cmd(kNoOperationLabel),
      Cmd(kDeallocMatrix, m1),
      Cmd(kGotoLabel, 28),
  };
  return c;
}

const char *kExpectedPrint =
    "# matrices\n"
    "m1: 10x4\n"
    "m2: 10x6 (stride=cols)\n"
    "m3: 10x6\n"
    "# precomputed indexes\n"
    "precomputed 1: GeneralDropoutComponentPrecomputedIndexes, 4 input and 4 "
    "output indexes\n"
    "# begin forward commands\n"
    "c0: m1 = user input [for node: 'input']\n"
    "c1: m2 = undefined(10x6)\n"
    "c2: m2 = 0\n"
    "c3: m3(2:4, 1:2) = 0.5\n"
    "c4: component-node 'affine1' propagate: m1 -> m3\n"
    "c5: component-node 'relu1' propagate: m3 -> m3 [memo=2] [and store "
    "stats]\n"
    "c6: m2(0:4, :) = m2(5:9, :)\n"
    "c7: m2(0:4, :) = 2 * m2(5:9, :)\n"
    "c8: m2 += m3\n"
    "c9: m2 += -1 * m3\n"
    "c10: m2 = m3.CopyRows([0:7 -1 -1])\n"
    "c11: m2(0:4, :) += 0.5 * m2.AddRows([9x3 3:4])\n"
    "c12: m3.CopyRowsMulti([m2(0:4, :)[0:2] -1 -1 m2(5:9, :)[4 3] "
    "m2(0:4, :)[3:4] m2(5:9, :)[0]])\n"
    "c13: m3.AddRowsMulti([m2(0:4, :)[0:2] -1 -1 m2(5:9, :)[4 3] "
    "m2(0:4, :)[3:4] m2(5:9, :)[0]])\n"
    "c14: m3.CopyToRowsMulti([m2(0:4, :)[0:2] -1 -1 m2(5:9, :)[4 3] "
    "m2(0:4, :)[3:4] m2(5:9, :)[0]])\n"
    "c15: m3.AddToRowsMulti(3, [m2(0:4, :)[0:2] -1 -1 m2(5:9, :)[4 3] "
    "m2(0:4, :)[3:4] m2(5:9, :)[0]])\n"
    "c16: m2(0:4, :).AddRowRanges(m3, [0:1 2 - - 4:9])\n"
    "c17: m3.Compress(int8, range=2, truncate)\n"
    "c18: m3.Decompress()\n"
    "c19: m2.swap(m3) [10x6]\n"
    "c20: output m3 to user [for node: 'output']\n"
    "c21: # (no-op)\n"
    "c22: # (no-op, permanent)\n"
    "c23: # begin backward commands\n"
    "c24: component-node 'affine2' backprop: (m3, [], m2) -> m3 [and update "
    "model]\n"
    "c25: component-node 'relu1' backprop: ([], m3, m2) -> [] "
    "[precomputed=1] [memo=2]\n"
    "c26: component-node 'affine1' backprop: (m1, [], m2) -> m1\n"
    "c27: # segment separator\n"
    "c28: # label\n"
    "c29: m1 = []\n"
    "c30: goto c28\n";

}  // namespace

TEST_CASE("NnetComputation construction helpers", "[computation]") {
  NnetComputation c;
  REQUIRE(c.matrices.size() == 1);
  REQUIRE(c.submatrices.size() == 1);
  REQUIRE(c.component_precomputed_indexes.size() == 1);
  REQUIRE(c.component_precomputed_indexes[0].data == nullptr);
  int32_t s1 = c.NewMatrix(10, 20, MatrixStrideType::kDefaultStride);
  REQUIRE(s1 == 1);
  REQUIRE(c.IsWholeMatrix(s1));
  int32_t s2 = c.NewSubMatrix(s1, 2, 3, 5, -1);
  REQUIRE(c.submatrices[s2] == NnetComputation::SubMatrixInfo(1, 2, 3, 5, 15));
  REQUIRE_FALSE(c.IsWholeMatrix(s2));
  // Offsets are relative to the base submatrix.
  int32_t s3 = c.NewSubMatrix(s2, 1, -1, 0, 4);
  REQUIRE(c.submatrices[s3] == NnetComputation::SubMatrixInfo(1, 3, 2, 5, 4));
  REQUIRE_FALSE(c.IsWholeMatrix(0));
  REQUIRE_FALSE(c.IsWholeMatrix(99));
  REQUIRE_THROWS_AS(c.NewSubMatrix(s1, 8, 5, 0, -1), InternalError);
  // With debug info, new matrices get an entry.
  c.matrix_debug_info.resize(c.matrices.size());
  c.NewMatrix(1, 1, MatrixStrideType::kDefaultStride);
  REQUIRE(c.matrix_debug_info.size() == c.matrices.size());
}

TEST_CASE("CommandTypeName", "[computation]") {
  REQUIRE(std::string(CommandTypeName(kAllocMatrix)) == "kAllocMatrix");
  REQUIRE(std::string(CommandTypeName(kPropagate)) == "kPropagate");
  REQUIRE(std::string(CommandTypeName(kGotoLabel)) == "kGotoLabel");
  REQUIRE(std::string(CommandTypeName(kNumCommandTypes)) ==
          "kUnknownCommandType");
}

TEST_CASE("NnetComputation Print", "[computation]") {
  Nnet nnet = SmallNnet();
  NnetComputation c = EveryCommandComputation();
  std::ostringstream os;
  c.Print(os, nnet);
  REQUIRE(os.str() == kExpectedPrint);
  // GetCommandStrings gives the same texts.
  std::vector<std::string> strings;
  c.GetCommandStrings(nnet, &strings);
  REQUIRE(strings.size() == c.commands.size());
  REQUIRE(strings[4] == "component-node 'affine1' propagate: m1 -> m3");
  REQUIRE(strings[23] == "# begin backward commands");
}

TEST_CASE("NnetComputation Print with debug info", "[computation]") {
  Nnet nnet = SmallNnet();
  NnetComputation c = SmallComputation(true);
  std::ostringstream os;
  c.Print(os, nnet);
  std::string text = os.str();
  REQUIRE(text.find("m1: 5x4, value: [ input(0, 0:4) ]\n") !=
          std::string::npos);
  REQUIRE(text.find("m6: 5x3, deriv: [ relu1(0, 0:4) ]\n") !=
          std::string::npos);
  REQUIRE(text.find("c12: component-node 'affine2' backprop: (m3, [], m5) -> "
                    "m6 [and update model]\n") != std::string::npos);
  REQUIRE(text.find("c14: component-node 'relu1' backprop: ([], m3, m6) -> "
                    "m7\n") != std::string::npos);
}

TEST_CASE("NnetComputation Print survives invalid indexes", "[computation]") {
  Nnet nnet = SmallNnet();
  NnetComputation c;
  c.NewMatrix(2, 2, MatrixStrideType::kDefaultStride);
  c.commands = {Cmd(kPropagate, 9, 0, 1, 7), Cmd(kCopyRows, 1, 1, 3),
                Cmd(kAcceptInput, 1, 42), Cmd(static_cast<CommandType>(99))};
  std::vector<std::string> strings;
  c.GetCommandStrings(nnet, &strings);
  REQUIRE(strings[0] ==
          "<invalid-component 9> propagate: m1 -> "
          "<invalid-submatrix 7>");
  REQUIRE(strings[1] == "m1 = m1.CopyRows([<invalid-indexes 3>])");
  REQUIRE(strings[2] == "m1 = user input [for node: '<invalid-node 42>']");
  REQUIRE(strings[3] == "<invalid-command-type 99>");
}

TEST_CASE("NnetComputation Read/Write round trip", "[computation]") {
  std::vector<NnetComputation> computations = {
      EveryCommandComputation(), SmallComputation(true),
      SmallComputation(false), MemoComputation(), NnetComputation()};
  // Debug info with several nodes per matrix, n > 0 and large t jumps.
  NnetComputation &c = computations[1];
  c.matrix_debug_info[2].cindexes = {
      Cindex(2, Index(0, 0)), Cindex(2, Index(1, 0)),
      Cindex(4, Index(0, 500, 2)), Cindex(4, Index(0, 501, 2)),
      Cindex(2, Index(3, kNoTime))};
  for (const NnetComputation &comp : computations) {
    for (bool binary : {false, true}) {
      std::string bytes = WriteToString(comp, binary);
      NnetComputation read = ReadFromString<NnetComputation>(bytes, binary);
      REQUIRE(WriteToString(read, binary) == bytes);
      REQUIRE(read.commands.size() == comp.commands.size());
      REQUIRE(read.matrix_debug_info.size() == comp.matrix_debug_info.size());
      for (size_t m = 0; m < comp.matrix_debug_info.size(); m++)
        REQUIRE(read.matrix_debug_info[m].cindexes ==
                comp.matrix_debug_info[m].cindexes);
      // Text and binary describe the same thing.
      REQUIRE(WriteToString(read, !binary) == WriteToString(comp, !binary));
    }
  }
  std::string text = WriteToString(computations[0], false);
  REQUIRE(text.find("<NnetComputation> <Version> 3 \n<NumMatrices> 4 ") == 0);
  REQUIRE(text.find("<Cmd> kPropagate <Alpha> 1 <Args> [ 1 0 3 3 2 1 -1 ]") !=
          std::string::npos);
  REQUIRE(text.find("<NeedModelDerivative> T </NnetComputation>") !=
          std::string::npos);
}

TEST_CASE("NnetComputation Read rejects bad input", "[computation]") {
  std::string text = WriteToString(SmallComputation(true), false);
  REQUIRE_THROWS_AS(
      ReadFromString<NnetComputation>(text.substr(0, text.size() - 40), false),
      UserError);
  std::string bad = text;
  bad.replace(bad.find("<Version> 3"), 11, "<Version> 2");
  REQUIRE_THROWS_AS(ReadFromString<NnetComputation>(bad, false), UserError);
  bad = text;
  bad.replace(bad.find("kPropagate"), 10, "kPropagatX");
  REQUIRE_THROWS_AS(ReadFromString<NnetComputation>(bad, false), UserError);
}

}  // namespace nnet3
