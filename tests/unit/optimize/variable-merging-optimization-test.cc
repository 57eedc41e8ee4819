// VariableMergingOptimization: hand-written and compiled computations,
// before and after; each condition of the header with a case that it
// blocks.
#include "optimize/variable-merging-optimization.h"

#include <catch2/catch.hpp>

#include "rowops-test-utils.h"

namespace nnet3 {

namespace {

using Cmd = NnetComputation::Command;
const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
const MatrixStrideType kEqual = MatrixStrideType::kStrideEqualNumCols;
constexpr int32_t kRelu = 0;

int32_t Node(const Nnet &nnet, const char *name) {
  int32_t node = nnet.GetNodeIndex(name);
  REQUIRE(node >= 0);
  return node;
}

int32_t CountCommands(const NnetComputation &c, CommandType type) {
  int32_t n = 0;
  for (const Cmd &command : c.commands)
    if (command.command_type == type) n++;
  return n;
}

// Merges with `opts`, requires a change, checks the results and returns
// the listing.
std::string Merge(const Nnet &nnet, const NnetComputation &before,
                  const NnetOptimizeOptions &opts, uint64_t seed,
                  NnetComputation *after_out = nullptr) {
  NnetComputation after = before;
  REQUIRE(VariableMergingOptimization(opts, nnet, &after));
  CheckEquivalent(nnet, before, after, seed);
  CHECK_FALSE(VariableMergingOptimization(opts, nnet, &after));
  if (after_out != nullptr) *after_out = after;
  return Listing(nnet, after);
}

// m1 = input (4x3); m2 = alpha * m1; m2 -> output.
NnetComputation Assignment(float alpha) {
  NnetComputation c;
  c.NewMatrix(4, 3, kDefault);
  c.NewMatrix(4, 3, kDefault);
  Nnet nnet = MergingNnet();
  c.commands = {Cmd(kAllocMatrix, 2),
                Cmd(0.0f, kSetConst, 2),
                Cmd(kAcceptInput, 1, Node(nnet, "input")),
                Cmd(alpha, kMatrixCopy, 2, 1),
                Cmd(kProvideOutput, 2, Node(nnet, "output")),
                Cmd(kDeallocMatrix, 1)};
  return c;
}

}  // namespace

TEST_CASE("VariableMergingOptimization removes an assignment", "[optimize-b]") {
  Nnet nnet = MergingNnet();
  NnetOptimizeOptions opts;
  const std::string expected =
      "m1 = user input [for node: 'input']\n"
      "output m1 to user [for node: 'output']\n";
  CHECK(Merge(nnet, Assignment(1.0f), opts, 501) == expected);
  opts.allow_left_merge = false;  // a right merge gives the same
  CHECK(Merge(nnet, Assignment(1.0f), opts, 502) == expected);
  opts.allow_right_merge = false;
  NnetComputation c = Assignment(1.0f);
  CHECK_FALSE(VariableMergingOptimization(opts, nnet, &c));
  opts = NnetOptimizeOptions();
  opts.remove_assignments = false;
  CHECK_FALSE(VariableMergingOptimization(opts, nnet, &c));
}

TEST_CASE("VariableMergingOptimization: a scaled copy becomes in place",
          "[optimize-b]") {
  Nnet nnet = MergingNnet();
  CHECK(Merge(nnet, Assignment(2.0f), NnetOptimizeOptions(), 511) ==
        "m1 = user input [for node: 'input']\n"
        "m1 = 2 * m1\n"
        "output m1 to user [for node: 'output']\n");
}

TEST_CASE("VariableMergingOptimization merges a chain of copies in rounds",
          "[optimize-b]") {
  Nnet nnet = MergingNnet();
  NnetComputation c;
  for (int32_t m = 0; m < 5; m++) c.NewMatrix(4, 3, kDefault);
  for (int32_t m = 2; m <= 5; m++) {
    c.commands.push_back(Cmd(kAllocMatrix, m));
    c.commands.push_back(Cmd(0.0f, kSetConst, m));
  }
  c.commands.push_back(Cmd(kAcceptInput, 1, Node(nnet, "input")));
  for (int32_t m = 2; m <= 5; m++)
    c.commands.push_back(Cmd(kMatrixCopy, m, m - 1));
  c.commands.push_back(Cmd(kProvideOutput, 5, Node(nnet, "output")));
  for (int32_t m = 1; m <= 4; m++) c.commands.push_back(Cmd(kDeallocMatrix, m));
  CHECK(Merge(nnet, c, NnetOptimizeOptions(), 521) ==
        "m1 = user input [for node: 'input']\n"
        "output m1 to user [for node: 'output']\n");
}

namespace {

// m1 = input (4x3); m2 = relu(m1) (4x3); m3 (4x6) = [m2 m2]; m4 = m3 ->
// output3. With `late_zeroing`, m3 is allocated and zeroed after the
// propagate.
NnetComputation SpliceRelu(bool late_zeroing) {
  Nnet nnet = MergingNnet();
  NnetComputation c;
  c.NewMatrix(4, 3, kDefault);
  c.NewMatrix(4, 3, kDefault);
  c.NewMatrix(4, 6, kDefault);
  c.NewMatrix(4, 6, kDefault);
  int32_t left = c.NewSubMatrix(3, 0, -1, 0, 3),
          right = c.NewSubMatrix(3, 0, -1, 3, 3);
  c.commands = {Cmd(kAllocMatrix, 2),
                Cmd(0.0f, kSetConst, 2),
                Cmd(kAllocMatrix, 4),
                Cmd(0.0f, kSetConst, 4),
                Cmd(kAcceptInput, 1, Node(nnet, "input")),
                Cmd(kPropagate, kRelu, 0, 1, 2, 0, 0),
                Cmd(kMatrixCopy, left, 2),
                Cmd(kMatrixCopy, right, 2),
                Cmd(kMatrixCopy, 4, 3),
                Cmd(kProvideOutput, 4, Node(nnet, "output3")),
                Cmd(kDeallocMatrix, 1),
                Cmd(kDeallocMatrix, 2),
                Cmd(kDeallocMatrix, 3)};
  std::vector<Cmd> sizing = {Cmd(kAllocMatrix, 3), Cmd(0.0f, kSetConst, 3)};
  c.commands.insert(c.commands.begin() + (late_zeroing ? 6 : 2), sizing.begin(),
                    sizing.end());
  return c;
}

}  // namespace

TEST_CASE("VariableMergingOptimization: right merge into a column block",
          "[optimize-b]") {
  Nnet nnet = MergingNnet();
  NnetOptimizeOptions opts;
  opts.propagate_in_place = false;
  // m2 moves into m3's left block (its zeroing goes: the propagate
  // overwrites it), the first copy goes, the second reads m3's left block;
  // in a second round m4 = m3 goes too.
  CHECK(Merge(nnet, SpliceRelu(false), opts, 531) ==
        "m2 = undefined(4x6)\n"
        "m2 = 0\n"
        "m1 = user input [for node: 'input']\n"
        "component-node 'relu' propagate: m1 -> m2(:, 0:2)\n"
        "m2(:, 3:5) = m2(:, 0:2)\n"
        "output m2 to user [for node: 'output3']\n"
        "m1 = []\n");
  // c10: m3's zeroing after the propagate would wipe m2's data, so only
  // m4 = m3 goes.
  NnetComputation after;
  Merge(nnet, SpliceRelu(true), opts, 532, &after);
  CHECK(CountCommands(after, kMatrixCopy) == 2);
  // c4: a left merge needs s2 whole, a right merge s1 whole.
  opts.allow_right_merge = false;
  Merge(nnet, SpliceRelu(false), opts, 533, &after);
  CHECK(CountCommands(after, kMatrixCopy) == 2);
}

namespace {

// m1 = input (4x3); m2 (4x6) = [m1 m1]; m3 = relu(m2 left block) (4x3,
// stride type `stride`); m4 = m3 -> output.
NnetComputation BlockRelu(MatrixStrideType stride) {
  Nnet nnet = MergingNnet();
  NnetComputation c;
  c.NewMatrix(4, 3, kDefault);
  c.NewMatrix(4, 6, kDefault);
  c.NewMatrix(4, 3, stride);
  c.NewMatrix(4, 3, kDefault);
  int32_t left = c.NewSubMatrix(2, 0, -1, 0, 3),
          right = c.NewSubMatrix(2, 0, -1, 3, 3);
  c.commands = {Cmd(kAllocMatrix, 2),
                Cmd(kAllocMatrix, 3),
                Cmd(kAllocMatrix, 4),
                Cmd(kAcceptInput, 1, Node(nnet, "input")),
                Cmd(kMatrixCopy, left, 1),
                Cmd(kMatrixCopy, right, 1),
                Cmd(kPropagate, kRelu, 0, left, 3, 0, 0),
                Cmd(kMatrixCopy, 4, 3),
                Cmd(kProvideOutput, 4, Node(nnet, "output")),
                Cmd(kDeallocMatrix, 1),
                Cmd(kDeallocMatrix, 2),
                Cmd(kDeallocMatrix, 3)};
  return c;
}

}  // namespace

TEST_CASE("VariableMergingOptimization: stride type (c6)", "[optimize-b]") {
  Nnet nnet = MergingNnet();
  NnetOptimizeOptions opts;
  opts.remove_assignments = false;
  NnetComputation strided = BlockRelu(kEqual);
  CheckEquivalent(nnet, strided, strided, 541);
  CHECK_FALSE(VariableMergingOptimization(opts, nnet, &strided));
  CHECK(Merge(nnet, BlockRelu(kDefault), opts, 542) ==
        "m2 = undefined(4x6)\n"
        "m3 = undefined(4x3)\n"
        "m1 = user input [for node: 'input']\n"
        "m2(:, 0:2) = m1\n"
        "m2(:, 3:5) = m1\n"
        "component-node 'relu' propagate: m2(:, 0:2) -> m2(:, 0:2)\n"
        "m3 = m2(:, 0:2)\n"
        "output m3 to user [for node: 'output']\n"
        "m1 = []\n"
        "m2 = []\n");
}

TEST_CASE("VariableMergingOptimization: an output is final once provided",
          "[optimize-b]") {
  // m1 = input; m2 = m1 -> output; m3 = relu(m2); m4 = [m3 m3] -> output3.
  // Relu in place would overwrite the provided m2 (c11).
  Nnet nnet = MergingNnet();
  NnetComputation c;
  c.NewMatrix(4, 3, kDefault);
  c.NewMatrix(4, 3, kDefault);
  c.NewMatrix(4, 3, kDefault);
  c.NewMatrix(4, 6, kDefault);
  int32_t left = c.NewSubMatrix(4, 0, -1, 0, 3),
          right = c.NewSubMatrix(4, 0, -1, 3, 3);
  c.commands = {Cmd(kAllocMatrix, 2),
                Cmd(kAllocMatrix, 3),
                Cmd(kAllocMatrix, 4),
                Cmd(kAcceptInput, 1, Node(nnet, "input")),
                Cmd(kMatrixCopy, 2, 1),
                Cmd(kProvideOutput, 2, Node(nnet, "output")),
                Cmd(kPropagate, kRelu, 0, 2, 3, 0, 0),
                Cmd(kMatrixCopy, left, 3),
                Cmd(kMatrixCopy, right, 3),
                Cmd(kProvideOutput, 4, Node(nnet, "output3")),
                Cmd(kDeallocMatrix, 1),
                Cmd(kDeallocMatrix, 3)};
  CheckEquivalent(nnet, c, c, 551);
  NnetOptimizeOptions opts;
  opts.remove_assignments = false;
  CHECK_FALSE(VariableMergingOptimization(opts, nnet, &c));
  // With assignments the first copy goes (m2 into m1), the rest stays.
  opts.remove_assignments = true;
  NnetComputation after;
  Merge(nnet, c, opts, 552, &after);
  CHECK(CountCommands(after, kMatrixCopy) == 2);
}

TEST_CASE("VariableMergingOptimization on compiled forward-backward",
          "[optimize-b]") {
  Nnet nnet = MergingNnet();
  SECTION("relu and softmax: in place where their backprops allow") {
    NnetComputation before =
        CompileForTest(nnet, TimeRequest(0, 5, 0, 5, 2, true));
    NnetComputation after;
    std::string listing =
        Merge(nnet, before, NnetOptimizeOptions(), 561, &after);
    INFO(Listing(nnet, before) << "after:\n" << listing);
    CHECK(after.matrices.size() < before.matrices.size());
    CHECK(CountCommands(after, kMatrixCopy) == 1);
    int32_t in_place_propagates = 0, in_place_backprops = 0;
    for (const Cmd &command : after.commands) {
      if (command.command_type == kPropagate && command.arg3 == command.arg4)
        in_place_propagates++;
      if (command.command_type == kBackprop && command.arg5 == command.arg6)
        in_place_backprops++;
    }
    // Both propagates run in place (their backprops need only their
    // outputs), but softmax on a copy of relu's output, which relu's
    // backprop needs; only softmax has kBackpropInPlace.
    CHECK(in_place_propagates == 2);
    CHECK(in_place_backprops == 1);
    for (bool on : {false, true}) {
      NnetOptimizeOptions opts;
      opts.propagate_in_place = on;
      opts.backprop_in_place = !on;
      Merge(nnet, before, opts, 562);
    }
  }
  SECTION("affine and normalize: normalize's backprop adds, not in place") {
    ComputationRequest request;
    std::vector<Index> indexes;
    for (int32_t t = 0; t < 6; t++) indexes.push_back(Index(0, t, 0));
    request.inputs.emplace_back("input2", indexes, true);
    request.outputs.emplace_back("output2", indexes, true);
    request.need_model_derivative = true;
    NnetComputation before = CompileForTest(nnet, request), after;
    Merge(nnet, before, NnetOptimizeOptions(), 563, &after);
    for (const Cmd &command : after.commands)
      if (command.command_type == kBackprop && command.arg1 == 3)
        CHECK(command.arg5 != command.arg6);
  }
  SECTION("nothing to do with every candidate switched off") {
    NnetComputation c = CompileForTest(nnet, TimeRequest(0, 5, 0, 5, 1, true));
    NnetOptimizeOptions opts;
    opts.remove_assignments = opts.propagate_in_place = opts.backprop_in_place =
        false;
    CHECK_FALSE(VariableMergingOptimization(opts, nnet, &c));
    opts = NnetOptimizeOptions();
    opts.allow_left_merge = opts.allow_right_merge = false;
    CHECK_FALSE(VariableMergingOptimization(opts, nnet, &c));
    opts = NnetOptimizeOptions();
    opts.optimize = false;
    CHECK_FALSE(VariableMergingOptimization(opts, nnet, &c));
  }
}

}  // namespace nnet3
