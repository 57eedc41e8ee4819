// Pushing of compact lattices (Kaldi's lat/push-lattice.h), done before
// MinimizeCompactLattice so that equivalent states carry equal weights and
// strings and can be merged.
//
//   PushCompactLatticeStrings(&clat);  // transition-ids as early as possible
//   PushCompactLatticeWeights(&clat);  // costs as early as possible
//   MinimizeCompactLattice(&clat);
//
// PushCompactLatticeStrings moves transition-ids towards the start: each
// state (but the start) gives up the longest prefix that every path from it
// begins with (bounded by the shortest such path), and the arcs into it take
// those labels at their end. The strings of every complete path are
// unchanged. All paths out of a state must then agree on the pushed labels,
// which holds for lattices whose paths have consistent lengths (InternalError
// otherwise).
//
// PushCompactLatticeWeights makes the best cost from each state to the end
// zero (One), leaving the total on the start state's arcs and final weight;
// each path's total cost is unchanged (its split into graph and acoustic
// cost may move between arcs). Non-coaccessible states are left alone, with
// a warning.
//
// Both sort the lattice topologically first if needed and return false
// (with a warning) if it has cycles.
#ifndef NNET3_LAT_PUSH_LATTICE_H_
#define NNET3_LAT_PUSH_LATTICE_H_

#include <fst/mutable-fst.h>

#include "lat/kaldi-lattice.h"

namespace nnet3 {

bool PushCompactLatticeStrings(fst::MutableFst<CompactLatticeArc> *clat);
bool PushCompactLatticeWeights(fst::MutableFst<CompactLatticeArc> *clat);

}  // namespace nnet3

#endif  // NNET3_LAT_PUSH_LATTICE_H_
