// The fusion passes (fuse-memory-passes.h): on the TDNN-F of
// configs/tdnnf.config prepared for inference they leave the fused commands
// and none of the separate ones, with the outputs of the unfused
// computation; with the options off the computation is as before; where a
// fusion must not apply (a ReLU output read twice, a training computation
// whose backprop reads the ReLU output) it does not, and the results stay.
// Batch norms get stats from random data first, so that their scale and
// offset are far from 1 and 0; the output layer (zero in the config) gets
// random parameters. Seeds are fixed and given below.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/options.h"
#include "compile/computation-checker.h"
#include "nnet/component-itf.h"
#include "nnet/components/normalize-components.h"
#include "nnet/nnet-utils.h"
#include "optimize-a-test-utils.h"
#include "optimize/nnet-optimize.h"

namespace nnet3 {
namespace {

std::string ReadFile(const std::string &path) {
  std::ifstream is(path);
  REQUIRE(is.good());
  std::stringstream ss;
  ss << is.rdbuf();
  return ss.str();
}

// Gives every batch norm the stats of 2 * (N(0, 1) + 0.5) data (seed 11 +
// its index), then test mode; random output-layer parameters (seed 5).
void PrepareForInference(Nnet *nnet) {
  for (int32_t c = 0; c < nnet->NumComponents(); c++) {
    auto *bn = dynamic_cast<BatchNormComponent *>(nnet->GetComponent(c));
    if (bn == nullptr) continue;
    Matrix x(64, bn->InputDim()), y(64, bn->InputDim());
    x.SetRandn(11 + c);
    x.Add(0.5f);
    x.Scale(2.0f);
    void *memo = bn->Propagate(nullptr, x, &y);
    bn->StoreStats(x, y, memo);
    bn->DeleteMemo(memo);
    REQUIRE(bn->Count() == 64.0);
  }
  const int32_t out = nnet->GetComponentIndex("output.affine");
  REQUIRE(out >= 0);
  dynamic_cast<UpdatableComponent *>(nnet->GetComponent(out))
      ->PerturbParams(1.0f / 16, 5);
  SetBatchnormTestMode(true, nnet);
  SetDropoutTestMode(true, nnet);
  CollapseModel(CollapseModelConfig(), nnet);
}

Nnet InferenceTdnnf() {
  Nnet nnet = passes_a::NnetFromConfigText(
      ReadFile(std::string(NNET3_TEST_DATA) + "/../../configs/tdnnf.config"));
  PrepareForInference(&nnet);
  return nnet;
}

// 3 sequences x 12 output frames with the context of configs/tdnnf.config
// (9 each side); derivatives of everything when `backward`.
ComputationRequest Request(bool backward) {
  ComputationRequest request;
  std::vector<Index> in, out;
  for (int32_t n = 0; n < 3; n++) {
    for (int32_t t = -9; t < 12 + 9; t++) in.emplace_back(n, t, 0);
    for (int32_t t = 0; t < 12; t++) out.emplace_back(n, t, 0);
  }
  request.inputs.emplace_back("input", in, backward);
  request.outputs.emplace_back("output", out, backward);
  request.need_model_derivative = backward;
  return request;
}

NnetComputation Optimized(const Nnet &nnet, const ComputationRequest &request,
                          bool fusions) {
  NnetComputation c = passes_a::Compile(nnet, request);
  NnetOptimizeOptions opts;
  opts.check_after_each_pass = true;
  opts.fuse_relu_affine = opts.fuse_scale_add = opts.fuse_zeroing = fusions;
  passes_a::QuietStderr quiet;
  Optimize(opts, nnet, MaxOutputTimeInRequest(request), &c);
  return c;
}

// The separate commands a fusion replaces, and the fused ones, counted in
// the listing.
struct Counts {
  int32_t relu = 0, relu_fused = 0, scale_add = 0, zeroing = 0, assigns = 0;
};
Counts CountCommands(const Nnet &nnet, const NnetComputation &c) {
  Counts n;
  for (const NnetComputation::Command &cmd : c.commands) {
    if (cmd.command_type == kPropagate &&
        nnet.GetComponent(cmd.arg1)->Type() == "RectifiedLinearComponent")
      n.relu++;
    if (cmd.command_type == kPropagate && (cmd.Fusion() & kFuseRectifyInput))
      n.relu_fused++;
    if (cmd.command_type == kPropagate && (cmd.Fusion() & kFuseAssignOutput))
      n.assigns++;
    if (cmd.command_type == kMatrixScaleAdd) n.scale_add++;
    if (cmd.command_type == kSetConst && cmd.alpha == 0.0f) n.zeroing++;
  }
  return n;
}

}  // namespace

TEST_CASE("Fusions on a TDNN-F inference computation", "[optimize-a]") {
  const Nnet nnet = InferenceTdnnf();
  const ComputationRequest request = Request(false);
  const NnetComputation unoptimized = passes_a::Compile(nnet, request);
  const NnetComputation off = Optimized(nnet, request, false);
  const NnetComputation on = Optimized(nnet, request, true);
  INFO(passes_a::Listing(nnet, on));
  const Counts a = CountCommands(nnet, off), b = CountCommands(nnet, on);
  // tdnnf2..5 and prefinal: in-place ReLU + batch norm; tdnnf2..5: "x =
  // 0.66 x" then "x += y"; tdnnf3..5 and prefinal.linear: a zeroing before
  // a bias-free linear TdnnComponent / LinearComponent (tdnnf2.linear got
  // tdnn1.batchnorm folded in, and with it a bias). tdnn1's ReLU stays: its
  // output has two readers (tdnn1.batchnorm and tdnnf2.linear).
  CHECK(a.relu == 6);
  CHECK(a.relu_fused == 0);
  CHECK(a.scale_add == 0);
  CHECK(a.zeroing == 4);
  CHECK(a.assigns == 0);
  CHECK(b.relu == 1);
  CHECK(b.relu_fused == 5);
  CHECK(b.scale_add == 4);
  CHECK(b.zeroing == 0);
  CHECK(b.assigns == 4);
  CHECK(on.commands.size() + 5 + 4 + 4 == off.commands.size());
  // Same outputs (seed 31) as unfused and unoptimized, to float rounding.
  const passes_a::Io io = passes_a::RandomIo(nnet, request, 31);
  const passes_a::Results r0 = passes_a::Run(nnet, unoptimized, io);
  const passes_a::Results r1 = passes_a::Run(nnet, off, io);
  const passes_a::Results r2 = passes_a::Run(nnet, on, io);
  CHECK(passes_a::Compare(r1, r2, 1e-5f) == "");
  CHECK(passes_a::Compare(r0, r2, 1e-5f) == "");
}

TEST_CASE("Each fusion switch turns its fusion alone off", "[optimize-a]") {
  const Nnet nnet = InferenceTdnnf();
  const ComputationRequest request = Request(false);
  NnetComputation c = passes_a::Compile(nnet, request);
  NnetOptimizeOptions opts;
  opts.fuse_scale_add = false;
  Optimize(opts, nnet, MaxOutputTimeInRequest(request), &c);
  const Counts n = CountCommands(nnet, c);
  CHECK(n.relu_fused == 5);
  CHECK(n.scale_add == 0);
  CHECK(n.assigns == 4);
  NnetOptimizeOptions parsed;
  OptionsRegistry po("usage");
  OptionsRegistry opt_po("optimization", &po);
  parsed.Register(&opt_po);
  const char *argv[] = {"prog", "--optimization.fuse-relu-affine=false",
                        "--optimization.fuse-zeroing=false"};
  po.Read(3, argv);
  CHECK_FALSE(parsed.fuse_relu_affine);
  CHECK(parsed.fuse_scale_add);
  CHECK_FALSE(parsed.fuse_zeroing);
}

TEST_CASE("No ReLU fusion where the ReLU output has another reader",
          "[optimize-a]") {
  // relu (in place) feeds the batch norm (not in place) and the sum after
  // it (which adds the batch norm's output to the ReLU's, in place).
  Nnet nnet = passes_a::NnetFromConfigText(
      "input-node name=input dim=4\n"
      "component name=affine type=AffineComponent input-dim=4 output-dim=6\n"
      "component-node name=affine component=affine input=input\n"
      "component name=relu type=RectifiedLinearComponent dim=6\n"
      "component-node name=relu component=relu input=affine\n"
      "component name=bn type=BatchNormComponent dim=6\n"
      "component-node name=bn component=bn input=relu\n"
      "component name=output.affine type=AffineComponent input-dim=6 "
      "output-dim=3\n"
      "component-node name=output.affine component=output.affine "
      "input=Sum(bn, relu)\n"
      "output-node name=output input=output.affine\n");
  PrepareForInference(&nnet);
  ComputationRequest request;
  std::vector<Index> in, out;
  for (int32_t t = 0; t < 8; t++) in.emplace_back(0, t, 0);
  for (int32_t t = 0; t < 8; t++) out.emplace_back(0, t, 0);
  request.inputs.emplace_back("input", in);
  request.outputs.emplace_back("output", out);
  const NnetComputation off = Optimized(nnet, request, false);
  const NnetComputation on = Optimized(nnet, request, true);
  INFO(passes_a::Listing(nnet, on));
  CHECK(CountCommands(nnet, on).relu_fused == 0);
  const passes_a::Io io = passes_a::RandomIo(nnet, request, 37);
  CHECK(passes_a::Compare(passes_a::Run(nnet, off, io),
                          passes_a::Run(nnet, on, io), 1e-5f) == "");
}

TEST_CASE("No ReLU fusion in a training computation that backprops it",
          "[optimize-a]") {
  // Batch norms in test mode, but derivatives wanted: the ReLU's backprop
  // reads its output, so the ReLU stays; the other fusions still apply
  // (they change no value a backprop reads).
  const Nnet nnet = InferenceTdnnf();
  const ComputationRequest request = Request(true);
  const NnetComputation off = Optimized(nnet, request, false);
  const NnetComputation on = Optimized(nnet, request, true);
  INFO(passes_a::Listing(nnet, on));
  const Counts n = CountCommands(nnet, on);
  CHECK(n.relu_fused == 0);
  CHECK(n.relu == 6);
  const passes_a::Io io = passes_a::RandomIo(nnet, request, 41);
  CHECK(passes_a::Compare(passes_a::Run(nnet, off, io),
                          passes_a::Run(nnet, on, io), 1e-5f) == "");
}

}  // namespace nnet3
