// NnetSimpleComputer's chunks are Kaldi's (DecodableNnetSimple): checked on
// random recurrent and clockwork networks, where the output depends on
// where each chunk starts and how much left context it sees, against a
// reference that computes each chunk separately with the plain compiler at
// absolute times (inference-test-utils.h).
#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "../compile/nnet-test-utils.h"
#include "base/random.h"
#include "compile/nnet-context.h"
#include "compute-test-utils.h"
#include "compute/nnet-simple-computation.h"
#include "inference-test-utils.h"
#include "nnet/nnet-utils.h"

namespace nnet3 {
namespace {

// The reference planner itself, against chunks written out by hand.
TEST_CASE("KaldiSimpleChunks: Kaldi's chunk boundaries and contexts",
          "[inference]") {
  RefContextOptions e;
  e.extra_left = 3;
  e.extra_left_initial = 0;
  const std::vector<RefChunk> c = KaldiSimpleChunks(23, 7, e);
  REQUIRE(c.size() == 4);
  const int32_t want[4][4] = {
      {0, 7, 0, 0}, {7, 14, 3, 0}, {14, 21, 3, 0}, {21, 23, 3, 0}};
  for (int32_t i = 0; i < 4; ++i) {
    INFO("chunk " << i);
    CHECK(c[i].begin == want[i][0]);
    CHECK(c[i].end == want[i][1]);
    CHECK(c[i].extra_left == want[i][2]);
    CHECK(c[i].extra_right == want[i][3]);
  }
  e.extra_right = 2;
  e.extra_right_final = 5;
  const std::vector<RefChunk> one = KaldiSimpleChunks(6, 7, e);
  REQUIRE(one.size() == 1);
  CHECK(one[0].extra_left == 0);
  CHECK(one[0].extra_right == 5);
}

struct Setting {
  int32_t fss, fpc;
  RefContextOptions extra;
};

const Setting kSettings[] = {{1, 7, {3, 0, -1, -1}},  {1, 7, {3, 0, 0, -1}},
                             {1, 5, {0, 2, -1, 4}},   {1, 4, {2, 1, 5, 0}},
                             {3, 7, {3, 0, -1, -1}},  {3, 6, {1, 2, 0, 3}},
                             {1, 100, {0, 0, -1, -1}}};

// Compares NnetSimpleComputer with the reference for one network; returns
// whether any chunked output differed from the whole-utterance output
// (i.e. whether the chunking mattered for this network).
bool CheckAgainstReference(const Nnet &nnet, uint32_t seed) {
  bool chunking_matters = false;
  const int32_t ivector_dim = std::max<int32_t>(0, nnet.InputDim("ivector"));
  for (int32_t frames : {1, 5, 23, 40}) {
    const Matrix features =
        RandomMatrix(frames, nnet.InputDim("input"), seed * 100 + frames);
    Vector ivector;
    if (ivector_dim > 0)
      ivector = Vector(RandomMatrix(1, ivector_dim, seed).ToHost());
    for (const Setting &s : kSettings) {
      NnetSimpleComputationOptions opts;
      opts.acoustic_scale = 1.0f;
      opts.frame_subsampling_factor = s.fss;
      opts.frames_per_chunk = s.fpc;
      opts.extra_left_context = s.extra.extra_left;
      opts.extra_right_context = s.extra.extra_right;
      opts.extra_left_context_initial = s.extra.extra_left_initial;
      opts.extra_right_context_final = s.extra.extra_right_final;
      NnetSimpleComputer computer(opts, nnet);
      Matrix got;
      computer.ComputeUtterance("u", features,
                                ivector_dim > 0 ? &ivector : nullptr, nullptr,
                                0, &got);
      const int32_t num_out = (frames + s.fss - 1) / s.fss;
      const int32_t n = std::lcm(s.fss, nnet.Modulus());
      const int32_t per_chunk = (s.fpc + n - 1) / n * n / s.fss;
      const std::vector<RefChunk> chunks =
          KaldiSimpleChunks(num_out, per_chunk, s.extra);
      Matrix rows;
      if (ivector_dim > 0) {
        rows.Resize(static_cast<int32_t>(chunks.size()), ivector_dim);
        for (int32_t r = 0; r < rows.NumRows(); ++r)
          rows.RowRange(r, 1).CopyFromMat(ivector.AsRowMatrix());
      }
      const Matrix want = ReferenceChunkedOutput(
          nnet, features, s.fss, chunks, ivector_dim > 0 ? &rows : nullptr);
      INFO("seed " << seed << " frames " << frames << " fss " << s.fss
                   << " fpc " << s.fpc << " extra " << s.extra.extra_left << ","
                   << s.extra.extra_right << "," << s.extra.extra_left_initial
                   << "," << s.extra.extra_right_final);
      CHECK(MaxAbsDiff(got, want) <= 1e-4f);
      const std::vector<RefChunk> whole = {
          {0, num_out, chunks[0].extra_left, chunks.back().extra_right}};
      if (chunks.size() > 1 &&
          MaxAbsDiff(ReferenceChunkedOutput(nnet, features, s.fss, whole,
                                            ivector_dim > 0 ? &rows : nullptr),
                     want) > 1e-3f)
        chunking_matters = true;
    }
  }
  return chunking_matters;
}

TEST_CASE("NnetSimpleComputer: Kaldi's chunks on recurrent networks",
          "[inference]") {
  NnetGenerationOptions gen;
  gen.allow_multiple_inputs = false;  // simple networks only
  gen.allow_ivector = true;
  int32_t num_recurrent = 0, num_mattered = 0;
  for (uint32_t seed = 0; seed < 60 && num_recurrent < 6; ++seed) {
    RandomState rng(seed);
    std::vector<std::string> configs;
    GenerateConfigSequence(gen, &rng, &configs);
    const std::string text = configs[0];
    if (text.find("IfDefined(Offset(") == std::string::npos) continue;
    Nnet nnet = NnetFromConfigSequence(configs);
    if (!IsSimpleNnet(nnet)) continue;
    SetBatchnormTestMode(true, &nnet);
    ++num_recurrent;
    INFO("seed " << seed << "\n" << text);
    if (CheckAgainstReference(nnet, seed)) ++num_mattered;
  }
  // The generator makes recurrent networks, and for them the chunking
  // changes the output (so a chunk starting one frame off, or with other
  // left context, would be caught).
  CHECK(num_recurrent == 6);
  CHECK(num_mattered >= 4);
}

// A hand-written recurrent network with an exact check of the sensitivity:
// moving the last chunk back (the old rule) changes the output.
TEST_CASE("NnetSimpleComputer: a shorter last chunk, not one moved back",
          "[inference]") {
  const Nnet nnet = NnetFromConfigText(
      "input-node name=input dim=3\n"
      "component name=a type=AffineComponent input-dim=7 output-dim=4 "
      "param-stddev=0.7 bias-stddev=0.3\n"
      "component-node name=a component=a input=Append(Offset(input, -1), "
      "IfDefined(Offset(t, -1)))\n"
      "component name=t type=TanhComponent dim=4\n"
      "component-node name=t component=t input=a\n"
      "output-node name=output input=t\n",
      "rnn.config");
  const Matrix features = RandomMatrix(23, 3, 501);  // seed 501
  NnetSimpleComputationOptions opts;
  opts.acoustic_scale = 1.0f;
  opts.frames_per_chunk = 7;
  opts.extra_left_context = 3;
  Matrix got;
  NnetSimpleComputer(opts, nnet)
      .ComputeUtterance("u", features, nullptr, nullptr, 0, &got);
  RefContextOptions e;
  e.extra_left = 3;
  const Matrix want =
      ReferenceChunkedOutput(nnet, features, 1, KaldiSimpleChunks(23, 7, e));
  CHECK(MaxAbsDiff(got, want) <= 1e-5f);
  // The old rule: [16,23) instead of [21,23), with 3 frames of extra left
  // context: frames 21 and 22 would see a longer recurrence.
  const std::vector<RefChunk> moved = {
      {0, 7, 3, 0}, {7, 14, 3, 0}, {14, 21, 3, 0}, {16, 23, 3, 0}};
  const Matrix old = ReferenceChunkedOutput(nnet, features, 1, moved);
  CHECK(MaxAbsDiff(got.RowRange(21, 2), old.RowRange(21, 2)) > 1e-3f);
}

}  // namespace
}  // namespace nnet3
