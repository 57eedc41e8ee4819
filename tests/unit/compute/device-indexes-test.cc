// NnetComputation::ComputeDeviceIndexes: a computation that carries device
// copies of its index lists is run by NnetComputers without uploading them
// again (fewer allocator requests per run), with the same results; copies
// of the computation start without them; the caching compiler hands out
// computations that carry them.
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "compile/compiler.h"
#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "compute-test-utils.h"
#include "compute/nnet-computer.h"
#include "device/device.h"
#include "optimize/caching-compiler.h"

namespace nnet3 {
namespace {

const char *const kSpliced =
    "input-node name=input dim=2\n"
    "component name=affine type=AffineComponent input-dim=6 output-dim=3 "
    "learning-rate=0.05 param-stddev=0.5 bias-stddev=0.5\n"
    "component-node name=affine component=affine "
    "input=Append(Offset(input, -1), input, Offset(input, 2))\n"
    "output-node name=output input=Sum(affine, Offset(affine, 1))\n";

ComputationRequest Request(int32_t num_t) {
  ComputationRequest request;
  request.inputs.push_back(IoSpecification("input", 0, num_t));
  request.outputs.push_back(IoSpecification("output", 1, num_t - 3));
  request.inputs[0].has_deriv = true;
  request.outputs[0].has_deriv = true;
  return request;
}

// Runs forward and backward; returns the allocator requests the run made.
size_t Run(const NnetComputation &computation, const Nnet &nnet,
           const Matrix &x, const Matrix &dy, Matrix *y, Matrix *dx) {
  const size_t before = ActiveDevice().allocator().NumAllocateCalls();
  {
    NnetComputer computer(NnetComputeOptions(), computation, nnet, nullptr);
    if (computation.commands[0].command_type != kAcceptInput) computer.Run();
    Matrix input(x), deriv(dy);
    computer.AcceptInput("input", &input);
    computer.Run();
    *y = Matrix(computer.GetOutput("output"));
    computer.AcceptInput("output", &deriv);
    computer.Run();
    computer.GetOutputDestructive("input", dx);
  }
  return ActiveDevice().allocator().NumAllocateCalls() - before;
}

TEST_CASE("Computations carry their device indexes", "[computer]") {
  const Nnet nnet = NnetFromConfigText(kSpliced);
  const int32_t num_t = 9;
  NnetComputation plain;
  Compiler(Request(num_t), nnet).CreateComputation(CompilerOptions(), &plain);
  REQUIRE(!plain.indexes.empty());  // the unoptimized computation has row ops
  REQUIRE(plain.device_indexes.indexes.empty());
  NnetComputation cached = plain;
  cached.ComputeDeviceIndexes();
  REQUIRE(cached.device_indexes.indexes.size() == plain.indexes.size());
  REQUIRE(cached.device_indexes.ranges.size() == plain.indexes_ranges.size());
  const Matrix x = RandomMatrix(num_t, 2, 1820);  // seed 1820
  const Matrix dy = RandomMatrix(num_t - 4, 3, 1821);
  Matrix y1, dx1, y2, dx2;
  const size_t calls_plain = Run(plain, nnet, x, dy, &y1, &dx1);
  const size_t calls_cached = Run(cached, nnet, x, dy, &y2, &dx2);
  CheckNear(y2, y1, 0.0f);
  CheckNear(dx2, dx1, 0.0f);
  CHECK(calls_cached < calls_plain);
  // A copy (made to be changed) does not keep them.
  const NnetComputation copy = cached;
  CHECK(copy.device_indexes.indexes.empty());
  NnetComputation assigned;
  assigned = cached;
  CHECK(assigned.device_indexes.indexes.empty());
}

TEST_CASE("The caching compiler's computations carry device indexes",
          "[computer]") {
  const Nnet nnet = NnetFromConfigText(kSpliced);
  CachingOptimizingCompiler compiler(nnet);
  std::shared_ptr<const NnetComputation> c = compiler.Compile(Request(12));
  CHECK(c->device_indexes.indexes.size() == c->indexes.size());
  CHECK(c->device_indexes.ranges.size() == c->indexes_ranges.size());
}

}  // namespace
}  // namespace nnet3
