// Helpers for the unit tests of the graph algorithms: FSTs from AT&T text
// (state next ilabel olabel [weight] / state [weight] lines, the first
// line's state the start), FSTs back to text, random FSTs from a seed, and
// a random-path equivalence check.
#ifndef NNET3_TESTS_UNIT_FSTEXT_FST_TEST_COMMON_H_
#define NNET3_TESTS_UNIT_FSTEXT_FST_TEST_COMMON_H_

#include <fst/fstlib.h>

#include <catch2/catch.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "base/text-utils.h"
#include "fstext/fst-text-io.h"

namespace nnet3 {
namespace test {

template <class Arc = fst::StdArc>
fst::VectorFst<Arc> FstFromText(const std::string &text) {
  FstTextBuilder<Arc> builder(/*acceptor=*/false);
  for (const std::string &line : SplitString(text, "\n", true)) {
    INFO("line: " << line);
    REQUIRE(builder.AddLine(FstTextColumns(line)));
  }
  return *builder.Release();
}

template <class Arc>
std::string FstToText(const fst::Fst<Arc> &f) {
  std::ostringstream os;
  fst::FstPrinter<Arc> printer(f, nullptr, nullptr, nullptr, false, false,
                               "\t");
  printer.Print(os, "test");
  return os.str();
}

struct RandomFstOptions {
  int num_states = 6;
  int arcs_per_state = 3;
  int num_ilabels = 4;  // labels 1..n
  int num_olabels = 4;
  float input_epsilon_prob = 0.0;
  float output_epsilon_prob = 0.3;
  bool acyclic = false;  // arcs only to higher-numbered states
};

// A random transducer with the given seed: state 0 the start, the last
// state final, every state with a path to it (a chain 0 -> 1 -> ...).
inline fst::StdVectorFst RandomFst(uint32_t seed,
                                   const RandomFstOptions &opts) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.0, 1.0);
  fst::StdVectorFst f;
  for (int s = 0; s < opts.num_states; ++s) f.AddState();
  f.SetStart(0);
  f.SetFinal(opts.num_states - 1, unit(rng));
  for (int s = 0; s < opts.num_states; ++s) {
    for (int a = 0; a < opts.arcs_per_state; ++a) {
      int next;
      if (a == 0 && s + 1 < opts.num_states) {
        next = s + 1;
      } else if (opts.acyclic) {
        if (s + 1 >= opts.num_states) break;
        next = s + 1 + rng() % (opts.num_states - s - 1);
      } else {
        next = rng() % opts.num_states;
      }
      const int ilabel = unit(rng) < opts.input_epsilon_prob
                             ? 0
                             : 1 + rng() % opts.num_ilabels;
      const int olabel = unit(rng) < opts.output_epsilon_prob
                             ? 0
                             : 1 + rng() % opts.num_olabels;
      f.AddArc(s, fst::StdArc(ilabel, olabel, 0.1f + 2 * unit(rng), next));
    }
  }
  return f;
}

// Whether a and b give the same weight (within delta) to random paths of
// each, in the tropical semiring (or log, for LogArc).
template <class Arc>
bool RandomPathsEquivalent(const fst::Fst<Arc> &a, const fst::Fst<Arc> &b,
                           uint64_t seed, float delta = 0.01) {
  bool error = false;
  const bool same = fst::RandEquivalent(a, b, /*npath=*/50, delta, seed,
                                        /*max_length=*/25, &error);
  return same && !error;
}

}  // namespace test
}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_FSTEXT_FST_TEST_COMMON_H_
