// The best path of a CompactLattice (Kaldi's CompactLatticeShortestPath):
// the path with the smallest total cost (graph + acoustic, summed in
// double), as a linear CompactLattice. For a Lattice, OpenFst's
// fst::ShortestPath works directly with LatticeWeight.
//
//   CompactLattice best;
//   CompactLatticeShortestPath(clat, &best);
//   Lattice best_lat;
//   ConvertLattice(best, &best_lat);
//   GetLinearSymbolSequence(best_lat, &alignment, &words, &weight);
//
// Ties go to the first state (in topological order) reaching a state, and
// between parallel arcs to the first cheapest, as in Kaldi.
//
// What the scoring programs make of it, with the costs scaled first (graph
// costs times lm_scale, acoustic costs times acoustic_scale, in double as
// Kaldi's ScaleLattice):
//
//   LatticeBestPath best;                 // lattice-best-path
//   if (CompactLatticeBestPath(clat, 1.0, 0.1, &best)) ... best.words
//   CompactLattice one_best;              // lattice-1best
//   if (CompactLatticeOneBest(clat, 1.0, 0.1, 0.0, &one_best)) ...
#ifndef NNET3_LAT_LATTICE_BEST_PATH_H_
#define NNET3_LAT_LATTICE_BEST_PATH_H_

#include <cstdint>
#include <vector>

#include "lat/kaldi-lattice.h"

namespace nnet3 {

// An unsorted lattice is sorted (a copy); UserError if it has cycles. An
// empty lattice, or one with no finite path (a warning), gives an empty
// result.
void CompactLatticeShortestPath(const CompactLattice &clat,
                                CompactLattice *shortest_path);

// A best path read off as sequences: the words (labels) and the alignment
// (transition-ids of the strings, in order), epsilons left out, and its
// total weight in the scaled lattice.
struct LatticeBestPath {
  std::vector<int32_t> words;
  std::vector<int32_t> alignment;
  LatticeWeight weight;
};

// The best path of clat with its costs scaled; false (and *best untouched)
// when there is none (an empty lattice, or no path of finite cost).
bool CompactLatticeBestPath(const CompactLattice &clat, double lm_scale,
                            double acoustic_scale, LatticeBestPath *best);

// lattice-1best: the best path of clat with its costs scaled and, when
// word_ins_penalty > 0, that penalty added to each word, as a linear
// CompactLattice with the penalty taken off again and the costs scaled
// back (by 1/lm_scale and 1/acoustic_scale, which must not be 0: a
// UserError otherwise). False (best_path empty) when there is no path.
bool CompactLatticeOneBest(const CompactLattice &clat, float lm_scale,
                           float acoustic_scale, float word_ins_penalty,
                           CompactLattice *best_path);

}  // namespace nnet3

#endif  // NNET3_LAT_LATTICE_BEST_PATH_H_
