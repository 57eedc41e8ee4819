// Edit distance, word error rates, the bootstrap and align-text's alignment:
// small cases worked by hand, and the tie-breaking and bootstrap figures
// Kaldi's compute-wer, align-text and compute-wer-bootci print for them
// (run on the same text; quoted in the comments).
#include "util/word-error-rate.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/glibc-random.h"
#include "util-test-common.h"
#include "util/edit-distance.h"
#include "util/wer-bootstrap.h"

namespace nnet3 {
namespace {

using test::ExpectUserError;
using Words = std::vector<std::string>;
using Pairs = std::vector<std::pair<std::string, std::string>>;

Words Split(const std::string &s) {
  std::istringstream is(s);
  Words words;
  std::string w;
  while (is >> w) words.push_back(w);
  return words;
}

// (errors, ins, del, sub) of LevenshteinEditDistance.
std::vector<int32_t> Counts(const std::string &ref, const std::string &hyp) {
  EditCounts c;
  const int32_t errors = LevenshteinEditDistance(Split(ref), Split(hyp), &c);
  return {errors, c.ins, c.del, c.sub};
}

TEST_CASE("LevenshteinEditDistance", "[util]") {
  using V = std::vector<int32_t>;
  CHECK(Counts("a b c d", "a x c d e") == (V{2, 1, 0, 1}));  // sub x, ins e
  CHECK(Counts("a b c", "") == (V{3, 0, 3, 0}));             // empty hyp
  CHECK(Counts("", "a b") == (V{2, 2, 0, 0}));
  CHECK(Counts("a b c", "a b c") == (V{0, 0, 0, 0}));
  CHECK(Counts("a", "b") == (V{1, 0, 0, 1}));
  CHECK(Counts("a b", "c") == (V{2, 0, 1, 1}));
  // Ties: a substitution must be strictly cheaper, so "a b" / "b a" counts
  // an insertion and a deletion (Kaldi: "2 / 2, 1 ins, 1 del, 0 sub").
  CHECK(Counts("a b", "b a") == (V{2, 1, 1, 0}));
  CHECK(Counts("x y", "y z") == (V{2, 1, 1, 0}));
  CHECK(Counts("a b c", "b c d") == (V{2, 1, 1, 0}));
  CHECK(Counts("a a b", "a b b") == (V{1, 0, 0, 1}));
}

TEST_CASE("LevenshteinAlignment", "[util]") {
  Pairs pairs;
  CHECK(LevenshteinAlignment(Split("a b c d"), Split("a x c d e"), "<eps>",
                             &pairs) == 2);
  CHECK(
      pairs ==
      (Pairs{{"a", "a"}, {"b", "x"}, {"c", "c"}, {"d", "d"}, {"<eps>", "e"}}));
  LevenshteinAlignment(Split("a b c"), {}, "<eps>", &pairs);
  CHECK(pairs == (Pairs{{"a", "<eps>"}, {"b", "<eps>"}, {"c", "<eps>"}}));
  LevenshteinAlignment({}, Split("a b"), "*", &pairs);
  CHECK(pairs == (Pairs{{"*", "a"}, {"*", "b"}}));
  // On ties the trace-back prefers a substitution, then a deletion (Kaldi's
  // align-text: "a b ; b a" and "a <eps> ; b c").
  LevenshteinAlignment(Split("a b"), Split("b a"), "<eps>", &pairs);
  CHECK(pairs == (Pairs{{"a", "b"}, {"b", "a"}}));
  LevenshteinAlignment(Split("a b"), Split("c"), "<eps>", &pairs);
  CHECK(pairs == (Pairs{{"a", "<eps>"}, {"b", "c"}}));
  // Tracing back from the end, deletion before insertion: Kaldi's
  // "<eps> b ; a a ; b b ; a <eps>".
  LevenshteinAlignment(Split("a b a"), Split("b a b"), "<eps>", &pairs);
  CHECK(pairs ==
        (Pairs{{"<eps>", "b"}, {"a", "a"}, {"b", "b"}, {"a", "<eps>"}}));
  LevenshteinAlignment(Split("a b c"), Split("b c d"), "<eps>", &pairs);
  CHECK(pairs ==
        (Pairs{{"a", "<eps>"}, {"b", "b"}, {"c", "c"}, {"<eps>", "d"}}));
  ExpectUserError(
      [&] { LevenshteinAlignment(Split("a <eps>"), {}, "<eps>", &pairs); },
      {"contains the symbol '<eps>'"});
}

// u1: sub x, ins e (2); u2: empty hypothesis, 2 deletions; u3 right; u4 has
// no hypothesis (1 word).
struct WerFiles {
  test::TempDir dir;
  std::string ref = "ark:" + dir / "ref", hyp = "ark:" + dir / "hyp",
              hyp2 = "ark:" + dir / "hyp2";
  WerFiles() {
    test::WriteFile(dir / "ref", "u1 a b c d\nu2 e f\nu3 g h i\nu4 j\n");
    test::WriteFile(dir / "hyp", "u1 a x c d e\nu2\nu3 g h i\n");
    test::WriteFile(dir / "hyp2", "u1 a b c d\nu2 e\nu3 g i\nu4 k\n");
  }
};

std::string Report(const WerStats &stats) {
  std::ostringstream os;
  PrintWerReport(stats, os);
  return os.str();
}

TEST_CASE("ComputeWerStats", "[util]") {
  WerFiles f;
  CHECK(Report(ComputeWerStats(f.ref, f.hyp, WerMode::kPresent)) ==
        "%WER 44.44 [ 4 / 9, 1 ins, 2 del, 1 sub ] [PARTIAL]\n"
        "%SER 66.67 [ 2 / 3 ]\n"
        "Scored 3 sentences, 1 not present in hyp.\n");
  CHECK(Report(ComputeWerStats(f.ref, f.hyp, WerMode::kAll)) ==
        "%WER 50.00 [ 5 / 10, 1 ins, 3 del, 1 sub ] [PARTIAL]\n"
        "%SER 75.00 [ 3 / 4 ]\n"
        "Scored 4 sentences, 1 not present in hyp.\n");
  CHECK(Report(ComputeWerStats(f.ref, f.ref, WerMode::kStrict)) ==
        "%WER 0.00 [ 0 / 10, 0 ins, 0 del, 0 sub ]\n"
        "%SER 0.00 [ 0 / 4 ]\n"
        "Scored 4 sentences, 0 not present in hyp.\n");
  ExpectUserError([&] { ComputeWerStats(f.ref, f.hyp, WerMode::kStrict); },
                  {"No hypothesis for key u4", "strict"});
  ExpectUserError([&] { ParseWerMode("some"); },
                  {"--mode option invalid", "got some"});
  CHECK(ParseWerMode("all") == WerMode::kAll);
}

TEST_CASE("GlibcRandom", "[base]") {
  GlibcRandom rng;  // glibc's rand() without srand: seed 1
  CHECK(rng.Next() == 1804289383);
  CHECK(rng.Next() == 846930886);
  CHECK(rng.Next() == 1681692777);
  rng.Seed(1);
  CHECK(rng.RandInt(0, 9) == 1804289383 % 10);
  CHECK(rng.RandInt(5, 5) == 5);  // no draw
  CHECK(rng.Next() == 846930886);
}

TEST_CASE("Bootstrap WER", "[util]") {
  WerFiles f;
  std::vector<std::pair<int32_t, int32_t>> edits, edits2;
  ComputeUtteranceEdits(f.ref, f.hyp, f.hyp2, WerMode::kAll, &edits, &edits2);
  using E = std::vector<std::pair<int32_t, int32_t>>;
  CHECK(edits == (E{{2, 4}, {2, 2}, {0, 3}, {1, 1}}));
  CHECK(edits2 == (E{{0, 4}, {1, 2}, {1, 3}, {1, 1}}));
  // Kaldi's compute-wer-bootci --mode=all --replications=100 on these files.
  GlibcRandom rng;
  const BootstrapWer wer = BootstrapWerInterval(edits, 100, &rng);
  const BootstrapWer wer2 = BootstrapWerInterval(edits2, 100, &rng);
  const float p = BootstrapImprovementProbability(edits, edits2, 100, &rng);
  std::ostringstream os;
  PrintBootstrapWer(1, wer, os);
  PrintBootstrapWer(2, wer2, os);
  CHECK(os.str() ==
        "Set1: %WER 51.86 95% Conf Interval [ 13.24, 90.49 ]\n"
        "Set2: %WER 34.16 95% Conf Interval [ 4.61, 63.72 ]\n");
  CHECK(p == 0.76f);
  // Present mode leaves u4 (not in hyp) out of both; strict mode stops at
  // it.
  ComputeUtteranceEdits(f.ref, f.hyp, f.hyp2, WerMode::kPresent, &edits,
                        &edits2);
  CHECK(edits == (E{{2, 4}, {2, 2}, {0, 3}}));
  CHECK(edits2.size() == 3);
  ExpectUserError(
      [&] {
        ComputeUtteranceEdits(f.ref, f.hyp, "", WerMode::kStrict, &edits,
                              &edits2);
      },
      {"No hypothesis for key u4"});
  // Every utterance alike: every resample has WER 0.25, interval 0.
  rng.Seed(1);
  const BootstrapWer flat = BootstrapWerInterval(E(5, {1, 4}), 50, &rng);
  CHECK(flat.mean == 0.25f);
  CHECK(flat.interval == 0.0f);
}

}  // namespace
}  // namespace nnet3
