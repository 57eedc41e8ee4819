// Steady state does not allocate: once a training loop (NnetTrainer::Train
// on minibatches of one shape) or an inference loop (the same inference
// request run again and again) has warmed up, the device's caching
// allocator serves every matrix, index list and temporary from its cache and
// never calls the backend's (system) allocator again. Checked with the
// allocator's counters on a spliced network with natural-gradient affine
// layers (their preconditioner updates every few minibatches), ReLU with
// stats, batch-norm, dropout and log-softmax.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "compile/computation-request.h"
#include "compute/nnet-computer.h"
#include "device/device.h"
#include "nnet/nnet-utils.h"
#include "optimize/caching-compiler.h"
#include "train-test-utils.h"
#include "train/nnet-training.h"

namespace nnet3 {
namespace {

using namespace train_test;

const char *const kConfig =
    "input-node name=input dim=6\n"
    "component name=a1 type=NaturalGradientAffineComponent input-dim=18 "
    "output-dim=16 update-period=2 rank-in=4 rank-out=5\n"
    "component-node name=a1 component=a1 input=Append(Offset(input, -1), "
    "input, Offset(input, 1))\n"
    "component name=r1 type=RectifiedLinearComponent dim=16\n"
    "component-node name=r1 component=r1 input=a1\n"
    "component name=bn1 type=BatchNormComponent dim=16\n"
    "component-node name=bn1 component=bn1 input=r1\n"
    "component name=d1 type=DropoutComponent dim=16 dropout-proportion=0.1\n"
    "component-node name=d1 component=d1 input=bn1\n"
    "component name=a2 type=NaturalGradientAffineComponent input-dim=32 "
    "output-dim=5 update-period=2 rank-in=4 rank-out=3\n"
    "component-node name=a2 component=a2 input=Append(Offset(d1, -2), d1)\n"
    "component name=ls type=LogSoftmaxComponent dim=5\n"
    "component-node name=ls component=ls input=a2\n"
    "output-node name=output input=ls objective=linear\n";

// A merged eg of `num_n` sequences: input frames -3..frames, one-hot
// targets for frames 0..frames-1, n-major.
NnetExample MergedEg(int32_t num_n, int32_t frames, std::mt19937 *rng) {
  std::normal_distribution<double> g;
  std::uniform_int_distribution<int32_t> label(0, 4);
  NnetExample eg;
  NnetIo in, out;
  in.name = "input";
  out.name = "output";
  Rows x, y;
  for (int32_t n = 0; n < num_n; n++) {
    for (int32_t t = -3; t <= frames; t++) {
      in.indexes.emplace_back(n, t, 0);
      x.push_back(std::vector<double>(6));
      for (double &v : x.back()) v = g(*rng);
    }
    for (int32_t t = 0; t < frames; t++) {
      out.indexes.emplace_back(n, t, 0);
      y.push_back(std::vector<double>(5, 0.0));
      y.back()[label(*rng)] = 1.0;
    }
  }
  in.features = GeneralMatrix(HostMatrix(x));
  out.features = GeneralMatrix(HostMatrix(y));
  eg.io = {in, out};
  return eg;
}

size_t BackendAllocations() {
  return ActiveDevice().allocator().NumBackendAllocations();
}

TEST_CASE("Training in steady state does not call the system allocator",
          "[trainer][allocation]") {
  const uint32_t seed = 1810;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  Nnet nnet = NnetFromConfig(kConfig);
  NnetTrainerOptions opts;
  opts.momentum = 0.5f;
  NnetTrainer trainer(opts, &nnet, 3);
  // Different values, one shape: what a training job sees.
  std::vector<NnetExample> egs;
  for (int i = 0; i < 4; i++) egs.push_back(MergedEg(8, 4, &rng));
  for (int i = 0; i < 4; i++) trainer.Train(egs[i % 4]);  // warm-up
  const size_t warm = BackendAllocations();
  const size_t calls_before = ActiveDevice().allocator().NumAllocateCalls();
  for (int i = 0; i < 12; i++) trainer.Train(egs[i % 4]);
  INFO("allocator requests in 12 minibatches: "
       << ActiveDevice().allocator().NumAllocateCalls() - calls_before);
  CHECK(BackendAllocations() == warm);
}

TEST_CASE("Inference in steady state does not call the system allocator",
          "[compute][allocation]") {
  const uint32_t seed = 1811;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  Nnet nnet = NnetFromConfig(kConfig);
  SetBatchnormTestMode(true, &nnet);
  SetDropoutTestMode(true, &nnet);
  CachingOptimizingCompiler compiler(nnet);
  ComputationRequest request;
  request.inputs.emplace_back("input", -3, 21);
  request.outputs.emplace_back("output", 0, 20);
  std::normal_distribution<float> g;
  auto run = [&]() {
    std::shared_ptr<const NnetComputation> computation =
        compiler.Compile(request);
    NnetComputer computer(NnetComputeOptions(), *computation, nnet, nullptr);
    Matrix input(24, 6, ResizeType::kUndefined,
                 MatrixStrideType::kDefaultStride, CpuDevice());
    for (int32_t r = 0; r < 24; r++)
      for (int32_t c = 0; c < 6; c++) input.Set(r, c, g(rng));
    computer.AcceptInput("input", &input);
    computer.Run();
    Matrix output;
    computer.GetOutputDestructive("output", &output);
    REQUIRE(output.NumRows() == 20);
  };
  for (int i = 0; i < 3; i++) run();  // warm-up
  const size_t warm = BackendAllocations();
  for (int i = 0; i < 10; i++) run();
  CHECK(BackendAllocations() == warm);
}

}  // namespace
}  // namespace nnet3
