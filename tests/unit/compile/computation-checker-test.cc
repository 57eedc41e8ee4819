#include "compile/computation-checker.h"

#include <catch2/catch.hpp>

#include "base/error.h"
#include "computation-test-utils.h"

namespace nnet3 {

namespace {

using Cmd = NnetComputation::Command;
using Catch::Matchers::Contains;

// The checker's message, or "" if the computation passes.
std::string CheckError(const Nnet &nnet, const NnetComputation &c,
                       bool check_rewrite = true,
                       bool check_unused_variables = true) {
  CheckComputationOptions opts;
  opts.check_rewrite = check_rewrite;
  opts.check_unused_variables = check_unused_variables;
  try {
    ComputationChecker(opts, nnet, c).Check();
  } catch (const InternalError &e) {
    std::string msg = e.what();
    REQUIRE(msg.find('\n') == std::string::npos);
    return msg;
  }
  return "";
}

// SmallComputation (see computation-test-utils.cc for its commands) with
// `edit` applied.
template <class F>
std::string SmallError(F edit, bool check_rewrite = true,
                       bool check_unused = true) {
  NnetComputation c = SmallComputation(true);
  edit(&c);
  return CheckError(SmallNnet(), c, check_rewrite, check_unused);
}

void AddDummyPrecomputedIndexes(NnetComputation *c) {
  NnetComputation::PrecomputedIndexesInfo info;
  info.data = ComponentPrecomputedIndexes::NewOfType(
      "GeneralDropoutComponentPrecomputedIndexes");
  REQUIRE(info.data != nullptr);
  c->component_precomputed_indexes.push_back(info);
}

}  // namespace

TEST_CASE("Checker accepts valid computations", "[computation]") {
  REQUIRE(CheckError(SmallNnet(), SmallComputation(true)) == "");
  REQUIRE(CheckError(SmallNnet(), SmallComputation(false)) == "");
  REQUIRE(CheckError(MemoNnet(), MemoComputation()) == "");
  // An in-place scale is a legal kMatrixCopy onto itself.
  REQUIRE(SmallError([](NnetComputation *c) {
            c->commands[7] = Cmd(0.5f, kMatrixCopy, 4, 4);
          }) == "");
  CheckComputation(SmallNnet(), SmallComputation(true), true);
}

TEST_CASE("Checker: indexes of propagate commands", "[computation]") {
  REQUIRE(SmallError([](NnetComputation *c) { c->commands[2].arg1 = 9; }) ==
          "Computation check failed at c2 (<invalid-component 9> propagate: "
          "m1 -> m2): component index 9 is out of range");
  REQUIRE_THAT(SmallError([](NnetComputation *c) { c->commands[2].arg4 = 99; }),
               Contains("the output submatrix 99 is out of range"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) { c->commands[2].arg2 = 5; }),
               Contains("precomputed-indexes index 5 is out of range"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 AddDummyPrecomputedIndexes(c);
                 c->commands[2].arg2 = 1;
               }),
               Contains("a simple component is given precomputed indexes"));
  REQUIRE_THAT(
      SmallError([](NnetComputation *c) { c->commands[2].arg3 = 2; }),
      Contains("the input has 3 columns but the component's input dim is 4"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands[2].arg4 = c->NewSubMatrix(2, 0, 2, 0, -1);
               }),
               Contains("input and output row counts differ"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) { c->commands[6].arg4 = 3; }),
               Contains("at c6 (component-node 'affine2' propagate: m3 -> m3)"
                        ": in-place propagate for a component without "
                        "kPropagateInPlace"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) { c->commands[2].arg5 = 1; }),
               Contains("a memo index for a component without kUsesMemo"));
}

TEST_CASE("Checker: backprop commands", "[computation]") {
  REQUIRE_THAT(SmallError([](NnetComputation *c) { c->commands[12].arg3 = 0; }),
               Contains("needs the input value but none is given"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) { c->commands[14].arg4 = 0; }),
               Contains("needs the output value but none is given"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) { c->commands[14].arg6 = 0; }),
               Contains("at c14 (component-node 'relu1' backprop: ([], m3, "
                        "m6) -> []): backprop has no effect"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands[17].command_type = kBackpropNoModelUpdate;
                 c->commands[17].arg6 = 0;
               }),
               Contains("backprop has no effect"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->need_model_derivative = false;
                 c->commands[17].arg6 = 0;
               }),
               Contains("backprop has no effect"));
  // An updating backprop without an input-deriv is fine.
  REQUIRE_THAT(SmallError([](NnetComputation *c) { c->commands[17].arg6 = 0; }),
               !Contains("no effect"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) { c->commands[14].arg6 = 6; }),
               Contains("in-place backprop for a component without "
                        "kBackpropInPlace"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) { c->commands[12].arg6 = 8; }),
               Contains("input-side column count differs"));
}

TEST_CASE("Checker: memos", "[computation]") {
  Nnet nnet = MemoNnet();
  NnetComputation c = MemoComputation();
  c.commands[7].arg7 = 2;
  REQUIRE_THAT(CheckError(nnet, c),
               Contains("memo 2 is not made by an earlier propagate"));
  c = MemoComputation();
  c.commands.insert(c.commands.begin() + 8, c.commands[7]);
  REQUIRE_THAT(CheckError(nnet, c), Contains("memo 1 was already used by c7"));
  c = MemoComputation();
  c.commands.insert(c.commands.begin() + 3, c.commands[2]);
  REQUIRE_THAT(CheckError(nnet, c), Contains("memo 1 is also made by c2"));
}

TEST_CASE("Checker: copies and row operations", "[computation]") {
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands[7] = Cmd(kMatrixAdd, 4, 4);
               }),
               Contains("copies or adds a submatrix to itself"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands[7] = Cmd(kMatrixCopy, 4, 1);
               }),
               Contains("source and destination differ in size"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->indexes.push_back({0, 1, 2, 3, 7});
                 c->commands[7] = Cmd(kCopyRows, 4, 3, 0);
               }),
               Contains("at c7 (m4 = m3.CopyRows([0:3 7])): row index 7 is out "
                        "of range for the source (5 rows)"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->indexes.push_back({0, 1});
                 c->commands[7] = Cmd(kAddRows, 4, 3, 0);
               }),
               Contains("the index list has 2 entries for 5 rows"));
  REQUIRE_THAT(
      SmallError([](NnetComputation *c) {
        c->indexes_multi.push_back({{3, 0}, {3, 1}, {3, 1}, {3, 2}, {3, 3}});
        c->commands[7] = Cmd(kCopyToRowsMulti, 4, 0);
      }),
      Contains("destination (3, 1) appears twice"));
  // Repeated sources are fine when reading.
  REQUIRE_THAT(
      SmallError([](NnetComputation *c) {
        c->indexes_multi.push_back({{3, 0}, {3, 1}, {3, 1}, {3, 2}, {3, 3}});
        c->commands[7] = Cmd(kAddRowsMulti, 4, 0);
      }),
      !Contains("appears twice"));
  REQUIRE_THAT(
      SmallError([](NnetComputation *c) {
        c->indexes_multi.push_back({{3, 0}, {3, 5}, {-1, -1}, {3, 2}, {3, 3}});
        c->commands[7] = Cmd(kAddRowsMulti, 4, 0);
      }),
      Contains("row 5 of submatrix 3 is out of range"));
  REQUIRE_THAT(
      SmallError([](NnetComputation *c) {
        c->indexes_ranges.push_back({{0, 2}, {2, 1}, {0, 0}, {-1, -1}, {4, 5}});
        c->commands[7] = Cmd(kAddRowRanges, 4, 3, 0);
      }),
      Contains("row range [2, 1) is invalid for a source of 5 rows"));
  REQUIRE_THAT(
      SmallError([](NnetComputation *c) {
        c->indexes_ranges.push_back({{0, 2}, {2, 3}, {0, 0}, {-1, -1}, {4, 6}});
        c->commands[7] = Cmd(kAddRowRanges, 4, 3, 0);
      }),
      Contains("row range [4, 6) is invalid"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands[7] = Cmd(kCompressMatrix, 4, 7, 0);
               }),
               Contains("compression type 7 is not 1..4"));
  // Range 0 (the sign only) exists for uint8 alone, as in Kaldi.
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands[7] = Cmd(0.0f, kCompressMatrix, 4, 4, 1);
               }),
               Contains("compression range 0 is invalid"));
}

// m3 (relu1's output) packed after its last forward use (c6) and unpacked
// before affine2's backprop reads it (c12), both shifted by the insertions.
void InsertCompression(NnetComputation *c, float range, int32_t type,
                       int32_t compress_at, int32_t decompress_at) {
  const int32_t m3 = 3;
  if (compress_at >= 0)
    c->commands.insert(c->commands.begin() + compress_at,
                       Cmd(range, kCompressMatrix, m3, type, 1));
  if (decompress_at >= 0)
    c->commands.insert(c->commands.begin() + decompress_at,
                       Cmd(kDecompressMatrix, m3));
}

TEST_CASE("Checker: compression pairs", "[computation]") {
  const bool kNoRewriteCheck = false;
  CHECK(SmallError(
            [](NnetComputation *c) { InsertCompression(c, 10.0f, 1, 7, 13); },
            kNoRewriteCheck) == "");
  CHECK_THAT(
      SmallError(
          [](NnetComputation *c) { InsertCompression(c, 10.0f, 1, 7, -1); },
          kNoRewriteCheck),
      Contains("the next access to m3 after its compression is not its "
               "decompression"));
  CHECK_THAT(
      SmallError(
          [](NnetComputation *c) { InsertCompression(c, 10.0f, 1, -1, 12); },
          kNoRewriteCheck),
      Contains("m3 is decompressed without being compressed"));
  // Packed after the marker (c8): not between the passes.
  CHECK_THAT(
      SmallError(
          [](NnetComputation *c) { InsertCompression(c, 10.0f, 1, 9, 13); },
          kNoRewriteCheck),
      Contains("m3 is not compressed in the forward commands"));
  // Only the sign, but affine2's backprop needs the value.
  CHECK_THAT(
      SmallError(
          [](NnetComputation *c) { InsertCompression(c, 0.0f, 2, 7, 13); },
          kNoRewriteCheck),
      Contains("keeps only its sign (range 0), but its last use is "
               "not a ReLU's backprop"));
}

TEST_CASE("Checker: I/O, labels and command types", "[computation]") {
  REQUIRE_THAT(SmallError([](NnetComputation *c) { c->commands[0].arg2 = 2; }),
               Contains("node 'affine1' is neither an input nor an output "
                        "node"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) { c->commands[7].arg2 = 0; }),
               Contains("the matrix has 3 columns but node 'input' has dim 4"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands[7].arg1 = c->NewSubMatrix(4, 0, 2, 0, -1);
               }),
               Contains("must be a whole matrix"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands[8] = Cmd(kGotoLabel, 0);
               }),
               Contains("goto destination c0 is not an earlier "
                        "kNoOperationLabel"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands[7] = Cmd(kNoOperationLabel);
                 c->commands[8] = Cmd(kGotoLabel, 7);
               }),
               Contains("kGotoLabel is not the last command"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands[8].command_type = static_cast<CommandType>(77);
               }),
               Contains("unknown command type 77"));
}

TEST_CASE("Checker: matrix lifetimes", "[computation]") {
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands[3] = Cmd(kAllocMatrix, 2);
               }),
               Contains("at c3 (m2 = undefined(5x3)): matrix m2 is allocated a "
                        "second time (first at c1)"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands[1] = Cmd(kNoOperation);
               }),
               Contains("at c2 (component-node 'affine1' propagate: m1 -> m2)"
                        ": matrix m2 is used but never allocated"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands.insert(c->commands.begin() + 15,
                                    Cmd(kDeallocMatrix, 1));
                 c->commands[20] = Cmd(kNoOperation);  // the old dealloc
               }),
               Contains("at c18 (component-node 'affine1' backprop: (m1, [], "
                        "m7) -> m8 [and update model]): matrix m1 is used "
                        "after it is deallocated at c15"));
  auto add_constant_matrix = [](NnetComputation *c) {
    c->matrix_debug_info.clear();
    int32_t m9 = c->NewMatrix(5, 3, MatrixStrideType::kDefaultStride);
    c->commands.push_back(Cmd(kAllocMatrix, m9));
    c->commands.push_back(Cmd(0.0f, kSetConst, m9));
    c->commands.push_back(Cmd(kDeallocMatrix, m9));
  };
  REQUIRE_THAT(SmallError(add_constant_matrix),
               Contains("matrix m9 is set to a constant and never used"));
  REQUIRE(SmallError(add_constant_matrix, true, false) == "");
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->matrix_debug_info.clear();
                 int32_t m9 =
                     c->NewMatrix(5, 3, MatrixStrideType::kDefaultStride);
                 c->commands.push_back(Cmd(kAllocMatrix, m9));
                 c->commands.push_back(Cmd(kDeallocMatrix, m9));
               }),
               Contains("matrix m9 is never used"));
}

TEST_CASE("Checker: undefined, unused and rewritten variables",
          "[computation]") {
  REQUIRE(SmallError([](NnetComputation *c) {
            c->commands[9] = Cmd(kAllocMatrix, 5);
          }) ==
          "Computation check failed at c12 (component-node 'affine2' "
          "backprop: (m3, [], m5) -> m6 [and update model]): reads "
          "variable m5 before it is written");
  // Without the zeroing, adding to m6 reads it undefined.
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->commands[11] = Cmd(kNoOperation);
               }),
               Contains("at c12 (component-node 'affine2' backprop: (m3, [], "
                        "m5) -> m6 [and update model]): reads variable m6 "
                        "before it is written"));
  // m9's last column is never touched.
  auto partly_used = [](NnetComputation *c) {
    c->matrix_debug_info.clear();
    int32_t m9 = c->NewMatrix(5, 3, MatrixStrideType::kDefaultStride);
    int32_t m9_left = c->NewSubMatrix(m9, 0, -1, 0, 2);
    int32_t m7_left = c->NewSubMatrix(7, 0, -1, 0, 2);
    auto at = c->commands.begin() + 17;  // before the affine1 backprop
    at = c->commands.insert(at, Cmd(kMatrixAdd, m7_left, m9_left));
    at = c->commands.insert(at, Cmd(0.0f, kSetConst, m9_left));
    c->commands.insert(at, Cmd(kAllocMatrix, m9));
    c->commands.push_back(Cmd(kDeallocMatrix, m9));
  };
  REQUIRE_THAT(SmallError(partly_used),
               Contains("variable m9(:, 2:2) is never used"));
  REQUIRE(SmallError(partly_used, true, false) == "");
  // Overwriting m1 after it was read: only check_rewrite objects.
  auto rewrite = [](NnetComputation *c) {
    c->commands[18] = Cmd(0.0f, kSetConst, 1);
  };
  REQUIRE(SmallError(rewrite, true) ==
          "Computation check failed at c18 (m1 = 0): modifies variable m1 "
          "after it was read at c2 (not expected before optimization)");
  REQUIRE(SmallError(rewrite, false) == "");
}

TEST_CASE("Checker: debug info", "[computation]") {
  REQUIRE(SmallError([](NnetComputation *c) {
            c->matrix_debug_info[3].cindexes.pop_back();
          }) ==
          "Computation check failed: debug info of m3 has 4 cindexes "
          "for 5 rows");
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->matrix_debug_info[2].cindexes[1].second.n = -1;
               }),
               Contains("debug info of m2 has n = -1"));
  REQUIRE_THAT(
      SmallError([](NnetComputation *c) { c->matrix_debug_info.pop_back(); }),
      Contains("there is debug info for 8 matrices but there are 9"));
  REQUIRE_THAT(SmallError([](NnetComputation *c) {
                 c->matrix_debug_info[2].cindexes[0].first = 40;
               }),
               Contains("debug info of m2 names node 40"));
}

TEST_CASE("Checker: looped computations", "[computation]") {
  // Forward-only, one chunk per iteration: the label is c1, the loop body
  // accepts input, propagates, provides output.
  NnetComputation c;
  int32_t m1 = c.NewMatrix(5, 4, MatrixStrideType::kDefaultStride),
          m2 = c.NewMatrix(5, 3, MatrixStrideType::kDefaultStride);
  c.commands = {Cmd(kAllocMatrix, m2),      Cmd(kNoOperationLabel),
                Cmd(kAcceptInput, m1, 0),   Cmd(kPropagate, 0, 0, m1, m2, 0, 0),
                Cmd(kProvideOutput, m2, 7), Cmd(kGotoLabel, 1)};
  REQUIRE(CheckError(SmallNnet(), c) == "");
}

TEST_CASE("CheckComputation rethrows", "[computation]") {
  NnetComputation c = SmallComputation(true);
  c.commands[2].arg1 = 9;
  REQUIRE_THROWS_AS(CheckComputation(SmallNnet(), c), InternalError);
}

}  // namespace nnet3
