// OptimizeMemoryCompression (--optimization.memory-compression-level >= 1):
// a matrix whose values are kept from the forward pass only for the
// backprop of a component that needs just their sign (a ReLU, i.e. a
// RectifiedLinearComponent, whose backprop reads its output value) is
// compressed losslessly after its last forward use (kCompressMatrix, 1-byte
// type with range 0 and truncation, which keeps the sign) and decompressed
// just before its first backward use (kDecompressMatrix).
//
// Needs: a computation with a kNoOperationMarker between forward and
// backward commands, after ConsolidateIoOperations.
// Guarantees: the same results on CPU (where the executor treats the two
// commands as no-ops) and on GPU (where only the sign survives, which is
// all the ReLU's backprop reads); the matrix is not touched between the
// two commands. Levels 2 and 3 behave like 1. When a matrix does not fit
// the rule exactly, nothing is inserted for it.
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
