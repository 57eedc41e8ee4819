// Tests of NnetComputer on computations built by hand: every command type
// against direct matrix computations, I/O boundaries, stats and model
// updates, memos, errors, and two threads sharing one const Nnet.
#include "compute/nnet-computer.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/error.h"
#include "compile/computation-checker.h"
#include "compile/nnet-computation.h"
#include "compute-test-utils.h"
#include "device/device.h"
#include "nnet/component-registry.h"
#include "nnet/components/affine-components.h"
#include "nnet/components/nonlinear-components.h"
#include "nnet/components/normalize-components.h"
#include "nnet/nnet.h"

namespace nnet3 {
namespace {

using Cmd = NnetComputation::Command;
constexpr MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;

// ---- a harness for the matrix and row commands ----
// Accepts X (in_rows x in_cols) as "input", allocates an output matrix set
// to `fill`, runs `ops`, and provides the output as "output".
struct OpHarness {
  NnetComputation comp;
  int32_t in = 0, out = 0;
  std::vector<Cmd> ops;

  OpHarness(int32_t in_rows, int32_t in_cols, int32_t out_rows,
            int32_t out_cols) {
    in = comp.NewMatrix(in_rows, in_cols, kDefault);
    out = comp.NewMatrix(out_rows, out_cols, kDefault);
  }
  Matrix Run(const Nnet &nnet, const Matrix &x, float fill) {
    comp.commands.clear();
    comp.commands.emplace_back(kAcceptInput, in, nnet.GetNodeIndex("input"));
    comp.commands.emplace_back(kAllocMatrix, out);
    comp.commands.emplace_back(fill, kSetConst, out);
    for (const Cmd &c : ops) comp.commands.push_back(c);
    comp.commands.emplace_back(kProvideOutput, out,
                               nnet.GetNodeIndex("output"));
    NnetComputer computer(NnetComputeOptions(), comp, nnet, nullptr);
    Matrix input(x);
    computer.AcceptInput("input", &input);
    computer.Run();
    Matrix result;
    computer.GetOutputDestructive("output", &result);
    return result;
  }
};

// Row r of x as a host vector.
std::vector<float> Row(const Matrix &x, int32_t r) {
  return Matrix(x.RowRange(r, 1)).ToHost();
}

std::vector<float> Concat(const std::vector<std::vector<float>> &rows) {
  std::vector<float> all;
  for (const auto &r : rows) all.insert(all.end(), r.begin(), r.end());
  return all;
}

std::vector<float> Scaled(std::vector<float> v, float alpha, float add = 0) {
  for (float &f : v) f = alpha * f + add;
  return v;
}

TEST_CASE("NnetComputer copies and adds rows with index lists", "[computer]") {
  Nnet nnet = TinyNnet();
  const Matrix x = RandomMatrix(4, 3, 11);  // seed 11
  const std::vector<float> zero(3, 0.0f);
  SECTION("kCopyRows with -1 and alpha") {
    OpHarness h(4, 3, 3, 3);
    h.comp.indexes.push_back({2, -1, 0});
    h.ops.emplace_back(2.0f, kCopyRows, h.out, h.in, 0);
    Matrix y = h.Run(nnet, x, 7.0f);
    CheckNear(y.ToHost(),
              Concat({Scaled(Row(x, 2), 2.0f), zero, Scaled(Row(x, 0), 2.0f)}));
  }
  SECTION("kAddRows skips -1") {
    OpHarness h(4, 3, 3, 3);
    h.comp.indexes.push_back({1, -1, 3});
    h.ops.emplace_back(0.5f, kAddRows, h.out, h.in, 0);
    Matrix y = h.Run(nnet, x, 1.0f);
    CheckNear(y.ToHost(), Concat({Scaled(Row(x, 1), 0.5f, 1.0f),
                                  std::vector<float>(3, 1.0f),
                                  Scaled(Row(x, 3), 0.5f, 1.0f)}));
  }
  SECTION("kCopyRows into a column range, from a row range") {
    OpHarness h(4, 3, 2, 5);
    const int32_t dst = h.comp.NewSubMatrix(h.out, 0, 2, 1, 3);
    const int32_t src = h.comp.NewSubMatrix(h.in, 1, 3, 0, 3);
    h.comp.indexes.push_back({2, 0});  // rows 3 and 1 of x
    h.ops.emplace_back(kCopyRows, dst, src, 0);
    Matrix y = h.Run(nnet, x, 9.0f);
    std::vector<float> r0 = Row(x, 3), r1 = Row(x, 1);
    CheckNear(y.ToHost(),
              {9, r0[0], r0[1], r0[2], 9, 9, r1[0], r1[1], r1[2], 9});
  }
  SECTION("kAddRowRanges") {
    OpHarness h(4, 3, 3, 3);
    h.comp.indexes_ranges.push_back({{0, 2}, {2, 2}, {1, 4}});
    h.ops.emplace_back(0.5f, kAddRowRanges, h.out, h.in, 0);
    Matrix y = h.Run(nnet, x, 1.0f);
    std::vector<float> want(9, 1.0f);
    for (int32_t c = 0; c < 3; ++c) {
      want[c] += 0.5f * (x.Get(0, c) + x.Get(1, c));
      want[6 + c] += 0.5f * (x.Get(1, c) + x.Get(2, c) + x.Get(3, c));
    }
    CheckNear(y.ToHost(), want);
  }
}

TEST_CASE("NnetComputer runs the multi-row commands with pointer lists",
          "[computer]") {
  Nnet nnet = TinyNnet();
  const Matrix x = RandomMatrix(4, 3, 12);  // seed 12
  const std::vector<float> zero(3, 0.0f);
  SECTION("kCopyRowsMulti and kAddRowsMulti") {
    for (CommandType type : {kCopyRowsMulti, kAddRowsMulti}) {
      OpHarness h(4, 3, 3, 3);
      const int32_t lower = h.comp.NewSubMatrix(h.in, 2, 2, 0, 3);
      h.comp.indexes_multi.push_back({{h.in, 1}, {-1, -1}, {lower, 1}});
      h.ops.emplace_back(3.0f, type, h.out, 0);
      Matrix y = h.Run(nnet, x, 1.0f);
      const float add = type == kAddRowsMulti ? 1.0f : 0.0f;
      CheckNear(y.ToHost(), Concat({Scaled(Row(x, 1), 3.0f, add),
                                    std::vector<float>(3, add),
                                    Scaled(Row(x, 3), 3.0f, add)}));
    }
  }
  SECTION("kCopyToRowsMulti and kAddToRowsMulti") {
    for (CommandType type : {kCopyToRowsMulti, kAddToRowsMulti}) {
      OpHarness h(4, 3, 4, 3);
      const int32_t out_lower = h.comp.NewSubMatrix(h.out, 1, 3, 0, 3);
      // x row 0 -> out row 2, row 1 nowhere, row 2 -> out row 1, 3 -> 0.
      h.comp.indexes_multi.push_back(
          {{h.out, 2}, {-1, -1}, {out_lower, 0}, {h.out, 0}});
      const float alpha = type == kAddToRowsMulti ? 2.0f : 1.0f;
      h.ops.emplace_back(alpha, type, h.in, 0);
      Matrix y = h.Run(nnet, x, 5.0f);
      const float add = type == kAddToRowsMulti ? 5.0f : 0.0f;
      CheckNear(
          y.ToHost(),
          Concat({Scaled(Row(x, 3), alpha, add), Scaled(Row(x, 2), alpha, add),
                  Scaled(Row(x, 0), alpha, add), std::vector<float>(3, 5.0f)}));
    }
  }
}

TEST_CASE("NnetComputer runs matrix copy, add, swap, set-const, compress",
          "[computer]") {
  Nnet nnet = TinyNnet();
  const Matrix x = RandomMatrix(4, 3, 13);  // seed 13
  SECTION("kMatrixCopy, kMatrixAdd and in-place scale on column ranges") {
    OpHarness h(4, 3, 4, 6);
    const int32_t left = h.comp.NewSubMatrix(h.out, 0, -1, 0, 3);
    const int32_t right = h.comp.NewSubMatrix(h.out, 0, -1, 3, 3);
    h.ops.emplace_back(2.0f, kMatrixCopy, left, h.in);
    h.ops.emplace_back(-1.0f, kMatrixAdd, right, h.in);
    h.ops.emplace_back(0.5f, kMatrixCopy, right, right);
    Matrix y = h.Run(nnet, x, 1.0f);
    Matrix want(4, 6);
    want.ColRange(0, 3).CopyFromMat(x);
    want.ColRange(0, 3).Scale(2.0f);
    want.ColRange(3, 3).Set(1.0f);
    want.ColRange(3, 3).AddMat(-1.0f, x);
    want.ColRange(3, 3).Scale(0.5f);
    CheckNear(y, want);
  }
  SECTION("kSetConst on a submatrix, compression, kSwapMatrix") {
    OpHarness h(4, 3, 4, 3);
    const int32_t other = h.comp.NewMatrix(4, 3, kDefault);
    const int32_t middle = h.comp.NewSubMatrix(other, 1, 2, 1, 1);
    h.ops.emplace_back(kAllocMatrix, other);
    h.ops.emplace_back(kMatrixCopy, other, h.in);
    h.ops.emplace_back(-3.0f, kSetConst, middle);
    // int16 with range 10: steps of 10 / 32767, so within half of one.
    h.ops.emplace_back(10.0f, kCompressMatrix, other, 3, 1);
    h.ops.emplace_back(kDecompressMatrix, other);
    h.ops.emplace_back(kSwapMatrix, h.out, other);  // out gets other's data
    h.ops.emplace_back(kDeallocMatrix, other);
    Matrix y = h.Run(nnet, x, 1.0f);
    Matrix want(x);
    want.Range(1, 2, 1, 1).Set(-3.0f);
    CheckNear(y, want, 0.5f * 10.0f / 32767.0f + 1e-6f);
  }
}

// ---- forward and backward through input -> affine -> relu -> output ----

struct TinyComputation {
  NnetComputation comp;
  int32_t in, aff, relu, oderiv, relu_deriv, in_deriv;
};

// A forward+backward computation for `rows` rows, as a compiler would make
// it: the affine propagate, the relu propagate with StoreStats, output;
// then output deriv, relu backprop, affine backprop, input deriv.
TinyComputation MakeTinyComputation(const Nnet &nnet, int32_t rows,
                                    CommandType affine_backprop) {
  TinyComputation t;
  NnetComputation &c = t.comp;
  const int32_t input_node = nnet.GetNodeIndex("input");
  const int32_t output_node = nnet.GetNodeIndex("output");
  const int32_t affine = nnet.GetComponentIndex("affine");
  const int32_t relu = nnet.GetComponentIndex("relu");
  t.in = c.NewMatrix(rows, 3, kDefault);
  t.aff = c.NewMatrix(rows, 4, kDefault);
  t.relu = c.NewMatrix(rows, 4, kDefault);
  t.oderiv = c.NewMatrix(rows, 4, kDefault);
  t.relu_deriv = c.NewMatrix(rows, 4, kDefault);
  t.in_deriv = c.NewMatrix(rows, 3, kDefault);
  c.commands = {
      Cmd(kAcceptInput, t.in, input_node),
      Cmd(kAllocMatrix, t.aff),
      Cmd(kPropagate, affine, 0, t.in, t.aff, 0, 0),
      Cmd(kAllocMatrix, t.relu),
      Cmd(kPropagate, relu, 0, t.aff, t.relu, 0, 1),
      Cmd(kProvideOutput, t.relu, output_node),
      Cmd(kNoOperationMarker),
      Cmd(kAcceptInput, t.oderiv, output_node),
      Cmd(kAllocMatrix, t.relu_deriv),
      Cmd(0.0f, kSetConst, t.relu_deriv),
      Cmd(kBackprop, relu, 0, 0, t.relu, t.oderiv, t.relu_deriv, 0),
      Cmd(kAllocMatrix, t.in_deriv),
      Cmd(0.0f, kSetConst, t.in_deriv),
      Cmd(affine_backprop, affine, 0, t.in, 0, t.relu_deriv, t.in_deriv, 0),
      Cmd(kProvideOutput, t.in_deriv, input_node),
      Cmd(kDeallocMatrix, t.aff),
      Cmd(kDeallocMatrix, t.relu_deriv),
      Cmd(kDeallocMatrix, t.oderiv),
  };
  c.need_model_derivative = true;
  return t;
}

TEST_CASE("NnetComputer runs forward and backward with a model update",
          "[computer]") {
  const Nnet nnet = TinyNnet();
  Nnet delta(nnet);
  const int32_t rows = 5;
  TinyComputation t = MakeTinyComputation(nnet, rows, kBackprop);
  CheckComputation(nnet, t.comp, false);        // built like a compiler would
  const Matrix x = RandomMatrix(rows, 3, 21);   // seed 21
  const Matrix dy = RandomMatrix(rows, 4, 22);  // seed 22
  const Reference want = Direct(nnet, x, dy);
  const Matrix old_w(GetAffine(nnet).LinearParams());

  NnetComputer computer(NnetComputeOptions(), t.comp, nnet, &delta);
  Matrix input(x);
  computer.AcceptInput("input", &input);
  CHECK(input.NumRows() == 0);  // taken by swap
  computer.Run();
  CheckNear(computer.GetOutput("output"), want.y);
  CheckNear(computer.GetOutput("output"), want.y);  // may fetch twice
  Matrix deriv(dy);
  computer.AcceptInput("output", &deriv);
  computer.Run();
  CheckNear(computer.GetOutput("input"), want.dx);
  CheckNear(GetAffine(delta).LinearParams(), want.new_w);
  CheckNear(GetAffine(delta).BiasParams().AsRowMatrix(),
            want.new_b.AsRowMatrix());
  // The const nnet is untouched; stats went to delta (the stats nnet).
  CheckNear(GetAffine(nnet).LinearParams(), old_w);
  CHECK(GetRelu(delta).Count() == Approx(rows));
  CHECK(GetRelu(delta).OderivCount() == Approx(rows));
  CHECK(GetRelu(nnet).Count() == 0.0);
  computer.Run();                              // the trailing deallocations
  CHECK_THROWS_AS(computer.Run(), UserError);  // past the end
}

TEST_CASE("NnetComputer stores stats in the nnet with the Nnet* constructor",
          "[computer]") {
  Nnet nnet = TinyNnet();
  Nnet delta(nnet);
  const int32_t rows = 3;
  TinyComputation t = MakeTinyComputation(nnet, rows, kBackprop);
  const Matrix x = RandomMatrix(rows, 3, 31);   // seed 31
  const Matrix dy = RandomMatrix(rows, 4, 32);  // seed 32
  const Reference want = Direct(nnet, x, dy);
  NnetComputer computer(NnetComputeOptions(), t.comp, &nnet, &delta);
  Matrix input(x), deriv(dy);
  computer.AcceptInput("input", &input);
  computer.Run();
  computer.AcceptInput("output", &deriv);  // without fetching the output
  computer.Run();
  Matrix dx;
  computer.GetOutputDestructive("input", &dx);
  CheckNear(dx, want.dx);
  CHECK_THROWS_AS(computer.GetOutput("input"), UserError);  // taken
  CheckNear(GetAffine(delta).LinearParams(), want.new_w);
  CHECK(GetRelu(nnet).Count() == Approx(rows));
  CHECK(GetRelu(nnet).OderivCount() == Approx(rows));
  CHECK(GetRelu(delta).Count() == 0.0);
}

TEST_CASE("NnetComputer: kBackpropNoModelUpdate leaves the model alone",
          "[computer]") {
  const Nnet nnet = TinyNnet();
  Nnet delta(nnet);
  TinyComputation t = MakeTinyComputation(nnet, 4, kBackpropNoModelUpdate);
  const Matrix x = RandomMatrix(4, 3, 41), dy = RandomMatrix(4, 4, 42);
  const Reference want = Direct(nnet, x, dy);
  NnetComputer computer(NnetComputeOptions(), t.comp, nnet, &delta);
  Matrix input(x), deriv(dy);
  computer.AcceptInput("input", &input);
  computer.Run();
  computer.AcceptInput("output", &deriv);
  computer.Run();
  CheckNear(computer.GetOutput("input"), want.dx);
  CheckNear(GetAffine(delta).LinearParams(), GetAffine(nnet).LinearParams());
}

TEST_CASE("NnetComputer copies an input when stride must equal cols",
          "[computer]") {
  const Nnet nnet = TinyNnet();
  NnetComputation comp;
  const int32_t in =
      comp.NewMatrix(3, 3, MatrixStrideType::kStrideEqualNumCols);
  comp.commands = {Cmd(kAcceptInput, in, nnet.GetNodeIndex("input")),
                   Cmd(kNoOperationPermanent),
                   Cmd(kProvideOutput, in, nnet.GetNodeIndex("output"))};
  const Matrix x = RandomMatrix(3, 3, 51);  // seed 51
  Matrix input(x);
  REQUIRE(input.Stride() != 3);  // padded by the default stride
  NnetComputer computer(NnetComputeOptions(), comp, nnet, nullptr);
  computer.AcceptInput("input", &input);
  computer.Run();
  const MatrixView &y = computer.GetOutput("output");
  CHECK(y.Stride() == 3);
  CheckNear(y, x);
}

// ---- memos: BatchNorm (memo + StoreStats) and GeneralDropout ----

TEST_CASE("NnetComputer passes memos from propagate to backprop",
          "[computer]") {
  if (!Component::NewComponentOfType("BatchNormComponent")) return;
  std::istringstream config(
      "input-node name=input dim=4\n"
      "component name=bn type=BatchNormComponent dim=4\n"
      "component-node name=bn component=bn input=input\n"
      "output-node name=output input=bn\n");
  Nnet nnet;
  nnet.ReadConfig(config, "bn.config");
  Nnet stats(nnet);
  const int32_t rows = 6, bn = nnet.GetComponentIndex("bn");
  const int32_t in_node = nnet.GetNodeIndex("input");
  const int32_t out_node = nnet.GetNodeIndex("output");
  NnetComputation comp;
  const int32_t in = comp.NewMatrix(rows, 4, kDefault);
  const int32_t out = comp.NewMatrix(rows, 4, kDefault);
  const int32_t od = comp.NewMatrix(rows, 4, kDefault);
  const int32_t id = comp.NewMatrix(rows, 4, kDefault);
  comp.commands = {Cmd(kAcceptInput, in, in_node),
                   Cmd(kAllocMatrix, out),
                   Cmd(kPropagate, bn, 0, in, out, 1, 1),
                   Cmd(kProvideOutput, out, out_node),
                   Cmd(kAcceptInput, od, out_node),
                   Cmd(kAllocMatrix, id),
                   Cmd(kBackpropNoModelUpdate, bn, 0, 0, out, od, id, 1),
                   Cmd(kProvideOutput, id, in_node)};
  const Matrix x = RandomMatrix(rows, 4, 61), dy = RandomMatrix(rows, 4, 62);

  // Direct: the same component calls.
  const Component &c = *nnet.GetComponent(bn);
  Matrix y(rows, 4), dx(rows, 4);
  MatrixView yv(y), dxv(dx);
  void *memo = c.Propagate(nullptr, x, &yv);
  c.Backprop("bn", nullptr, MatrixView(), y, dy, memo, nullptr, &dxv);
  c.DeleteMemo(memo);

  NnetComputer computer(NnetComputeOptions(), comp, nnet, &stats);
  Matrix input(x), deriv(dy);
  computer.AcceptInput("input", &input);
  computer.Run();
  CheckNear(computer.GetOutput("output"), y);
  computer.AcceptInput("output", &deriv);
  computer.Run();
  CheckNear(computer.GetOutput("input"), dx);
  const auto &bn_stats =
      dynamic_cast<const BatchNormComponent &>(*stats.GetComponent(bn));
  CHECK(bn_stats.Count() == Approx(rows));
  Vector mean(4);
  mean.AddRowSumMat(1.0f / rows, x, 0.0f);
  CheckNear(bn_stats.Mean().ToHost(), mean.ToHost());
}

TEST_CASE(
    "NnetComputer runs GeneralDropout with precomputed indexes "
    "and a memo, and frees unused memos",
    "[computer]") {
  if (!Component::NewComponentOfType("GeneralDropoutComponent")) return;
  std::istringstream config(
      "input-node name=input dim=4\n"
      "component name=drop type=GeneralDropoutComponent dim=4 "
      "dropout-proportion=0.5\n"
      "component-node name=drop component=drop input=input\n"
      "output-node name=output input=drop\n");
  Nnet nnet;
  nnet.ReadConfig(config, "drop.config");
  nnet.ResetGenerators(71);  // seed 71
  const int32_t rows = 8, drop = nnet.GetComponentIndex("drop");
  std::vector<Index> indexes;
  for (int32_t t = 0; t < rows; ++t) indexes.push_back(Index(0, t, 0));
  NnetComputation comp;
  NnetComputation::PrecomputedIndexesInfo info;
  info.data = nnet.GetComponent(drop)->PrecomputeIndexes(
      MiscComputationInfo(), indexes, indexes, true);
  info.input_indexes = info.output_indexes = indexes;
  comp.component_precomputed_indexes.push_back(info);
  const int32_t in = comp.NewMatrix(rows, 4, kDefault);
  const int32_t out = comp.NewMatrix(rows, 4, kDefault);
  const int32_t od = comp.NewMatrix(rows, 4, kDefault);
  const int32_t id = comp.NewMatrix(rows, 4, kDefault);
  const int32_t in_node = nnet.GetNodeIndex("input");
  const int32_t out_node = nnet.GetNodeIndex("output");
  comp.commands = {Cmd(kAcceptInput, in, in_node),
                   Cmd(kAllocMatrix, out),
                   Cmd(kPropagate, drop, 1, in, out, 1, 0),
                   Cmd(kProvideOutput, out, out_node),
                   Cmd(kAcceptInput, od, out_node),
                   Cmd(kAllocMatrix, id),
                   Cmd(kBackpropNoModelUpdate, drop, 1, 0, 0, od, id, 1),
                   Cmd(kProvideOutput, id, in_node)};
  const Matrix x = RandomMatrix(rows, 4, 72);  // seed 72
  Matrix ones(rows, 4);
  ones.Set(1.0f);
  {
    NnetComputer computer(NnetComputeOptions(), comp, nnet, nullptr);
    Matrix input(x), deriv(ones);
    computer.AcceptInput("input", &input);
    computer.Run();
    Matrix y(computer.GetOutput("output"));
    computer.AcceptInput("output", &deriv);
    computer.Run();
    // With dy = 1 the input derivative is the mask, so y = x .* mask.
    Matrix mask(computer.GetOutput("input"));
    Matrix want(x);
    want.MulElements(mask);
    CheckNear(y, want);
    CHECK(mask.Max() > 0.0f);
  }
  {
    // Stopping after the forward pass must not leak or crash.
    NnetComputer computer(NnetComputeOptions(), comp, nnet, nullptr);
    Matrix input(x);
    computer.AcceptInput("input", &input);
    computer.Run();
  }
}

// ---- a loop with kGotoLabel ----

TEST_CASE("NnetComputer loops with kGotoLabel and reuses its buffers",
          "[computer]") {
  const Nnet nnet = TinyNnet();
  NnetComputation comp;
  const int32_t in = comp.NewMatrix(2, 3, kDefault);
  const int32_t acc = comp.NewMatrix(2, 3, kDefault);
  const int32_t out = comp.NewMatrix(2, 3, kDefault);
  comp.indexes.push_back({1, 0});
  comp.indexes_multi.push_back({{acc, 0}, {in, 1}});
  comp.commands = {Cmd(kAllocMatrix, acc),
                   Cmd(0.0f, kSetConst, acc),
                   Cmd(kNoOperationLabel),
                   Cmd(kAcceptInput, in, nnet.GetNodeIndex("input")),
                   Cmd(kAddRows, acc, in, 0),  // acc += in swapped
                   Cmd(kAllocMatrix, out),
                   Cmd(kCopyRowsMulti, out, 0),  // [acc row 0; in row 1]
                   Cmd(kProvideOutput, out, nnet.GetNodeIndex("output")),
                   Cmd(kGotoLabel, 2)};
  NnetComputer computer(NnetComputeOptions(), comp, nnet, nullptr);
  computer.Run();  // up to the first input
  Matrix sum(2, 3);
  for (int32_t iter = 0; iter < 4; ++iter) {
    const Matrix x = RandomMatrix(2, 3, 80 + iter);  // seeds 80..83
    sum.AddMat(1.0f, x);
    Matrix input(x), y;
    const size_t before = ActiveDevice().allocator().NumAllocateCalls();
    computer.AcceptInput("input", &input);
    computer.Run();
    computer.GetOutputDestructive("output", &y);
    // After the first pass only `out` is allocated again: the index list and
    // the pointer list were uploaded once.
    if (iter > 0)
      CHECK(ActiveDevice().allocator().NumAllocateCalls() - before == 1);
    // acc row 0 = sum of the x row 1s; out row 1 = x row 1.
    std::vector<float> want = Concat({Row(sum, 1), Row(x, 1)});
    CheckNear(y.ToHost(), want);
    computer.Run();  // the goto, back to the input
  }
}

// ---- errors ----

TEST_CASE("NnetComputer reports a missing input by node name", "[computer]") {
  const Nnet nnet = TinyNnet();
  TinyComputation t = MakeTinyComputation(nnet, 2, kBackprop);
  Nnet delta(nnet);
  NnetComputer computer(NnetComputeOptions(), t.comp, nnet, &delta);
  try {
    computer.Run();
    FAIL("no error");
  } catch (const UserError &e) {
    const std::string msg = e.what();
    CHECK(msg.find("did not get input for node 'input'") != std::string::npos);
    CHECK(msg.find('\n') == std::string::npos);
  }
}

TEST_CASE("NnetComputer reports a wrong input shape", "[computer]") {
  const Nnet nnet = TinyNnet();
  TinyComputation t = MakeTinyComputation(nnet, 4, kBackprop);
  Nnet delta(nnet);
  NnetComputer computer(NnetComputeOptions(), t.comp, nnet, &delta);
  Matrix wrong(5, 3);
  try {
    computer.AcceptInput("input", &wrong);
    FAIL("no error");
  } catch (const UserError &e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find("'input'") != std::string::npos);
    CHECK(msg.find("5 x 3") != std::string::npos);
    CHECK(msg.find("4 x 3") != std::string::npos);
  }
  CHECK(wrong.NumRows() == 5);  // not taken
  CHECK_THROWS_AS(computer.AcceptInput("no-such-node", &wrong), UserError);
  CHECK_THROWS_AS(computer.AcceptInput("output", &wrong), UserError);
  Matrix right(4, 3);
  computer.AcceptInput("input", &right);  // still pending after the errors
  computer.Run();
}

TEST_CASE("NnetComputer: a model update needs an nnet to update",
          "[computer]") {
  const Nnet nnet = TinyNnet();
  TinyComputation t = MakeTinyComputation(nnet, 2, kBackprop);
  t.comp.commands[4].arg6 = 0;  // no StoreStats
  NnetComputer computer(NnetComputeOptions(), t.comp, nnet, nullptr);
  Matrix x = RandomMatrix(2, 3, 91), dy = RandomMatrix(2, 4, 92);
  computer.AcceptInput("input", &x);
  computer.Run();
  computer.AcceptInput("output", &dy);
  CHECK_THROWS_AS(computer.Run(), UserError);
}

TEST_CASE("NnetComputer: StoreStats needs a stats nnet", "[computer]") {
  const Nnet nnet = TinyNnet();
  TinyComputation t = MakeTinyComputation(nnet, 2, kBackprop);
  NnetComputer computer(NnetComputeOptions(), t.comp, nnet, nullptr);
  Matrix x = RandomMatrix(2, 3, 93);
  computer.AcceptInput("input", &x);
  CHECK_THROWS_AS(computer.Run(), UserError);
}

TEST_CASE("NnetComputer rethrows a failing command with the listing",
          "[computer]") {
  const Nnet nnet = TinyNnet();
  NnetComputation comp;
  const int32_t in = comp.NewMatrix(4, 3, kDefault);
  const int32_t out = comp.NewMatrix(2, 3, kDefault);
  comp.indexes.push_back({0, 7});  // row 7 of a 4-row matrix
  comp.commands = {Cmd(kAcceptInput, in, nnet.GetNodeIndex("input")),
                   Cmd(kAllocMatrix, out), Cmd(kCopyRows, out, in, 0),
                   Cmd(kProvideOutput, out, nnet.GetNodeIndex("output"))};
  NnetComputer computer(NnetComputeOptions(), comp, nnet, nullptr);
  Matrix x(4, 3);
  computer.AcceptInput("input", &x);
  std::string msg;
  try {
    computer.Run();
  } catch (const InternalError &e) {
    msg = e.what();
  } catch (const UserError &e) {
    msg = std::string("UserError: ") + e.what();
  }
  INFO(msg);
  REQUIRE(!msg.empty());
  const std::string first_line = msg.substr(0, msg.find('\n'));
  CHECK(first_line.find("c2") != std::string::npos);
  CHECK(msg.find("\n  c0: ") != std::string::npos);
  CHECK(msg.find("\n  c1: ") != std::string::npos);
  CHECK(msg.find("\n  c2: ") != std::string::npos);
  CHECK(msg.find("\n  c3: ") == std::string::npos);
}

TEST_CASE("NnetComputer: a command on a freed matrix keeps the error type",
          "[computer]") {
  const Nnet nnet = TinyNnet();
  NnetComputation comp;
  const int32_t in = comp.NewMatrix(4, 3, kDefault);
  const int32_t out = comp.NewMatrix(4, 3, kDefault);
  comp.commands = {Cmd(kAcceptInput, in, nnet.GetNodeIndex("input")),
                   Cmd(kAllocMatrix, out), Cmd(kDeallocMatrix, out),
                   Cmd(kMatrixCopy, out, in)};
  NnetComputer computer(NnetComputeOptions(), comp, nnet, nullptr);
  Matrix x(4, 3);
  computer.AcceptInput("input", &x);
  CHECK_THROWS_AS(computer.Run(), InternalError);
}

// Runs `fn` with stderr (fd 2, where the log goes) sent to a temporary
// file; returns what was written.
template <class F>
std::string CaptureStderr(F fn) {
  std::fflush(stderr);
  std::FILE *file = std::tmpfile();
  REQUIRE(file != nullptr);
  const int saved = dup(2);
  dup2(fileno(file), 2);
  try {
    fn();
  } catch (...) {
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::fclose(file);
    throw;
  }
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::rewind(file);
  std::string text;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    text.append(buffer, n);
  std::fclose(file);
  return text;
}

// The "[sum of output: S]" that the debug log gives for command c<k>; NaN
// if there is no such LOG line.
double LoggedSum(const std::string &log, int32_t k) {
  const std::regex line("^LOG \\(.*\\) c" + std::to_string(k) +
                        ": .*\\[sum of output: ([-+0-9.eE]+)\\]$");
  std::istringstream is(log);
  std::string text;
  std::smatch m;
  while (std::getline(is, text))
    if (std::regex_match(text, m, line)) return std::stod(m[1].str());
  return std::nan("");
}

double Sum(const std::vector<float> &v) {
  double sum = 0.0;
  for (float f : v) sum += f;
  return sum;
}

TEST_CASE("NnetComputer debug mode runs and logs", "[computer]") {
  const Nnet nnet = TinyNnet();
  Nnet delta(nnet);
  TinyComputation t = MakeTinyComputation(nnet, 2, kBackprop);
  NnetComputeOptions opts;
  opts.debug = true;
  NnetComputer computer(opts, t.comp, nnet, &delta);
  const Matrix x = RandomMatrix(2, 3, 95), dy = RandomMatrix(2, 4, 96);
  const Reference want = Direct(nnet, x, dy);
  Matrix input(x), deriv(dy);
  computer.AcceptInput("input", &input);
  const std::string forward_log = CaptureStderr([&] { computer.Run(); });
  INFO("forward log:\n" << forward_log);
  CheckNear(computer.GetOutput("output"), want.y);
  // One line per command run, with the sum of what it wrote: c2 is the
  // affine propagate, c4 the ReLU propagate (whose output is y).
  CHECK(forward_log.find(") c1: ") != std::string::npos);
  CHECK(forward_log.find(") c3: ") != std::string::npos);
  CHECK(forward_log.find(") c10: ") == std::string::npos);  // not yet run
  const double y_sum = Sum(want.y.ToHost());
  CHECK(LoggedSum(forward_log, 4) == Approx(y_sum).epsilon(1e-4).margin(1e-5));
  CHECK(!std::isnan(LoggedSum(forward_log, 2)));

  computer.AcceptInput("output", &deriv);
  const std::string backward_log = CaptureStderr([&] { computer.Run(); });
  INFO("backward log:\n" << backward_log);
  CheckNear(computer.GetOutput("input"), want.dx);
  CheckNear(GetAffine(delta).LinearParams(), want.new_w);
  CheckNear(GetAffine(delta).BiasParams().AsRowMatrix(),
            want.new_b.AsRowMatrix());
  // c10 is the ReLU backprop, c13 the affine backprop (whose output is dx).
  CHECK(backward_log.find(") c2: ") == std::string::npos);  // forward only
  CHECK(!std::isnan(LoggedSum(backward_log, 10)));
  const double dx_sum = Sum(want.dx.ToHost());
  CHECK(LoggedSum(backward_log, 13) ==
        Approx(dx_sum).epsilon(1e-4).margin(1e-5));
}

// ---- threads ----

TEST_CASE("NnetComputers on two threads share one const Nnet", "[computer]") {
  const Nnet nnet = TinyNnet();
  const int32_t rows = 16;
  TinyComputation t = MakeTinyComputation(nnet, rows, kBackpropNoModelUpdate);
  t.comp.commands[4].arg6 = 0;  // no StoreStats: nothing shared is written
  t.comp.need_model_derivative = false;
  const Matrix x = RandomMatrix(rows, 3, 101), dy = RandomMatrix(rows, 4, 102);
  const Reference want = Direct(nnet, x, dy);
  auto work = [&](std::vector<float> *y, std::vector<float> *dx) {
    for (int32_t iter = 0; iter < 50; ++iter) {
      NnetComputer computer(NnetComputeOptions(), t.comp, nnet, nullptr);
      Matrix input(x), deriv(dy);
      computer.AcceptInput("input", &input);
      computer.Run();
      *y = computer.GetOutput("output").ToHost();
      computer.AcceptInput("output", &deriv);
      computer.Run();
      *dx = computer.GetOutput("input").ToHost();
    }
  };
  std::vector<float> y1, dx1, y2, dx2;
  std::thread t1(work, &y1, &dx1), t2(work, &y2, &dx2);
  t1.join();
  t2.join();
  CheckNear(y1, want.y.ToHost());
  CheckNear(dx1, want.dx.ToHost());
  CHECK(y1 == y2);
  CHECK(dx1 == dx2);
}

}  // namespace
}  // namespace nnet3
