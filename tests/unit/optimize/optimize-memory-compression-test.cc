// OptimizeMemoryCompression: a ReLU output kept for backprop is compressed
// between its last forward use and the ReLU's backprop.
#include "optimize/optimize-memory-compression.h"

#include <catch2/catch.hpp>

#include "compile/computation-analysis.h"
#include "optimize-a-test-utils.h"
#include "optimize/nnet-optimize.h"

namespace nnet3 {

TEST_CASE("OptimizeMemoryCompression compresses a ReLU output",
          "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(passes_a::kFeedForwardConfig);
  const NnetComputation before = passes_a::Compile(
      nnet, passes_a::SimpleTrainingRequest(0, 5, 0, 4, true));
  NnetComputation after = before;
  REQUIRE(OptimizeMemoryCompression(nnet, 1, &after));
  const std::string listing = passes_a::Listing(nnet, after);
  INFO(listing);
  CHECK(passes_a::CountOf(listing, ".Compress(uint8, range=0, truncate)") == 1);
  CHECK(passes_a::CountOf(listing, ".Decompress()") == 1);
  // Compressed in the forward pass, restored just before the ReLU's
  // backprop, which reads it as its output value.
  int32_t compress = -1, decompress = -1, marker = -1;
  for (size_t k = 0; k < after.commands.size(); k++) {
    CommandType type = after.commands[k].command_type;
    if (type == kCompressMatrix) compress = int32_t(k);
    if (type == kDecompressMatrix) decompress = int32_t(k);
    if (type == kNoOperationMarker) marker = int32_t(k);
  }
  REQUIRE(decompress >= 0);
  CHECK(compress < marker);
  CHECK(marker < decompress);
  const NnetComputation::Command &backprop = after.commands[decompress + 1];
  CHECK(backprop.command_type == kBackprop);
  CHECK(nnet.GetComponentName(backprop.arg1) == "relu");
  CHECK(backprop.arg4 == after.commands[decompress].arg1);
  CHECK(after.commands[compress].arg1 == backprop.arg4);
  passes_a::CheckSameResults(nnet, before, after, 81);
  // And within Optimize, with and without the option.
  NnetComputation optimized = before, uncompressed = before;
  NnetOptimizeOptions opts;
  Optimize(opts, nnet, 3, &optimized);
  CHECK(passes_a::CountOf(passes_a::Listing(nnet, optimized), ".Compress(") ==
        1);
  CHECK(GetMaxMemoryUse(optimized) < GetMaxMemoryUse(before));
  passes_a::CheckSameResults(nnet, before, optimized, 82);
  opts.memory_compression_level = 0;
  Optimize(opts, nnet, 3, &uncompressed);
  CHECK(passes_a::CountOf(passes_a::Listing(nnet, uncompressed),
                          ".Compress(") == 0);
}

TEST_CASE("OptimizeMemoryCompression leaves other computations alone",
          "[optimize-a]") {
  // Inference: no backward pass.
  const Nnet ff = passes_a::NnetFromConfigText(passes_a::kFeedForwardConfig);
  NnetComputation c =
      passes_a::Compile(ff, passes_a::SimpleTrainingRequest(0, 5, 0, 4, false));
  CHECK_FALSE(OptimizeMemoryCompression(ff, 1, &c));
  // Level 0.
  c = passes_a::Compile(ff, passes_a::SimpleTrainingRequest(0, 5, 0, 4, true));
  CHECK_FALSE(OptimizeMemoryCompression(ff, 0, &c));
  // Tanh needs its output value exactly: nothing to compress.
  const Nnet rnn = passes_a::NnetFromConfigText(passes_a::kRecurrentConfig);
  c = passes_a::Compile(rnn, passes_a::SimpleTrainingRequest(0, 3, 0, 3, true));
  CHECK_FALSE(OptimizeMemoryCompression(rnn, 1, &c));
}

TEST_CASE("OptimizeMemoryCompression at level 2 packs the other values too",
          "[optimize-a]") {
  // Level 2 (Kaldi's): the ReLU output as at level 1, and every other value
  // kept for the backward pass as int16 in [-10, 10]: here the affine's
  // input, which its backprop reads for the model update.
  const Nnet ff = passes_a::NnetFromConfigText(passes_a::kFeedForwardConfig);
  const NnetComputation before =
      passes_a::Compile(ff, passes_a::SimpleTrainingRequest(0, 5, 0, 4, true));
  NnetOptimizeOptions opts;
  opts.memory_compression_level = 2;
  opts.check_after_each_pass = true;
  NnetComputation after = before;
  Optimize(opts, ff, 3, &after);
  const std::string listing = passes_a::Listing(ff, after);
  INFO(listing);
  CHECK(passes_a::CountOf(listing, ".Compress(uint8, range=0, truncate)") == 1);
  CHECK(passes_a::CountOf(listing, ".Compress(int16, range=10, truncate)") >=
        1);
  CHECK(passes_a::CountOf(listing, ".Compress(") ==
        passes_a::CountOf(listing, ".Decompress()"));
  // Results within the int16 steps (10 / 32767).
  const passes_a::Io io = passes_a::RandomIo(
      ff, passes_a::SimpleTrainingRequest(0, 5, 0, 4, true), 83);
  CHECK(passes_a::Compare(passes_a::Run(ff, before, io),
                          passes_a::Run(ff, after, io), 1e-3f) == "");
  // A tanh needs its exact value: nothing at level 1, int16 at level 2.
  const Nnet rnn = passes_a::NnetFromConfigText(passes_a::kRecurrentConfig);
  NnetComputation c =
      passes_a::Compile(rnn, passes_a::SimpleTrainingRequest(0, 3, 0, 3, true));
  Optimize(opts, rnn, 2, &c);
  CHECK(passes_a::CountOf(passes_a::Listing(rnn, c),
                          ".Compress(int16, range=10, truncate)") > 0);
}

TEST_CASE("OptimizeMemoryCompression runs with --optimize=false, as in Kaldi",
          "[optimize-a]") {
  const Nnet ff = passes_a::NnetFromConfigText(passes_a::kFeedForwardConfig);
  NnetComputation c =
      passes_a::Compile(ff, passes_a::SimpleTrainingRequest(0, 5, 0, 4, true));
  NnetOptimizeOptions opts;
  opts.optimize = false;
  opts.check_after_each_pass = true;
  Optimize(opts, ff, 3, &c);
  CHECK(passes_a::CountOf(passes_a::Listing(ff, c),
                          ".Compress(uint8, range=0, truncate)") == 1);
}

}  // namespace nnet3
