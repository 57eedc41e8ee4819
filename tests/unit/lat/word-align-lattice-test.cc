// Word alignment of lattices (lat/word-align-lattice.h,
// lat/word-boundary-info.h), the words and times of a linear lattice
// (lat/lattice-word-alignment.h) and lattice depth (lat/lattice-depth.h).
// Hand-worked cases on tests/data/lat/mbr (model.txt: phone 1 SIL, 2-4 two
// emitting states, 5-9 one; word_boundary.int: 1 nonword, 2 begin,
// 3 internal, 4 end, 5-8 singleton, 9 not named), Kaldi's output on the
// same lattices (the goldens of make-golden.sh), and random lattices whose
// aligned form must keep every path.
#include "lat/word-align-lattice.h"

#include <fst/topsort.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/io-funcs.h"
#include "fstext/lattice-convert.h"
#include "lat/lattice-depth.h"
#include "lat/lattice-state-times.h"
#include "lat/lattice-word-alignment.h"
#include "lat/word-boundary-info.h"
#include "lattice-test-utils.h"

namespace nnet3 {
namespace {

// The lines of `text` that are not the warning every lattice with epsilons
// (words 0) or two arcs with one word from a state gets.
std::vector<std::string> OtherLines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream is(text);
  for (std::string line; std::getline(is, line);)
    if (line.find("is not input-deterministic") == std::string::npos)
      lines.push_back(line);
  return lines;
}

std::string MbrData(const std::string &name) {
  return std::string(NNET3_TEST_DATA) + "/lat/mbr/" + name;
}

TransitionModel ReadTinyModel() {
  std::ifstream is(MbrData("model.txt"), std::ios::binary);
  REQUIRE(is.good());
  bool binary = false;
  REQUIRE(InitKaldiInputStream(is, &binary));
  TransitionModel tm;
  tm.Read(is, binary);
  return tm;
}

WordBoundaryInfo TinyInfo(
    const WordBoundaryInfoOptions &opts = WordBoundaryInfoOptions()) {
  return WordBoundaryInfo(opts, MbrData("word_boundary.int"));
}

CompactLattice HandLattice(const std::string &key) {
  for (auto &entry : ReadCompactLatticeArchiveText(MbrData("hand-lat.txt")))
    if (entry.first == key) return entry.second;
  FAIL("no lattice " << key << " in hand-lat.txt");
  return CompactLattice();
}

// Each entry of a text archive that Kaldi wrote, as its text.
std::vector<std::pair<std::string, std::string>> GoldenEntries(
    const std::string &name) {
  std::ifstream is(MbrData(name));
  REQUIRE(is.good());
  std::vector<std::pair<std::string, std::string>> entries;
  std::string line;
  while (std::getline(is, line)) {
    const std::string key = line.substr(0, line.find(' '));
    std::string text = line + "\n";
    while (std::getline(is, line) && !line.empty()) text += line + "\n";
    entries.emplace_back(key, text + "\n");
  }
  return entries;
}

// What lattice-align-words writes for one lattice (archive text).
std::string AlignedText(const std::string &key, CompactLattice aligned) {
  TopSortCompactLatticeIfNeeded(&aligned);
  std::ostringstream os;
  os << key << ' ';
  CompactLatticeHolder::Write(os, false, aligned);
  return os.str();
}

// The (label, transition-ids) of the arcs of a linear lattice, and the
// total cost; the final weight must carry no transition-ids unless
// `final_string`.
std::vector<std::pair<int32_t, std::vector<int32_t>>> LinearArcs(
    const CompactLattice &clat, double *cost, bool final_string = false) {
  std::vector<std::pair<int32_t, std::vector<int32_t>>> arcs;
  *cost = 0;
  for (int s = clat.Start(); s != fst::kNoStateId;) {
    if (clat.Final(s) != CompactLatticeWeight::Zero()) {
      REQUIRE(clat.NumArcs(s) == 0);
      CHECK((final_string || clat.Final(s).String().empty()));
      *cost += ConvertToCost(clat.Final(s));
      break;
    }
    REQUIRE(clat.NumArcs(s) == 1);
    fst::ArcIterator<CompactLattice> aiter(clat, s);
    arcs.emplace_back(aiter.Value().ilabel, aiter.Value().weight.String());
    *cost += ConvertToCost(aiter.Value().weight);
    s = aiter.Value().nextstate;
  }
  return arcs;
}

TEST_CASE("WordBoundaryInfo reads word_boundary.int and rejects bad files") {
  const WordBoundaryInfo info = TinyInfo();
  CHECK(info.TypeOfPhone(1) == WordBoundaryInfo::kNonWordPhone);
  CHECK(info.TypeOfPhone(2) == WordBoundaryInfo::kWordBeginPhone);
  CHECK(info.TypeOfPhone(3) == WordBoundaryInfo::kWordInternalPhone);
  CHECK(info.TypeOfPhone(4) == WordBoundaryInfo::kWordEndPhone);
  CHECK(info.TypeOfPhone(8) == WordBoundaryInfo::kWordBeginAndEndPhone);
  CHECK(info.TypeOfPhone(0) == WordBoundaryInfo::kNoPhone);
  CHECK(info.silence_label == 0);
  CHECK(info.partial_word_label == 0);
  CHECK(info.reorder);
  CHECK_THROWS_WITH(info.TypeOfPhone(9),
                    Catch::Contains("Phone 9 was not specified"));
  CHECK_THROWS_AS(info.TypeOfPhone(-1), UserError);
  const WordBoundaryInfoOptions opts;
  for (const char *bad : {"1 nonword\n3 middle\n", "0 begin\n", "x begin\n",
                          "3 begin extra\n", "3\n", "\n"}) {
    std::istringstream is(bad);
    CHECK_THROWS_WITH(
        WordBoundaryInfo(opts, is, "wb.int"),
        Catch::Contains("Invalid line") && Catch::Contains("wb.int"));
  }
  std::istringstream empty("");
  CHECK_THROWS_WITH(WordBoundaryInfo(opts, empty, "wb.int"),
                    Catch::Contains("Empty word-boundary file"));
  std::istringstream gap("1 nonword\n5 singleton\n");  // 2-4 unnamed
  CHECK(WordBoundaryInfo(opts, gap, "gap").TypeOfPhone(3) ==
        WordBoundaryInfo::kNoPhone);
}

TEST_CASE("A linear lattice is cut at its word boundaries (hand-worked)") {
  const TransitionModel tm = ReadTinyModel();
  const CompactLattice clat = HandLattice("utt-linear");
  CompactLattice aligned;
  REQUIRE(WordAlignLattice(clat, tm, TinyInfo(), 0, &aligned));
  // SIL a SIL b c e SIL: with reordered self-loops each phone is its final
  // (forward) transition-id then its self-loops; silence has no label.
  using Arcs = std::vector<std::pair<int32_t, std::vector<int32_t>>>;
  const Arcs expected = {{0, {2, 1}},   {1, {4, 3, 6, 8, 10, 12, 14, 13}},
                         {0, {2}},      {2, {16, 15, 15}},
                         {3, {18}},     {5, {4, 6, 12, 14}},
                         {0, {2, 1, 1}}};
  double cost = 0, aligned_cost = 0;
  LinearArcs(clat, &cost, true);  // the input's final weight has a tid
  CHECK(LinearArcs(aligned, &aligned_cost) == expected);
  CHECK(aligned_cost == Approx(cost).epsilon(1e-6));
  TestWordAlignedLattice(clat, tm, TinyInfo(), aligned);

  std::vector<int32_t> words, begins, lengths;
  REQUIRE(CompactLatticeToWordAlignment(aligned, &words, &begins, &lengths));
  CHECK(words == std::vector<int32_t>{0, 1, 0, 2, 3, 5, 0});
  CHECK(begins == std::vector<int32_t>{0, 2, 10, 11, 14, 15, 19});
  CHECK(lengths == std::vector<int32_t>{2, 8, 1, 3, 1, 4, 3});
  // Not linear, or empty: false.
  CHECK_FALSE(CompactLatticeToWordAlignment(HandLattice("utt-mbr"), &words,
                                            &begins, &lengths));
  CHECK_FALSE(CompactLatticeToWordAlignment(CompactLattice(), &words, &begins,
                                            &lengths));
}

TEST_CASE("Aligned lattices are Kaldi's lattice-align-words output") {
  const TransitionModel tm = ReadTinyModel();
  struct Case {
    const char *golden;
    WordBoundaryInfoOptions opts;
  };
  WordBoundaryInfoOptions labels;
  labels.silence_label = 9;
  labels.partial_word_label = 10;
  for (const Case &c : {Case{"hand-aligned.txt", WordBoundaryInfoOptions()},
                        Case{"hand-aligned-labels.txt", labels}}) {
    INFO(c.golden);
    const auto golden = GoldenEntries(c.golden);
    REQUIRE(golden.size() == 3);
    for (const auto &entry : golden) {
      INFO(entry.first);
      CompactLattice aligned;
      bool ok = false;
      const std::string log = CaptureStderr([&]() {
        ok = WordAlignLattice(HandLattice(entry.first), tm, TinyInfo(c.opts), 0,
                              &aligned);
      });
      CHECK(AlignedText(entry.first, aligned) == entry.second);
      // Kaldi's warning for the forced-out lattice, once, and no other.
      const std::vector<std::string> warnings = OtherLines(log);
      if (entry.first == "utt-partial") {
        CHECK_FALSE(ok);
        REQUIRE(warnings.size() == 1);
        CHECK_THAT(warnings[0],
                   Catch::EndsWith("Invalid word at end of lattice [partial "
                                   "lattice, forced out?]"));
      } else {
        CHECK(ok);
        CHECK(warnings.empty());
      }
    }
  }
}

TEST_CASE("Partial words, silence at the end, max_states, bad ids") {
  const TransitionModel tm = ReadTinyModel();
  CompactLattice aligned;
  // SIL then a word cut before its end phone: the word is kept, flagged.
  CHECK_FALSE(WordAlignLattice(HandLattice("utt-partial"), tm, TinyInfo(), 0,
                               &aligned));
  double cost = 0;
  using Arcs = std::vector<std::pair<int32_t, std::vector<int32_t>>>;
  CHECK(LinearArcs(aligned, &cost) == Arcs{{0, {2, 1}}, {1, {4, 3, 6, 8}}});
  // Transition-ids with no word: a partial word, labelled as asked.
  CompactLattice no_word;
  no_word.SetStart(no_word.AddState());
  no_word.AddState();
  no_word.AddArc(
      0, CompactLatticeArc(
             0, 0, CompactLatticeWeight(LatticeWeight::One(), {2, 4, 6}), 1));
  no_word.SetFinal(1, CompactLatticeWeight::One());
  WordBoundaryInfoOptions opts;
  opts.partial_word_label = 10;
  CHECK_FALSE(WordAlignLattice(no_word, tm, TinyInfo(opts), 0, &aligned));
  CHECK(LinearArcs(aligned, &cost) == Arcs{{0, {2}}, {10, {4, 6}}});
  CHECK_FALSE(WordAlignLattice(no_word, tm, TinyInfo(), 0, &aligned));
  CHECK(LinearArcs(aligned, &cost) == Arcs{{0, {2}}, {0, {4, 6}}});
  // Silence that ends the lattice after its final transition is fine.
  no_word.SetFinal(1, CompactLatticeWeight::Zero());
  no_word.DeleteArcs(0);
  no_word.AddArc(
      0, CompactLatticeArc(
             0, 0, CompactLatticeWeight(LatticeWeight::One(), {2, 1, 1}), 1));
  no_word.SetFinal(1, CompactLatticeWeight::One());
  CHECK(WordAlignLattice(no_word, tm, TinyInfo(), 0, &aligned));
  CHECK(LinearArcs(aligned, &cost) == Arcs{{0, {2, 1, 1}}});

  CHECK_FALSE(WordAlignLattice(HandLattice("utt-mbr"), tm, TinyInfo(), 3,
                               &aligned));  // more than 3 states
  CHECK_FALSE(WordAlignLattice(CompactLattice(), tm, TinyInfo(), 0, &aligned));
  CHECK(aligned.Start() == fst::kNoStateId);

  CompactLattice bad = HandLattice("utt-linear");
  fst::MutableArcIterator<CompactLattice> aiter(&bad, 0);
  CompactLatticeArc arc = aiter.Value();
  arc.weight.SetString({2, 1, 99});
  aiter.SetValue(arc);
  CHECK_THROWS_WITH(WordAlignLattice(bad, tm, TinyInfo(), 0, &aligned),
                    Catch::Contains("transition-id 99"));
  // A phone the word-boundary file does not name (phone 9: tids 23, 24).
  arc.weight.SetString({24, 4});
  aiter.SetValue(arc);
  CHECK_THROWS_WITH(WordAlignLattice(bad, tm, TinyInfo(), 0, &aligned),
                    Catch::Contains("Phone 9 was not specified"));
}

TEST_CASE("TestWordAlignedLattice rejects arcs that are not whole words") {
  const TransitionModel tm = ReadTinyModel();
  const CompactLattice clat = HandLattice("utt-linear");
  CompactLattice aligned;
  REQUIRE(WordAlignLattice(clat, tm, TinyInfo(), 0, &aligned));
  CHECK_NOTHROW(TestWordAlignedLattice(clat, tm, TinyInfo(), aligned));
  // Word a without its last self-loop and the SIL after it with it.
  CompactLattice broken = aligned;
  for (int s = 0; s < broken.NumStates(); ++s) {
    for (fst::MutableArcIterator<CompactLattice> aiter(&broken, s);
         !aiter.Done(); aiter.Next()) {
      CompactLatticeArc arc = aiter.Value();
      if (arc.ilabel != 1) continue;
      arc.weight.SetString({4, 3, 6, 8, 10, 12});  // ends inside phone 4
      aiter.SetValue(arc);
    }
  }
  CHECK_THROWS_WITH(TestWordAlignedLattice(clat, tm, TinyInfo(), broken),
                    Catch::Contains("Invalid arc"));
}

// Random lattices: union of paths through a small lexicon (a = 2 3 4,
// b = 5, c = 6, d = 7, e = 2 4, f = 8) with optional silence, each phone
// 1-3 frames, the word label anywhere inside its word, the paths sharing
// their start state. The aligned lattice must keep every (words,
// transition-ids) path with its weight and pass TestWordAlignedLattice.
std::vector<int32_t> PhoneTids(int32_t phone, int frames, std::mt19937 *rng) {
  auto first = [](int32_t p) {
    return p == 1 ? 1 : p <= 4 ? 4 * p - 5 : 2 * p + 5;
  };
  const int32_t t = first(phone);  // the first state's self-loop
  if (phone >= 2 && phone <= 4) {  // two states: forward, loops, final, loops
    const int n0 = 1 + (*rng)() % frames, n1 = frames + 1 - n0;
    std::vector<int32_t> tids(1, t + 1);
    tids.insert(tids.end(), n0 - 1, t);
    tids.push_back(t + 3);
    tids.insert(tids.end(), n1 > 1 ? n1 - 1 : 0, t + 2);
    return tids;
  }
  std::vector<int32_t> tids(1, t + 1);
  tids.insert(tids.end(), frames - 1, t);
  return tids;
}

Lattice RandomWordLattice(std::mt19937 *rng) {
  const std::vector<std::vector<int32_t>> prons = {{},  {2, 3, 4}, {5}, {6},
                                                   {7}, {2, 4},    {8}};
  Lattice lat;
  lat.SetStart(lat.AddState());
  const int num_paths = 1 + (*rng)() % 4;
  for (int p = 0; p < num_paths; ++p) {
    std::vector<std::pair<int32_t, int32_t>> labels;  // (tid, word)
    const int num_words = 1 + (*rng)() % 3;
    for (int w = 0; w <= num_words; ++w) {
      if ((*rng)() % 2 == 0 || w == num_words) {
        for (int32_t tid : PhoneTids(1, 1 + (*rng)() % 3, rng))
          labels.emplace_back(tid, 0);
      }
      if (w == num_words) break;
      const int32_t word = 1 + (*rng)() % 6;
      const size_t begin = labels.size();
      for (int32_t phone : prons[word])
        for (int32_t tid : PhoneTids(phone, 1 + (*rng)() % 3, rng))
          labels.emplace_back(tid, 0);
      labels[begin + (*rng)() % (labels.size() - begin)].second = word;
    }
    int s = lat.Start();
    for (const auto &l : labels) {
      const int next = lat.AddState();
      const LatticeWeight w(((*rng)() % 64) / 64.0f, ((*rng)() % 128) / 64.0f);
      lat.AddArc(s, LatticeArc(l.first, l.second, w, next));
      s = next;
    }
    lat.SetFinal(s, LatticeWeight(((*rng)() % 16) / 64.0f, 0));
  }
  return lat;
}

TEST_CASE("Random lattices keep their paths when word-aligned") {
  const unsigned seed = 31;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  const TransitionModel tm = ReadTinyModel();
  for (int i = 0; i < 100; ++i) {
    INFO("lattice " << i);
    const Lattice lat = RandomWordLattice(&rng);
    CompactLattice clat;
    ConvertLattice(lat, &clat);
    CompactLattice aligned;
    bool ok = false;
    const std::string log = CaptureStderr(
        [&]() { ok = WordAlignLattice(clat, tm, TinyInfo(), 0, &aligned); });
    REQUIRE(ok);
    CHECK(OtherLines(log).empty());
    TestWordAlignedLattice(clat, tm, TinyInfo(), aligned);
    Lattice aligned_lat;
    ConvertLattice(aligned, &aligned_lat);
    const auto want = AllPaths(lat, false), got = AllPaths(aligned_lat, false);
    REQUIRE(got.size() == want.size());
    for (const auto &path : want) {
      auto it = got.find(path.first);
      REQUIRE(it != got.end());
      CHECK(ConvertToCost(it->second) ==
            Approx(ConvertToCost(path.second)).margin(1e-4));
    }
  }
}

TEST_CASE("Lattice depth per frame counts the arcs over each frame") {
  std::vector<int32_t> depth;
  // b (4 frames after 2 of silence) and e share frames 0-5; c, d, d share
  // 6-7; the final weight's string covers frame 8.
  const CompactLattice clat = HandLattice("utt-mbr");
  CompactLatticeDepthPerFrame(clat, &depth);
  CHECK(depth == std::vector<int32_t>{2, 2, 2, 2, 2, 2, 3, 3, 1});
  int32_t num_frames = 0;
  CHECK(CompactLatticeDepth(clat, &num_frames) == Approx(19.0 / 9));
  CHECK(num_frames == 9);
  CompactLatticeDepthPerFrame(CompactLattice(), &depth);
  CHECK(depth.empty());
  CHECK(CompactLatticeDepth(CompactLattice(), &num_frames) == 1.0f);
  CompactLattice unsorted;
  unsorted.AddState();
  unsorted.SetStart(unsorted.AddState());
  unsorted.AddArc(1, CompactLatticeArc(1, 1, CompactLatticeWeight::One(), 0));
  unsorted.SetFinal(0, CompactLatticeWeight::One());
  CHECK_THROWS_WITH(CompactLatticeDepthPerFrame(unsorted, &depth),
                    Catch::Contains("not topologically sorted"));
}

}  // namespace
}  // namespace nnet3
