// The word insertion penalty of Kaldi's scoring (lattice-add-penalty,
// AddWordInsPenToCompactLattice): a cost added to the graph (language model)
// part of every arc that carries a word, so that the best path trades words
// against their acoustic evidence. Penalties are negative log-probabilities
// (base e), like every lattice cost.
//
//   AddWordInsPenToCompactLattice(0.5, &clat);   // each word costs 0.5 more
//   AddWordInsPenToCompactLattice(-0.5, &clat);  // and back (up to rounding)
//
// Arcs with label 0 (no word) and final weights are untouched. The cost is
// added in float, as Kaldi adds it.
#ifndef NNET3_LAT_WORD_INSERTION_PENALTY_H_
#define NNET3_LAT_WORD_INSERTION_PENALTY_H_

#include "lat/kaldi-lattice.h"

namespace nnet3 {

void AddWordInsPenToCompactLattice(float word_ins_penalty,
                                   CompactLattice *clat);

}  // namespace nnet3

#endif  // NNET3_LAT_WORD_INSERTION_PENALTY_H_
