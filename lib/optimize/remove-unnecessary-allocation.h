// RemoveUnnecessaryAllocation (--optimization.allocate-from-other): a
// kDeallocMatrix of one matrix followed later by a kAllocMatrix of a matrix
// with the same size and stride type becomes one kSwapMatrix at the place
// of the allocation (the new matrix takes the freed one's memory) and the
// deallocation disappears; the freed matrix is then deallocated by the
// swap.
//
// Needs: a valid computation, best after MoveSizingCommands.
// Guarantees: the same results (kAllocMatrix leaves contents undefined, so
// inheriting old contents is equivalent) and no more peak memory; the
// checker sees the swap as the allocation of the new matrix and the
// deallocation of the old one.
#ifndef NNET3_OPTIMIZE_REMOVE_UNNECESSARY_ALLOCATION_H_
#define NNET3_OPTIMIZE_REMOVE_UNNECESSARY_ALLOCATION_H_

#include <cstdint>

#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Returns true if it replaced any pair of commands.
bool RemoveUnnecessaryAllocation(const Nnet &nnet,
                                 NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_REMOVE_UNNECESSARY_ALLOCATION_H_
