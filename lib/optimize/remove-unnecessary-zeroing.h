// RemoveUnnecessaryZeroing (--optimization.initialize-undefined): removes
// a kSetConst(0) of a whole matrix when no part of the matrix is read
// before it is overwritten by something other than zeroing, so the zeros
// are never seen.
//
// Needs: a valid computation.
// Guarantees: the same results; the removed zeroing commands' matrices are
// fully written (every variable) before any of their variables is read.
#ifndef NNET3_OPTIMIZE_REMOVE_UNNECESSARY_ZEROING_H_
#define NNET3_OPTIMIZE_REMOVE_UNNECESSARY_ZEROING_H_

#include <cstdint>

#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Returns true if it removed any command.
bool RemoveUnnecessaryZeroing(const Nnet &nnet, NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_REMOVE_UNNECESSARY_ZEROING_H_
