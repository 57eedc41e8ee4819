// Helpers for the lattice tests: random raw lattices, the best path of
// every word sequence (by enumerating paths), and Kaldi's text archive form
// of lattices (enough to read the golden files without the table code).
#ifndef NNET3_TESTS_UNIT_LAT_LATTICE_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_LAT_LATTICE_TEST_UTILS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "lat/kaldi-lattice.h"

namespace nnet3 {

struct RandomLatticeOptions {
  int32_t num_states = 10;
  int32_t max_arcs_per_state = 3;
  int32_t max_skip = 3;             // arcs go 1..max_skip states ahead
  int32_t num_transition_ids = 14;  // tids drawn from 1..this
  int32_t num_words = 4;
  float epsilon_tid_prob = 0.15f;  // input label 0
  float word_prob = 0.3f;          // non-zero output label
  float final_prob = 0.3f;         // of each of the last states
  // Costs are multiples of 1/64 (exact in float, so ties happen, as with
  // real lattices' quantized scores), graph in [0, 2), acoustic in [0, 6).
};

// A raw lattice as a decoder writes it: transition-ids on the input side,
// words on the output side, topologically sorted, every state on a path
// from the start to a final state.
Lattice RandomRawLattice(const RandomLatticeOptions &opts, std::mt19937 *rng);

// The best path of one word sequence: its transition-ids and weight.
struct BestPath {
  std::vector<int32_t> tids;
  LatticeWeight weight;
};

// For every word sequence of the lattice, its best path in Kaldi's order
// (lower total cost, then lower graph cost, then shorter string, then the
// lexicographically larger string). words_on_input: which side has words.
std::map<std::vector<int32_t>, BestPath> BestPathsByWords(const Lattice &lat,
                                                          bool words_on_input);
std::map<std::vector<int32_t>, BestPath> BestPathsByWords(
    const CompactLattice &clat);

// Every (words, transition-ids) pair of the lattice with its best weight.
std::map<std::pair<std::vector<int32_t>, std::vector<int32_t>>, LatticeWeight>
AllPaths(const Lattice &lat, bool words_on_input);

// Best total cost from the start to the end (inf if none).
double BestCost(const Lattice &lat);
double BestCost(const CompactLattice &clat);

// Kaldi's text archives of lattices ("key\n" then the FST's lines, then an
// empty line). UserError-free: a malformed file fails the REQUIREs.
std::vector<std::pair<std::string, Lattice>> ReadLatticeArchiveText(
    const std::string &filename);
std::vector<std::pair<std::string, CompactLattice>>
ReadCompactLatticeArchiveText(const std::string &filename);
// The text Kaldi writes for one entry (weights at the stream's default
// precision, One weights left out).
std::string CompactLatticeText(const std::string &key,
                               const CompactLattice &clat);
std::string LatticeText(const std::string &key, const Lattice &lat);

// Runs f with stderr going to a temporary file; returns what f wrote there.
std::string CaptureStderr(const std::function<void()> &f);

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_LAT_LATTICE_TEST_UTILS_H_
