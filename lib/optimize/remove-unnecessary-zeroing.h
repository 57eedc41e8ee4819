// RemoveUnnecessaryZeroing (--optimization.initialize-undefined): removes
// a kSetConst(0) of a whole matrix when no part of the matrix is read
// before it is overwritten by something other than zeroing, so the zeros
// are never seen. As Kaldi, a part of the matrix that nothing but the
// zeroing touches may stay undefined, unless the matrix goes to the user.
//
// Needs: a valid computation.
// Guarantees: the same results; every variable of a removed zeroing's
// matrix is written before it is read, or (matrix not an output) never
// touched again. Such untouched parts fail the checker's
// check_unused_variables, which checks of optimized computations turn off.
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
