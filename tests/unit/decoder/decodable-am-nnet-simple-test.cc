// DecodableAmNnetSimple on the golden model tests/data/train/hmm.mdl (6
// pdfs, 14 transition-ids, priors): every score is exactly
// (network output - log prior) * acoustic scale of the transition-id's
// pdf, rounded in that order; the frame count with frame subsampling; the
// looped computer gives the same scores for this feed-forward network;
// bad transition-ids and a network that does not fit the transition model
// are UserErrors.
#include "decoder/decodable-am-nnet-simple.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "base/error.h"
#include "device/device.h"

namespace nnet3 {
namespace {

std::string GoldenMdl() {
  return std::string(NNET3_TEST_DATA) + "/train/hmm.mdl";
}

Matrix RandomFeatures(int32_t rows, int32_t cols, uint64_t seed) {
  Matrix m(rows, cols, ResizeType::kSetZero, CpuDevice());
  m.SetRandn(seed);
  return m;
}

}  // namespace

TEST_CASE("DecodableAmNnetSimple scores by transition-id", "[decoder]") {
  TransitionModel trans_model;
  AmNnetSimple am_nnet;
  ReadAmNnetForDecoding(GoldenMdl(), &trans_model, &am_nnet);
  REQUIRE(am_nnet.Priors().Dim() == 6);
  const Vector log_priors = LogPriorsOf(am_nnet);
  const std::vector<float> log_prior = log_priors.ToHost();
  const uint64_t seed = 31;
  INFO("seed " << seed);
  const Matrix features = RandomFeatures(11, 2, seed);

  NnetSimpleComputationOptions opts;
  opts.frames_per_chunk = 4;
  opts.acoustic_scale = 0.1f;
  // The network's own output, unscaled, as the reference.
  NnetSimpleComputationOptions unscaled = opts;
  unscaled.acoustic_scale = 1.0f;
  NnetSimpleComputer reference(unscaled, am_nnet.GetNnet());
  Matrix output;
  reference.ComputeUtterance("u", features, nullptr, nullptr, 0, &output);
  const std::vector<float> out = output.ToHost();

  std::unique_ptr<UtteranceComputer> computer =
      NewDecodingComputer(opts, am_nnet.GetNnet());
  DecodableAmNnetSimple decodable("u", trans_model, log_priors,
                                  opts.acoustic_scale, computer.get(), features,
                                  nullptr, nullptr, 0);
  REQUIRE(decodable.NumFramesReady() == 11);
  CHECK(decodable.NumIndices() == 14);
  CHECK(decodable.IsLastFrame(10));
  CHECK_FALSE(decodable.IsLastFrame(9));
  for (int32_t t = 0; t < 11; t++) {
    for (int32_t tid = 1; tid <= 14; tid++) {
      const int32_t pdf = trans_model.TransitionIdToPdf(tid);
      const float want = (out[t * 6 + pdf] - log_prior[pdf]) * 0.1f;
      INFO("frame " << t << ", transition-id " << tid);
      CHECK(decodable.LogLikelihood(t, tid) == want);
    }
  }
  CHECK_THROWS_WITH(
      decodable.LogLikelihood(0, 15),
      Catch::Contains("transition-id 15") && Catch::Contains("has only 14"));
  CHECK_THROWS_AS(decodable.LogLikelihood(0, 0), UserError);

  // The looped computation of this feed-forward network: the same scores
  // up to the products' rounding.
  NnetSimpleLoopedComputationOptions looped_opts;
  looped_opts.acoustic_scale = 0.1f;
  Nnet looped_nnet = am_nnet.GetNnet();
  const std::unique_ptr<DecodableNnetSimpleLoopedInfo> info =
      NewLoopedDecodingInfo(looped_opts, &looped_nnet);
  NnetSimpleLoopedComputer looped(*info);
  DecodableAmNnetSimple looped_decodable("u", trans_model, log_priors, 0.1f,
                                         &looped, features, nullptr, nullptr,
                                         0);
  REQUIRE(looped_decodable.NumFramesReady() == 11);
  for (int32_t t = 0; t < 11; t++)
    for (int32_t tid = 1; tid <= 14; tid++)
      CHECK(looped_decodable.LogLikelihood(t, tid) ==
            Approx(decodable.LogLikelihood(t, tid)).margin(1e-5));

  // Without priors, frame subsampling 2: ceil(11 / 2) frames.
  opts.frame_subsampling_factor = 2;
  opts.frames_per_chunk = 6;
  std::unique_ptr<UtteranceComputer> subsampled =
      NewDecodingComputer(opts, am_nnet.GetNnet());
  DecodableAmNnetSimple no_priors("u", trans_model, Vector(), 1.0f,
                                  subsampled.get(), features, nullptr, nullptr,
                                  0);
  REQUIRE(no_priors.NumFramesReady() == 6);
  for (int32_t t = 0; t < 6; t++)
    CHECK(no_priors.LogLikelihood(t, 8) == out[2 * t * 6 + 3]);
}

TEST_CASE("DecodableAmNnetSimple rejects a network that does not fit",
          "[decoder]") {
  TransitionModel trans_model;
  AmNnetSimple am_nnet;
  ReadAmNnetForDecoding(GoldenMdl(), &trans_model, &am_nnet);
  // Wrong feature dimension: the computer's UserError, naming the utterance.
  std::unique_ptr<UtteranceComputer> computer =
      NewDecodingComputer(NnetSimpleComputationOptions(), am_nnet.GetNnet());
  const Matrix features = RandomFeatures(5, 3, 1);
  CHECK_THROWS_WITH(
      DecodableAmNnetSimple("utt7", trans_model, Vector(), 0.1f, computer.get(),
                            features, nullptr, nullptr, 0),
      Catch::Contains("utt7"));
  // Priors of the wrong dimension.
  const Matrix good = RandomFeatures(5, 2, 1);
  Vector short_priors(std::vector<float>{-1.0f, -2.0f}, CpuDevice());
  CHECK_THROWS_WITH(
      DecodableAmNnetSimple("u", trans_model, short_priors, 0.1f,
                            computer.get(), good, nullptr, nullptr, 0),
      Catch::Contains("dimension 2"));
}

}  // namespace nnet3
