// Tests of x-vector extraction: Kaldi's chunking, padding and weights
// (SplitUtteranceForXvector), and batched x-vectors on a network whose
// output is already segment level against a reference that computes each
// chunk separately with the plain compiler and averages by hand.
#include "compute/xvector-compute.h"

#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "compute-test-utils.h"
#include "compute/nnet-batch-inference.h"
#include "inference-test-utils.h"

namespace nnet3 {
namespace {

// Segment level: the output at t = 0 reads input frames 0..3.
const char *const kSegmentConfig =
    "input-node name=input dim=3\n"
    "component name=a1 type=AffineComponent input-dim=12 output-dim=5 "
    "param-stddev=0.5 bias-stddev=0.5\n"
    "component-node name=a1 component=a1 input=Append(input, Offset(input, "
    "1), Offset(input, 2), Offset(input, 3))\n"
    "component name=r1 type=RectifiedLinearComponent dim=5\n"
    "component-node name=r1 component=r1 input=a1\n"
    "component name=a2 type=AffineComponent input-dim=5 output-dim=4 "
    "param-stddev=0.5 bias-stddev=0.5\n"
    "component-node name=a2 component=a2 input=r1\n"
    "output-node name=output input=a2\n";

struct ChunkSpec {
  int32_t first, num, left_pad, right_pad;
  bool irregular;
};

void CheckSplit(const XvectorComputeOptions &opts, int32_t num_rows,
                const std::vector<ChunkSpec> &want) {
  const Matrix features = RandomMatrix(num_rows, 3, 700 + num_rows);
  std::vector<NnetInferenceTask> tasks;
  std::vector<float> weights;
  const bool ok =
      SplitUtteranceForXvector(opts, "u", features, &tasks, &weights);
  REQUIRE(ok == !want.empty());
  REQUIRE(tasks.size() == want.size());
  REQUIRE(weights.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const ChunkSpec &c = want[i];
    INFO("chunk " << i);
    CHECK(weights[i] == static_cast<float>(c.num));
    CHECK(tasks[i].first_used_output_frame_index == static_cast<int32_t>(i));
    CHECK(tasks[i].num_output_frames == 1);
    CHECK(tasks[i].first_input_t == 0);
    CHECK(tasks[i].is_irregular == c.irregular);
    Matrix expected(c.left_pad + c.num + c.right_pad, 3);
    for (int32_t r = 0; r < expected.NumRows(); ++r) {
      const int32_t src =
          c.first + std::min(c.num - 1, std::max(0, r - c.left_pad));
      expected.RowRange(r, 1).CopyFromMat(features.RowRange(src, 1));
    }
    CHECK(MaxAbsDiff(tasks[i].input, expected) == 0.0f);
  }
}

TEST_CASE("SplitUtteranceForXvector: Kaldi's chunks, padding and weights",
          "[inference][xvector]") {
  XvectorComputeOptions opts;
  opts.min_chunk_size = 6;
  // The whole utterance; padded to 6 frames if shorter (1 left, 2 right
  // for 3 frames).
  CheckSplit(opts, 23, {{0, 23, 0, 0, true}});
  CheckSplit(opts, 3, {{0, 3, 1, 2, false}});
  opts.chunk_size = 10;
  // 10, 10 and 3 (padded: regular, like the whole chunks).
  CheckSplit(
      opts, 23,
      {{0, 10, 0, 0, false}, {10, 10, 0, 0, false}, {20, 3, 1, 2, false}});
  // 27: the last chunk of 7 frames is long enough, of its own length.
  CheckSplit(
      opts, 27,
      {{0, 10, 0, 0, false}, {10, 10, 0, 0, false}, {20, 7, 0, 0, true}});
  // Shorter than --chunk-size: one chunk of the utterance's length.
  CheckSplit(opts, 8, {{0, 8, 0, 0, true}});
  opts.pad_input = false;
  CheckSplit(opts, 23, {{0, 10, 0, 0, false}, {10, 10, 0, 0, false}});
  CheckSplit(opts, 5, {});  // shorter than --min-chunk-size
  opts.chunk_size = 4;      // every chunk shorter than --min-chunk-size
  CheckSplit(opts, 23, {});
}

TEST_CASE("Batched x-vectors equal a chunk-by-chunk reference",
          "[inference][xvector]") {
  const Nnet nnet = NnetFromConfigText(kSegmentConfig, "segment.config");
  XvectorComputeOptions opts;
  opts.chunk_size = 10;
  opts.min_chunk_size = 6;
  NnetBatchComputerOptions batch_opts;
  batch_opts.acoustic_scale = 1.0f;
  batch_opts.minibatch_size = 3;
  const int32_t lengths[] = {23, 5, 61, 8, 40};
  std::vector<Matrix> features;
  for (int32_t n : lengths) features.push_back(RandomMatrix(n, 3, 710 + n));
  NnetBatchInference inference(batch_opts, nnet, Vector());
  std::vector<std::vector<float>> all_weights;
  std::vector<std::vector<NnetInferenceTask>> all_tasks(features.size());
  for (size_t u = 0; u < features.size(); ++u) {
    std::vector<float> w;
    REQUIRE(
        SplitUtteranceForXvector(opts, "u", features[u], &all_tasks[u], &w));
    all_weights.push_back(w);
  }
  // Reference: each chunk's input (as cut, padding included) computed
  // alone at t = 0, then the weighted average.
  std::vector<Vector> want;
  for (size_t u = 0; u < features.size(); ++u) {
    Matrix rows(static_cast<int32_t>(all_tasks[u].size()), 4);
    for (size_t c = 0; c < all_tasks[u].size(); ++c)
      rows.RowRange(static_cast<int32_t>(c), 1)
          .CopyFromMat(DirectCompute(nnet, all_tasks[u][c].input, 0, {0}));
    Vector avg(4);
    double total = 0.0;
    for (size_t c = 0; c < all_weights[u].size(); ++c) {
      avg.AsRowMatrix().AddMat(all_weights[u][c],
                               rows.RowRange(static_cast<int32_t>(c), 1));
      total += all_weights[u][c];
    }
    avg.AsRowMatrix().Scale(static_cast<float>(1.0 / total));
    want.push_back(avg);
  }
  std::vector<Vector> got;
  std::thread writer([&] {
    std::string key;
    Matrix chunks;
    while (inference.GetOutput(&key, &chunks)) {
      Vector v;
      AverageXvector(chunks, all_weights[got.size()], &v);
      got.push_back(v);
    }
  });
  for (size_t u = 0; u < features.size(); ++u) {
    const int32_t n = static_cast<int32_t>(all_tasks[u].size());
    inference.AcceptTasks("u" + std::to_string(u), std::move(all_tasks[u]), n,
                          features[u].NumRows());
  }
  inference.Finished();
  writer.join();
  REQUIRE(got.size() == want.size());
  for (size_t u = 0; u < got.size(); ++u) {
    INFO("utterance " << u);
    CHECK(MaxAbsDiff(got[u].AsRowMatrix(), want[u].AsRowMatrix()) <= 1e-5f);
  }
}

}  // namespace
}  // namespace nnet3
