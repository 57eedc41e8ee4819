// The executor's memory compression (kCompressMatrix / kDecompressMatrix,
// nnet-computer.h) on the training computation nnet3-compile-info shows:
//  - the memory it really allocates, counted by its device's caching
//    allocator, is the peak nnet3-compile-info reports (GetMaxMemoryUse),
//    and the compressed floats are really freed between the passes;
//  - level 1 (ReLU outputs kept as their sign) gives bit for bit the
//    results without compression, and level 2 (int16 with range 10) the
//    same within its quantization.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>

#include "../optimize/optimize-a-test-utils.h"
#include "compile/compile-info.h"
#include "compile/computation-analysis.h"
#include "compile/computation-checker.h"
#include "compile/memory-timeline.h"
#include "compute-test-utils.h"
#include "compute/nnet-computer.h"
#include "device/cpu-backend.h"
#include "device/device.h"
#include "matrix/device-compressed-matrix.h"
#include "nnet/nnet-utils.h"
#include "optimize/optimize-info.h"

namespace nnet3 {
namespace {

// input -> affine -> relu -> fixed scale -> affine -> relu -> fixed scale
// -> affine -> output. A fixed scale's backprop reads neither its input nor
// its output, so each ReLU output is read in the backward pass only by
// the ReLU's backprop: level 1 compresses both. Plain affine updates, no
// memos and no component stats: nothing but the computation's matrices
// (and the small vector of the ReLUs' backprop stats, which is not live at
// the peak) is allocated while it runs. With 64 rows every matrix is a
// multiple of the allocator's 256 bytes, in size classes (4, 8, 16, 32 KiB)
// too far apart to share cached blocks.
const char *const kConfig =
    "input-node name=input dim=64\n"
    "component name=affine1 type=AffineComponent input-dim=64 "
    "output-dim=128\n"
    "component-node name=affine1 component=affine1 input=input\n"
    "component name=relu1 type=RectifiedLinearComponent dim=128\n"
    "component-node name=relu1 component=relu1 input=affine1\n"
    "component name=scale1 type=FixedScaleComponent dim=128 scale=0.5\n"
    "component-node name=scale1 component=scale1 input=relu1\n"
    "component name=affine2 type=AffineComponent input-dim=128 "
    "output-dim=64\n"
    "component-node name=affine2 component=affine2 input=scale1\n"
    "component name=relu2 type=RectifiedLinearComponent dim=64\n"
    "component-node name=relu2 component=relu2 input=affine2\n"
    "component name=scale2 type=FixedScaleComponent dim=64 scale=2\n"
    "component-node name=scale2 component=scale2 input=relu2\n"
    "component name=affine3 type=AffineComponent input-dim=64 "
    "output-dim=1024\n"
    "component-node name=affine3 component=affine3 input=scale2\n"
    "output-node name=output input=affine3 objective=linear\n";

// The optimized training computation for 64 sequences of one frame, as
// `nnet3-compile-info --num-sequences=64 --need-model-derivative
// --input-deriv --output-deriv --optimization.memory-compression-level=L`
// makes it.
CompileInfo CompileTraining(const Nnet &nnet, int32_t level) {
  CompileInfoOptions opts;
  opts.num_sequences = 64;
  opts.need_model_derivative = true;
  opts.input_deriv = true;
  opts.output_deriv = true;
  ComputationRequest request;
  BuildCompileInfoRequest(nnet, opts, &request);
  CompileInfo info;
  CompileForInfo(nnet, request, /*use_shortcut=*/true, &info);
  NnetOptimizeOptions optimize_opts;
  optimize_opts.memory_compression_level = level;
  OptimizeForInfo(nnet, optimize_opts, &info);
  return info;
}

int32_t CountCommands(const NnetComputation &c, CommandType type) {
  int32_t n = 0;
  for (const NnetComputation::Command &cmd : c.commands)
    if (cmd.command_type == type) n++;
  return n;
}

// A copy of `nnet` whose parameters live on the active device.
Nnet CopyToActiveDevice(const Nnet &nnet) {
  std::stringstream ss;
  nnet.Write(ss, true);
  Nnet copy;
  copy.Read(ss, true);
  return copy;
}

struct MemoryRun {
  int64_t peak = 0;           // the allocator's, less the model's bytes
  int64_t after_forward = 0;  // held when the forward pass stopped
  int32_t forward_end = -1;   // the last command of the forward pass
};

// Runs `c` forward and backward on a fresh CPU device and measures what
// its caching allocator holds. The model and its gradient are put on the
// device first; inputs are made just before they are accepted.
MemoryRun RunAndMeasure(const Nnet &nnet, const NnetComputation &c) {
  Device device(std::make_unique<CpuBackend>());
  SetActiveDevice(device);
  MemoryRun run;
  {
    Nnet model = CopyToActiveDevice(nnet);
    Nnet gradient = model;
    ScaleNnet(0.0f, &gradient);
    SetNnetAsGradient(&gradient);
    const int64_t model_bytes = device.allocator().BytesInUse();
    // Nothing above the model's bytes so far, or the peak would be hidden.
    REQUIRE(static_cast<int64_t>(device.allocator().PeakBytesInUse()) ==
            model_bytes);
    NnetComputer computer(NnetComputeOptions(), c, model, &gradient);
    Matrix x = RandomMatrix(64, 64, 5);
    computer.AcceptInput("input", &x);
    computer.Run();
    for (run.forward_end = 0;
         c.commands[run.forward_end + 1].command_type != kProvideOutput;
         run.forward_end++) {
    }
    run.after_forward = device.allocator().BytesInUse() - model_bytes;
    Matrix dy = RandomMatrix(64, 1024, 6);
    computer.AcceptInput("output", &dy);
    computer.Run();
    run.peak = device.allocator().PeakBytesInUse() - model_bytes;
  }
  SetActiveDevice(CpuDevice());
  return run;
}

TEST_CASE("NnetComputer: the memory compression frees what is reported",
          "[computer][compression]") {
  const Nnet nnet = NnetFromConfigText(kConfig);
  int64_t peaks[2];
  for (int32_t level : {0, 1}) {
    INFO("memory-compression-level " << level);
    const CompileInfo info = CompileTraining(nnet, level);
    const NnetComputation &c = info.optimized_computation;
    CHECK(CountCommands(c, kCompressMatrix) == 2 * level);
    MemoryTimeline timeline;
    ComputeMemoryTimeline(c, &timeline);
    const MemoryRun run = RunAndMeasure(nnet, c);
    INFO("reported peak " << info.optimized_stats.peak_memory_bytes << " at c"
                          << timeline.peak_command << ", allocator peak "
                          << run.peak);
    CHECK(run.peak == info.optimized_stats.peak_memory_bytes);
    // While the backward pass waits, the ReLU outputs are held packed.
    CHECK(run.after_forward == timeline.bytes_after[run.forward_end]);
    peaks[level] = run.peak;
  }
  // One byte per element of each ReLU output instead of four.
  CHECK(peaks[1] < peaks[0]);
}

TEST_CASE("NnetComputer: a decompression holds both forms at once",
          "[computer][compression]") {
  // m2 = m1 (64 x 64, 16 KiB), packed as int8 (4 KiB) until after the
  // marker, then m1 += m2: 36 KiB at the compression (m1, m2 and its packed
  // copy) and again at the decompression, 32 KiB otherwise.
  const Nnet nnet = NnetFromConfigText(
      "input-node name=input dim=64\noutput-node name=output input=input\n");
  using Cmd = NnetComputation::Command;
  NnetComputation c;
  const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
  const int32_t m1 = c.NewMatrix(64, 64, kDefault),
                m2 = c.NewMatrix(64, 64, kDefault);
  c.commands = {Cmd(kAcceptInput, m1, nnet.GetNodeIndex("input")),
                Cmd(kAllocMatrix, m2),
                Cmd(kMatrixCopy, m2, m1),
                Cmd(10.0f, kCompressMatrix, m2, 1, 1),
                Cmd(kNoOperationMarker),
                Cmd(kDecompressMatrix, m2),
                Cmd(kMatrixAdd, m1, m2),
                Cmd(kDeallocMatrix, m2),
                Cmd(kProvideOutput, m1, nnet.GetNodeIndex("output"))};
  CheckComputation(nnet, c, false);
  REQUIRE(GetMaxMemoryUse(c) == 36864);
  const Matrix x = RandomMatrix(64, 64, 31);
  Device device(std::make_unique<CpuBackend>());
  SetActiveDevice(device);
  {
    Matrix input(x, device);
    NnetComputer computer(NnetComputeOptions(), c, nnet, nullptr);
    computer.AcceptInput("input", &input);
    computer.Run();
    CHECK(device.allocator().PeakBytesInUse() == 36864);
    Matrix want(x, device);
    want.Scale(2.0f);
    // int8 steps of 10 / 127: within half of one.
    CheckNear(computer.GetOutput("output"), want,
              0.5f * 10.0f / 127.0f + 1e-5f);
  }
  SetActiveDevice(CpuDevice());
}

TEST_CASE("NnetComputer: results with memory compression on and off",
          "[computer][compression]") {
  const Nnet nnet = NnetFromConfigText(kConfig);
  const CompileInfo off = CompileTraining(nnet, 0),
                    level1 = CompileTraining(nnet, 1),
                    level2 = CompileTraining(nnet, 2);
  CHECK(CountCommands(level1.optimized_computation, kCompressMatrix) == 2);
  // Level 2 also packs what the affine backprops read (their inputs).
  CHECK(CountCommands(level2.optimized_computation, kCompressMatrix) > 2);
  const passes_a::Io io = passes_a::RandomIo(nnet, off.request, 17);
  const passes_a::Results want =
      passes_a::Run(nnet, off.optimized_computation, io);
  // The ReLU's derivative from the packed sign is exactly its derivative.
  CHECK(passes_a::Compare(want,
                          passes_a::Run(nnet, level1.optimized_computation, io),
                          0.0f) == "");
  // int16 in [-10, 10]: each kept value within 10 / 32767 / 2 = 1.5e-4.
  const std::string diff = passes_a::Compare(
      want, passes_a::Run(nnet, level2.optimized_computation, io), 1e-3f);
  CHECK(diff == "");
  CHECK(passes_a::Compare(want,
                          passes_a::Run(nnet, level2.optimized_computation, io),
                          1e-7f) != "");  // but not exactly
}

TEST_CASE("DeviceCompressedMatrix keeps a ReLU's sign as exactly 0 or 1",
          "[computer][compression]") {
  Matrix y = RandomMatrix(8, 64, 23);
  y.ApplyFunc(Func::kRelu, y);
  const size_t before = CpuDevice().allocator().BytesInUse();
  DeviceCompressedMatrix packed;
  packed.CopyFromMat(y, CompressedType::kUint8, 0.0f);
  CHECK(packed.Bytes() == 8 * 64);
  CHECK(CpuDevice().allocator().BytesInUse() == before + 8 * 64);
  Matrix back(8, 64, ResizeType::kUndefined);
  packed.CopyToMat(&back);
  Matrix heaviside(8, 64, ResizeType::kUndefined);
  heaviside.ApplyFunc(Func::kHeaviside, y);
  CHECK(back.ToHost() == heaviside.ToHost());
  packed.Clear();
  CHECK(packed.IsEmpty());
  CHECK(CpuDevice().allocator().BytesInUse() == before + 2 * 8 * 64 * 4);
  CHECK_THROWS_AS(packed.CopyFromMat(y, CompressedType::kInt16, 0.0f),
                  InternalError);
}

}  // namespace
}  // namespace nnet3
