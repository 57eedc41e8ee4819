// nnet3-get-egs framing (GetEgsForUtterance; the chunking itself is
// tested in utterance-splitter-test.cc): inputs with edge padding, output
// labels times the chunk weights, contexts, compression, frame
// subsampling, Kaldi's iVector row rule, and the bad-input rules.
#include "train/example-generation.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

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
  // 8 frames, --num-frames=3: only {3,3,3} (cost 1); the overlap of 1 goes
  // to the first pair: chunks [0,3), [2,5), [5,8).
  REQUIRE(f.Run(Ramp(8), Labels(8)));
  REQUIRE(f.egs.size() == 3);
  CHECK(f.egs[0].first == "utt-0");
  CHECK(f.egs[1].first == "utt-2");
  CHECK(f.egs[2].first == "utt-5");
  const NnetExample &first = f.egs[0].second;
  REQUIRE(first.io.size() == 2);
  CHECK(first.io[0].name == "input");
  CHECK(first.io[0].indexes.front() == Index(0, -2, 0));
  CHECK(first.io[0].indexes.back() == Index(0, 3, 0));
  CHECK(Column0(first.io[0].features) == std::vector<float>{0, 0, 0, 1, 2, 3});
  const NnetExample &last = f.egs[2].second;
  CHECK(Column0(last.io[0].features) == std::vector<float>{3, 4, 5, 6, 7, 7});
  // Outputs: t = 0, 1, 2 with the chunk's labels and weights.
  const NnetIo &out0 = first.io[1];
  CHECK(out0.name == "output");
  CHECK(out0.indexes[2] == Index(0, 2, 0));
  const SparseMatrix &labels0 = out0.features.GetSparseMatrix();
  CHECK(labels0.Row(1).Pairs()[0] == std::make_pair(1, 1.0f));
  CHECK(labels0.Row(2).Pairs()[0] == std::make_pair(2, 0.5f));
  const SparseMatrix &labels1 =
      f.egs[1].second.io[1].features.GetSparseMatrix();
  CHECK(labels1.Row(0).Pairs()[0] == std::make_pair(2, 0.5f));
  CHECK(labels1.Row(1).Pairs()[0] == std::make_pair(3, 1.0f));
  CHECK(last.io[1].features.GetSparseMatrix().Row(2).Pairs()[0] ==
        std::make_pair(2, 1.0f));
}

TEST_CASE("GetEgsForUtterance: initial/final context, compression, fss",
          "[egs]") {
  EgsFixture f;
  f.config.left_context_initial = 0;
  f.config.right_context_final = 3;
  f.opts.compress = true;
  REQUIRE(f.Run(Ramp(6), Labels(6)));  // {3,3}: [0,3), [3,6)
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
  // 12 frames -> 6 output frames; size 4 = 2 output frames: only {4,4,4}.
  // Posteriors are at the output rate: output frame j is label j % 5.
  REQUIRE(g.Run(Ramp(12), Labels(6)));
  REQUIRE(g.egs.size() == 3);
  CHECK(g.egs[2].first == "utt-8");
  const NnetIo &out = g.egs[2].second.io[1];
  CHECK(out.indexes[1] == Index(0, 2, 0));
  CHECK(out.features.GetSparseMatrix().Row(1).Pairs()[0].first == 0);
  CHECK(out.features.GetSparseMatrix().Row(0).Pairs()[0].first == 4);
  CHECK(Column0(g.egs[2].second.io[0].features) ==
        std::vector<float>{6, 7, 8, 9, 10, 11, 11});
}

TEST_CASE("GetEgsForUtterance: iVectors by Kaldi's rule", "[egs]") {
  // Kaldi: the row of a frame drawn uniformly from [start, start + L - 1]
  // (start = the chunk's first input frame, L = the utterance's length),
  // divided by the period and clamped. The splitter's draws come first,
  // then one draw per chunk: replay them on a twin generator.
  Matrix ivectors(5, 3, ResizeType::kSetZero, CpuDevice());
  for (int32_t r = 0; r < 5; r++) ivectors.Set(r, 0, r);
  const int32_t kPeriod = 2, kLength = 8;
  std::set<float> first_chunk_rows;
  for (uint32_t seed = 0; seed < 40; seed++) {
    INFO("seed " << seed);
    EgsFixture f;
    f.opts.online_ivector_period = kPeriod;
    REQUIRE(f.Run(Ramp(kLength), Labels(kLength), &ivectors, seed));
    RandomState twin(seed);
    UtteranceSplitter splitter(f.config);
    std::vector<ChunkTimeInfo> chunks;
    splitter.GetChunksForUtterance(kLength, &twin, &chunks);
    REQUIRE(chunks.size() == f.egs.size());
    for (size_t c = 0; c < chunks.size(); c++) {
      const int32_t start = chunks[c].first_frame - chunks[c].left_context;
      const int32_t frame = twin.Int(start, start + kLength - 1);
      const int32_t row = std::min(std::max(frame / kPeriod, 0), 4);
      const NnetIo &iv = f.egs[c].second.io[1];
      REQUIRE(iv.name == "ivector");
      CHECK(iv.indexes == std::vector<Index>{Index(0, 0, 0)});
      CHECK(Column0(iv.features)[0] == row);
      if (c == 0) first_chunk_rows.insert(Column0(iv.features)[0]);
    }
  }
  // The first chunk's input starts at frame -2: frames -2..5, rows 0..2;
  // row 3 (frames 6, 7, inside the utterance) is never drawn for it.
  CHECK(first_chunk_rows == std::set<float>{0, 1, 2});
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
  // Too short for any chunk: no egs, but not an error (as Kaldi).
  CHECK(f.Run(Ramp(2), Labels(2)));
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
