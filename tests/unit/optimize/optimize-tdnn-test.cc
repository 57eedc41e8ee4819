// The optimizer on configs/tdnn.config with a training request of 128
// sequences x 8 output frames: fewer commands and less peak memory than
// the unoptimized computation (the numbers are logged), same results.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/log.h"
#include "base/timer.h"
#include "compile/computation-analysis.h"
#include "compile/computation-checker.h"
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

// Indexes (n, t, 0) for n in [0, num_n), t in [t_begin, t_end), n-major.
std::vector<Index> Indexes(int32_t num_n, int32_t t_begin, int32_t t_end) {
  std::vector<Index> indexes;
  for (int32_t n = 0; n < num_n; n++)
    for (int32_t t = t_begin; t < t_end; t++) indexes.emplace_back(n, t, 0);
  return indexes;
}

}  // namespace

TEST_CASE("Optimize shrinks a TDNN training computation", "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(
      ReadFile(std::string(NNET3_TEST_DATA) + "/../../configs/tdnn.config"));
  // Context is 6 frames on each side (see the config).
  const int32_t num_n = 128, frames = 8, context = 6;
  ComputationRequest request;
  request.inputs.emplace_back(
      "input", Indexes(num_n, -context, frames + context), false);
  request.outputs.emplace_back("output", Indexes(num_n, 0, frames), true);
  request.need_model_derivative = true;
  Timer timer;
  NnetComputation computation = passes_a::Compile(nnet, request);
  const double compile_seconds = timer.Elapsed();
  const NnetComputation unoptimized = computation;
  const size_t commands_before = computation.commands.size();
  const int64_t memory_before = GetMaxMemoryUse(computation);
  timer.Reset();
  NnetOptimizeOptions opts;
  Optimize(opts, nnet, MaxOutputTimeInRequest(request), &computation);
  const double optimize_seconds = timer.Elapsed();
  CheckComputation(nnet, computation);
  const size_t commands_after = computation.commands.size();
  const int64_t memory_after = GetMaxMemoryUse(computation);
  NNET3_LOG << "tdnn.config, " << num_n << " sequences x " << frames
            << " frames, training: commands " << commands_before << " -> "
            << commands_after << ", peak memory " << memory_before << " -> "
            << memory_after << " bytes (compile " << compile_seconds
            << "s, optimize " << optimize_seconds << "s)";
  CHECK(commands_after < commands_before);
  CHECK(memory_after < memory_before);
  // And the same results (seed 77 for the inputs and output derivative).
  const passes_a::Io io = passes_a::RandomIo(nnet, request, 77);
  CHECK(passes_a::Compare(passes_a::Run(nnet, unoptimized, io),
                          passes_a::Run(nnet, computation, io), 1e-4f) == "");
}

}  // namespace nnet3
