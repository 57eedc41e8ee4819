#include "optimize/convert-addition-to-assignment.h"

#include <vector>

#include "compile/computation-analysis.h"
#include "optimize/computation-analysis-queries.h"

namespace nnet3 {

namespace {

// The copy that does what `type` does to an all-zero destination, or
// kNoOperation if there is none.
CommandType CopyVersionOf(const NnetComputation::Command &c) {
  switch (c.command_type) {
    case kMatrixAdd:
      return kMatrixCopy;
    case kAddRows:
      return kCopyRows;
    case kAddRowsMulti:
      return kCopyRowsMulti;
    case kAddToRowsMulti:
      // kCopyToRowsMulti supports only alpha == 1.
      return c.alpha == 1.0f ? kCopyToRowsMulti : kNoOperation;
    default:
      return kNoOperation;
  }
}

// True if the command reads from the matrix it writes to (never true of
// compiled computations; a copy would then see its own output).
bool ReadsOwnDestination(const NnetComputation &computation,
                         const NnetComputation::Command &c) {
  auto matrix = [&](int32_t s) {
    return computation.submatrices[s].matrix_index;
  };
  if (c.command_type == kMatrixAdd || c.command_type == kAddRows)
    return matrix(c.arg1) == matrix(c.arg2);
  std::vector<int32_t> others;
  IndexesMultiToSubmatrixIndexes(computation.indexes_multi[c.arg2], &others);
  for (int32_t s : others)
    if (matrix(s) == matrix(c.arg1)) return true;
  return false;
}

}  // namespace

bool ConvertAdditionToAssignment(const Nnet &nnet,
                                 NnetComputation *computation) {
  Analyzer analyzer;
  analyzer.Init(nnet, *computation);
  ComputationAnalysis analysis(*computation, analyzer);
  bool changed = false;
  const int32_t num_commands =
      static_cast<int32_t>(computation->commands.size());
  for (int32_t k = 0; k < num_commands; k++) {
    NnetComputation::Command &c = computation->commands[k];
    CommandType copy_type = CopyVersionOf(c);
    if (copy_type == kNoOperation) continue;
    // Every part the add writes must be untouched before it, apart from
    // zeroing: then the add's destination holds zeros, and any earlier
    // zeroing cannot have been undone by a write (that write would be an
    // earlier non-trivial access).
    const IntSpan written = analyzer.command_attributes[k].submatrices_written;
    bool can_convert =
        !written.empty() && !ReadsOwnDestination(*computation, c);
    for (int32_t s : written) {
      if (analysis.FirstNontrivialAccess(s) != k ||
          analysis.FirstAccess(s) == k) {
        can_convert = false;
        break;
      }
    }
    if (can_convert) {
      c.command_type = copy_type;
      changed = true;
    }
  }
  return changed;
}

}  // namespace nnet3
