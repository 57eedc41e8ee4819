// MoveSizingCommands (--optimization.move-sizing-commands): each
// kAllocMatrix is moved to just before the first command that accesses its
// matrix, and each kDeallocMatrix to just after the last one, so that
// matrices live no longer than they must. A zeroing of the whole matrix
// that is its first access after the allocation moves with it (Kaldi pairs
// only an allocation with a zeroing in the next command; our variable
// merging can put other sizing commands between them).
//
// Needs: a valid computation.
// Guarantees: the same results and no more peak memory (GetMaxMemoryUse);
// an allocation that is moved stays before every access of its matrix and a
// deallocation stays after every access; no command crosses a
// kNoOperationMarker / kNoOperationLabel / kGotoLabel other than sizing
// commands moving within their segment's range of accesses; kSwapMatrix
// commands stay where they are.
#ifndef NNET3_OPTIMIZE_MOVE_SIZING_COMMANDS_H_
#define NNET3_OPTIMIZE_MOVE_SIZING_COMMANDS_H_

#include <cstdint>

#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Returns true if it moved any command.
bool MoveSizingCommands(const Nnet &nnet, NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_MOVE_SIZING_COMMANDS_H_
