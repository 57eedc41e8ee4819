// The optimizer on configs/tdnn.config with a training request of 128
// sequences x 8 output frames: fewer commands and less peak memory than
// the unoptimized computation (the numbers are logged), same results.
// The config's output layer starts at zero (as Kaldi's xconfig writes it),
// which would make every output row the same constant and every gradient
// below the output layer zero; the test gives that layer random parameters
// first and checks that the outputs and the gradients of every layer are
// far from trivial, so a broken pass shows up as a difference.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/log.h"
#include "base/timer.h"
#include "compile/computation-analysis.h"
#include "compile/computation-checker.h"
#include "nnet/component-itf.h"
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

// The TDNN of configs/tdnn.config with the zero-initialized output layer
// given N(0, 1/256) parameters (seed 5), so its outputs depend on the input.
Nnet TdnnWithRandomOutputLayer() {
  Nnet nnet = passes_a::NnetFromConfigText(
      ReadFile(std::string(NNET3_TEST_DATA) + "/../../configs/tdnn.config"));
  const int32_t c = nnet.GetComponentIndex("output.affine");
  REQUIRE(c >= 0);
  auto *output_affine =
      dynamic_cast<UpdatableComponent *>(nnet.GetComponent(c));
  REQUIRE(output_affine != nullptr);
  output_affine->PerturbParams(1.0f / 16, 5);  // seed 5
  return nnet;
}

// The largest |x| over a matrix.
float MaxAbs(const Matrix &m) { return std::max(m.Max(), -m.Min()); }

// Guards against a comparison of constants: the outputs differ from row to
// row by much more than the tolerance, and every updatable component's
// gradient is large (Compare's tolerance is relative to max(1, |largest|)).
void CheckNotTrivial(const passes_a::Results &results) {
  const Matrix &output = results.provided.at("value:output");
  const Matrix first_row(output.RowRange(0, 1));
  float max_row_difference = 0.0f;
  for (int32_t r = 1; r < output.NumRows(); r++) {
    Matrix diff(output.RowRange(r, 1));
    diff.AddMat(-1.0f, first_row);
    max_row_difference = std::max(max_row_difference, MaxAbs(diff));
  }
  CHECK(max_row_difference > 1.0f);
  CHECK(MaxAbs(results.provided.at("deriv:input")) > 0.01f);
  for (int32_t c = 0; c < results.gradient.NumComponents(); c++) {
    const auto *u = dynamic_cast<const UpdatableComponent *>(
        results.gradient.GetComponent(c));
    if (u == nullptr) continue;
    INFO("gradient of " << results.gradient.GetComponentName(c));
    CHECK(u->DotProduct(*u) > 1.0f);
  }
}

}  // namespace

TEST_CASE("Optimize shrinks a TDNN training computation", "[optimize-a]") {
  const Nnet nnet = TdnnWithRandomOutputLayer();
  // Context is 6 frames on each side (see the config).
  const int32_t num_n = 128, frames = 8, context = 6;
  ComputationRequest request;
  request.inputs.emplace_back("input",
                              Indexes(num_n, -context, frames + context), true);
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
  // And the same results (seed 77 for the inputs and output derivative):
  // outputs, input derivatives and the gradient of every component.
  const passes_a::Io io = passes_a::RandomIo(nnet, request, 77);
  const passes_a::Results before = passes_a::Run(nnet, unoptimized, io);
  CheckNotTrivial(before);
  CHECK(passes_a::Compare(before, passes_a::Run(nnet, computation, io),
                          1e-4f) == "");
}

}  // namespace nnet3
