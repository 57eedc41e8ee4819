// Lattice depth: how many arcs cross each frame of a CompactLattice
// (Kaldi's CompactLatticeDepthPerFrame, which lattice-depth-per-frame and
// steps/diagnostic/analyze_lats.sh use), and its average over the frames
// (CompactLatticeDepth, lattice-depth). An arc crosses the frames of its
// transition-ids; a final weight's transition-ids count too.
//
//   TopSortCompactLatticeIfNeeded(&clat);
//   std::vector<int32_t> depth;
//   CompactLatticeDepthPerFrame(clat, &depth);   // one entry per frame
#ifndef NNET3_LAT_LATTICE_DEPTH_H_
#define NNET3_LAT_LATTICE_DEPTH_H_

#include <cstdint>
#include <vector>

#include "lat/kaldi-lattice.h"

namespace nnet3 {

// Both need the lattice topologically sorted (UserError otherwise). States
// no path reaches are left out.

// One entry per frame (CompactLatticeStateTimes' length); empty for an
// empty lattice. UserError if an arc runs past the lattice's last frame.
void CompactLatticeDepthPerFrame(const CompactLattice &clat,
                                 std::vector<int32_t> *depth_per_frame);

// The number of arc-frames over the number of frames (1 for an empty
// lattice); sets *num_frames if not null.
float CompactLatticeDepth(const CompactLattice &clat,
                          int32_t *num_frames = nullptr);

}  // namespace nnet3

#endif  // NNET3_LAT_LATTICE_DEPTH_H_
