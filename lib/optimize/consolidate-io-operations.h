// ConsolidateIoOperations (always run by Optimize()): within each segment
// of the computation (the commands between kNoOperationMarker commands),
// kAcceptInput commands move to the start and kProvideOutput commands to
// the end, each group keeping its order. NnetComputer::Run() stops at I/O
// commands, so afterwards it stops only at segment boundaries: the user can
// give every input of a segment before the first Run().
//
// Needs: a valid computation in which no command of a segment before its
// kAcceptInput commands touches their matrices (true of compiled
// computations: an input matrix is allocated by its kAcceptInput) and none
// after a kProvideOutput changes its matrix.
// Guarantees: the same results; segment boundaries unchanged.
#ifndef NNET3_OPTIMIZE_CONSOLIDATE_IO_OPERATIONS_H_
#define NNET3_OPTIMIZE_CONSOLIDATE_IO_OPERATIONS_H_

#include <cstdint>

#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Returns true if it moved any command.
bool ConsolidateIoOperations(const Nnet &nnet, NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_CONSOLIDATE_IO_OPERATIONS_H_
