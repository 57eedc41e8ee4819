// Fusion of memory-bound passes: three optimizer passes that merge two
// commands, each of which reads and writes a whole matrix, into one that
// does the same arithmetic in one pass over memory. They target what a
// TDNN-F layer leaves after the other passes (ReLU, batch norm in test
// mode, the bypass's in-place scale and add, the zeroing before a
// kPropagateAdds component), but apply wherever their conditions hold:
//
//   FuseReluIntoAffine   (--optimization.fuse-relu-affine)
//     an in-place ReLU propagate on s, then (next access of s) a propagate
//     that reads s and supports kFuseRectifyInput (a batch norm in test
//     mode): the ReLU goes, the second reads s through a ReLU. Only when
//     nothing reads s after the second command (it writes s in place, or
//     what follows writes s before reading it, or s is dead): the ReLU's
//     output has that single consumer, so no backprop needs it.
//   FuseScaleAndAdd      (--optimization.fuse-scale-add)
//     "s = alpha * s" (in-place kMatrixCopy), then (next access of s)
//     "s += t" (kMatrixAdd, alpha 1, t not overlapping s): one
//     kMatrixScaleAdd "s = alpha * s + t" where the add was.
//   FuseZeroing          (--optimization.fuse-zeroing)
//     "s = 0" (kSetConst 0), then (next access of s) a kPropagateAdds
//     propagate writing exactly s, whose input does not overlap s and
//     whose component supports kFuseAssignOutput (TdnnComponent without
//     bias, LinearComponent): the zeroing goes, the propagate assigns (its
//     first product with beta = 0).
//
//   if (opts.fuse_zeroing) FuseZeroing(nnet, &computation);
//
// Needs: a valid, non-looped computation (Optimize() does not run them on
// looped ones: a label between the two commands would run one without the
// other).
// Guarantees: the same results up to float rounding (the fused kernels
// round each product as the separate commands do); the removed commands
// become kNoOperation and are dropped; each returns true if it changed
// anything.
#ifndef NNET3_OPTIMIZE_FUSE_MEMORY_PASSES_H_
#define NNET3_OPTIMIZE_FUSE_MEMORY_PASSES_H_

#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

bool FuseReluIntoAffine(const Nnet &nnet, NnetComputation *computation);
bool FuseScaleAndAdd(const Nnet &nnet, NnetComputation *computation);
bool FuseZeroing(const Nnet &nnet, NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_FUSE_MEMORY_PASSES_H_
