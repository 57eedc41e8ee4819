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
#ifndef NNET3_LAT_LATTICE_BEST_PATH_H_
#define NNET3_LAT_LATTICE_BEST_PATH_H_

#include "lat/kaldi-lattice.h"

namespace nnet3 {

// An unsorted lattice is sorted (a copy); UserError if it has cycles. An
// empty lattice, or one with no finite path (a warning), gives an empty
// result.
void CompactLatticeShortestPath(const CompactLattice &clat,
                                CompactLattice *shortest_path);

}  // namespace nnet3

#endif  // NNET3_LAT_LATTICE_BEST_PATH_H_
