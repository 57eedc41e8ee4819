// ConvertAdditionToAssignment (--optimization.convert-addition): an add
// whose destination is still all zero when it runs (it was only zeroed by
// kSetConst 0 before, nothing else wrote it) becomes the matching copy:
// kMatrixAdd -> kMatrixCopy, kAddRows -> kCopyRows, kAddRowsMulti ->
// kCopyRowsMulti, kAddToRowsMulti -> kCopyToRowsMulti, and a kPropagate
// of a kPropagateAdds component stays an add (its zeroing is kept).
//
// Needs: a valid computation (any point in the pass list).
// Guarantees: the same results; each converted command's destination was
// zero before it, and a copy of -1 rows writes zeros, which is what the add
// left there. The zeroing command itself is left for
// RemoveUnnecessaryZeroing to remove once it is no longer needed.
#ifndef NNET3_OPTIMIZE_CONVERT_ADDITION_TO_ASSIGNMENT_H_
#define NNET3_OPTIMIZE_CONVERT_ADDITION_TO_ASSIGNMENT_H_

#include <cstdint>

#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Returns true if it converted any command.
bool ConvertAdditionToAssignment(const Nnet &nnet,
                                 NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_CONVERT_ADDITION_TO_ASSIGNMENT_H_
