// Our determinization against Kaldi's on the golden lattices of
// tests/data/lat (made by make-golden-determinize.sh with Kaldi's
// lattice-determinize-phone-pruned and lattice-determinize-pruned; see the
// commands there): the same steps as those programs, then the text Kaldi
// writes, compared line by line (same states, arcs, order, strings, and
// costs to the 6 digits written). The --max-mem case also compares the
// warnings and logs of the determinization, line by line.
#include <fst/arcsort.h>
#include <fst/connect.h>
#include <fst/invert.h>
#include <fst/topsort.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "base/io-funcs.h"
#include "lat/determinize-lattice-phone-pruned.h"
#include "lat/determinize-lattice-pruned.h"
#include "lat/minimize-lattice.h"
#include "lat/push-lattice.h"
#include "lattice-test-utils.h"

namespace nnet3 {
namespace {

std::string DataPath(const std::string &name) {
  return std::string(NNET3_TEST_DATA) + "/" + name;
}

TransitionModel ReadHmmModel() {
  std::ifstream is(DataPath("train/hmm.mdl"), std::ios::binary);
  REQUIRE(is.good());
  bool binary = false;
  REQUIRE(InitKaldiInputStream(is, &binary));
  TransitionModel tm;
  tm.Read(is, binary);
  return tm;
}

// The lines of `text`, less the empty line that ends an archive entry.
std::vector<std::string> Lines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream is(text);
  std::string line;
  while (std::getline(is, line)) lines.push_back(line);
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// The lines of each entry of a text archive, key line first.
std::map<std::string, std::vector<std::string>> ArchiveLines(
    const std::string &filename) {
  std::ifstream is(filename);
  REQUIRE(is.good());
  std::map<std::string, std::vector<std::string>> entries;
  std::string line;
  while (std::getline(is, line)) {
    if (line.empty()) continue;
    std::vector<std::string> &lines = entries[Lines(line + "\n")[0]];
    lines.push_back(line);
    while (std::getline(is, line) && !line.empty()) lines.push_back(line);
  }
  return entries;
}

void SortIfNeeded(CompactLattice *clat) {
  if (!clat->Properties(fst::kTopSorted, true)) REQUIRE(fst::TopSort(clat));
}

// What lattice-determinize-phone-pruned does with one lattice (acoustic
// scale 1).
CompactLattice PhonePruned(const TransitionModel &tm, const Lattice &raw,
                           double beam,
                           const DeterminizeLatticePhonePrunedOptions &opts) {
  Lattice lat(raw);
  CompactLattice clat;
  DeterminizeLatticePhonePrunedWrapper(tm, &lat, beam, &clat, opts);
  SortIfNeeded(&clat);
  return clat;
}

// What lattice-determinize-pruned does with one lattice.
CompactLattice WordPruned(const Lattice &raw, double beam, bool minimize) {
  Lattice lat(raw);
  fst::Invert(&lat);
  REQUIRE(fst::TopSort(&lat));
  fst::ArcSort(&lat, fst::ILabelCompare<LatticeArc>());
  DeterminizeLatticePrunedOptions opts;
  opts.max_mem = 50000000;
  opts.max_loop = 0;
  CompactLattice clat;
  DeterminizeLatticePruned(lat, beam, &clat, opts);
  fst::Connect(&clat);
  if (minimize) {
    PushCompactLatticeStrings(&clat);
    PushCompactLatticeWeights(&clat);
    MinimizeCompactLattice(&clat);
  }
  SortIfNeeded(&clat);
  return clat;
}

void CompareWithKaldi(
    const std::string &raw_file, const std::string &kaldi_file,
    const std::function<CompactLattice(const Lattice &)> &determinize) {
  CAPTURE(raw_file, kaldi_file);
  const auto raw = ReadLatticeArchiveText(DataPath("lat/" + raw_file));
  const auto kaldi = ArchiveLines(DataPath("lat/" + kaldi_file));
  REQUIRE(raw.size() == kaldi.size());
  for (const auto &entry : raw) {
    const std::string &key = entry.first;
    CAPTURE(key);
    const std::vector<std::string> ours =
        Lines(CompactLatticeText(key, determinize(entry.second)));
    REQUIRE(kaldi.count(key + " ") == 1);
    CHECK(ours == kaldi.at(key + " "));
  }
}

TEST_CASE("Phone-then-word determinization gives Kaldi's lattices") {
  const TransitionModel tm = ReadHmmModel();
  DeterminizeLatticePhonePrunedOptions opts;
  auto run = [&](const Lattice &raw) {
    return PhonePruned(tm, raw, 10.0, opts);
  };
  CompareWithKaldi("raw-grid.txt", "det-phone-grid.txt", run);
  CompareWithKaldi("raw-float.txt", "det-phone-float.txt", run);
  CompareWithKaldi("raw-tie.txt", "det-phone-tie.txt", run);
  CompareWithKaldi("raw-dead.txt", "det-phone-dead.txt", run);
  opts.phone_determinize = false;
  CompareWithKaldi("raw-grid.txt", "det-phone-noph-grid.txt", run);
  CompareWithKaldi("raw-float.txt", "det-phone-noph-float.txt", run);
  CompareWithKaldi("raw-tie.txt", "det-phone-noph-tie.txt", run);
  // The phone pass alone: not deterministic on words.
  opts.phone_determinize = true;
  opts.word_determinize = false;
  CompareWithKaldi("raw-grid.txt", "det-phone-noword-grid.txt", run);
  CompareWithKaldi("raw-float.txt", "det-phone-noword-float.txt", run);
  CompareWithKaldi("raw-tie.txt", "det-phone-noword-tie.txt", run);
  // Neither: the lattice converted as it is (with a warning).
  opts.phone_determinize = false;
  CompareWithKaldi("raw-grid.txt", "det-phone-none-grid.txt", run);
}

TEST_CASE(
    "Phone-then-word determinization with beam 3 and minimization "
    "gives Kaldi's lattices") {
  const TransitionModel tm = ReadHmmModel();
  DeterminizeLatticePhonePrunedOptions opts;
  opts.minimize = true;
  auto run = [&](const Lattice &raw) {
    return PhonePruned(tm, raw, 3.0, opts);
  };
  CompareWithKaldi("raw-grid.txt", "det-phone-b3-min-grid.txt", run);
  CompareWithKaldi("raw-float.txt", "det-phone-b3-min-float.txt", run);
  CompareWithKaldi("raw-tie.txt", "det-phone-b3-min-tie.txt", run);
}

TEST_CASE("Word determinization gives Kaldi's lattices") {
  auto beam4 = [](const Lattice &raw) { return WordPruned(raw, 4.0, false); };
  CompareWithKaldi("raw-grid.txt", "det-word-b4-grid.txt", beam4);
  CompareWithKaldi("raw-float.txt", "det-word-b4-float.txt", beam4);
  CompareWithKaldi("raw-tie.txt", "det-word-b4-tie.txt", beam4);
  auto minimized = [](const Lattice &raw) {
    return WordPruned(raw, 10.0, true);
  };
  CompareWithKaldi("raw-grid.txt", "det-word-min-grid.txt", minimized);
  CompareWithKaldi("raw-float.txt", "det-word-min-float.txt", minimized);
  CompareWithKaldi("raw-tie.txt", "det-word-min-tie.txt", minimized);
}

// "WARNING: message" from a log line "WARNING (program:where) message".
std::vector<std::string> Messages(const std::vector<std::string> &lines) {
  std::vector<std::string> messages;
  for (const std::string &line : lines) {
    const size_t word_end = line.find(" ("), close = line.find(") ");
    if (word_end == std::string::npos || close == std::string::npos) continue;
    messages.push_back(line.substr(0, word_end) + ": " +
                       line.substr(close + 2));
  }
  return messages;
}

// One --max-mem case: our log and lattice against Kaldi's.
void CheckMaxMemCase(const TransitionModel &tm, int32_t max_mem) {
  CAPTURE(max_mem);
  const std::string name = "lat/det-phone-maxmem" + std::to_string(max_mem);
  DeterminizeLatticePhonePrunedOptions opts;
  opts.max_mem = max_mem;
  const auto raw = ReadLatticeArchiveText(DataPath("lat/raw-maxmem.txt"));
  REQUIRE(raw.size() == 1);
  CompactLattice clat;
  bool complete = true;
  const std::string log = CaptureStderr([&]() {
    Lattice lat(raw[0].second);
    complete =
        DeterminizeLatticePhonePrunedWrapper(tm, &lat, 10.0, &clat, opts);
  });
  SortIfNeeded(&clat);
  CHECK(Lines(CompactLatticeText(raw[0].first, clat)) ==
        ArchiveLines(DataPath(name + ".txt")).at(raw[0].first + " "));
  // Kaldi's log, less the program's own lines; one of those says whether
  // determinization finished.
  std::ifstream is(DataPath(name + ".log"));
  std::stringstream kaldi_log;
  kaldi_log << is.rdbuf();
  std::vector<std::string> expected;
  bool kaldi_complete = true;
  for (const std::string &m : Messages(Lines(kaldi_log.str()))) {
    if (m.find("determinization did not succeed") != std::string::npos)
      kaldi_complete = false;
    if (m.find("For key") == std::string::npos &&
        m.find("Average input-lattice depth") == std::string::npos &&
        m.find("Done 1 lattices") == std::string::npos)
      expected.push_back(m);
  }
  CHECK(expected.size() >= 5);
  CHECK(Messages(Lines(log)) == expected);
  CHECK(complete == kaldi_complete);
}

TEST_CASE("Determinization past --max-mem retries and warns as Kaldi does") {
  const TransitionModel tm = ReadHmmModel();
  // 60000: the first try stops at once (a negative effective beam, printed
  // as 0), and the third, on a pruned lattice, completes. 150000: both
  // passes retry (a warning in the first, a log line in the second) and
  // the result is incomplete.
  CheckMaxMemCase(tm, 60000);
  CheckMaxMemCase(tm, 150000);
}

}  // namespace
}  // namespace nnet3
