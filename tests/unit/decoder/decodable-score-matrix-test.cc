// DecodableScoreMatrix over NnetBatchInference's scores, on the golden
// model tests/data/train/hmm.mdl (6 pdfs, 14 transition-ids, priors): the
// scores the batched decoder searches are exactly DecodableAmNnetSimple's
// (for this network without recurrence, whatever the minibatch size), the
// model thread's busy time is counted, and a matrix that does not fit the
// transition model or a transition-id it lacks are UserErrors naming the
// utterance.
#include "decoder/decodable-score-matrix.h"

#include <catch2/catch.hpp>
#include <string>

#include "base/error.h"
#include "compute/nnet-batch-inference.h"
#include "decoder/decodable-am-nnet-simple.h"
#include "device/device.h"

namespace nnet3 {

TEST_CASE("DecodableScoreMatrix gives DecodableAmNnetSimple's scores",
          "[decoder]") {
  TransitionModel trans_model;
  AmNnetSimple am_nnet;
  ReadAmNnetForDecoding(std::string(NNET3_TEST_DATA) + "/train/hmm.mdl",
                        &trans_model, &am_nnet);
  const Vector log_priors = LogPriorsOf(am_nnet);
  const uint64_t seed = 32;
  INFO("seed " << seed);
  Matrix features(73, 2, ResizeType::kSetZero, CpuDevice());
  features.SetRandn(seed);

  NnetSimpleComputationOptions simple_opts;  // acoustic scale 0.1
  std::unique_ptr<UtteranceComputer> computer =
      NewDecodingComputer(simple_opts, am_nnet.GetNnet());
  DecodableAmNnetSimple reference("u", trans_model, log_priors,
                                  simple_opts.acoustic_scale, computer.get(),
                                  features, nullptr, nullptr, 0);
  for (int32_t minibatch : {1, 2, 128}) {
    INFO("minibatch size " << minibatch);
    NnetBatchComputerOptions opts;
    opts.minibatch_size = minibatch;
    NnetBatchInference inference(opts, am_nnet.GetNnet(), log_priors);
    inference.AcceptInput("u", features, nullptr, nullptr, 0);
    inference.Finished();
    std::string key;
    Matrix scores;
    REQUIRE(inference.GetOutput(&key, &scores));
    CHECK(inference.ComputeSeconds() > 0.0);
    DecodableScoreMatrix decodable("u", trans_model, scores);
    REQUIRE(decodable.NumFramesReady() == 73);
    CHECK(decodable.NumIndices() == 14);
    CHECK(decodable.IsLastFrame(72));
    CHECK_FALSE(decodable.IsLastFrame(71));
    for (int32_t t = 0; t < 73; t++)
      for (int32_t tid = 1; tid <= 14; tid++) {
        INFO("frame " << t << ", transition-id " << tid);
        CHECK(decodable.LogLikelihood(t, tid) ==
              reference.LogLikelihood(t, tid));
      }
    CHECK_THROWS_WITH(decodable.LogLikelihood(0, 15),
                      Catch::Contains("'u'") && Catch::Contains("15"));
    CHECK_THROWS_AS(decodable.LogLikelihood(0, 0), UserError);
  }
  // One column short of the model's pdfs.
  Matrix five(3, 5, ResizeType::kSetZero, CpuDevice());
  CHECK_THROWS_WITH(DecodableScoreMatrix("utt9", trans_model, five),
                    Catch::Contains("utt9") && Catch::Contains("5 columns"));
}

}  // namespace nnet3
