// Tests of NnetSimpleComputer: chunked inference equals whole-utterance
// inference for non-recurrent networks (many chunk sizes, extra contexts,
// frame subsampling), edge padding against a direct computation on an
// explicitly padded input, i-vector inputs (Kaldi's online row rule),
// request caching, and errors. Recurrent networks (where the chunk
// boundaries matter): nnet-simple-chunking-test.cc.
#include "compute/nnet-simple-computation.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "base/error.h"
#include "compile/compiler.h"
#include "compile/computation-request.h"
#include "compute-test-utils.h"
#include "compute/nnet-computer.h"
#include "inference-test-utils.h"
#include "nnet/nnet-utils.h"

namespace nnet3 {
namespace {

const char *const kMlpConfig =
    "input-node name=input dim=5\n"
    "component name=a1 type=AffineComponent input-dim=5 output-dim=8 "
    "param-stddev=0.5 bias-stddev=0.5\n"
    "component-node name=a1 component=a1 input=input\n"
    "component name=r1 type=RectifiedLinearComponent dim=8\n"
    "component-node name=r1 component=r1 input=a1\n"
    "component name=a2 type=AffineComponent input-dim=8 output-dim=4 "
    "param-stddev=0.5 bias-stddev=0.5\n"
    "component-node name=a2 component=a2 input=r1\n"
    "component name=sm type=LogSoftmaxComponent dim=4\n"
    "component-node name=sm component=sm input=a2\n"
    "output-node name=output input=sm\n";

// Left context 3, right context 3.
const char *const kTdnnConfig =
    "input-node name=input dim=4\n"
    "component name=a1 type=AffineComponent input-dim=12 output-dim=6 "
    "param-stddev=0.5 bias-stddev=0.5\n"
    "component-node name=a1 component=a1 "
    "input=Append(Offset(input, -2), input, Offset(input, 1))\n"
    "component name=r1 type=RectifiedLinearComponent dim=6\n"
    "component-node name=r1 component=r1 input=a1\n"
    "component name=a2 type=AffineComponent input-dim=18 output-dim=3 "
    "param-stddev=0.5 bias-stddev=0.5\n"
    "component-node name=a2 component=a2 "
    "input=Append(Offset(r1, -1), r1, Offset(r1, 2))\n"
    "output-node name=output input=a2\n";

// Left context 1, right context 1, i-vector (dim 3) read at t = 0.
const char *const kIvectorConfig =
    "input-node name=input dim=4\n"
    "input-node name=ivector dim=3\n"
    "component name=a1 type=AffineComponent input-dim=15 output-dim=5 "
    "param-stddev=0.5 bias-stddev=0.5\n"
    "component-node name=a1 component=a1 input=Append(Offset(input, -1), "
    "input, Offset(input, 1), ReplaceIndex(ivector, t, 0))\n"
    "component name=r1 type=RectifiedLinearComponent dim=5\n"
    "component-node name=r1 component=r1 input=a1\n"
    "output-node name=output input=r1\n";

// Modulus 3: frames read the features at t rounded down to a multiple of 3.
const char *const kRoundConfig =
    "input-node name=input dim=2\n"
    "component name=a1 type=AffineComponent input-dim=4 output-dim=3 "
    "param-stddev=0.5 bias-stddev=0.5\n"
    "component-node name=a1 component=a1 "
    "input=Append(Offset(input, -1), Round(input, 3))\n"
    "output-node name=output input=a1\n";

Matrix Compute(const Nnet &nnet, const NnetSimpleComputationOptions &opts,
               const Matrix &features, const Vector *ivector = nullptr,
               const Matrix *online = nullptr, int32_t period = 0) {
  NnetSimpleComputer computer(opts, nnet);
  Matrix output;
  computer.ComputeUtterance("utt1", features, ivector, online, period, &output);
  return output;
}

// The output with one chunk covering the whole utterance.
Matrix ComputeWhole(const Nnet &nnet, NnetSimpleComputationOptions opts,
                    const Matrix &features, const Vector *ivector = nullptr) {
  opts.frames_per_chunk = features.NumRows() + 3;
  return Compute(nnet, opts, features, ivector);
}

// Chunked inference equals whole-utterance inference for many settings.
void CheckChunkingInvariance(const Nnet &nnet, int32_t num_frames,
                             uint64_t seed, float tol = 1e-4f) {
  const Matrix features =
      RandomMatrix(num_frames, nnet.InputDim("input"), seed);
  struct Extra {
    int32_t left, right, initial, final;
  };
  const Extra extras[] = {
      {0, 0, -1, -1}, {2, 3, -1, -1}, {4, 1, 0, 0}, {0, 0, 5, 2}};
  for (int32_t fss : {1, 3}) {
    for (const Extra &e : extras) {
      NnetSimpleComputationOptions opts;
      opts.frame_subsampling_factor = fss;
      opts.extra_left_context = e.left;
      opts.extra_right_context = e.right;
      opts.extra_left_context_initial = e.initial;
      opts.extra_right_context_final = e.final;
      opts.acoustic_scale = 1.0f;
      const Matrix whole = ComputeWhole(nnet, opts, features);
      REQUIRE(whole.NumRows() == (num_frames + fss - 1) / fss);
      REQUIRE(whole.IsFinite());
      for (int32_t fpc : {1, 7, 50, num_frames + 20}) {
        opts.frames_per_chunk = fpc;
        INFO("seed " << seed << " frames " << num_frames << " fss " << fss
                     << " fpc " << fpc << " extra " << e.left << "," << e.right
                     << "," << e.initial << "," << e.final);
        CHECK(MaxAbsDiff(Compute(nnet, opts, features), whole) <= tol);
      }
    }
  }
}

TEST_CASE("NnetSimpleComputer: chunking does not change an MLP's output",
          "[inference]") {
  const Nnet nnet = NnetFromConfigText(kMlpConfig, "mlp.config");
  for (int32_t frames : {1, 2, 23}) CheckChunkingInvariance(nnet, frames, 301);
}

TEST_CASE("NnetSimpleComputer: chunking does not change a TDNN's output",
          "[inference]") {
  const Nnet nnet = NnetFromConfigText(kTdnnConfig, "tdnn.config");
  NnetSimpleComputer computer(NnetSimpleComputationOptions(), nnet);
  CHECK(computer.LeftContext() == 3);
  CHECK(computer.RightContext() == 3);
  for (int32_t frames : {1, 4, 23, 61})
    CheckChunkingInvariance(nnet, frames, 311);
}

TEST_CASE("NnetSimpleComputer: chunking with modulus 3 (Round)",
          "[inference]") {
  const Nnet nnet = NnetFromConfigText(kRoundConfig, "round.config");
  REQUIRE(nnet.Modulus() == 3);
  NnetSimpleComputationOptions opts;
  opts.frames_per_chunk = 4;
  NnetSimpleComputer computer(opts, nnet);
  CHECK(computer.FramesPerChunk() == 6);
  for (int32_t frames : {5, 23, 31}) CheckChunkingInvariance(nnet, frames, 321);
}

// The example TDNN, prepared for test as nnet3-compute does. Its output
// layer starts at zero (param-stddev=0.0 bias-stddev=0.0), which would make
// every output row log(1/100) whatever the input; the random output layer
// used here makes the output depend on every input frame of the context,
// so a chunk that read its input one frame off would be caught.
TEST_CASE("NnetSimpleComputer: configs/tdnn.config in test mode",
          "[inference]") {
  std::ifstream is(std::string(NNET3_TEST_DATA) + "/../../configs/tdnn.config");
  REQUIRE(is.good());
  std::string config((std::istreambuf_iterator<char>(is)),
                     std::istreambuf_iterator<char>());
  const std::string zero = " param-stddev=0.0 bias-stddev=0.0";
  REQUIRE(config.find(zero) != std::string::npos);
  config.erase(config.find(zero), zero.size());
  Nnet nnet = NnetFromConfigText(config, "tdnn.config");
  SetBatchnormTestMode(true, &nnet);
  CollapseModel(CollapseModelConfig(), &nnet);
  const int32_t frames = 37;
  const Matrix features = RandomMatrix(frames, 40, 331);  // seed 331
  NnetSimpleComputationOptions opts;
  opts.acoustic_scale = 1.0f;
  NnetSimpleComputer computer(opts, nnet);
  REQUIRE(computer.LeftContext() == 6);
  REQUIRE(computer.RightContext() == 6);
  std::vector<int32_t> ts;
  for (int32_t t = 0; t < frames; ++t) ts.push_back(t);
  const Matrix want = DirectCompute(nnet, PadEdges(features, 6, 6), -6, ts);
  // Not constant: rows differ by far more than the tolerance.
  REQUIRE(MaxAbsDiff(want.RowRange(0, 1), want.RowRange(1, 1)) > 0.05f);
  REQUIRE(MaxAbsDiff(want.RowRange(10, 1), want.RowRange(11, 1)) > 0.05f);
  // Log-softmax rows: exp sums to 1.
  Matrix probs(want);
  probs.ApplyFunc(Func::kExp);
  CHECK(probs.RowRange(0, 1).Sum() == Approx(1.0).margin(1e-4));
  for (int32_t fpc : {1, 7, 50}) {
    opts.frames_per_chunk = fpc;
    INFO("fpc " << fpc);
    CHECK(MaxAbsDiff(Compute(nnet, opts, features), want) <= 1e-4f);
  }
}

TEST_CASE("NnetSimpleComputer pads the utterance edges by repetition",
          "[inference]") {
  const Nnet nnet = NnetFromConfigText(kTdnnConfig, "tdnn.config");
  const int32_t frames = 10, left = 3, right = 3;
  const Matrix features = RandomMatrix(frames, 4, 341);  // seed 341
  const Matrix padded = PadEdges(features, left, right);
  for (int32_t fss : {1, 3}) {
    std::vector<int32_t> ts;
    for (int32_t t = 0; t < frames; t += fss) ts.push_back(t);
    const Matrix want = DirectCompute(nnet, padded, -left, ts);
    NnetSimpleComputationOptions opts;
    opts.acoustic_scale = 1.0f;
    opts.frame_subsampling_factor = fss;
    for (int32_t fpc : {3, 4, 30}) {
      opts.frames_per_chunk = fpc;
      INFO("fss " << fss << " fpc " << fpc);
      CHECK(MaxAbsDiff(Compute(nnet, opts, features), want) <= 1e-5f);
    }
  }
}

TEST_CASE("NnetSimpleComputer compiles each distinct chunk shape once",
          "[inference]") {
  const Nnet nnet = NnetFromConfigText(kTdnnConfig, "tdnn.config");
  NnetSimpleComputationOptions opts;
  opts.frames_per_chunk = 7;
  NnetSimpleComputer computer(opts, nnet);
  Matrix output;
  // 23 frames: chunks [0,7) [7,14) [14,21) and the shorter [21,23).
  computer.ComputeUtterance("a", RandomMatrix(23, 4, 351), nullptr, nullptr, 0,
                            &output);
  CHECK(computer.NumCompilations() == 2);
  // 40 frames: five whole chunks (cached) and [35,40), a new length.
  computer.ComputeUtterance("b", RandomMatrix(40, 4, 352), nullptr, nullptr, 0,
                            &output);
  CHECK(computer.NumCompilations() == 3);
  // 5 frames: one chunk of the same shape as [35,40): cached.
  computer.ComputeUtterance("c", RandomMatrix(5, 4, 353), nullptr, nullptr, 0,
                            &output);
  CHECK(computer.NumCompilations() == 3);
  CHECK(output.NumRows() == 5);
  // 44 frames: whole chunks and a last chunk of 2 frames: all cached.
  computer.ComputeUtterance("d", RandomMatrix(44, 4, 354), nullptr, nullptr, 0,
                            &output);
  CHECK(computer.NumCompilations() == 3);
}

TEST_CASE("NnetSimpleComputer applies --acoustic-scale", "[inference]") {
  const Nnet nnet = NnetFromConfigText(kMlpConfig, "mlp.config");
  const Matrix features = RandomMatrix(6, 5, 361);  // seed 361
  NnetSimpleComputationOptions opts;
  opts.acoustic_scale = 1.0f;
  Matrix want = Compute(nnet, opts, features);
  want.Scale(0.1f);
  opts.acoustic_scale = 0.1f;
  CHECK(MaxAbsDiff(Compute(nnet, opts, features), want) <= 1e-6f);
}

TEST_CASE("NnetSimpleComputer with a per-utterance i-vector", "[inference]") {
  const Nnet nnet = NnetFromConfigText(kIvectorConfig, "ivector.config");
  const int32_t frames = 17;
  const Matrix features = RandomMatrix(frames, 4, 371);  // seed 371
  const Matrix iv_row = RandomMatrix(1, 3, 372);         // seed 372
  const Vector ivector(iv_row.ToHost());
  NnetSimpleComputationOptions opts;
  opts.acoustic_scale = 1.0f;
  std::vector<int32_t> ts;
  for (int32_t t = 0; t < frames; ++t) ts.push_back(t);
  const Matrix want =
      DirectCompute(nnet, PadEdges(features, 1, 1), -1, ts, &iv_row);
  for (int32_t fpc : {1, 5, 50}) {
    opts.frames_per_chunk = fpc;
    INFO("fpc " << fpc);
    CHECK(MaxAbsDiff(Compute(nnet, opts, features, &ivector), want) <= 1e-5f);
  }
}

TEST_CASE("NnetSimpleComputer with online i-vectors", "[inference]") {
  const Nnet nnet = NnetFromConfigText(kIvectorConfig, "ivector.config");
  const int32_t frames = 20, period = 4;
  const Matrix features = RandomMatrix(frames, 4, 381);  // seed 381
  const Matrix online = RandomMatrix(5, 3, 382);         // seed 382
  NnetSimpleComputationOptions opts;
  opts.acoustic_scale = 1.0f;
  opts.frames_per_chunk = 5;
  const Matrix got = Compute(nnet, opts, features, nullptr, &online, period);
  // Chunk [b, b+5) uses row ((b + b + 4) / 2) / 4: rows 0, 1, 3, 4.
  const int32_t rows[] = {0, 1, 3, 4};
  for (int32_t c = 0; c < 4; ++c) {
    const Vector iv(Matrix(online.RowRange(rows[c], 1)).ToHost());
    const Matrix want = ComputeWhole(nnet, opts, features, &iv);
    INFO("chunk " << c);
    CHECK(MaxAbsDiff(got.RowRange(5 * c, 5), want.RowRange(5 * c, 5)) <= 1e-5f);
  }
  // Too few rows by a little: the last row is used.
  const Matrix short_online(online.RowRange(0, 3));
  const Matrix got2 =
      Compute(nnet, opts, features, nullptr, &short_online, period);
  const Vector last(Matrix(online.RowRange(2, 1)).ToHost());
  const Matrix want2 = ComputeWhole(nnet, opts, features, &last);
  CHECK(MaxAbsDiff(got2.RowRange(10, 10), want2.RowRange(10, 10)) <= 1e-5f);
  // Too few rows by far: a mismatched period. One chunk of 200 frames
  // needs row (0 + 199 / 2) / 10 = 9; with 5 rows (last 4) that is 50
  // frames past the last row, which Kaldi still accepts (the last row is
  // used); with 4 rows it is 60 frames: an error.
  opts.frames_per_chunk = 200;
  const Matrix long_features = RandomMatrix(200, 4, 383);  // seed 383
  const Matrix rows5 = RandomMatrix(5, 3, 384);            // seed 384
  const Vector row4(Matrix(rows5.RowRange(4, 1)).ToHost());
  CHECK(MaxAbsDiff(Compute(nnet, opts, long_features, nullptr, &rows5, 10),
                   ComputeWhole(nnet, opts, long_features, &row4)) <= 1e-5f);
  const Matrix rows4(rows5.RowRange(0, 4));
  CHECK_THROWS_WITH(
      Compute(nnet, opts, long_features, nullptr, &rows4, 10),
      Catch::Contains("utt1") && Catch::Contains("--online-ivector-period"));
}

// Kaldi's row for a chunk whose output frames run from `first` to `last`
// is (first + (last - first) / 2) / period: with a shorter last chunk it
// is taken from that chunk's own frames, not from a chunk moved back.
TEST_CASE("NnetSimpleComputer: online i-vector rows of a shorter last chunk",
          "[inference]") {
  const Nnet nnet = NnetFromConfigText(kIvectorConfig, "ivector.config");
  const int32_t frames = 22, period = 3;
  const Matrix features = RandomMatrix(frames, 4, 385);  // seed 385
  const Matrix online = RandomMatrix(8, 3, 386);         // seed 386
  NnetSimpleComputationOptions opts;
  opts.acoustic_scale = 1.0f;
  opts.frames_per_chunk = 8;
  // Chunks [0,8) [8,16) [16,22): rows (0+3)/3 = 1, (8+3)/3 = 3 and
  // (16 + 5/2)/3 = 6 (a chunk moved back to [14,22) would read row 5).
  const std::vector<RefChunk> chunks = {
      {0, 8, 0, 0}, {8, 16, 0, 0}, {16, 22, 0, 0}};
  REQUIRE(KaldiSimpleChunks(frames, 8, RefContextOptions()).size() == 3);
  Matrix rows(3, 3);
  const int32_t want_rows[] = {1, 3, 6};
  for (int32_t c = 0; c < 3; ++c)
    rows.RowRange(c, 1).CopyFromMat(online.RowRange(want_rows[c], 1));
  const Matrix want = ReferenceChunkedOutput(nnet, features, 1, chunks, &rows);
  CHECK(MaxAbsDiff(Compute(nnet, opts, features, nullptr, &online, period),
                   want) <= 1e-5f);
  // Frame subsampling 2: the rule is in input frames. fpc 8 -> 4 output
  // frames per chunk; 22 frames -> 11 outputs: chunks [0,4) [4,8) [8,11),
  // first/last input frames 0/6, 8/14, 16/20: rows 1, 3, 6 again.
  opts.frame_subsampling_factor = 2;
  const std::vector<RefChunk> chunks2 = {
      {0, 4, 0, 0}, {4, 8, 0, 0}, {8, 11, 0, 0}};
  const Matrix want2 =
      ReferenceChunkedOutput(nnet, features, 2, chunks2, &rows);
  CHECK(MaxAbsDiff(Compute(nnet, opts, features, nullptr, &online, period),
                   want2) <= 1e-5f);
}

TEST_CASE("NnetSimpleComputer errors name the utterance", "[inference]") {
  const Nnet nnet = NnetFromConfigText(kIvectorConfig, "ivector.config");
  NnetSimpleComputationOptions opts;
  NnetSimpleComputer computer(opts, nnet);
  const Vector ivector(std::vector<float>{1, 2, 3}), bad_iv(4);
  Matrix output;
  CHECK_THROWS_WITH(computer.ComputeUtterance("spk1-utt7", Matrix(6, 5),
                                              &ivector, nullptr, 0, &output),
                    Catch::Contains("'spk1-utt7'") &&
                        Catch::Contains("dimension 5") &&
                        Catch::Contains("dimension 4"));
  CHECK_THROWS_WITH(computer.ComputeUtterance("u2", Matrix(6, 4), nullptr,
                                              nullptr, 0, &output),
                    Catch::Contains("'u2'") && Catch::Contains("i-vector"));
  CHECK_THROWS_WITH(computer.ComputeUtterance("u3", Matrix(6, 4), &bad_iv,
                                              nullptr, 0, &output),
                    Catch::Contains("'u3'") && Catch::Contains("dimension 4") &&
                        Catch::Contains("dimension 3"));
  CHECK_THROWS_WITH(computer.ComputeUtterance("u4", Matrix(0, 4), &ivector,
                                              nullptr, 0, &output),
                    Catch::Contains("'u4'") && Catch::Contains("0 frames"));
  CHECK_THROWS_AS(
      NnetSimpleComputer(opts, NnetFromConfigText("input-node name=x dim=2\n"
                                                  "output-node name=output "
                                                  "input=x\n")),
      UserError);
  opts.frames_per_chunk = 0;
  CHECK_THROWS_AS(NnetSimpleComputer(opts, nnet), UserError);
}

}  // namespace
}  // namespace nnet3

namespace nnet3 {
namespace {

// The same computer computing several utterances with `chunk_threads`.
std::vector<Matrix> ComputeAll(const Nnet &nnet, int32_t chunk_threads,
                               const std::vector<Matrix> &utterances,
                               const Matrix *online) {
  NnetSimpleComputationOptions opts;
  opts.acoustic_scale = 0.5f;
  opts.frames_per_chunk = 7;
  opts.extra_left_context = 2;
  opts.chunk_threads = chunk_threads;
  NnetSimpleComputer computer(opts, nnet);
  CHECK(computer.ChunkThreads() == chunk_threads);
  std::vector<Matrix> outputs;
  for (const Matrix &features : utterances) {
    outputs.emplace_back();
    computer.ComputeUtterance("utt1", features, nullptr, online, 4,
                              &outputs.back());
  }
  return outputs;
}

TEST_CASE("NnetSimpleComputer computes chunks side by side, unchanged",
          "[inference]") {
  for (const char *config : {kTdnnConfig, kIvectorConfig}) {
    const Nnet nnet = NnetFromConfigText(config, "test.config");
    const bool has_ivector = nnet.InputDim("ivector") > 0;
    // 9 chunks, 1 chunk, 3 chunks (the last shorter), 16 chunks: fewer
    // and more chunks than threads, one computer throughout.
    std::vector<Matrix> utterances;
    uint64_t seed = 391;
    for (int32_t frames : {61, 1, 20, 110})
      utterances.push_back(RandomMatrix(frames, 4, seed++));  // seeds 391..
    const Matrix online = RandomMatrix(28, 3, 399);           // seed 399
    const Matrix *iv = has_ivector ? &online : nullptr;
    const std::vector<Matrix> serial = ComputeAll(nnet, 1, utterances, iv);
    for (int32_t threads : {2, 3, 16}) {
      const std::vector<Matrix> parallel =
          ComputeAll(nnet, threads, utterances, iv);
      for (size_t u = 0; u < utterances.size(); ++u) {
        INFO("ivector " << has_ivector << " threads " << threads
                        << " utterance " << u);
        REQUIRE(parallel[u].NumRows() == serial[u].NumRows());
        CHECK(MaxAbsDiff(parallel[u], serial[u]) <= 1e-6f);
      }
    }
  }
}

TEST_CASE("NnetSimpleComputer keeps random networks in one thread",
          "[inference]") {
  const std::string config = std::string(kMlpConfig) +
                             "component name=d type=DropoutComponent dim=8 "
                             "dropout-proportion=0.5\n";
  Nnet nnet = NnetFromConfigText(config, "dropout.config");
  NnetSimpleComputationOptions opts;
  opts.chunk_threads = 4;
  CHECK(NnetSimpleComputer(opts, nnet).ChunkThreads() == 1);
  opts.chunk_threads = -1;
  CHECK_THROWS_WITH(NnetSimpleComputer(opts, nnet),
                    Catch::Contains("chunk_threads"));
}

}  // namespace
}  // namespace nnet3
