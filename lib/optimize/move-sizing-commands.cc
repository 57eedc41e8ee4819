#include "optimize/move-sizing-commands.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "base/error.h"
#include "compile/computation-analysis.h"
#include "optimize/computation-edit.h"

namespace nnet3 {

namespace {

// True if commands c and c + 1 are "allocate s, then zero all of s": the
// pair moves as one unit.
bool IsAllocZeroPair(const NnetComputation &computation, int32_t c) {
  if (c + 1 >= static_cast<int32_t>(computation.commands.size())) return false;
  const NnetComputation::Command &a = computation.commands[c],
                                 &z = computation.commands[c + 1];
  return a.command_type == kAllocMatrix && z.command_type == kSetConst &&
         z.alpha == 0.0f && z.arg1 == a.arg1;
}

// The first access of the matrix other than the zeroing that belongs to its
// allocation pair; -1 if none.
int32_t FirstRealAccess(const MatrixAccesses &ma, bool paired) {
  for (const Access &access : ma.accesses)
    if (!(paired && access.command_index == ma.allocate_command + 1))
      return access.command_index;
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
  std::vector<bool> is_pair_zeroing(num_commands, false);
  for (size_t m = 1; m < a.matrix_accesses.size(); m++) {
    const MatrixAccesses &ma = a.matrix_accesses[m];
    int32_t alloc = ma.allocate_command;
    if (alloc != -1 &&
        computation->commands[alloc].command_type == kAllocMatrix) {
      bool paired = IsAllocZeroPair(*computation, alloc);
      if (paired) is_pair_zeroing[alloc + 1] = true;
      int32_t first = FirstRealAccess(ma, paired);
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
    if (old + 1 < num_commands && is_pair_zeroing[old + 1] &&
        computation->commands[old].command_type == kAllocMatrix)
      commands.push_back(computation->commands[old + 1]);
  }
  NNET3_ASSERT(static_cast<int32_t>(commands.size()) == num_commands);
  computation->commands.swap(commands);
  return changed;
}

}  // namespace nnet3
