// The computation layer on computations the Compiler makes from random
// networks and requests: the checker accepts them (with check_rewrite, as
// they are unoptimized), they print, and they survive Read/Write.
#include <catch2/catch.hpp>
#include <sstream>

#include "compile/compiler.h"
#include "compile/computation-analysis.h"
#include "compile/computation-checker.h"
#include "computation-test-utils.h"
#include "nnet-test-utils.h"

namespace nnet3 {

TEST_CASE("Compiled computations pass the checker and round-trip",
          "[computation]") {
  for (uint32_t seed = 1; seed <= 200; seed++) {
    INFO("seed " << seed);
    RandomState rng(seed);
    NnetGenerationOptions opts;
    opts.allow_multiple_outputs = seed % 3 == 0;
    opts.allow_ivector = seed % 2 == 0;
    std::vector<std::string> configs;
    GenerateConfigSequence(opts, &rng, &configs);
    INFO("configs:\n" << configs[0] << (configs.size() > 1 ? configs[1] : ""));
    Nnet nnet = NnetFromConfigSequence(configs);
    ComputationRequest request;
    std::vector<Matrix> inputs;
    ComputeExampleComputationRequestSimple(nnet, &rng, &request, &inputs);
    std::ostringstream request_text;
    request.Print(request_text);
    INFO(request_text.str());
    NnetComputation computation;
    CompilerOptions compiler_opts;
    compiler_opts.output_debug_info = seed % 4 != 0;
    Compiler(request, nnet).CreateComputation(compiler_opts, &computation);
    std::ostringstream printed;
    computation.Print(printed, nnet);
    INFO(printed.str());

    CheckComputationOptions check_opts;
    check_opts.check_rewrite = true;
    REQUIRE_NOTHROW(ComputationChecker(check_opts, nnet, computation).Check());
    REQUIRE(GetMaxMemoryUse(computation) > 0);

    for (bool binary : {false, true}) {
      std::string bytes = WriteToString(computation, binary);
      NnetComputation read = ReadFromString<NnetComputation>(bytes, binary);
      REQUIRE(WriteToString(read, binary) == bytes);
      std::ostringstream reprinted;
      read.Print(reprinted, nnet);
      REQUIRE(reprinted.str() == printed.str());
      std::string request_bytes = WriteToString(request, binary);
      ComputationRequest request2 =
          ReadFromString<ComputationRequest>(request_bytes, binary);
      REQUIRE(request2 == request);
      REQUIRE(WriteToString(request2, binary) == request_bytes);
    }
  }
}

}  // namespace nnet3
