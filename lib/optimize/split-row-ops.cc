#include "optimize/split-row-ops.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "optimize/computation-edit.h"

namespace nnet3 {

namespace {

using Command = NnetComputation::Command;
using Pair = std::pair<int32_t, int32_t>;

// Limits how many rows of the source a kCopyRows/kAddRows may span per row
// it uses (Kaldi's max_size_ratio).
constexpr int32_t kMaxRangeRatio = 2;

// One run of pairs with the same submatrix.
struct Run {
  int32_t offset = 0;     // first position in the list (row of arg1)
  int32_t size = 0;       // number of pairs
  int32_t submatrix = 0;  // the pairs' submatrix
  int32_t min_row = 0;    // smallest row of `submatrix` named
  int32_t row_range = 0;  // largest row + 1 - min_row
  // Empty if the rows are min_row, min_row + 1, ...; else row - min_row.
  std::vector<int32_t> row_offsets;
};

// Describes list[offset, offset + size) as a Run; false if it names more
// than one submatrix, contains (-1, -1) or spans too many rows.
bool GetRun(const std::vector<Pair> &list, int32_t offset, int32_t size,
            Run *run) {
  run->offset = offset;
  run->size = size;
  run->submatrix = list[offset].first;
  if (run->submatrix <= 0) return false;
  int32_t lo = list[offset].second, hi = lo;
  bool consecutive = true;
  for (int32_t i = 0; i < size; i++) {
    const Pair &p = list[offset + i];
    if (p.first != run->submatrix || p.second < 0) return false;
    if (p.second != list[offset].second + i) consecutive = false;
    lo = std::min(lo, p.second);
    hi = std::max(hi, p.second);
  }
  run->min_row = lo;
  run->row_range = hi + 1 - lo;
  run->row_offsets.clear();
  if (consecutive) return true;
  if (run->row_range > kMaxRangeRatio * size) return false;
  for (int32_t i = 0; i < size; i++)
    run->row_offsets.push_back(list[offset + i].second - lo);
  return true;
}

// Splits the list into one or two runs; false if that is not possible.
bool GetRuns(const std::vector<Pair> &list, std::vector<Run> *runs) {
  const int32_t size = static_cast<int32_t>(list.size());
  if (size == 0) return false;
  int32_t split = size;
  for (int32_t i = 1; i < size; i++)
    if (list[i].first != list[0].first) {
      split = i;
      break;
    }
  runs->assign(split == size ? 1 : 2, Run());
  if (!GetRun(list, 0, split, &(*runs)[0])) return false;
  return split == size || GetRun(list, split, size - split, &(*runs)[1]);
}

// The inverse of run.row_offsets: for each of the run's row_range rows of
// the submatrix, the run position that names it, or -1. False if a row is
// named twice.
bool InvertRowOffsets(const Run &run, std::vector<int32_t> *inverse) {
  inverse->assign(run.row_range, -1);
  for (int32_t i = 0; i < run.size; i++) {
    int32_t &slot = (*inverse)[run.row_offsets[i]];
    if (slot != -1) return false;
    slot = i;
  }
  return true;
}

// The index list the command for `run` of multi-command `c` needs (empty
// for a kMatrixCopy / kMatrixAdd); false if the run cannot be expressed.
bool GetRunIndexes(const Command &c, const Run &run,
                   std::vector<int32_t> *indexes) {
  indexes->clear();
  if (run.row_offsets.empty()) return true;
  if (c.command_type == kCopyRowsMulti || c.command_type == kAddRowsMulti) {
    *indexes = run.row_offsets;
    return true;
  }
  if (!InvertRowOffsets(run, indexes)) return false;
  // kCopyRows would zero the rows that nothing is copied to.
  return c.command_type == kAddToRowsMulti || run.row_range == run.size;
}

// The command for `run` of multi-command `c`, with `indexes` from
// GetRunIndexes.
Command MakeRunCommand(const Command &c, const Run &run,
                       std::vector<int32_t> indexes,
                       NnetComputation *computation) {
  const CommandType type = c.command_type;
  const bool to_rows = type == kCopyToRowsMulti || type == kAddToRowsMulti;
  const bool is_copy = type == kCopyRowsMulti || type == kCopyToRowsMulti;
  const int32_t own =
      computation->NewSubMatrix(c.arg1, run.offset, run.size, 0, -1);
  const int32_t other = computation->NewSubMatrix(run.submatrix, run.min_row,
                                                  run.row_range, 0, -1);
  Command out(c.alpha, kNoOperation, to_rows ? other : own,
              to_rows ? own : other);
  if (indexes.empty()) {
    out.command_type = is_copy ? kMatrixCopy : kMatrixAdd;
  } else {
    out.command_type = is_copy ? kCopyRows : kAddRows;
    out.arg3 = static_cast<int32_t>(computation->indexes.size());
    computation->indexes.push_back(std::move(indexes));
  }
  return out;
}

// Splits command c if possible; a second command goes to *inserted.
bool SplitCommand(int32_t c, NnetComputation *computation,
                  std::vector<std::pair<int32_t, Command>> *inserted) {
  const Command cmd = computation->commands[c];
  switch (cmd.command_type) {
    case kCopyRowsMulti:
    case kAddRowsMulti:
    case kCopyToRowsMulti:
    case kAddToRowsMulti:
      break;
    default:
      return false;
  }
  std::vector<Run> runs;
  if (!GetRuns(computation->indexes_multi[cmd.arg2], &runs)) return false;
  const int32_t own_matrix = computation->submatrices[cmd.arg1].matrix_index;
  std::vector<std::vector<int32_t>> indexes(runs.size());
  for (size_t i = 0; i < runs.size(); i++) {
    // Reading and writing one matrix: keep the command as it is.
    if (computation->submatrices[runs[i].submatrix].matrix_index == own_matrix)
      return false;
    if (!GetRunIndexes(cmd, runs[i], &indexes[i])) return false;
  }
  for (size_t i = 0; i < runs.size(); i++) {
    Command piece =
        MakeRunCommand(cmd, runs[i], std::move(indexes[i]), computation);
    if (i == 0)
      computation->commands[c] = piece;
    else
      inserted->emplace_back(c + 1, piece);
  }
  return true;
}

}  // namespace

bool SplitRowOps(NnetComputation *computation) {
  bool changed = false;
  std::vector<std::pair<int32_t, Command>> inserted;
  const int32_t num_commands =
      static_cast<int32_t>(computation->commands.size());
  for (int32_t c = 0; c < num_commands; c++)
    if (SplitCommand(c, computation, &inserted)) changed = true;
  InsertCommands(&inserted, computation);
  return changed;
}

}  // namespace nnet3
