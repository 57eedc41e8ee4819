#include "optimize/snip-row-ops.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "base/error.h"
#include "optimize/computation-edit.h"

namespace nnet3 {

namespace {

using Command = NnetComputation::Command;
using Pair = std::pair<int32_t, int32_t>;

// How many entries at each end of `list` are "nothing"; both are 0 when the
// whole list is (we leave such lists alone).
template <class T, class IsNothing>
void CountNothingAtEnds(const std::vector<T> &list, IsNothing is_nothing,
                        int32_t *num_leading, int32_t *num_trailing) {
  const int32_t size = static_cast<int32_t>(list.size());
  int32_t lead = 0, trail = 0;
  while (lead < size && is_nothing(list[lead])) lead++;
  if (lead == size) {
    *num_leading = *num_trailing = 0;
    return;
  }
  while (is_nothing(list[size - 1 - trail])) trail++;
  *num_leading = lead;
  *num_trailing = trail;
}

// For the copy commands, whose "nothing" rows are set to zero: keeps an end
// only where those rows of `submatrix` are already zero before command c.
void KeepOnlyZeroEnds(const NnetComputation &computation, int32_t c,
                      int32_t submatrix, int32_t size, int32_t *num_leading,
                      int32_t *num_trailing) {
  NnetComputation::SubMatrixInfo region = computation.submatrices[submatrix];
  if (*num_leading > 0) {
    NnetComputation::SubMatrixInfo lead = region;
    lead.num_rows = *num_leading;
    if (!RowsKnownToBeZero(computation, c, lead)) *num_leading = 0;
  }
  if (*num_trailing > 0) {
    NnetComputation::SubMatrixInfo trail = region;
    trail.row_offset += size - *num_trailing;
    trail.num_rows = *num_trailing;
    if (!RowsKnownToBeZero(computation, c, trail)) *num_trailing = 0;
  }
}

// Snips command c, whose row list is `lists`[*list_index] and whose narrowed
// submatrix is *submatrix: appends the shortened list and the new
// submatrix. `is_copy` asks for the known-zero condition.
template <class T, class IsNothing>
bool SnipList(int32_t c, bool is_copy, IsNothing is_nothing,
              std::vector<std::vector<T>> *lists, int32_t *list_index,
              int32_t *submatrix, NnetComputation *computation) {
  NNET3_ASSERT(*list_index >= 0 &&
               *list_index < static_cast<int32_t>(lists->size()));
  const std::vector<T> &list = (*lists)[*list_index];
  const int32_t size = static_cast<int32_t>(list.size());
  int32_t lead, trail;
  CountNothingAtEnds(list, is_nothing, &lead, &trail);
  if (is_copy)
    KeepOnlyZeroEnds(*computation, c, *submatrix, size, &lead, &trail);
  if (lead == 0 && trail == 0) return false;
  const int32_t new_size = size - lead - trail;
  std::vector<T> snipped(list.begin() + lead, list.begin() + lead + new_size);
  *list_index = static_cast<int32_t>(lists->size());
  lists->push_back(std::move(snipped));
  *submatrix = computation->NewSubMatrix(*submatrix, lead, new_size, 0, -1);
  return true;
}

bool SnipCommand(int32_t c, NnetComputation *computation) {
  // Edit a copy; it replaces the original only if something was snipped.
  Command cmd = computation->commands[c];
  auto negative_index = [](int32_t i) { return i < 0; };
  auto negative_pair = [](const Pair &p) { return p.first < 0; };
  auto empty_range = [](const Pair &p) { return p.first == p.second; };
  bool changed = false;
  switch (cmd.command_type) {
    case kAddRows:
    case kCopyRows:
      changed =
          SnipList(c, cmd.command_type == kCopyRows, negative_index,
                   &computation->indexes, &cmd.arg3, &cmd.arg1, computation);
      break;
    case kAddRowsMulti:
    case kCopyRowsMulti:
    case kAddToRowsMulti:
    case kCopyToRowsMulti:
      changed = SnipList(c, cmd.command_type == kCopyRowsMulti, negative_pair,
                         &computation->indexes_multi, &cmd.arg2, &cmd.arg1,
                         computation);
      break;
    case kAddRowRanges:
      changed = SnipList(c, false, empty_range, &computation->indexes_ranges,
                         &cmd.arg3, &cmd.arg1, computation);
      break;
    default:
      break;
  }
  if (changed) computation->commands[c] = cmd;
  return changed;
}

}  // namespace

bool SnipRowOps(NnetComputation *computation) {
  bool changed = false;
  const int32_t num_commands =
      static_cast<int32_t>(computation->commands.size());
  for (int32_t c = 0; c < num_commands; c++)
    if (SnipCommand(c, computation)) changed = true;
  return changed;
}

}  // namespace nnet3
