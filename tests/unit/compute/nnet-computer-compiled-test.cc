// Tests of NnetComputer on computations made by the Compiler: results of
// small configs against direct computations, and two threads running the
// same const Nnet and computation with their own NnetComputers.
#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "compile/compiler.h"
#include "compile/computation-checker.h"
#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "compute-test-utils.h"
#include "compute/nnet-computer.h"
#include "nnet/components/normalize-components.h"
#include "optimize/nnet-optimize.h"

namespace nnet3 {
namespace {

// Compiles `request` and checks the result.
NnetComputation Compile(const Nnet &nnet, const ComputationRequest &request) {
  NnetComputation computation;
  Compiler compiler(request, nnet);
  compiler.CreateComputation(CompilerOptions(), &computation);
  CheckComputation(nnet, computation, false);
  return computation;
}

// Inputs t in [0, num_input), outputs t in [out_begin, out_end); the
// derivative w.r.t. "input" and a model update when `backward`.
ComputationRequest Request(int32_t num_input, int32_t out_begin,
                           int32_t out_end, bool backward, bool store_stats) {
  ComputationRequest request;
  request.inputs.push_back(IoSpecification("input", 0, num_input));
  request.outputs.push_back(IoSpecification("output", out_begin, out_end));
  request.inputs[0].has_deriv = backward;
  request.outputs[0].has_deriv = backward;
  request.need_model_derivative = backward;
  request.store_component_stats = store_stats;
  return request;
}

// Runs forward (and backward if dy is non-null) and returns y and dx.
void RunComputation(const NnetComputation &computation, const Nnet &nnet,
                    Nnet *nnet_to_update, const Matrix &x, const Matrix *dy,
                    Matrix *y, Matrix *dx) {
  NnetComputer computer(NnetComputeOptions(), computation, nnet,
                        nnet_to_update);
  // Without the optimizer's ConsolidateIoOperations the computation
  // allocates its matrices before its first kAcceptInput: run up to it.
  if (computation.commands[0].command_type != kAcceptInput) computer.Run();
  Matrix input(x);
  computer.AcceptInput("input", &input);
  computer.Run();
  *y = Matrix(computer.GetOutput("output"));
  if (dy == nullptr) return;
  Matrix deriv(*dy);
  computer.AcceptInput("output", &deriv);
  computer.Run();
  computer.GetOutputDestructive("input", dx);
}

TEST_CASE("NnetComputer runs a compiled affine+relu computation",
          "[computer]") {
  const Nnet nnet = TinyNnet();
  Nnet delta(nnet);
  const int32_t rows = 6;
  const NnetComputation computation =
      Compile(nnet, Request(rows, 0, rows, true, true));
  const Matrix x = RandomMatrix(rows, 3, 201), dy = RandomMatrix(rows, 4, 202);
  const Reference want = Direct(nnet, x, dy);  // seeds 201, 202
  Matrix y, dx;
  RunComputation(computation, nnet, &delta, x, &dy, &y, &dx);
  CheckNear(y, want.y);
  CheckNear(dx, want.dx);
  CheckNear(GetAffine(delta).LinearParams(), want.new_w);
  CheckNear(GetAffine(delta).BiasParams().AsRowMatrix(),
            want.new_b.AsRowMatrix());
  CHECK(GetRelu(delta).Count() == Approx(rows));
}

TEST_CASE("NnetComputer runs a compiled computation with time context",
          "[computer]") {
  const Nnet nnet = NnetFromConfigText(
      "input-node name=input dim=2\n"
      "component name=affine type=AffineComponent input-dim=6 output-dim=3 "
      "learning-rate=0.05 param-stddev=0.5 bias-stddev=0.5\n"
      "component-node name=affine component=affine "
      "input=Append(Offset(input, -1), input, Offset(input, 1))\n"
      "component name=relu type=RectifiedLinearComponent dim=3\n"
      "component-node name=relu component=relu input=affine\n"
      "output-node name=output input=relu\n");
  Nnet delta(nnet);
  const int32_t num_t = 7, rows = num_t - 2;
  const NnetComputation computation =
      Compile(nnet, Request(num_t, 1, num_t - 1, true, false));
  const Matrix x = RandomMatrix(num_t, 2, 211);  // seed 211
  const Matrix dy = RandomMatrix(rows, 3, 212);  // seed 212
  // Direct: splice [x(t-1), x(t), x(t+1)] for t = 1 .. num_t-2.
  Matrix spliced(rows, 6);
  for (int32_t r = 0; r < rows; ++r)
    for (int32_t k = 0; k < 3; ++k)
      spliced.Range(r, 1, 2 * k, 2).CopyFromMat(x.RowRange(r + k, 1));
  const Reference want = DirectAffineRelu(GetAffine(nnet), spliced, dy);
  Matrix want_dx(num_t, 2);
  for (int32_t r = 0; r < rows; ++r)
    for (int32_t k = 0; k < 3; ++k)
      want_dx.RowRange(r + k, 1).AddMat(1.0f, want.dx.Range(r, 1, 2 * k, 2));
  Matrix y, dx;
  RunComputation(computation, nnet, &delta, x, &dy, &y, &dx);
  CheckNear(y, want.y);
  CheckNear(dx, want_dx);
  CheckNear(GetAffine(delta).LinearParams(), want.new_w);
}

TEST_CASE("NnetComputer runs a compiled Sum with Scale", "[computer]") {
  const Nnet nnet = NnetFromConfigText(
      "input-node name=input dim=3\n"
      "output-node name=output input=Sum(Scale(-0.5, input), "
      "Scale(-0.5, Offset(input, 1)))\n");
  const int32_t num_t = 5, rows = num_t - 1;
  const NnetComputation computation =
      Compile(nnet, Request(num_t, 0, rows, true, false));
  const Matrix x = RandomMatrix(num_t, 3, 221), dy = RandomMatrix(rows, 3, 222);
  // y(t) = -0.5 (x(t) + x(t+1)).
  Matrix want_y(rows, 3), want_dx(num_t, 3);
  want_y.AddMat(-0.5f, x.RowRange(1, rows));
  want_y.AddMat(-0.5f, x.RowRange(0, rows));
  want_dx.RowRange(1, rows).AddMat(-0.5f, dy);
  want_dx.RowRange(0, rows).AddMat(-0.5f, dy);
  Matrix y, dx;
  RunComputation(computation, nnet, nullptr, x, &dy, &y, &dx);
  CheckNear(y, want_y);
  CheckNear(dx, want_dx);
}

TEST_CASE("NnetComputer runs a compiled BatchNorm with its memo",
          "[computer]") {
  if (!Component::NewComponentOfType("BatchNormComponent")) return;
  const Nnet nnet = NnetFromConfigText(
      "input-node name=input dim=4\n"
      "component name=bn type=BatchNormComponent dim=4\n"
      "component-node name=bn component=bn input=input\n"
      "output-node name=output input=bn\n");
  Nnet stats(nnet);
  const int32_t rows = 6, bn = nnet.GetComponentIndex("bn");
  const NnetComputation computation =
      Compile(nnet, Request(rows, 0, rows, true, true));
  const Matrix x = RandomMatrix(rows, 4, 231), dy = RandomMatrix(rows, 4, 232);
  const Component &c = *nnet.GetComponent(bn);
  Matrix want_y(rows, 4), want_dx(rows, 4);
  MatrixView yv(want_y), dxv(want_dx);
  void *memo = c.Propagate(nullptr, x, &yv);
  c.Backprop("bn", nullptr, x, want_y, dy, memo, nullptr, &dxv);
  c.DeleteMemo(memo);
  Matrix y, dx;
  RunComputation(computation, nnet, &stats, x, &dy, &y, &dx);
  CheckNear(y, want_y);
  CheckNear(dx, want_dx);
  const auto &bn_stats =
      dynamic_cast<const BatchNormComponent &>(*stats.GetComponent(bn));
  CHECK(bn_stats.Count() == Approx(rows));
}

TEST_CASE("Compiled computation: two threads give single-thread results",
          "[computer]") {
  const Nnet nnet = NnetFromConfigText(
      "input-node name=input dim=2\n"
      "component name=affine type=AffineComponent input-dim=4 output-dim=8 "
      "param-stddev=0.5 bias-stddev=0.5\n"
      "component-node name=affine component=affine "
      "input=Append(Offset(input, -1), input)\n"
      "component name=relu type=RectifiedLinearComponent dim=8\n"
      "component-node name=relu component=relu input=affine\n"
      "output-node name=output input=relu\n");
  const int32_t num_t = 40, rows = num_t - 1;
  // Forward and input derivatives only: nothing shared is written.
  ComputationRequest request = Request(num_t, 1, num_t, true, false);
  request.need_model_derivative = false;
  const NnetComputation computation = Compile(nnet, request);
  const Matrix x = RandomMatrix(num_t, 2, 241), dy = RandomMatrix(rows, 8, 242);
  Matrix want_y, want_dx;  // single thread
  RunComputation(computation, nnet, nullptr, x, &dy, &want_y, &want_dx);
  auto work = [&](Matrix *y, Matrix *dx) {
    for (int32_t iter = 0; iter < 30; ++iter)
      RunComputation(computation, nnet, nullptr, x, &dy, y, dx);
  };
  Matrix y1, dx1, y2, dx2;
  std::thread t1(work, &y1, &dx1), t2(work, &y2, &dx2);
  t1.join();
  t2.join();
  CHECK(y1.ToHost() == want_y.ToHost());
  CHECK(dx1.ToHost() == want_dx.ToHost());
  CHECK(y2.ToHost() == want_y.ToHost());
  CHECK(dx2.ToHost() == want_dx.ToHost());
}

// Output nodes that read the input node directly (the random-config
// generator makes such networks): once optimized, nothing is left to
// compute, and the compiler's kNoOperationPermanent after the inputs keeps
// Run() from finding the computation finished (Kaldi's computation, as
// nnet3-compute --verbose=4 prints it: c0: m1 = user input; c1:
// [no-op-permanent]; c2: output m1 to user; c3: segment separator).
TEST_CASE("NnetComputer runs a computation with nothing between I/O",
          "[computer]") {
  const Nnet nnet = NnetFromConfigText(
      "input-node name=input dim=3\noutput-node name=output input=input\n");
  const int32_t rows = 5;
  NnetComputation computation =
      Compile(nnet, Request(rows, 0, rows, false, false));
  Optimize(NnetOptimizeOptions(), nnet, rows - 1, &computation);
  std::vector<CommandType> types;
  for (const NnetComputation::Command &c : computation.commands)
    types.push_back(c.command_type);
  CHECK(types == std::vector<CommandType>{kAcceptInput, kNoOperationPermanent,
                                          kProvideOutput, kNoOperationMarker});
  const Matrix x = RandomMatrix(rows, 3, 251), dy = RandomMatrix(rows, 3, 252);
  Matrix y, dx;
  RunComputation(computation, nnet, nullptr, x, nullptr, &y, &dx);
  CHECK(y.ToHost() == x.ToHost());

  // With the input derivative: dx = dy.
  computation = Compile(nnet, Request(rows, 0, rows, true, false));
  Optimize(NnetOptimizeOptions(), nnet, rows - 1, &computation);
  RunComputation(computation, nnet, nullptr, x, &dy, &y, &dx);
  CHECK(y.ToHost() == x.ToHost());
  CHECK(dx.ToHost() == dy.ToHost());
}

TEST_CASE("NnetComputer runs optimized Append and Offset of the input",
          "[computer]") {
  const Nnet nnet = NnetFromConfigText(
      "input-node name=input dim=2\n"
      "output-node name=output input=Append(Offset(input, 1), input)\n");
  const int32_t num_t = 6, rows = num_t - 1;
  NnetComputation computation =
      Compile(nnet, Request(num_t, 0, rows, false, false));
  Optimize(NnetOptimizeOptions(), nnet, rows - 1, &computation);
  const Matrix x = RandomMatrix(num_t, 2, 253);
  Matrix y, dx;
  RunComputation(computation, nnet, nullptr, x, nullptr, &y, &dx);
  const std::vector<float> xs = x.ToHost(), ys = y.ToHost();
  REQUIRE(ys.size() == static_cast<size_t>(rows * 4));
  for (int32_t t = 0; t < rows; ++t)
    for (int32_t d = 0; d < 2; ++d) {
      CHECK(ys[t * 4 + d] == xs[(t + 1) * 2 + d]);
      CHECK(ys[t * 4 + 2 + d] == xs[t * 2 + d]);
    }
}

}  // namespace
}  // namespace nnet3
