// RemoveUnnecessaryAllocation (--optimization.allocate-from-other): a
// kDeallocMatrix of one matrix followed later by a kAllocMatrix of a matrix
// with the same rows, columns and stride type becomes one kSwapMatrix at
// the place of the allocation (the new matrix takes the freed one's memory;
// the old one is freed by the swap) and the deallocation disappears. As in
// Kaldi, the latest deallocation is paired first, with the earliest free
// allocation after it; unlike Kaldi, a pair is used only if keeping the
// freed memory until the allocation does not raise the peak.
//
// Needs: a valid non-looped computation, best after MoveSizingCommands.
// Guarantees: the same results (kAllocMatrix leaves contents undefined, so
// inheriting old contents is equivalent) and GetMaxMemoryUse unchanged or
// lower; the checker sees the swap as the allocation of the new matrix and
// the deallocation of the old one.
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
