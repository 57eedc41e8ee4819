// The optimizer's central test: for random networks and requests (the
// shared generator of tests/unit/compile), the optimized computation gives
// the same outputs, input derivatives and model gradients as the
// unoptimized one, run with NnetComputer on the same inputs — with every
// pass on, with each switch alone off and with each switch alone on. The
// checker runs after each pass (check_after_each_pass), and the peak memory
// (GetMaxMemoryUse) never grows except through ConsolidateModelUpdate,
// which adds matrices by design, and by the packed block of one compressed
// matrix (a decompression holds both forms at once: with every matrix
// allocated up front, as with --optimize=false, that is above the
// uncompressed peak, in Kaldi too). A failure names the seed and the
// options.
#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../compile/nnet-test-utils.h"
#include "base/error.h"
#include "base/log.h"
#include "compile/computation-analysis.h"
#include "optimize-a-test-utils.h"
#include "optimize/consolidate-model-update.h"
#include "optimize/nnet-optimize.h"

namespace nnet3 {
namespace {

struct NamedOptions {
  std::string name;
  NnetOptimizeOptions opts;
};

// All on, optimize off, each switch alone off, and (if `alone_on`) each
// switch alone on.
std::vector<NamedOptions> OptionSets(bool alone_on) {
  std::vector<NamedOptions> sets;
  sets.push_back({"all passes on", NnetOptimizeOptions()});
  NnetOptimizeOptions off;
  off.optimize = false;
  sets.push_back({"--optimize=false", off});
  for (const OptimizationSwitch &s : OptimizationSwitches()) {
    NnetOptimizeOptions o;
    s.set(false, &o);
    sets.push_back({s.option + " alone off", o});
    if (alone_on) {
      NnetOptimizeOptions on = AllPassesOffOptions();
      s.set(true, &on);
      // The in-place and merge-direction switches act only inside variable
      // merging, which remove-assignments alone also runs.
      sets.push_back({s.option + " alone on", on});
    }
  }
  for (NamedOptions &n : sets) n.opts.check_after_each_pass = true;
  return sets;
}

// Seeds of one third each: inference, full training (every derivative and
// the model), and the generator's random choice.
void MakeRequestKind(uint64_t seed, ComputationRequest *request) {
  if (seed % 3 == 0) {
    for (IoSpecification &io : request->inputs) io.has_deriv = false;
    for (IoSpecification &io : request->outputs) io.has_deriv = false;
    request->need_model_derivative = false;
  } else if (seed % 3 == 1) {
    for (IoSpecification &io : request->inputs) io.has_deriv = true;
    for (IoSpecification &io : request->outputs) io.has_deriv = true;
    request->need_model_derivative = true;
  }
}

// The largest block a kCompressMatrix of `c` packs into: what a
// compression or decompression may hold on top of the uncompressed peak.
int64_t LargestPackedBytes(const NnetComputation &c) {
  int64_t largest = 0;
  for (const NnetComputation::Command &cmd : c.commands) {
    if (cmd.command_type != kCompressMatrix) continue;
    const NnetComputation::SubMatrixInfo &s = c.submatrices[cmd.arg1];
    const int64_t bytes =
        int64_t{s.num_rows} * s.num_cols * (cmd.arg2 <= 2 ? 1 : 2);
    largest = std::max(largest, bytes);
  }
  return largest;
}

// Totals over the networks tested, for one summary line.
struct Totals {
  int64_t networks = 0, commands_before = 0, commands_after = 0,
          memory_before = 0, memory_after = 0;
};

void TestOneNetwork(uint64_t seed, bool alone_on, Totals *totals) {
  RandomState rng(seed);
  NnetGenerationOptions gen_opts;
  gen_opts.allow_multiple_outputs = (seed % 4 == 3);
  gen_opts.allow_ivector = (seed % 5 == 4);
  std::vector<std::string> configs;
  GenerateConfigSequence(gen_opts, &rng, &configs);
  Nnet nnet = NnetFromConfigSequence(configs);
  ComputationRequest request;
  std::vector<Matrix> unused_inputs;
  ComputeExampleComputationRequestSimple(nnet, &rng, &request, &unused_inputs);
  MakeRequestKind(seed, &request);
  NnetComputation unoptimized;
  {
    passes_a::QuietStderr quiet;  // "input never used" warnings
    unoptimized = passes_a::Compile(nnet, request);
  }
  const passes_a::Io io = passes_a::RandomIo(nnet, request, seed + 1000);
  passes_a::Results want;
  try {
    want = passes_a::Run(nnet, unoptimized, io);
  } catch (const Error &e) {
    // Not the optimizer's fault, but the comparison needs a reference.
    FAIL_CHECK("seed " << seed << ": the UNOPTIMIZED computation fails to "
                       << "run: " << e.what());
    return;
  }
  const int64_t memory_before = GetMaxMemoryUse(unoptimized);
  NnetComputation consolidated = unoptimized;
  const bool consolidation_adds_memory =
      ConsolidateModelUpdate(nnet, &consolidated);
  for (const NamedOptions &set : OptionSets(alone_on)) {
    INFO("seed " << seed << ", options: " << set.name << "\nconfig:\n"
                 << configs[0]);
    NnetComputation optimized = unoptimized;
    {
      passes_a::QuietStderr quiet;
      Optimize(set.opts, nnet, MaxOutputTimeInRequest(request), &optimized);
    }
    INFO("optimized:\n" << passes_a::Listing(nnet, optimized));
    const passes_a::Results got = passes_a::Run(nnet, optimized, io);
    CHECK(passes_a::Compare(want, got, 1e-4f) == "");
    if (set.name == "all passes on") {
      totals->networks++;
      totals->commands_before += unoptimized.commands.size();
      totals->commands_after += optimized.commands.size();
      totals->memory_before += memory_before;
      totals->memory_after += GetMaxMemoryUse(optimized);
    }
    if (!(consolidation_adds_memory && set.opts.consolidate_model_update &&
          set.opts.optimize))
      CHECK(GetMaxMemoryUse(optimized) <=
            memory_before + LargestPackedBytes(optimized));
  }
}

void LogTotals(const Totals &t) {
  NNET3_LOG << "optimize-diff: " << t.networks << " networks; commands "
            << t.commands_before << " -> " << t.commands_after
            << ", peak memory " << t.memory_before << " -> " << t.memory_after
            << " bytes (all passes on)";
}

}  // namespace

TEST_CASE("Optimized computations compute what unoptimized ones do",
          "[optimize-diff]") {
  Totals totals;
  for (uint64_t seed = 0; seed < 100; seed++)
    TestOneNetwork(seed, /*alone_on=*/true, &totals);
  LogTotals(totals);
}

TEST_CASE("Optimized computations compute what unoptimized ones do (many)",
          "[optimize-diff-slow][.slow]") {
  Totals totals;
  for (uint64_t seed = 100; seed < 1100; seed++)
    TestOneNetwork(seed, /*alone_on=*/true, &totals);
  LogTotals(totals);
}

}  // namespace nnet3
