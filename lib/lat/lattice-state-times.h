// The frame of each lattice state: in a Lattice every arc with a non-zero
// input label (a transition-id) consumes one frame; in a CompactLattice an
// arc consumes as many frames as its string has transition-ids. Both need
// the lattice topologically sorted with start state 0, as the decoder and
// determinization leave them (TopSort*IfNeeded sort one that is not).
//
//   TopSortCompactLatticeIfNeeded(&clat);
//   std::vector<int32_t> times;
//   int32_t num_frames = CompactLatticeStateTimes(clat, &times);
//   // times[s] = frames consumed before state s; -1 if unreachable
#ifndef NNET3_LAT_LATTICE_STATE_TIMES_H_
#define NNET3_LAT_LATTICE_STATE_TIMES_H_

#include <cstdint>
#include <vector>

#include "lat/kaldi-lattice.h"

namespace nnet3 {

// Fills times (one per state) and returns the largest time. UserError if
// the lattice is not topologically sorted, does not start at state 0, or
// reaches a state at two different times. An empty lattice gives 0.
int32_t LatticeStateTimes(const Lattice &lat, std::vector<int32_t> *times);

// Fills times and returns the utterance length: the time of a final state
// plus the length of its final weight's string. Final states that disagree
// give a warning and the largest; no final state gives a warning and 0.
// UserError as LatticeStateTimes.
int32_t CompactLatticeStateTimes(const CompactLattice &clat,
                                 std::vector<int32_t> *times);

// Topologically sort unless already sorted; UserError if there is a cycle.
void TopSortLatticeIfNeeded(Lattice *lat);
void TopSortCompactLatticeIfNeeded(CompactLattice *clat);

}  // namespace nnet3

#endif  // NNET3_LAT_LATTICE_STATE_TIMES_H_
