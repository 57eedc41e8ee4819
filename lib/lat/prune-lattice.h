// PruneLattice: removes the arcs and final weights of a Lattice or
// CompactLattice that lie on no path within `beam` of the best path's total
// cost (graph + acoustic), then the states left unreachable (Kaldi's
// PruneLattice, as lattice-prune and the decoders' final pruning use it).
//
//   if (!PruneLattice(8.0, &clat)) ...  // nothing left (or cycles)
//
// The lattice is topologically sorted first if it is not. An arc survives
// when forward cost + arc cost + backward cost <= best + beam, a final
// weight when forward cost + final cost <= best + beam (costs in double).
#ifndef NNET3_LAT_PRUNE_LATTICE_H_
#define NNET3_LAT_PRUNE_LATTICE_H_

#include "lat/kaldi-lattice.h"

namespace nnet3 {

// Returns false (with a warning for cycles) when the lattice has cycles or
// ends up empty. beam must be positive.
template <class Lat>
bool PruneLattice(float beam, Lat *lat);

extern template bool PruneLattice(float beam, Lattice *lat);
extern template bool PruneLattice(float beam, CompactLattice *lat);

}  // namespace nnet3

#endif  // NNET3_LAT_PRUNE_LATTICE_H_
