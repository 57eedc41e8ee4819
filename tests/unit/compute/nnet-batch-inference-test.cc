// Tests of batched inference (NnetBatchComputer, NnetBatchInference):
// outputs equal NnetSimpleComputer's on random feed-forward networks (with
// and without i-vectors, frame subsampling 1 and 3, short utterances, all
// mixed in one run); Kaldi's batch chunks and contexts on recurrent
// networks against an independent reference; Kaldi's batch online
// i-vector rule; input order of the outputs when utterances finish out of
// order; the bound on utterances in flight; partial minibatch sizes;
// priors; errors.
#include "compute/nnet-batch-inference.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <exception>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../compile/nnet-test-utils.h"
#include "base/error.h"
#include "base/random.h"
#include "compile/nnet-context.h"
#include "compute-test-utils.h"
#include "compute/nnet-batch-computer.h"
#include "compute/nnet-simple-computation.h"
#include "inference-test-utils.h"
#include "nnet/nnet-utils.h"

namespace nnet3 {
namespace {

struct Utt {
  std::string key;
  Matrix features;
  const Vector *ivector = nullptr;
  const Matrix *online = nullptr;
};

struct BatchResult {
  std::vector<std::string> keys;
  std::vector<Matrix> outputs;
  int32_t max_in_flight = 0;
  int64_t out_of_order = 0;
};

// Everything through one NnetBatchInference, read on this thread and
// written on another, as the program does.
BatchResult RunBatch(const NnetBatchComputerOptions &opts, const Nnet &nnet,
                     const std::vector<Utt> &utts, int32_t period = 0,
                     const Vector &log_priors = Vector()) {
  BatchResult result;
  NnetBatchInference inference(opts, nnet, log_priors);
  std::thread writer([&] {
    std::string key;
    Matrix output;
    while (inference.GetOutput(&key, &output)) {
      result.keys.push_back(key);
      result.outputs.push_back(std::move(output));
    }
  });
  for (const Utt &u : utts)
    inference.AcceptInput(u.key, u.features, u.ivector, u.online, period);
  inference.Finished();
  writer.join();
  result.max_in_flight = inference.MaxInFlightSeen();
  result.out_of_order = inference.NumCompletedOutOfOrder();
  return result;
}

Matrix RunSimple(const NnetSimpleComputationOptions &opts, const Nnet &nnet,
                 const Utt &u) {
  NnetSimpleComputer computer(opts, nnet);
  Matrix output;
  computer.ComputeUtterance(u.key, u.features, u.ivector, nullptr, 0, &output);
  return output;
}

// True if the network's output depends on where chunks start: restricted
// attention uses its optional (not required) inputs where the computation
// has them, as a recurrent network would, and statistics pooling averages
// over the part of its window that the chunk holds, so chunkings differ
// (as in Kaldi).
bool ChunkDependent(const Nnet &nnet) {
  for (int32_t c = 0; c < nnet.NumComponents(); ++c) {
    const std::string type = nnet.GetComponent(c)->Type();
    if (type == "RestrictedAttentionComponent" ||
        type == "StatisticsExtractionComponent" ||
        type == "StatisticsPoolingComponent")
      return true;
  }
  return false;
}

// Random feed-forward (and clockwork) networks, simple, batch-norm in test
// mode, none chunk-dependent; `ivector` asks for an "ivector" input.
std::vector<Nnet> FeedForwardNets(int32_t count, bool ivector) {
  NnetGenerationOptions gen;
  gen.allow_recursion = false;
  gen.allow_multiple_inputs = false;
  gen.allow_ivector = ivector;
  std::vector<Nnet> nets;
  for (uint32_t seed = 1000; nets.size() < static_cast<size_t>(count); ++seed) {
    RandomState rng(seed);
    std::vector<std::string> configs;
    GenerateConfigSequence(gen, &rng, &configs);
    Nnet nnet = NnetFromConfigSequence(configs);
    if (!IsSimpleNnet(nnet) || ChunkDependent(nnet) ||
        (nnet.InputDim("ivector") > 0) != ivector)
      continue;
    SetBatchnormTestMode(true, &nnet);
    nets.push_back(std::move(nnet));
  }
  return nets;
}

void CheckBatchEqualsSimple(const Nnet &nnet, uint64_t seed) {
  int32_t left = 0, right = 0;
  ComputeSimpleNnetContext(nnet, &left, &right);
  const int32_t ivector_dim = std::max<int32_t>(0, nnet.InputDim("ivector"));
  const Vector ivector(
      RandomMatrix(1, std::max(1, ivector_dim), seed).ToHost());
  struct Extra {
    int32_t left, right, initial, final;
  };
  const Extra extras[] = {{0, 0, -1, -1}, {2, 1, 0, 3}};
  for (int32_t fss : {1, 3}) {
    for (const Extra &e : extras) {
      NnetBatchComputerOptions opts;
      opts.acoustic_scale = 1.0f;
      opts.frame_subsampling_factor = fss;
      opts.frames_per_chunk = 12;
      opts.extra_left_context = e.left;
      opts.extra_right_context = e.right;
      opts.extra_left_context_initial = e.initial;
      opts.extra_right_context_final = e.final;
      opts.minibatch_size = 4;
      opts.edge_minibatch_size = 2;
      // Lengths: one frame, shorter than the context, shorter than a
      // chunk, exactly a chunk, a frame more, several chunks.
      std::vector<Utt> utts;
      const int32_t lengths[] = {1, std::max(1, left), 11, 12, 13, 40, 23, 2};
      for (int32_t i = 0; i < 8; ++i) {
        Utt u;
        u.key = "utt" + std::to_string(i);
        u.features = RandomMatrix(lengths[i], nnet.InputDim("input"),
                                  seed * 10 + static_cast<uint64_t>(i));
        if (ivector_dim > 0) u.ivector = &ivector;
        utts.push_back(std::move(u));
      }
      const BatchResult got = RunBatch(opts, nnet, utts);
      REQUIRE(got.keys.size() == utts.size());
      for (size_t i = 0; i < utts.size(); ++i) {
        INFO("seed " << seed << " fss " << fss << " extra " << e.left << ","
                     << e.right << "," << e.initial << "," << e.final
                     << " utterance " << utts[i].key << " ("
                     << utts[i].features.NumRows() << " frames)");
        CHECK(got.keys[i] == utts[i].key);
        CHECK(MaxAbsDiff(got.outputs[i], RunSimple(opts, nnet, utts[i])) <=
              1e-4f);
      }
    }
  }
}

TEST_CASE("Batch inference equals nnet3-compute's on feed-forward networks",
          "[inference][batch]") {
  uint64_t seed = 7100;
  for (const Nnet &nnet : FeedForwardNets(6, false))
    CheckBatchEqualsSimple(nnet, seed++);
}

TEST_CASE("Batch inference equals nnet3-compute's with i-vectors",
          "[inference][batch]") {
  uint64_t seed = 7200;
  for (const Nnet &nnet : FeedForwardNets(4, true))
    CheckBatchEqualsSimple(nnet, seed++);
}

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

// Kaldi's batch rule: row ((begin + P / 2) · fss) / period, begin counting
// the unused frames of a moved-back last chunk, clamped to the last row.
TEST_CASE("Batch inference: Kaldi's batch rule for online i-vector rows",
          "[inference][batch]") {
  const Nnet nnet = NnetFromConfigText(kIvectorConfig, "ivector.config");
  const Matrix online = RandomMatrix(8, 3, 601);  // seed 601
  NnetBatchComputerOptions opts;
  opts.acoustic_scale = 1.0f;
  opts.frames_per_chunk = 8;
  struct Case {
    int32_t frames, fss;
    std::vector<RefChunk> used;  // the used frames of each chunk
    std::vector<int32_t> rows;
  };
  // 22 frames, P = 8: chunks at 0 and 8 (mid 4 and 12: rows 1 and 4) and
  // one moved back to 14 (mid 18: row 6), used from 16. nnet3-compute's
  // rule would give rows 1, 3, 6.
  // fss 2, P = 4, 11 outputs: chunks at 0, 4 and (moved back) 7: mid input
  // frames 4, 12, 18: rows 1, 4, 6.
  // 5 frames: one chunk of 8 (padded), mid 4: row 1.
  // 61 frames, 8 rows: the last chunks need rows 9..19: clamped to row 7.
  const std::vector<Case> cases = {
      {22, 1, {{0, 8, 0, 0}, {8, 16, 0, 0}, {16, 22, 0, 0}}, {1, 4, 6}},
      {22, 2, {{0, 4, 0, 0}, {4, 8, 0, 0}, {8, 11, 0, 0}}, {1, 4, 6}},
      {5, 1, {{0, 5, 0, 0}}, {1}},
      {61,
       1,
       {{0, 8, 0, 0},
        {8, 16, 0, 0},
        {16, 24, 0, 0},
        {24, 32, 0, 0},
        {32, 40, 0, 0},
        {40, 48, 0, 0},
        {48, 56, 0, 0},
        {56, 61, 0, 0}},
       {1, 4, 6, 7, 7, 7, 7, 7}}};
  for (const Case &c : cases) {
    INFO("frames " << c.frames << " fss " << c.fss);
    opts.frame_subsampling_factor = c.fss;
    Utt u;
    u.key = "u";
    u.features = RandomMatrix(c.frames, 4, 602);  // seed 602
    u.online = &online;
    const BatchResult got = RunBatch(opts, nnet, {u}, 3);
    Matrix rows(static_cast<int32_t>(c.rows.size()), 3);
    for (size_t i = 0; i < c.rows.size(); ++i)
      rows.RowRange(static_cast<int32_t>(i), 1)
          .CopyFromMat(online.RowRange(c.rows[i], 1));
    REQUIRE(got.outputs.size() == 1);
    CHECK(MaxAbsDiff(got.outputs[0],
                     ReferenceChunkedOutput(nnet, u.features, c.fss, c.used,
                                            &rows)) <= 1e-5f);
  }
  // Only an empty matrix is an error.
  Utt bad;
  bad.key = "spk1-utt9";
  bad.features = RandomMatrix(10, 4, 603);  // seed 603
  const Matrix empty(0, 3);
  bad.online = &empty;
  NnetBatchComputer computer(opts, nnet, Vector());
  std::vector<NnetInferenceTask> tasks;
  CHECK_THROWS_WITH(computer.SplitUtteranceIntoTasks(
                        bad.key, bad.features, nullptr, &empty, 3, &tasks),
                    Catch::Contains("'spk1-utt9'") && Catch::Contains("empty"));
}

// Kaldi's batch chunks on recurrent networks (where they matter): chunks
// at 0, P, 2P..., the last moved back to end on the last frame (only its
// new rows used), a short utterance padded to one whole chunk; initial
// and final contexts for the chunks touching the ends.
TEST_CASE("Batch inference: Kaldi's batch chunks on recurrent networks",
          "[inference][batch]") {
  NnetGenerationOptions gen;
  gen.allow_multiple_inputs = false;
  int32_t num_checked = 0;
  for (uint32_t seed = 0; seed < 80 && num_checked < 4; ++seed) {
    RandomState rng(seed);
    std::vector<std::string> configs;
    GenerateConfigSequence(gen, &rng, &configs);
    if (configs[0].find("IfDefined(Offset(") == std::string::npos) continue;
    Nnet nnet = NnetFromConfigSequence(configs);
    if (!IsSimpleNnet(nnet) || nnet.Modulus() != 1) continue;
    SetBatchnormTestMode(true, &nnet);
    ++num_checked;
    NnetBatchComputerOptions opts;
    opts.acoustic_scale = 1.0f;
    opts.frames_per_chunk = 7;
    opts.extra_left_context = 3;
    opts.extra_left_context_initial = 1;
    opts.extra_right_context_final = 2;
    opts.minibatch_size = 3;
    std::vector<Utt> utts(2);
    utts[0].key = "long";
    utts[0].features = RandomMatrix(23, nnet.InputDim("input"), seed);
    utts[1].key = "short";
    utts[1].features = RandomMatrix(5, nnet.InputDim("input"), seed + 1);
    const BatchResult got = RunBatch(opts, nnet, utts);
    // 23 frames: [0,7) initial, [7,14), [14,21), and [16,23) (final,
    // used from 21). 5 frames: [0,7), initial and final, padded.
    const std::vector<RefChunk> long_chunks = {
        {0, 7, 1, 0}, {7, 14, 3, 0}, {14, 21, 3, 0}, {16, 23, 3, 2, 21}};
    const std::vector<RefChunk> short_chunks = {{0, 7, 1, 2}};
    INFO("seed " << seed << "\n" << configs[0]);
    CHECK(MaxAbsDiff(got.outputs[0],
                     ReferenceChunkedOutput(nnet, utts[0].features, 1,
                                            long_chunks)) <= 1e-4f);
    CHECK(MaxAbsDiff(got.outputs[1],
                     ReferenceChunkedOutput(nnet, utts[1].features, 1,
                                            short_chunks)) <= 1e-4f);
  }
  CHECK(num_checked == 4);
}

// A long first utterance waits for its minibatch (never full before the
// end), short ones computed alone (--ensure-exact-final-context: irregular,
// minibatch size 1) finish first; the output still comes in input order.
TEST_CASE("Batch inference writes in input order", "[inference][batch]") {
  const Nnet nnet = NnetFromConfigText(kIvectorConfig, "ivector.config");
  const Vector ivector(std::vector<float>{0.5f, -1.0f, 2.0f});
  NnetBatchComputerOptions opts;
  opts.acoustic_scale = 1.0f;
  opts.frames_per_chunk = 10;
  opts.ensure_exact_final_context = true;
  std::vector<Utt> utts;
  const int32_t lengths[] = {95, 3, 4, 5, 37, 6};
  for (int32_t i = 0; i < 6; ++i) {
    Utt u;
    u.key = "u" + std::to_string(i);
    u.features = RandomMatrix(lengths[i], 4, 610 + i);
    u.ivector = &ivector;
    utts.push_back(std::move(u));
  }
  const BatchResult got = RunBatch(opts, nnet, utts);
  CHECK(got.out_of_order >= 3);
  REQUIRE(got.keys.size() == 6);
  for (int32_t i = 0; i < 6; ++i) {
    CHECK(got.keys[i] == utts[i].key);
    CHECK(MaxAbsDiff(got.outputs[i], RunSimple(opts, nnet, utts[i])) <= 1e-5f);
  }
}

// `n` utterances of the i-vector network, utterance i of
// `frames(i)` frames.
template <typename Frames>
std::vector<Utt> IvectorUtts(int32_t n, Frames frames, const Vector *ivector) {
  std::vector<Utt> utts;
  for (int32_t i = 0; i < n; ++i) {
    Utt u;
    u.key = "u" + std::to_string(100 + i);
    u.features = RandomMatrix(frames(i), 4, 620 + i);
    u.ivector = ivector;
    utts.push_back(std::move(u));
  }
  return utts;
}

void ExpectSameAsSimple(const NnetBatchComputerOptions &opts, const Nnet &nnet,
                        const std::vector<Utt> &utts, const BatchResult &got) {
  REQUIRE(got.keys.size() == utts.size());
  for (size_t i = 0; i < utts.size(); ++i) {
    CHECK(got.keys[i] == utts[i].key);
    CHECK(MaxAbsDiff(got.outputs[i], RunSimple(opts, nnet, utts[i])) <= 1e-5f);
  }
}

// Chunks of 5 frames, at most `max_in_flight` utterances in flight and
// minibatches (edge ones too) of `minibatch`.
NnetBatchComputerOptions InFlightOptions(int32_t max_in_flight,
                                         int32_t minibatch) {
  NnetBatchComputerOptions opts;
  opts.acoustic_scale = 1.0f;
  opts.frames_per_chunk = 5;
  opts.max_utterances_in_flight = max_in_flight;
  opts.minibatch_size = minibatch;
  opts.edge_minibatch_size = minibatch;
  return opts;
}

// Edge chunks (own context) that never fill a minibatch, and at most two
// utterances in flight: the computer computes partial minibatches when the
// reader waits, so the run finishes. The reader reads past the bound only
// while fewer chunks than a minibatch (3) wait, and never by more than 3.
TEST_CASE("Batch inference bounds the utterances in flight",
          "[inference][batch]") {
  const Nnet nnet = NnetFromConfigText(kIvectorConfig, "ivector.config");
  const Vector ivector(std::vector<float>{1.0f, 0.0f, -1.0f});
  NnetBatchComputerOptions opts = InFlightOptions(2, 3);
  opts.extra_left_context = 2;
  opts.extra_left_context_initial = 0;
  const std::vector<Utt> utts =
      IvectorUtts(20, [](int32_t i) { return 3 + 2 * i; }, &ivector);
  const BatchResult got = RunBatch(opts, nnet, utts);
  CHECK(got.max_in_flight <= 2 + 3);
  ExpectSameAsSimple(opts, nnet, utts, got);
}

// One-chunk utterances (images, short segments) under a bound of two in
// flight: the reader takes enough of them to fill whole minibatches of 16
// (before, every minibatch held at most two chunks), and no more than 16
// beyond the bound.
TEST_CASE("Batch inference fills minibatches with one-chunk utterances",
          "[inference][batch]") {
  const Nnet nnet = NnetFromConfigText(kIvectorConfig, "ivector.config");
  const Vector ivector(std::vector<float>{1.0f, 0.0f, -1.0f});
  const NnetBatchComputerOptions opts = InFlightOptions(2, 16);
  const std::vector<Utt> utts =
      IvectorUtts(64, [](int32_t) { return 5; }, &ivector);
  const BatchResult got = RunBatch(opts, nnet, utts);
  CHECK(got.max_in_flight >= 16);
  CHECK(got.max_in_flight <= 2 + 16);
  ExpectSameAsSimple(opts, nnet, utts, got);
}

// The number of chunks (n values) of each compiled minibatch request.
std::vector<int32_t> CompiledSizes(NnetBatchComputer *computer,
                                   int32_t num_output_frames) {
  std::vector<int32_t> sizes;
  for (const ComputationRequest &r : computer->Compiler().CachedRequests())
    sizes.push_back(static_cast<int32_t>(r.outputs[0].indexes.size()) /
                    num_output_frames);
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

TEST_CASE("NnetBatchComputer: partial minibatch sizes (Kaldi's rule)",
          "[inference][batch]") {
  const Nnet nnet = NnetFromConfigText(kIvectorConfig, "ivector.config");
  const Vector ivector(std::vector<float>{1.0f, 2.0f, 3.0f});
  struct Case {
    float factor;
    int32_t num_tasks;
    std::vector<int32_t> want_done, want_sizes;
  };
  // Full size 8. factor 0.5: 3 tasks -> size 4 (3 < 4, not < 2); 1 task
  // -> size 2 (1 < 4, 1 < 2, not < 1); 11 tasks -> 8, then 3 at size 4.
  // factor 0: always the full size, padded. The sizes above 2 are compiled
  // through the shortcut, which also caches the 2-chunk request.
  const std::vector<Case> cases = {{0.5f, 3, {3}, {2, 4}},
                                   {0.5f, 1, {1}, {2}},
                                   {0.5f, 11, {8, 3}, {2, 4, 8}},
                                   {0.0f, 3, {3}, {2, 8}}};
  for (const Case &c : cases) {
    INFO("factor " << c.factor << " tasks " << c.num_tasks);
    NnetBatchComputerOptions opts;
    opts.acoustic_scale = 1.0f;
    opts.frames_per_chunk = 5;
    opts.minibatch_size = 8;
    opts.partial_minibatch_factor = c.factor;
    NnetBatchComputer computer(opts, nnet, Vector());
    std::vector<std::vector<NnetInferenceTask>> tasks(c.num_tasks);
    std::vector<Matrix> outputs(c.num_tasks);
    for (int32_t i = 0; i < c.num_tasks; ++i) {
      computer.SplitUtteranceIntoTasks("u", RandomMatrix(5, 4, 630 + i),
                                       &ivector, nullptr, 0, &tasks[i]);
      REQUIRE(tasks[i].size() == 1);
      tasks[i][0].output = &outputs[i];
      tasks[i][0].output_num_rows = 5;
      computer.AcceptTask(&tasks[i][0]);
    }
    CHECK(computer.NumFullPendingMinibatches() == c.num_tasks / 8);
    std::vector<NnetInferenceTask *> done;
    std::vector<int32_t> done_per_call;
    // Without partial minibatches, only a full one is computed.
    CHECK(computer.Compute(false, &done) == (c.num_tasks >= 8));
    if (!done.empty())
      done_per_call.push_back(static_cast<int32_t>(done.size()));
    while (true) {
      const size_t before = done.size();
      if (!computer.Compute(true, &done)) break;
      done_per_call.push_back(static_cast<int32_t>(done.size() - before));
    }
    CHECK(done_per_call == c.want_done);
    CHECK_FALSE(computer.HasPendingTasks());
    CHECK(CompiledSizes(&computer, 5) == c.want_sizes);
    for (int32_t i = 0; i < c.num_tasks; ++i) {
      Utt u;
      u.key = "u";
      u.features = RandomMatrix(5, 4, 630 + i);
      u.ivector = &ivector;
      CHECK(MaxAbsDiff(outputs[i], RunSimple(opts, nnet, u)) <= 1e-5f);
    }
  }
}

TEST_CASE("Batch inference subtracts log-priors, then scales",
          "[inference][batch]") {
  const Nnet nnet = NnetFromConfigText(kIvectorConfig, "ivector.config");
  const Vector ivector(std::vector<float>{1.0f, 2.0f, 3.0f});
  const Vector log_priors(std::vector<float>{-1.0f, -2.0f, -0.5f, -3.0f, 0.0f});
  NnetBatchComputerOptions opts;
  opts.acoustic_scale = 0.5f;
  Utt u;
  u.key = "u";
  u.features = RandomMatrix(17, 4, 640);  // seed 640
  u.ivector = &ivector;
  const BatchResult got = RunBatch(opts, nnet, {u}, 0, log_priors);
  opts.acoustic_scale = 1.0f;
  Matrix want = RunSimple(opts, nnet, u);
  want.AddVecToRows(-1.0f, log_priors);
  want.Scale(0.5f);
  CHECK(MaxAbsDiff(got.outputs[0], want) <= 1e-5f);
  CHECK_THROWS_WITH(NnetBatchComputer(opts, nnet, Vector(4)),
                    Catch::Contains("priors have dimension 4") &&
                        Catch::Contains("dimension 5"));
}

TEST_CASE("Batch inference errors", "[inference][batch]") {
  const Nnet nnet = NnetFromConfigText(kIvectorConfig, "ivector.config");
  NnetBatchComputerOptions opts;
  const Vector ivector(std::vector<float>{1, 2, 3}), bad_iv(4);
  NnetBatchComputer computer(opts, nnet, Vector());
  std::vector<NnetInferenceTask> tasks;
  CHECK_THROWS_WITH(computer.SplitUtteranceIntoTasks(
                        "utt7", Matrix(6, 5), &ivector, nullptr, 0, &tasks),
                    Catch::Contains("'utt7'") &&
                        Catch::Contains("dimension 5") &&
                        Catch::Contains("dimension 4"));
  CHECK_THROWS_WITH(computer.SplitUtteranceIntoTasks(
                        "utt8", Matrix(6, 4), &bad_iv, nullptr, 0, &tasks),
                    Catch::Contains("'utt8'") &&
                        Catch::Contains("dimension 4") &&
                        Catch::Contains("dimension 3"));
  CHECK_THROWS_WITH(computer.SplitUtteranceIntoTasks(
                        "utt9", Matrix(6, 4), nullptr, nullptr, 0, &tasks),
                    Catch::Contains("'utt9'") && Catch::Contains("i-vector"));
  opts.minibatch_size = 0;
  CHECK_THROWS_WITH(NnetBatchComputer(opts, nnet, Vector()),
                    Catch::Contains("--minibatch-size"));
  opts.minibatch_size = 4;
  opts.partial_minibatch_factor = 1.0f;
  CHECK_THROWS_WITH(NnetBatchComputer(opts, nnet, Vector()),
                    Catch::Contains("--partial-minibatch-factor"));
  // An error on another thread (here passed to Abort) reaches the reader
  // and the writer.
  opts.partial_minibatch_factor = 0.5f;
  NnetBatchInference inference(opts, nnet, Vector());
  inference.Abort(
      std::make_exception_ptr(UserError("disk full", SourceLocation())));
  CHECK_THROWS_WITH(
      inference.AcceptInput("u", Matrix(3, 4), &ivector, nullptr, 0),
      Catch::Contains("disk full"));
  std::string key;
  Matrix out;
  CHECK_THROWS_WITH(inference.GetOutput(&key, &out),
                    Catch::Contains("disk full"));
}

}  // namespace
}  // namespace nnet3
