// The row-op, renumbering, extension and merging passes on compiled
// computations of random networks: each pass alone and all of them in
// Optimize()'s order, the checker after every pass, and the same results
// as the unoptimized computation.
#include <catch2/catch.hpp>
#include <functional>

#include "../compile/nnet-test-utils.h"
#include "base/log.h"
#include "compile/computation-analysis.h"
#include "compile/computation-checker.h"
#include "optimize/extend-matrices.h"
#include "optimize/nnet-optimize.h"
#include "optimize/renumber-computation.h"
#include "optimize/replace-row-with-matrix-ops.h"
#include "optimize/snip-row-ops.h"
#include "optimize/split-row-ops.h"
#include "optimize/variable-merging-optimization.h"
#include "rowops-test-utils.h"

namespace nnet3 {

namespace {

struct Pass {
  const char *name;
  std::function<bool(const Nnet &, NnetComputation *)> run;
};

std::vector<Pass> Passes() {
  return {
      {"SnipRowOps",
       [](const Nnet &, NnetComputation *c) { return SnipRowOps(c); }},
      {"SplitRowOps",
       [](const Nnet &, NnetComputation *c) { return SplitRowOps(c); }},
      {"ReplaceRowWithMatrixOps",
       [](const Nnet &, NnetComputation *c) {
         return ReplaceRowWithMatrixOps(c);
       }},
      {"RenumberComputation",
       [](const Nnet &, NnetComputation *c) { return RenumberComputation(c); }},
      {"ExtendMatrices",
       [](const Nnet &, NnetComputation *c) { return ExtendMatrices(c); }},
      {"VariableMergingOptimization",
       [](const Nnet &nnet, NnetComputation *c) {
         return VariableMergingOptimization(NnetOptimizeOptions(), nnet, c);
       }},
  };
}

// Runs `passes` (indexes into Passes()) in order with the checker after
// each; returns which changed something.
std::vector<bool> RunPasses(const Nnet &nnet, const std::vector<int32_t> &which,
                            NnetComputation *computation) {
  std::vector<Pass> passes = Passes();
  std::vector<bool> changed;
  for (int32_t p : which) {
    INFO("after pass " << passes[p].name);
    changed.push_back(passes[p].run(nnet, computation));
    CheckComputationOptions opts;
    ComputationChecker(opts, nnet, *computation).Check();
  }
  return changed;
}

}  // namespace

TEST_CASE("Row-op and merging passes on random networks", "[optimize-b]") {
  const int32_t kNumNetworks = 100;
  std::vector<int32_t> times_changed(Passes().size(), 0);
  for (int32_t seed = 1; seed <= kNumNetworks; seed++) {
    INFO("seed " << seed);
    RandomState rng(seed);
    NnetGenerationOptions gen_opts;
    gen_opts.allow_multiple_outputs = (seed % 3 == 0);
    std::vector<std::string> configs;
    GenerateConfigSequence(gen_opts, &rng, &configs);
    Nnet nnet = NnetFromConfigSequence(configs);
    ComputationRequest request;
    std::vector<Matrix> inputs;
    ComputeExampleComputationRequestSimple(nnet, &rng, &request, &inputs);
    const NnetComputation original = CompileForTest(nnet, request);
    // All passes in Optimize()'s order.
    NnetComputation all = original;
    std::vector<bool> changed = RunPasses(nnet, {0, 1, 2, 3, 4, 5}, &all);
    for (size_t p = 0; p < changed.size(); p++)
      if (changed[p]) times_changed[p]++;
    CheckEquivalent(nnet, original, all, 1000 + seed);
    // Each pass alone (then renumbered).
    for (int32_t p : {0, 1, 2, 4, 5}) {
      INFO("pass " << Passes()[p].name << " alone");
      NnetComputation alone = original;
      if (RunPasses(nnet, {p, 3}, &alone)[0])
        CheckEquivalent(nnet, original, alone, 2000 + seed);
    }
  }
  std::ostringstream os;
  for (size_t p = 0; p < times_changed.size(); p++)
    os << " " << Passes()[p].name << "=" << times_changed[p];
  NNET3_LOG << "optimize-b random networks: changed" << os.str();
  // The mix of networks exercises every pass (ExtendMatrices, which needs
  // longer chunks, only a few times: see also the next test).
  for (size_t p = 0; p < times_changed.size(); p++) {
    INFO(Passes()[p].name);
    CHECK(times_changed[p] > 0);
  }
}

TEST_CASE("Row-op and merging passes on a TDNN with long chunks",
          "[optimize-b]") {
  Nnet nnet = NnetFromText(
      "input-node name=input dim=3\n"
      "component name=affine1 type=AffineComponent input-dim=9 output-dim=4 "
      "learning-rate=0.01\n"
      "component-node name=affine1 component=affine1 "
      "input=Append(Offset(input, -1), input, Offset(input, 1))\n"
      "component name=relu1 type=RectifiedLinearComponent dim=4\n"
      "component-node name=relu1 component=relu1 input=affine1\n"
      "component name=affine2 type=AffineComponent input-dim=12 "
      "output-dim=3 learning-rate=0.01\n"
      "component-node name=affine2 component=affine2 "
      "input=Append(Offset(relu1, -2), relu1, Offset(relu1, 2))\n"
      "output-node name=output input=affine2\n");
  for (bool backprop : {false, true}) {
    INFO("backprop " << backprop);
    const NnetComputation original =
        CompileForTest(nnet, TimeRequest(-3, 33, 0, 30, 1, backprop));
    NnetComputation all = original;
    std::vector<bool> changed = RunPasses(nnet, {0, 1, 2, 3, 4, 5}, &all);
    INFO(Listing(nnet, all));
    CHECK(changed[4]);  // ExtendMatrices
    CheckEquivalent(nnet, original, all, backprop ? 3001 : 3002);
    CHECK(GetMaxMemoryUse(all) < GetMaxMemoryUse(original));
    NnetComputation no_extend = original;
    RunPasses(nnet, {0, 1, 2, 3, 5}, &no_extend);
    CHECK(all.commands.size() < no_extend.commands.size());
    // The whole optimizer, with the checker after every pass.
    NnetOptimizeOptions opts;
    opts.check_after_each_pass = true;
    NnetComputation optimized = original;
    Optimize(opts, nnet, 29, &optimized);
    INFO(Listing(nnet, optimized));
    CheckEquivalent(nnet, original, optimized, backprop ? 3003 : 3004);
  }
}

}  // namespace nnet3
