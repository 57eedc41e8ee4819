// UtteranceSplitter against Kaldi's rule (train/utterance-splitter.h): the
// tables of candidate splits (costs worked out by hand from Kaldi's cost
// function), deterministic placements, the overlap and gap shares
// (including Kaldi's truncated fractional parts), the random choices with
// fixed seeds, frame subsampling, whole utterances and edge contexts.
#include "train/utterance-splitter.h"

#include <catch2/catch.hpp>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

using Splits = std::vector<std::vector<int32_t>>;
using Placement = std::vector<std::pair<int32_t, int32_t>>;

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
Placement Chunks(UtteranceSplitter *splitter, int32_t length, uint32_t seed,
                 std::vector<ChunkTimeInfo> *info = nullptr) {
  RandomState rng(seed);
  std::vector<ChunkTimeInfo> chunks;
  splitter->GetChunksForUtterance(length, &rng, &chunks);
  Placement ans;
  for (const ChunkTimeInfo &c : chunks)
    ans.emplace_back(c.first_frame, c.num_frames);
  if (info) *info = chunks;
  return ans;
}

// The placements seen over seeds 0..99.
std::set<Placement> Outcomes(const ExampleGenerationConfig &config,
                             int32_t length) {
  std::set<Placement> seen;
  for (uint32_t seed = 0; seed < 100; seed++) {
    UtteranceSplitter splitter(config);
    seen.insert(Chunks(&splitter, length, seed));
  }
  return seen;
}

}  // namespace

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
  // The overlap must be less than the principal size (Kaldi asserts it).
  CHECK_THROWS_WITH(Config("8", 8), Catch::Contains("--num-frames-overlap=8"));
  CHECK_NOTHROW(Config("8", 7));
}

TEST_CASE("Candidate splits per utterance length (Kaldi's costs)", "[egs]") {
  // cost = duration - u (too long) or 2 (u - duration) (too short);
  // candidates within 1.9999 of the best; a size > u is unusable.
  UtteranceSplitter one(Config("1"));
  CHECK(one.MaxTabulatedLength() == 3);  // 2 * 1 + 1
  CHECK(one.SplitsForLength(0).empty());
  CHECK(one.SplitsForLength(1) == Splits{{1}, {1, 1}});
  CHECK(one.SplitsForLength(2) == Splits{{1, 1}, {1, 1, 1}});
  CHECK(one.SplitsForLength(3) == Splits{{1, 1, 1}, {1, 1, 1, 1}});

  UtteranceSplitter eight(Config("8"));
  CHECK(eight.MaxTabulatedLength() == 24);
  CHECK(eight.SplitsForLength(7).empty());
  CHECK(eight.SplitsForLength(11) == Splits{{8}, {8, 8}});        // costs 6, 5
  CHECK(eight.SplitsForLength(13) == Splits{{8, 8}});             // 10, 3, 11
  CHECK(eight.SplitsForLength(19) == Splits{{8, 8}, {8, 8, 8}});  // 6, 5
  CHECK(eight.SplitsForLength(20) == Splits{{8, 8, 8}});          // 8, 4

  // Alternatives: at most two of them (possibly the same one twice).
  UtteranceSplitter alt(Config("8,4"));
  CHECK(alt.SplitsForLength(20) == Splits{{4, 8, 8}});  // cost 0, then 4
  // u = 13: {4,8} costs 2, {8,8} and {4,4,8} 3.
  CHECK(alt.SplitsForLength(13) == Splits{{4, 4, 8}, {4, 8}, {8, 8}});
  CHECK(alt.SplitsForLength(3).empty());
  CHECK(alt.SplitsForLength(4) == Splits{{4}});  // {4,4} costs 4
}

TEST_CASE("Deterministic splits are placed as Kaldi places them", "[egs]") {
  // 20 frames, --num-frames=8: only {8,8,8}; the overlap of 4 is shared
  // 2 / 2 between the two pairs.
  for (uint32_t seed : {0u, 1u, 7u}) {
    INFO("seed " << seed);
    UtteranceSplitter splitter(Config("8"));
    std::vector<ChunkTimeInfo> info;
    CHECK(Chunks(&splitter, 20, seed, &info) ==
          Placement{{0, 8}, {6, 8}, {12, 8}});
    CHECK(info[0].output_weights ==
          std::vector<float>{1, 1, 1, 1, 1, 1, 0.5f, 0.5f});
    CHECK(info[1].output_weights ==
          std::vector<float>{0.5f, 0.5f, 1, 1, 1, 1, 0.5f, 0.5f});
    // 13 frames: {8,8}, overlap 3.
    CHECK(Chunks(&splitter, 13, seed) == Placement{{0, 8}, {5, 8}});
    CHECK(Chunks(&splitter, 8, seed) == Placement{{0, 8}});
    CHECK(Chunks(&splitter, 7, seed).empty());
  }
}

TEST_CASE("Overlaps are shared as Kaldi's integer arithmetic shares them",
          "[egs]") {
  std::vector<int32_t> v(2);
  UtteranceSplitter::DistributeProportionally(-4, {8, 8}, &v);
  CHECK(v == std::vector<int32_t>{-2, -2});
  // 7 in proportion 3:1 is 5.25 : 1.75; Kaldi's fractional parts are
  // truncated to zero, so the frame left over goes to the first element.
  UtteranceSplitter::DistributeProportionally(7, {3, 1}, &v);
  CHECK(v == std::vector<int32_t>{6, 1});
  std::vector<int32_t> w(3);
  UtteranceSplitter::DistributeProportionally(5, {1, 1, 1}, &w);
  CHECK(w == std::vector<int32_t>{2, 2, 1});
  UtteranceSplitter::DistributeProportionally(-1, {1, 1, 1}, &w);
  CHECK(w == std::vector<int32_t>{-1, 0, 0});

  // 19 frames with {8,8,8}: overlap 5 over 8 and 8 -> 3 and 2; with {8,8}
  // a gap of 3 over three places -> 1 each. Both splits are candidates.
  CHECK(Outcomes(Config("8"), 19) ==
        std::set<Placement>{{{0, 8}, {5, 8}, {11, 8}}, {{1, 8}, {10, 8}}});
  // --num-frames=1: every length ends with a choice between an exact
  // split and one with an extra chunk overlapping the first one.
  std::set<Placement> three = Outcomes(Config("1"), 3);
  CHECK(three == std::set<Placement>{{{0, 1}, {1, 1}, {2, 1}},
                                     {{0, 1}, {0, 1}, {1, 1}, {2, 1}}});
}

TEST_CASE("Gaps are spread uniformly, the larger shares at random", "[egs]") {
  std::set<std::vector<int32_t>> seen;
  for (uint32_t seed = 0; seed < 50; seed++) {
    RandomState rng(seed);
    std::vector<int32_t> v(4);
    UtteranceSplitter::DistributeUniformly(6, &rng, &v);
    CHECK(std::accumulate(v.begin(), v.end(), 0) == 6);
    for (int32_t x : v) CHECK((x == 1 || x == 2));
    seen.insert(v);
    UtteranceSplitter::DistributeUniformly(-3, &rng, &v);
    CHECK(std::accumulate(v.begin(), v.end(), 0) == -3);
  }
  CHECK(seen.size() == 6);  // every placement of the two 2's
  // 18 frames: only {8,8} ({8,8,8} costs 6 against 4): a gap of 2 over
  // the three places.
  CHECK(Outcomes(Config("8"), 18) == std::set<Placement>{{{1, 8}, {9, 8}},
                                                         {{1, 8}, {10, 8}},
                                                         {{0, 8}, {9, 8}}});
}

TEST_CASE("The order of chunk sizes is reversed at random", "[egs]") {
  // 20 frames, --num-frames=8,4: {4,8,8}, in either order.
  CHECK(Outcomes(Config("8,4"), 20) ==
        std::set<Placement>{{{0, 4}, {4, 8}, {12, 8}},
                            {{0, 8}, {8, 8}, {16, 4}}});
  // The same seed gives the same chunks.
  UtteranceSplitter a(Config("8,4")), b(Config("8,4"));
  for (int32_t length : {13, 17, 29, 53})
    CHECK(Chunks(&a, length, 5) == Chunks(&b, length, 5));
}

TEST_CASE("Long utterances: principal chunks and a tabulated rest", "[egs]") {
  // --num-frames=8 tabulates up to 24 frames; 60 frames drop 8 at a time
  // to 20 ({8,8,8}), so the split is eight 8's; the overlap of 4 goes to
  // the first pairs (magnitudes all 8: 4 * 8 / 56 truncates to 0).
  UtteranceSplitter splitter(Config("8"));
  std::vector<ChunkTimeInfo> info;
  CHECK(Chunks(&splitter, 60, 3, &info) == Placement{{0, 8},
                                                     {7, 8},
                                                     {14, 8},
                                                     {21, 8},
                                                     {28, 8},
                                                     {36, 8},
                                                     {44, 8},
                                                     {52, 8}});
  // With an overlap option the steps are principal - overlap.
  UtteranceSplitter overlapping(Config("8", 2));
  Placement p = Chunks(&overlapping, 62, 0);
  CHECK(p.size() == 10);
  CHECK(p.back().first + p.back().second == 62);
}

TEST_CASE("Frame subsampling: chunks on multiples of the factor", "[egs]") {
  // 14 frames, fss 3 (5 output frames), size 6 (2 output frames): {6,6}
  // and {6,6,6} both cost 4. {6,6}: a gap of 1 output frame; {6,6,6}: an
  // overlap of 1, to the first pair; the last chunk ends 1 frame past the
  // utterance.
  std::set<Placement> seen = Outcomes(Config("6", 0, 3), 14);
  CHECK(seen == std::set<Placement>{{{0, 6}, {6, 6}},
                                    {{0, 6}, {9, 6}},
                                    {{3, 6}, {9, 6}},
                                    {{0, 6}, {3, 6}, {9, 6}}});
  UtteranceSplitter splitter(Config("6", 0, 3));
  std::vector<ChunkTimeInfo> info;
  for (uint32_t seed = 0; seed < 100; seed++) {
    if (Chunks(&splitter, 14, seed, &info).size() != 3) continue;
    CHECK(info[0].output_weights == std::vector<float>{1, 0.5f});
    CHECK(info[1].output_weights == std::vector<float>{0.5f, 1});
    CHECK(info[2].output_weights == std::vector<float>{1, 1});
    break;
  }
}

TEST_CASE("Whole utterances and edge contexts", "[egs]") {
  UtteranceSplitter whole(Config("-1"));
  std::vector<ChunkTimeInfo> info;
  CHECK(Chunks(&whole, 7, 0) == Placement{{0, 7}});
  // As Kaldi, num_frames is the length itself; with fss 3 the weights
  // cover 7 / 3 = 2 output frames.
  UtteranceSplitter whole3(Config("-1", 0, 3));
  CHECK(Chunks(&whole3, 7, 0, &info) == Placement{{0, 7}});
  CHECK(info[0].output_weights == std::vector<float>{1, 1});

  ExampleGenerationConfig config = Config("4");
  config.left_context = 2;
  config.right_context = 3;
  config.left_context_initial = 5;
  config.right_context_final = 0;
  UtteranceSplitter splitter(config);
  REQUIRE(Chunks(&splitter, 12, 0, &info).size() == 3);
  CHECK(info[0].left_context == 5);
  CHECK(info[0].right_context == 3);
  CHECK(info[1].left_context == 2);
  CHECK(info[1].right_context == 3);
  CHECK(info[2].left_context == 2);
  CHECK(info[2].right_context == 0);
  config.left_context_initial = config.right_context_final = -1;
  UtteranceSplitter plain(config);
  Chunks(&plain, 4, 0, &info);
  CHECK(info[0].left_context == 2);
  CHECK(info[0].right_context == 3);
}

TEST_CASE("Splitter statistics and exit status", "[egs]") {
  UtteranceSplitter splitter(Config("8"));
  CHECK(splitter.ExitStatus() == 1);
  Chunks(&splitter, 7, 0);  // too short
  CHECK(splitter.ExitStatus() == 1);
  Chunks(&splitter, 20, 0);
  CHECK(splitter.ExitStatus() == 0);
  CHECK(splitter.TotalFramesInChunks() == 24);
}

}  // namespace nnet3
