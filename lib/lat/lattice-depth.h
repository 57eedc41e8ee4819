// Lattice depth: how many arcs of a CompactLattice cover each frame (Kaldi's
// CompactLatticeDepth and CompactLatticeDepthPerFrame), the usual measure of
// how much a lattice holds beyond its best path. An arc covers the frames of
// its transition-id string; a final weight's string covers the frames after
// its state.
//
//   TopSortCompactLatticeIfNeeded(&clat);          // both need it sorted
//   int32_t num_frames;
//   float depth = CompactLatticeDepth(clat, &num_frames);
//   std::vector<int32_t> per_frame;
//   CompactLatticeDepthPerFrame(clat, &per_frame);  // one count per frame
//
// The depth is the total length of all strings divided by the number of
// frames (computed in float, as Kaldi): a linear lattice has depth 1, and a
// lattice with no start state also reports 1 with 0 frames. A lattice of no
// frames with a start state divides by zero, as Kaldi's does (inf or nan).
#ifndef NNET3_LAT_LATTICE_DEPTH_H_
#define NNET3_LAT_LATTICE_DEPTH_H_

#include <cstdint>
#include <vector>

#include "lat/kaldi-lattice.h"

namespace nnet3 {

// UserError if clat is not topologically sorted (or not starting at state
// 0, see lattice-state-times.h). num_frames may be null.
float CompactLatticeDepth(const CompactLattice &clat, int32_t *num_frames);

// depth_per_frame gets one entry per frame of the utterance (empty for an
// empty lattice). UserError as CompactLatticeDepth, and if a string runs past
// the utterance's end.
void CompactLatticeDepthPerFrame(const CompactLattice &clat,
                                 std::vector<int32_t> *depth_per_frame);

}  // namespace nnet3

#endif  // NNET3_LAT_LATTICE_DEPTH_H_
