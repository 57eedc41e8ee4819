// PruneLattice: Kaldi's beam pruning of an acyclic lattice (Lattice or
// CompactLattice). Every arc and final weight whose best path (forward cost
// to its start plus it plus the best cost from its end) costs more than the
// best path plus `beam` is removed, then the lattice is trimmed (OpenFst's
// Connect, which keeps the order of the remaining states).
//
//   PruneLattice(8.0, &lat);   // false if it has cycles or ends up empty
//
// The lattice is topologically sorted first if it is not (a warning and
// false if it cannot be). The costs are doubles; beam is a float, as in
// Kaldi, so the cut-off is the same to the last bit.
#ifndef NNET3_LAT_PRUNE_LATTICE_H_
#define NNET3_LAT_PRUNE_LATTICE_H_

#include "lat/kaldi-lattice.h"

namespace nnet3 {

bool PruneLattice(float beam, Lattice *lat);
bool PruneLattice(float beam, CompactLattice *lat);

}  // namespace nnet3

#endif  // NNET3_LAT_PRUNE_LATTICE_H_
