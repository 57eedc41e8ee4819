#include "optimize/move-sizing-commands.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "base/error.h"
#include "compile/computation-analysis.h"
#include "optimize/computation-edit.h"

namespace nnet3 {

namespace {

// The command that zeroes the whole of matrix ma right after its
// allocation, or -1: Kaldi pairs an allocation with a zeroing in the next
// command; a merge of two matrices (VariableMergingOptimization keeps the
// earlier allocation) can leave other matrices' sizing commands between
// them, so any whole-matrix zeroing that is the matrix's first access after
// its allocation counts, as long as a real access follows it to move to.
int32_t ZeroingOfAllocation(const NnetComputation &computation,
                            const MatrixAccesses &ma) {
  const int32_t alloc = ma.allocate_command;
  size_t i = 0;
  while (i < ma.accesses.size() && ma.accesses[i].command_index <= alloc) i++;
  if (i == ma.accesses.size()) return -1;
  const int32_t z = ma.accesses[i].command_index;
  const NnetComputation::Command &a = computation.commands[alloc],
                                 &zc = computation.commands[z];
  if (zc.command_type != kSetConst || zc.alpha != 0.0f ||
      !computation.IsWholeMatrix(zc.arg1) ||
      computation.submatrices[zc.arg1].matrix_index !=
          computation.submatrices[a.arg1].matrix_index)
    return -1;
  if (z == alloc + 1 || i + 1 < ma.accesses.size()) return z;
  return -1;
}

// The first access of the matrix other than its allocation's zeroing;
// -1 if none.
int32_t FirstRealAccess(const MatrixAccesses &ma, int32_t zeroing) {
  for (const Access &access : ma.accesses)
    if (access.command_index != zeroing) return access.command_index;
  return -1;
}

}  // namespace

bool MoveSizingCommands(const Nnet &nnet, NnetComputation *computation) {
  if (IsLoopedComputation(*computation)) return false;
  Analyzer a;
  a.Init(nnet, *computation);
  const int32_t num_commands =
      static_cast<int32_t>(computation->commands.size());
  // Sort keys are 3 * (position): an allocation goes to 3 * first - 1 (just
  // before its first access), a deallocation to 3 * last + 1 (just after
  // its last access); ties keep the old order.
  std::vector<std::pair<int64_t, int32_t>> order(num_commands);
  for (int32_t c = 0; c < num_commands; c++) order[c] = {3 * int64_t(c), c};
  // zeroing_of[c]: the zeroing emitted right after allocation c, or -1.
  std::vector<int32_t> zeroing_of(num_commands, -1);
  std::vector<bool> is_pair_zeroing(num_commands, false);
  for (size_t m = 1; m < a.matrix_accesses.size(); m++) {
    const MatrixAccesses &ma = a.matrix_accesses[m];
    int32_t alloc = ma.allocate_command;
    if (alloc != -1 &&
        computation->commands[alloc].command_type == kAllocMatrix) {
      int32_t zeroing = ZeroingOfAllocation(*computation, ma);
      if (zeroing != -1) {
        zeroing_of[alloc] = zeroing;
        is_pair_zeroing[zeroing] = true;
      }
      int32_t first = FirstRealAccess(ma, zeroing);
      if (first != -1) {
        NNET3_ASSERT(first > alloc);
        order[alloc].first = 3 * int64_t(first) - 1;
      }
    }
    if (ma.deallocate_command != -1 && !ma.accesses.empty() &&
        computation->commands[ma.deallocate_command].command_type ==
            kDeallocMatrix) {
      int32_t last = ma.accesses.back().command_index;
      NNET3_ASSERT(last < ma.deallocate_command);
      order[ma.deallocate_command].first = 3 * int64_t(last) + 1;
    }
  }
  std::sort(order.begin(), order.end());
  std::vector<NnetComputation::Command> commands;
  commands.reserve(num_commands);
  bool changed = false;
  for (const auto &p : order) {
    int32_t old = p.second;
    if (is_pair_zeroing[old]) continue;  // emitted with its allocation
    if (static_cast<int32_t>(commands.size()) != old) changed = true;
    commands.push_back(computation->commands[old]);
    if (zeroing_of[old] != -1)
      commands.push_back(computation->commands[zeroing_of[old]]);
  }
  NNET3_ASSERT(static_cast<int32_t>(commands.size()) == num_commands);
  computation->commands.swap(commands);
  return changed;
}

}  // namespace nnet3
