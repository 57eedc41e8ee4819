// The left and right context of a "simple" network: how many frames of
// input before and after an output frame the network needs (Kaldi's
// ComputeSimpleNnetContext, used by nnet3-info, egs and decoding).
//
//   if (IsSimpleNnet(nnet)) {
//     int32_t left, right;
//     ComputeSimpleNnetContext(nnet, &left, &right);
//   }
//
// A network is simple if it has an output node "output", an input node
// "input", and either no other input or exactly one more called "ivector".
// The context is found by asking the ComputationGraphBuilder which outputs
// are computable from a window of input frames (with "ivector" supplied
// everywhere it might be read), for every t offset within the network's
// modulus, doubling the window until it exceeds the context; left = the
// first computable output frame's distance from the window start, right
// likewise at the end, maximized over the offsets. Recurrences through
// IfDefined/Failover do not add context.
#ifndef NNET3_COMPILE_NNET_CONTEXT_H_
#define NNET3_COMPILE_NNET_CONTEXT_H_

#include <cstdint>

#include "nnet/nnet.h"

namespace nnet3 {

bool IsSimpleNnet(const Nnet &nnet);

// UserError if the network is not simple, or if no output is computable
// even from 800 frames of input (the context is unbounded).
void ComputeSimpleNnetContext(const Nnet &nnet, int32_t *left_context,
                              int32_t *right_context);

}  // namespace nnet3

#endif  // NNET3_COMPILE_NNET_CONTEXT_H_
