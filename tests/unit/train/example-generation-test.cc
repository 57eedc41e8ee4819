// nnet3-get-egs framing: chunk boundaries (principal size, alternatives at
// the end, overlap, short and whole utterances, frame subsampling), output
// weights, context at the utterance edges, edge padding, iVectors, and the
// bad-input rules.
#include "train/example-generation.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

ExampleGenerationConfig Config(const std::string &num_frames,
                               int32_t overlap = 0, int32_t fss = 1) {
  ExampleGenerationConfig config;
  config.num_frames_str = num_frames;
  config.num_frames_overlap = overlap;
  config.frame_subsampling_factor = fss;
  config.ComputeDerived();
  return config;
}

// (first_frame, num_frames) of each chunk.
std::vector<std::pair<int32_t, int32_t>> Chunks(
    const ExampleGenerationConfig &config, int32_t length,
    std::vector<ChunkTimeInfo> *info = nullptr) {
  UtteranceSplitter splitter(config);
  std::vector<ChunkTimeInfo> chunks;
  splitter.GetChunksForUtterance(length, &chunks);
  std::vector<std::pair<int32_t, int32_t>> ans;
  for (const ChunkTimeInfo &c : chunks)
    ans.emplace_back(c.first_frame, c.num_frames);
  if (info) *info = chunks;
  return ans;
}

using Split = std::vector<std::pair<int32_t, int32_t>>;

TEST_CASE("--num-frames parsing and rounding", "[egs]") {
  CHECK(Config("8").num_frames == std::vector<int32_t>{8});
  CHECK(Config("8,4,10").num_frames == std::vector<int32_t>{8, 4, 10});
  CHECK(Config("7,2", 0, 3).num_frames == std::vector<int32_t>{9, 3});
  CHECK(Config("-1").num_frames.empty());
  for (std::string bad : {"", "0", "8,,4", "a", "-2", "8,-1"}) {
    INFO("--num-frames=" << bad);
    CHECK_THROWS_AS(Config(bad), UserError);
  }
  CHECK_THROWS_AS(Config("8", -1), UserError);
  CHECK_THROWS_AS(Config("8", 0, 0), UserError);
}

TEST_CASE("Chunk boundaries and overlap weights", "[egs]") {
  std::vector<ChunkTimeInfo> info;
  // Principal size only: the last chunk ends at the end and overlaps.
  CHECK(Chunks(Config("4"), 10, &info) == Split{{0, 4}, {4, 4}, {6, 4}});
  CHECK(info[1].output_weights == std::vector<float>{1, 1, 0.5f, 0.5f});
  CHECK(info[2].output_weights == std::vector<float>{0.5f, 0.5f, 1, 1});
  // An alternative covers the end exactly.
  CHECK(Chunks(Config("4,2"), 10, &info) == Split{{0, 4}, {4, 4}, {8, 2}});
  CHECK(info[2].output_weights == std::vector<float>{1, 1});
  // The smallest alternative that covers what is left.
  CHECK(Chunks(Config("8,2,5,3"), 20) == Split{{0, 8}, {8, 8}, {15, 5}});
  CHECK(Chunks(Config("4"), 8) == Split{{0, 4}, {4, 4}});
  // Overlap of the principal chunks.
  CHECK(Chunks(Config("4", 1), 10, &info) == Split{{0, 4}, {3, 4}, {6, 4}});
  CHECK(info[0].output_weights == std::vector<float>{1, 1, 1, 0.5f});
  CHECK(info[1].output_weights == std::vector<float>{0.5f, 1, 1, 0.5f});
  CHECK(Chunks(Config("4", 9), 6) == Split{{0, 4}, {1, 4}, {2, 4}});
}

TEST_CASE("Short and whole utterances", "[egs]") {
  CHECK(Chunks(Config("4"), 3).empty());
  CHECK(Chunks(Config("4,2"), 3) == Split{{0, 2}, {1, 2}});
  CHECK(Chunks(Config("8,3"), 7) == Split{{0, 3}, {3, 3}, {4, 3}});
  CHECK(Chunks(Config("4"), 4) == Split{{0, 4}});
  CHECK(Chunks(Config("-1"), 7) == Split{{0, 7}});
  CHECK(Chunks(Config("-1", 0, 3), 7) == Split{{0, 9}});
}

TEST_CASE("Frame subsampling: chunks on multiples of the factor", "[egs]") {
  // 14 frames, fss 3: 5 output frames; size 6 = 2 output frames.
  std::vector<ChunkTimeInfo> info;
  CHECK(Chunks(Config("6", 0, 3), 14, &info) == Split{{0, 6}, {6, 6}, {9, 6}});
  CHECK(info[2].output_weights == std::vector<float>{0.5f, 1});
  CHECK(Chunks(Config("6", 3, 3), 12) == Split{{0, 6}, {3, 6}, {6, 6}});
}

TEST_CASE("Context at the start and end of the utterance", "[egs]") {
  ExampleGenerationConfig config = Config("4");
  config.left_context = 2;
  config.right_context = 3;
  config.left_context_initial = 5;
  config.right_context_final = 0;
  std::vector<ChunkTimeInfo> info;
  Chunks(config, 12, &info);
  REQUIRE(info.size() == 3);
  CHECK(info[0].left_context == 5);
  CHECK(info[0].right_context == 3);
  CHECK(info[1].left_context == 2);
  CHECK(info[1].right_context == 3);
  CHECK(info[2].left_context == 2);
  CHECK(info[2].right_context == 0);
  config.left_context_initial = -1;
  config.right_context_final = -1;
  Chunks(config, 4, &info);
  CHECK(info[0].left_context == 2);
  CHECK(info[0].right_context == 3);
}

// Rows [r, 10 r] for r in [0, frames).
GeneralMatrix Ramp(int32_t frames) {
  Matrix m(frames, 2, ResizeType::kSetZero, CpuDevice());
  for (int32_t r = 0; r < frames; r++) {
    m.Set(r, 0, r);
    m.Set(r, 1, 10 * r);
  }
  return GeneralMatrix(m);
}

Posterior Labels(int32_t frames) {
  Posterior post(frames);
  for (int32_t t = 0; t < frames; t++) post[t] = {{t % 5, 1.0f}};
  return post;
}

std::vector<float> Column0(const GeneralMatrix &mat) {
  Matrix m(CpuDevice());
  mat.GetMatrix(&m);
  std::vector<float> ans;
  for (int32_t r = 0; r < m.NumRows(); r++) ans.push_back(m.Get(r, 0));
  return ans;
}

struct EgsFixture {
  ExampleGenerationConfig config;
  GetEgsOptions opts;
  std::vector<std::pair<std::string, NnetExample>> egs;
  EgsFixture() {
    config.left_context = 2;
    config.right_context = 1;
    config.num_frames_str = "3";
    config.ComputeDerived();
    opts.num_pdfs = 5;
    opts.compress = false;
  }
  bool Run(const GeneralMatrix &feats, const Posterior &post,
           const MatrixView *ivectors = nullptr, uint32_t seed = 0) {
    UtteranceSplitter splitter(config);
    RandomState rng(seed);
    return GetEgsForUtterance("utt", feats, ivectors, post, opts, &splitter,
                              &rng, &egs);
  }
};

TEST_CASE("GetEgsForUtterance: inputs padded at both ends", "[egs]") {
  EgsFixture f;
  REQUIRE(f.Run(Ramp(7), Labels(7)));
  // Chunks [0,3), [3,3), [4,3).
  REQUIRE(f.egs.size() == 3);
  CHECK(f.egs[0].first == "utt-0");
  CHECK(f.egs[1].first == "utt-3");
  CHECK(f.egs[2].first == "utt-4");
  const NnetExample &first = f.egs[0].second;
  REQUIRE(first.io.size() == 2);
  CHECK(first.io[0].name == "input");
  CHECK(first.io[0].indexes.front() == Index(0, -2, 0));
  CHECK(first.io[0].indexes.back() == Index(0, 3, 0));
  CHECK(Column0(first.io[0].features) == std::vector<float>{0, 0, 0, 1, 2, 3});
  const NnetExample &last = f.egs[2].second;
  CHECK(Column0(last.io[0].features) == std::vector<float>{2, 3, 4, 5, 6, 6});
  // Outputs: t = 0, 1, 2 with the chunk's labels and weights.
  const NnetIo &out = last.io[1];
  CHECK(out.name == "output");
  CHECK(out.indexes[2] == Index(0, 2, 0));
  const SparseMatrix &labels = out.features.GetSparseMatrix();
  CHECK(labels.Row(0).Pairs()[0] == std::make_pair(4, 0.5f));
  CHECK(labels.Row(1).Pairs()[0] == std::make_pair(0, 0.5f));
  CHECK(labels.Row(2).Pairs()[0] == std::make_pair(1, 1.0f));
  CHECK(f.egs[1].second.io[1].features.GetSparseMatrix().Row(1).Pairs()[0] ==
        std::make_pair(4, 0.5f));
}

TEST_CASE("GetEgsForUtterance: initial/final context, compression, fss",
          "[egs]") {
  EgsFixture f;
  f.config.left_context_initial = 0;
  f.config.right_context_final = 3;
  f.opts.compress = true;
  REQUIRE(f.Run(Ramp(6), Labels(6)));
  REQUIRE(f.egs.size() == 2);
  const NnetIo &in0 = f.egs[0].second.io[0];
  CHECK(in0.indexes.front() == Index(0, 0, 0));
  CHECK(in0.features.Type() == GeneralMatrixType::kCompressedMatrix);
  CHECK(f.egs[0].second.io[1].features.Type() ==
        GeneralMatrixType::kSparseMatrix);
  const NnetIo &in1 = f.egs[1].second.io[0];
  CHECK(in1.indexes.front() == Index(0, -2, 0));
  CHECK(in1.indexes.back() == Index(0, 5, 0));

  EgsFixture g;
  g.config.frame_subsampling_factor = 2;
  g.config.num_frames_str = "4";
  g.config.ComputeDerived();
  // 9 frames -> 5 output frames; chunks at 0, 4 and (end) 6.
  REQUIRE(g.Run(Ramp(9), Labels(5)));
  REQUIRE(g.egs.size() == 3);
  CHECK(g.egs[2].first == "utt-6");
  const NnetIo &out = g.egs[2].second.io[1];
  CHECK(out.indexes[1] == Index(0, 2, 0));
  CHECK(out.features.GetSparseMatrix().Row(1).Pairs()[0].first == 4);
  CHECK(Column0(g.egs[2].second.io[0].features) ==
        std::vector<float>{4, 5, 6, 7, 8, 8, 8});
}

TEST_CASE("GetEgsForUtterance: iVectors", "[egs]") {
  Matrix ivectors(4, 3, ResizeType::kSetZero, CpuDevice());
  for (int32_t r = 0; r < 4; r++) ivectors.Set(r, 0, r);
  for (uint32_t seed : {0u, 1u, 2u, 3u}) {
    INFO("seed " << seed);
    EgsFixture f;
    f.opts.online_ivector_period = 2;
    REQUIRE(f.Run(Ramp(7), Labels(7), &ivectors, seed));
    for (const auto &eg : f.egs) {
      REQUIRE(eg.second.io.size() == 3);
      const NnetIo &iv = eg.second.io[1];
      CHECK(iv.name == "ivector");
      CHECK(iv.indexes == std::vector<Index>{Index(0, 0, 0)});
      float row = Column0(iv.features)[0];
      CHECK(row >= 0);
      CHECK(row <= 3);
    }
  }
  // Too few iVector rows for the length.
  EgsFixture f;
  f.opts.length_tolerance = 0;
  CHECK_FALSE(f.Run(Ramp(7), Labels(7), &ivectors));
}

TEST_CASE("GetEgsForUtterance: bad input", "[egs]") {
  EgsFixture f;
  // Posterior length beyond --targets-length-tolerance (2): skipped.
  CHECK_FALSE(f.Run(Ramp(7), Labels(4)));
  CHECK(f.Run(Ramp(7), Labels(5)));
  f.egs.clear();
  // Too short for any chunk.
  CHECK_FALSE(f.Run(Ramp(2), Labels(2)));
  CHECK(f.egs.empty());
  // A pdf index >= --num-pdfs.
  Posterior post = Labels(7);
  post[3] = {{5, 1.0f}};
  try {
    f.Run(Ramp(7), post);
    FAIL("expected a UserError");
  } catch (const UserError &e) {
    std::string msg = e.what();
    CHECK(msg.find("'utt'") != std::string::npos);
    CHECK(msg.find("pdf index 5") != std::string::npos);
    CHECK(msg.find("--num-pdfs=5") != std::string::npos);
  }
}

}  // namespace
}  // namespace nnet3
