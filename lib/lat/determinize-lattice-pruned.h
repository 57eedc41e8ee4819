// DeterminizeLatticePruned: Kaldi's pruned determinization of a raw
// lattice on words (lat/determinize-lattice-pruned.h), what
// lattice-determinize-pruned runs and the second pass of the decoders'
// phone-then-word determinization.
//
//   Invert(&lat);                                  // words on the input side
//   TopSort(&lat);                                 // required
//   ArcSort(&lat, fst::ILabelCompare<LatticeArc>());  // optional
//   CompactLattice clat;
//   bool complete = DeterminizeLatticePruned(lat, beam, &clat, opts);
//
// The result keeps, for every word sequence whose best path is within
// `beam` of the best path, exactly that best path (its transition-ids in
// the weight's string, its graph and acoustic costs), and is deterministic
// on words and epsilon-free. It is not trimmed (Connect it) and not
// necessarily topologically sorted. See lattice-determinizer-pruned.h for
// the algorithm.
//
// Returns false when a limit (max_mem, max_states, max_arcs) stopped the
// determinization before the beam: the output is then the best part, pruned
// tighter. When the beam reached is below retry_cutoff times `beam`, the
// input is pruned (PruneLattice) with a smaller beam (beam times
// sqrt(effective/beam), at least half the beam) and determinized again, up
// to 10 tries, with a log line (CompactLattice output) or warning (Lattice
// output) as Kaldi prints.
//
// The Lattice form of the output writes each string as a chain of arcs
// (word and weight on the first); ifst and ofst may be the same lattice.
#ifndef NNET3_LAT_DETERMINIZE_LATTICE_PRUNED_H_
#define NNET3_LAT_DETERMINIZE_LATTICE_PRUNED_H_

#include <fst/expanded-fst.h>
#include <fst/mutable-fst.h>

#include "lat/determinize-lattice-options.h"
#include "lat/kaldi-lattice.h"

namespace nnet3 {

bool DeterminizeLatticePruned(const fst::ExpandedFst<LatticeArc> &ifst,
                              double beam,
                              fst::MutableFst<CompactLatticeArc> *ofst,
                              const DeterminizeLatticePrunedOptions &opts =
                                  DeterminizeLatticePrunedOptions());

bool DeterminizeLatticePruned(const fst::ExpandedFst<LatticeArc> &ifst,
                              double beam, fst::MutableFst<LatticeArc> *ofst,
                              const DeterminizeLatticePrunedOptions &opts =
                                  DeterminizeLatticePrunedOptions());

}  // namespace nnet3

#endif  // NNET3_LAT_DETERMINIZE_LATTICE_PRUNED_H_
