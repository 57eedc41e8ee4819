// ConsolidateModelUpdate (--optimization.consolidate-model-update):
// when an updatable component is backpropagated by several commands (an
// RNN's layer at several time steps), its model update is done once, on
// the concatenated inputs and output derivatives, instead of once per
// command.
//
// Needs: need_model_derivative set (otherwise nothing changes).
// Guarantees: the same data derivatives and the same total model update
// (for components whose update is a sum of per-row contributions, as
// affine-like components have; components with kUsesMemo or that would
// not be updated per-row linearly are left alone); the kBackprop commands
// of such a component become kBackpropNoModelUpdate (or are removed when
// they have no in-deriv), and one combined kBackprop with no in-deriv is
// added at the end of the backward pass, reading new matrices filled by
// kMatrixCopy commands from the original in-values and out-derivs. For a
// component backpropagated once (any feed-forward net), nothing changes.
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
