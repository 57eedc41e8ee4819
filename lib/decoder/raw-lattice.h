// The decoder's token lattice as Kaldi's raw, state-level Lattice: one
// state per token, frame by frame, each frame's tokens in topological
// order of their epsilon links (TokenLattice::TopSortTokens), so state 0 is
// the start token; one arc per forward link, weight (graph cost, acoustic
// cost with the frame's cost offset taken out).
//
//   Lattice raw;
//   if (!TokenLatticeToLattice(lattice, cost_offsets, &final_costs, &raw))
//     ...   // some frame has no tokens (warned)
//
// Final weights: (final cost, 0) for the last frame's tokens in
// `final_costs` when it is given and not empty; else One() for every token
// of the last frame (no token reached a final state, or final probabilities
// are not wanted).
#ifndef NNET3_DECODER_RAW_LATTICE_H_
#define NNET3_DECODER_RAW_LATTICE_H_

#include <vector>

#include "decoder/token-lattice.h"
#include "lat/kaldi-lattice.h"

namespace nnet3 {

// Returns false, with a warning and *ofst empty, if a frame has no tokens.
bool TokenLatticeToLattice(const TokenLattice &lattice,
                           const std::vector<float> &cost_offsets,
                           const FinalCostMap *final_costs, Lattice *ofst);

}  // namespace nnet3

#endif  // NNET3_DECODER_RAW_LATTICE_H_
