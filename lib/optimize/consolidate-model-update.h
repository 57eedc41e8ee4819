// ConsolidateModelUpdate (--optimization.consolidate-model-update): when
// an updatable simple component without memos is backpropagated by several
// kBackprop commands (an RNN's layer at each time step), its model update
// is done once, on the concatenated inputs / outputs and output
// derivatives, instead of once per command (Kaldi's ModelUpdateConsolidator).
//
// The per-step commands become kBackpropNoModelUpdate (or disappear when
// they have no input derivative); before each, kMatrixCopy commands append
// its in-value / out-value (as the component needs) and out-deriv to new
// matrices (allocated before the first copy, freed at the end); one
// kBackprop with no input derivative is added after all other commands.
//
// Needs: nothing in particular (it runs second); need_model_derivative,
// otherwise nothing changes.
// Guarantees: the same data derivatives and the same gradient (a sum over
// rows, so only the order of additions changes); with natural-gradient
// components the preconditioning now sees all rows at once, as in Kaldi.
// The new matrices may raise the peak memory: the price of fewer, larger
// updates. Feed-forward networks (each component backpropagated once) are
// unchanged.
#ifndef NNET3_OPTIMIZE_CONSOLIDATE_MODEL_UPDATE_H_
#define NNET3_OPTIMIZE_CONSOLIDATE_MODEL_UPDATE_H_

#include <cstdint>

#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Returns true if it changed the computation.
bool ConsolidateModelUpdate(const Nnet &nnet, NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_CONSOLIDATE_MODEL_UPDATE_H_
