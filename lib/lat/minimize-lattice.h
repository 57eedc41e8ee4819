// MinimizeCompactLattice: Kaldi's minimization of an acyclic, deterministic
// compact lattice (lat/minimize-lattice.h): states with the same future
// (final weight, and arcs with the same labels, weights and strings into
// the same states) are merged.
//
//   PushCompactLatticeStrings(&clat);   // first: pushing makes equivalent
//   PushCompactLatticeWeights(&clat);   // states carry equal weights
//   MinimizeCompactLattice(&clat);
//
// States are examined from the last in topological order to the first; a
// state is merged into the first later state found equivalent (weights equal
// within delta, strings and labels exactly, destinations already merged).
// The result accepts the same word sequences with the same strings and
// costs (within delta), has no more states, and is trimmed (Connect). For a
// deterministic lattice it is minimal; a non-deterministic one is merged as
// far as this test finds. Sorts the lattice topologically first if needed;
// false (with a warning) if it has cycles.
#ifndef NNET3_LAT_MINIMIZE_LATTICE_H_
#define NNET3_LAT_MINIMIZE_LATTICE_H_

#include <fst/mutable-fst.h>

#include "lat/determinize-lattice-options.h"
#include "lat/kaldi-lattice.h"

namespace nnet3 {

bool MinimizeCompactLattice(fst::MutableFst<CompactLatticeArc> *clat,
                            float delta = kDeterminizeDelta);

}  // namespace nnet3

#endif  // NNET3_LAT_MINIMIZE_LATTICE_H_
