// OptimizeMemoryCompression (--optimization.memory-compression-level;
// Kaldi's MemoryCompressionOptimizer): a matrix that is not an output and
// is used on both sides of the forward/backward marker is compressed right
// after its last forward use and decompressed right before its first
// backward use:
//  - level 1: when that backward use is its last use and is the read of its
//    value by the backprop of a RectifiedLinearComponent, which needs only
//    whether each value is positive: type 2 (uint8) with range 0 and
//    truncate, which keeps exactly that (lossless for the ReLU);
//  - level 2 and 3 (Kaldi has no level 3): the level-1 rule first, and
//    every other such matrix as type 3 (int16) with range 10 and truncate:
//    values in [-10, 10] to within 10/32767 (half that, rounded), larger
//    ones clamped.
//
// Needs: a computation with a single kNoOperationMarker between forward and
// backward commands; Optimize() runs it last. Looped computations and
// level 0 are left alone, as is a computation with several markers.
// Guarantees: nothing touches a matrix between its two commands; the
// executor frees its floats meanwhile (nnet-computer.h), and
// GetMaxMemoryUse counts 1 or 2 bytes per element there (and both forms
// while each command runs). The choices, types and ranges are Kaldi's.
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
