// gpu-bench: the computation-only speed of a network's forward pass on the
// GPU at given minibatch sizes, and its GEMM bound: the time cuBLAS alone
// needs for the same matrix products (same shapes, transposes and strides,
// run back to back). Used by scripts/bench/gpu.sh; not a test.
//
//   gpu-bench [--frames-per-chunk=50] [--repeats=30] [--cpu]
//             [--optimization.*] model.raw 32 128 512
//
// The model is prepared as nnet3-compute-batch prepares it (batch-norm and
// dropout in test mode, collapsed); a minibatch of N is N chunks of
// frames-per-chunk output frames with the model's context, as one request.
// Each run feeds a device-resident input and leaves the output on the
// device, so host I/O is not counted. Prints one line per size and a JSON
// line {"benchmark": "gpu-computation", ...}. Exit 77 without a GPU.
// --cpu measures the same two figures on the CPU backend instead, timing
// one forward pass and one replay alternately and taking the medians (a
// shared CPU's load hits both alike); scripts/bench/fusion.sh uses it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "base/options.h"
#include "base/program.h"
#include "compile/nnet-context.h"
#include "compute/nnet-computer.h"
#include "device/device.h"
#include "forwarding-backend.h"
#include "matrix/matrix.h"
#include "nnet/nnet-utils.h"
#include "optimize/caching-compiler.h"
#include "util/kaldi-io.h"

namespace nnet3 {
namespace gpu_test {
namespace {

struct GemmCall {
  float alpha, beta;
  ConstMatView a, b;
  Trans ta, tb;
  MatView c;
};

// Forwards to the GPU and records every Gemm while recording_ is on.
class GemmRecorder : public ForwardingBackend {
 public:
  using ForwardingBackend::ForwardingBackend;
  void Gemm(float alpha, ConstMatView a, Trans trans_a, ConstMatView b,
            Trans trans_b, float beta, MatView c) override {
    if (recording) calls.push_back({alpha, beta, a, b, trans_a, trans_b, c});
    inner_.Gemm(alpha, a, trans_a, b, trans_b, beta, c);
  }
  bool recording = false;
  std::vector<GemmCall> calls;
};

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

// Device buffers for replaying the recorded products: each call's
// operands get buffers of the same extents (strides kept), so that cuBLAS
// sees the same shapes and leading dimensions.
class Replay {
 public:
  Replay(Backend &gpu, const std::vector<GemmCall> &calls) : gpu_(gpu) {
    for (const GemmCall &g : calls) {
      GemmCall r = g;
      r.a.data = Buffer(g.a);
      r.b.data = Buffer(g.b);
      r.c.data = Buffer(g.c);
      calls_.push_back(r);
    }
  }
  ~Replay() {
    for (float *p : buffers_) gpu_.Free(p);
  }
  void Run() {
    for (const GemmCall &g : calls_)
      gpu_.Gemm(g.alpha, g.a, g.ta, g.b, g.tb, g.beta, g.c);
  }
  double Flops() const {
    double f = 0.0;
    for (const GemmCall &g : calls_)
      f += 2.0 * g.c.rows * g.c.cols *
           (g.ta == Trans::kYes ? g.a.rows : g.a.cols);
    return f;
  }

 private:
  float *Buffer(const ConstMatView &m) {
    const size_t n =
        m.rows == 0 ? 0 : size_t(m.rows - 1) * m.stride + size_t(m.cols);
    float *p = static_cast<float *>(gpu_.Allocate(sizeof(float) * (n + 1)));
    gpu_.SetConst(MatView(p, 1, static_cast<int32_t>(n + 1),
                          static_cast<int32_t>(n + 1)),
                  0.01f);
    buffers_.push_back(p);
    return p;
  }
  Backend &gpu_;
  std::vector<GemmCall> calls_;
  std::vector<float *> buffers_;
};

struct Result {
  int32_t minibatch = 0;
  double ours_fps = 0, bound_fps = 0, gemm_tflops = 0;
  size_t num_gemms = 0;
};

// On a shared CPU: one run of each, alternately, `repeats` times; the
// medians of the two, so that a load change hits both alike.
template <class Ours, class Bound>
void MedianInterleaved(Ours ours, Bound bound, int32_t repeats,
                       double *ours_seconds, double *bound_seconds) {
  std::vector<double> a, b;
  for (int32_t i = 0; i < repeats; i++) {
    auto start = std::chrono::steady_clock::now();
    ours();
    a.push_back(Seconds(start));
    start = std::chrono::steady_clock::now();
    bound();
    b.push_back(Seconds(start));
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  *ours_seconds = a[a.size() / 2];
  *bound_seconds = b[b.size() / 2];
}

Result Measure(const Nnet &nnet, Device &device, GemmRecorder *recorder,
               CachingOptimizingCompiler *compiler, int32_t minibatch,
               int32_t frames_per_chunk, int32_t repeats, bool interleave) {
  int32_t left = 0, right = 0;
  ComputeSimpleNnetContext(nnet, &left, &right);
  ComputationRequest request;
  std::vector<Index> in, out;
  for (int32_t n = 0; n < minibatch; n++) {
    for (int32_t t = -left; t < frames_per_chunk + right; t++)
      in.emplace_back(n, t, 0);
    for (int32_t t = 0; t < frames_per_chunk; t++) out.emplace_back(n, t, 0);
  }
  request.inputs.emplace_back("input", in);
  request.outputs.emplace_back("output", out);
  std::shared_ptr<const NnetComputation> computation =
      compiler->Compile(request);
  Matrix input(static_cast<int32_t>(in.size()), nnet.InputDim("input"),
               ResizeType::kUndefined, device);
  input.SetRandn(1);
  auto run_once = [&]() {
    NnetComputer computer(NnetComputeOptions(), *computation, nnet, nullptr);
    Matrix x(input);
    computer.AcceptInput("input", &x);
    computer.Run();
    computer.GetOutput("output");
  };
  run_once();  // warm up: allocations, cuBLAS heuristics
  recorder->calls.clear();
  recorder->recording = true;
  run_once();
  recorder->recording = false;
  Replay replay(device.backend(), recorder->calls);
  replay.Run();
  device.backend().Synchronize();
  double ours = 0.0, bound = 0.0;
  if (interleave) {
    MedianInterleaved(
        run_once, [&] { replay.Run(); }, repeats, &ours, &bound);
  } else {
    auto start = std::chrono::steady_clock::now();
    for (int32_t i = 0; i < repeats; i++) run_once();
    device.backend().Synchronize();
    ours = Seconds(start) / repeats;
    start = std::chrono::steady_clock::now();
    for (int32_t i = 0; i < repeats; i++) replay.Run();
    device.backend().Synchronize();
    bound = Seconds(start) / repeats;
  }
  Result r;
  r.minibatch = minibatch;
  const double frames = double(minibatch) * frames_per_chunk;
  r.ours_fps = frames / ours;
  r.bound_fps = frames / bound;
  r.gemm_tflops = replay.Flops() / bound / 1e12;
  r.num_gemms = recorder->calls.size();
  return r;
}

int Main(int argc, char *argv[]) {
  OptionsRegistry po(
      "Computation-only GPU speed of a network's forward pass and its GEMM "
      "bound.\nUsage: gpu-bench [options] <model> <minibatch-size>...\n"
      "e.g.: gpu-bench final.raw 32 128 512\nSee also: scripts/bench/gpu.sh\n");
  int32_t frames_per_chunk = 50, repeats = 30;
  bool cpu = false;
  DeviceOptions device_opts;
  po.Register("frames-per-chunk", &frames_per_chunk, "Output frames per chunk");
  po.Register("repeats", &repeats, "Timed runs per minibatch size");
  po.Register("cpu", &cpu,
              "Measure on the CPU backend instead of a GPU (no exit 77)");
  device_opts.Register(&po);
  NnetOptimizeOptions optimize_opts;
  OptionsRegistry optimization_po("optimization", &po);
  optimize_opts.Register(&optimization_po);
  po.Read(argc, argv);
  if (po.NumArgs() < 2) {
    po.PrintUsage();
    return 1;
  }
  std::string why_not;
  Device *gpu = cpu ? &CpuDevice() : FindGpuDevice(device_opts, &why_not);
  if (gpu == nullptr) {
    std::cout << "SKIP: no GPU: " << why_not << std::endl;
    return 77;
  }
  auto owned = std::make_unique<GemmRecorder>(gpu->backend());
  GemmRecorder *recorder = owned.get();
  static Device *device = new Device(std::move(owned));  // never destroyed
  SetActiveDevice(*device);
  Nnet nnet;
  ReadKaldiObject(po.GetArg(1), &nnet);
  SetBatchnormTestMode(true, &nnet);
  SetDropoutTestMode(true, &nnet);
  CollapseModel(CollapseModelConfig(), &nnet);
  CachingOptimizingCompiler compiler(nnet, optimize_opts);
  std::ostringstream json;
  json << "{\"benchmark\": \"" << (cpu ? "cpu" : "gpu")
       << "-computation\", \"device\": \"" << gpu->Name()
       << "\", \"frames_per_chunk\": " << frames_per_chunk
       << ", \"results\": [";
  for (int32_t i = 2; i <= po.NumArgs(); i++) {
    const int32_t mb = std::stoi(po.GetArg(i));
    const Result r = Measure(nnet, *device, recorder, &compiler, mb,
                             frames_per_chunk, std::max(repeats, 1), cpu);
    std::printf(
        "minibatch %4d: computation %10.0f frames/s, GEMM bound %10.0f "
        "frames/s (%zu GEMMs, %.1f TFLOP/s), fraction %.3f\n",
        mb, r.ours_fps, r.bound_fps, r.num_gemms, r.gemm_tflops,
        r.ours_fps / r.bound_fps);
    json << (i > 2 ? ", " : "") << "{\"minibatch\": " << mb
         << ", \"computation_fps\": " << r.ours_fps
         << ", \"gemm_bound_fps\": " << r.bound_fps
         << ", \"fraction\": " << r.ours_fps / r.bound_fps
         << ", \"gemms\": " << r.num_gemms
         << ", \"gemm_tflops\": " << r.gemm_tflops << "}";
  }
  json << "]}";
  std::cout << json.str() << std::endl;
  return 0;
}

}  // namespace
}  // namespace gpu_test
}  // namespace nnet3

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    return nnet3::gpu_test::Main(argc, argv);
  });
}
