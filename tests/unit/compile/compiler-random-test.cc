// Compiles random networks with random requests (tests/unit/compile's
// generator) and checks every computation with the ComputationChecker
// (Kaldi's nnet-compile-test idea).
#include <catch2/catch.hpp>
#include <sstream>

#include "compile/compiler.h"
#include "compile/computation-checker.h"
#include "nnet-test-utils.h"

namespace nnet3 {

namespace {

void CompileRandomNetworks(uint32_t base_seed, uint32_t num_networks) {
  for (uint32_t i = 0; i < num_networks; i++) {
    const uint32_t seed = base_seed + i;
    INFO("seed " << seed);
    RandomState rng(seed);
    NnetGenerationOptions gen_opts;
    gen_opts.allow_ivector = (i % 3 == 0);
    gen_opts.allow_multiple_outputs = (i % 4 == 1);
    std::vector<std::string> configs;
    GenerateConfigSequence(gen_opts, &rng, &configs);
    std::ostringstream all;
    for (const std::string &c : configs) all << c << "---\n";
    INFO("configs:\n" << all.str());
    Nnet nnet = NnetFromConfigSequence(configs);
    for (int32_t r = 0; r < 2; r++) {
      ComputationRequest request;
      std::vector<Matrix> inputs;
      ComputeExampleComputationRequestSimple(nnet, &rng, &request, &inputs);
      std::ostringstream request_text;
      request.Print(request_text);
      INFO("request: " << request_text.str());
      NnetComputation computation;
      Compiler compiler(request, nnet);
      CompilerOptions opts;
      opts.output_debug_info = (r == 0 || i % 2 == 0);
      compiler.CreateComputation(opts, &computation);
      std::ostringstream printed;
      computation.Print(printed, nnet);
      INFO("computation:\n" << printed.str());
      CheckComputationOptions check_opts;
      check_opts.check_rewrite = true;
      ComputationChecker(check_opts, nnet, computation).Check();
      // Every request output is provided and every input accepted.
      int32_t num_provide = 0, num_accept = 0;
      for (const auto &c : computation.commands) {
        num_provide += (c.command_type == kProvideOutput);
        num_accept += (c.command_type == kAcceptInput);
      }
      int32_t want_provide = 0, want_accept = 0;
      for (const auto &io : request.inputs) {
        want_accept += !io.indexes.empty();
        want_provide += io.has_deriv;
      }
      for (const auto &io : request.outputs) {
        want_provide += !io.indexes.empty();
        want_accept += io.has_deriv;
      }
      REQUIRE(num_provide == want_provide);
      REQUIRE(num_accept == want_accept);
    }
  }
}

}  // namespace

TEST_CASE("Compiler: random networks and requests pass the checker",
          "[compiler]") {
  CompileRandomNetworks(20240, 100);
}

// Many more networks, for debugging the compiler (not run by default).
TEST_CASE("Compiler: many random networks", "[.compiler-stress]") {
  CompileRandomNetworks(1000000, 3000);
}

}  // namespace nnet3
