// OptimizeMemoryCompression (--optimization.memory-compression-level >= 1;
// Kaldi's MemoryCompressionOptimizer, level 1): a matrix that is not an
// output, is used on both sides of the forward/backward marker, and whose
// only backward use (and last use) is the read of its value by the backprop
// of a RectifiedLinearComponent — which needs just the sign — gets a
// kCompressMatrix (type 2 = uint8, range 0, truncate: keeps exactly whether
// each value is positive) right after its last forward use and a
// kDecompressMatrix right before that backprop.
//
// Needs: a computation with a kNoOperationMarker between forward and
// backward commands; Optimize() runs it last. Looped computations and
// level 0 are left alone; levels 2 and 3 behave like 1.
// Guarantees: the same results on CPU (where the executor treats both
// commands as no-ops) and on GPU (where only the sign survives, which is
// all the ReLU's backprop reads); nothing touches the matrix between the
// two commands; GetMaxMemoryUse counts the matrix at 1 byte per element
// there, so the peak never grows. Matrices that do not fit the rule
// exactly get nothing.
#ifndef NNET3_OPTIMIZE_OPTIMIZE_MEMORY_COMPRESSION_H_
#define NNET3_OPTIMIZE_OPTIMIZE_MEMORY_COMPRESSION_H_

#include <cstdint>

#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Returns true if it inserted any command.
bool OptimizeMemoryCompression(const Nnet &nnet, int32_t level,
                               NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_OPTIMIZE_MEMORY_COMPRESSION_H_
