// nnet3-compile-info with egs: the requests collected from merged egs are
// the very keys the trainer's (and compute-prob's) computation cache holds
// after training on the same egs: plain and i-vector egs, chunks of
// different sizes, minibatches of different sizes.
#include "train/egs-compile-info.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/random.h"
#include "train-test-utils.h"
#include "train/example-generation.h"
#include "train/nnet-diagnostics.h"
#include "train/nnet-example-utils.h"
#include "train/nnet-training.h"

using namespace nnet3;
using namespace nnet3::train_test;

namespace {

std::string TdnnConfig(bool ivector) {
  return std::string("input-node name=input dim=2\n") +
         (ivector ? "input-node name=ivector dim=3\n" : "") +
         "component name=affine1 type=NaturalGradientAffineComponent "
         "input-dim=" +
         (ivector ? "9" : "6") +
         " output-dim=4\n"
         "component-node name=affine1 component=affine1 "
         "input=Append(Offset(input, -1), input, Offset(input, 1)" +
         (ivector ? ", ReplaceIndex(ivector, t, 0)" : "") +
         ")\n"
         "component name=relu1 type=RectifiedLinearComponent dim=4\n"
         "component-node name=relu1 component=relu1 input=affine1\n"
         "component name=out type=NaturalGradientAffineComponent "
         "input-dim=4 output-dim=5\n"
         "component-node name=out component=out input=relu1\n"
         "component name=sm type=LogSoftmaxComponent dim=5\n"
         "component-node name=sm component=sm input=out\n"
         "output-node name=output input=sm objective=linear\n";
}

// Minibatches as nnet3-get-egs | nnet3-merge-egs make them: utterances of
// 10 frames cut into two chunks of 4 and one of 2 (Kaldi's splitter with
// --num-frames=4,2 has one candidate split for 10 frames, {2,4,4}), merged
// by chunk size into minibatches of 3 (the last one smaller).
std::vector<std::pair<std::string, NnetExample>> MakeMinibatches(bool ivector) {
  ExampleGenerationConfig config;
  config.left_context = 1;
  config.right_context = 1;
  config.num_frames_str = "4,2";
  config.ComputeDerived();
  GetEgsOptions opts;
  opts.num_pdfs = 5;
  opts.compress = false;
  UtteranceSplitter splitter(config);
  RandomState rng(7);
  std::map<size_t, std::vector<NnetExample>> by_size;  // input rows
  Matrix ivectors(10, 3, ResizeType::kSetZero, CpuDevice());
  for (int32_t u = 0; u < 4; u++) {
    Matrix feats(10, 2, ResizeType::kSetZero, CpuDevice());
    Posterior post(10);
    for (int32_t t = 0; t < 10; t++) {
      feats.Set(t, 0, static_cast<float>(t + u));
      post[t] = {{(t + u) % 5, 1.0f}};
    }
    std::vector<std::pair<std::string, NnetExample>> egs;
    REQUIRE(GetEgsForUtterance("utt" + std::to_string(u), GeneralMatrix(feats),
                               ivector ? &ivectors : nullptr, post, opts,
                               &splitter, &rng, &egs));
    for (auto &eg : egs)
      by_size[eg.second.io[0].indexes.size()].push_back(eg.second);
  }
  std::vector<std::pair<std::string, NnetExample>> minibatches;
  for (auto &group : by_size)
    for (size_t i = 0; i < group.second.size(); i += 3) {
      std::vector<NnetExample> src(
          group.second.begin() + i,
          group.second.begin() + std::min(i + 3, group.second.size()));
      NnetExample merged;
      MergeExamples(src, false, &merged);
      minibatches.emplace_back("merged-" + std::to_string(minibatches.size()),
                               merged);
    }
  return minibatches;
}

// Each collected request is cached by `compiler`; everything it caches is
// a collected request or a two-sequence shortcut request.
void CheckSameKeys(const EgsRequestCollector &collector,
                   const CachingOptimizingCompiler &compiler) {
  for (const EgsRequestCollector::Request &r : collector.Requests()) {
    INFO("request of '" << r.first_key << "'");
    CHECK(compiler.IsCached(r.request));
  }
  for (const ComputationRequest &cached : compiler.CachedRequests()) {
    bool collected = false;
    for (const EgsRequestCollector::Request &r : collector.Requests())
      collected = collected || r.request == cached;
    if (!collected) CHECK(cached.inputs[0].indexes.back().n == 1);
  }
}

}  // namespace

TEST_CASE("egs requests are the trainer's cache keys", "[egs-compile-info]") {
  for (bool ivector : {false, true}) {
    INFO("ivector " << ivector);
    const Nnet nnet = NnetFromConfig(TdnnConfig(ivector));
    Nnet trained = nnet;
    NnetTrainerOptions trainer_opts;
    NnetTrainer trainer(trainer_opts, &trained);
    EgsRequestCollector collector(nnet, EgsRequestOptions());
    const auto minibatches = MakeMinibatches(ivector);
    for (const auto &mb : minibatches) {
      trainer.Train(mb.second);
      collector.Add(mb.first, mb.second);
    }
    CHECK(collector.NumMinibatches() ==
          static_cast<int64_t>(minibatches.size()));
    // Chunks of 2: 4 egs in minibatches of 3, 1; chunks of 4: 8 egs in
    // 3, 3, 2. Four shapes, in that order; the 3-sequence chunk-4 one twice.
    REQUIRE(collector.Requests().size() == 4);
    const std::vector<int32_t> sequences = {3, 1, 3, 2};
    const std::vector<int64_t> counts = {1, 1, 2, 1};
    for (size_t i = 0; i < 4; i++) {
      CHECK(collector.Requests()[i].num_sequences == sequences[i]);
      CHECK(collector.Requests()[i].num_minibatches == counts[i]);
    }
    CHECK(collector.Requests()[2].first_key == "merged-2");
    for (const auto &r : collector.Requests()) {
      CHECK(r.request.need_model_derivative);
      CHECK(r.request.store_component_stats);  // nnet3-train's default
      CHECK(r.request.inputs.size() == (ivector ? 2u : 1u));
    }
    CheckSameKeys(collector, trainer.GetCompiler().Compiler());
  }
}

TEST_CASE(
    "egs requests with --store-component-stats=false and for "
    "compute-prob",
    "[egs-compile-info]") {
  const Nnet nnet = NnetFromConfig(TdnnConfig(true));
  const auto minibatches = MakeMinibatches(true);
  {
    Nnet trained = nnet;
    NnetTrainerOptions trainer_opts;
    trainer_opts.store_component_stats = false;
    NnetTrainer trainer(trainer_opts, &trained);
    EgsRequestOptions opts;
    opts.store_component_stats = false;
    EgsRequestCollector collector(nnet, opts);
    for (const auto &mb : minibatches) {
      trainer.Train(mb.second);
      collector.Add(mb.first, mb.second);
    }
    CheckSameKeys(collector, trainer.GetCompiler().Compiler());
  }
  NnetComputeProb prob(NnetComputeProbOptions(), nnet);
  EgsRequestOptions opts;
  opts.for_compute_prob = true;
  EgsRequestCollector collector(nnet, opts);
  for (const auto &mb : minibatches) {
    prob.Compute(mb.second);
    collector.Add(mb.first, mb.second);
  }
  for (const auto &r : collector.Requests()) {
    CHECK_FALSE(r.request.need_model_derivative);
    CHECK_FALSE(r.request.outputs[0].has_deriv);
  }
  CheckSameKeys(collector, prob.GetCompiler()->Compiler());
}

TEST_CASE("egs that do not fit the network name the example",
          "[egs-compile-info]") {
  const Nnet nnet = NnetFromConfig(TdnnConfig(false));
  const auto minibatches = MakeMinibatches(true);  // has an ivector io
  EgsRequestCollector collector(nnet, EgsRequestOptions());
  CHECK_THROWS_WITH(
      collector.Add("bad-key", minibatches[0].second),
      Catch::Contains("Example 'bad-key'") && Catch::Contains("ivector"));
}
