#include "optimize/replace-row-with-matrix-ops.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "optimize/computation-edit.h"

namespace nnet3 {

namespace {

using Command = NnetComputation::Command;

// The shape [-1 x lead, first, first + 1, ..., first + length - 1, -1 ...].
struct RangeShape {
  int32_t lead = 0;    // number of leading -1 entries
  int32_t first = 0;   // the first non-negative value
  int32_t length = 0;  // number of non-negative values (0: all -1)
};

// False if `indexes` does not have that shape.
bool GetRangeShape(const std::vector<int32_t> &indexes, RangeShape *shape) {
  const int32_t size = static_cast<int32_t>(indexes.size());
  int32_t pos = 0;
  while (pos < size && indexes[pos] < 0) pos++;
  *shape = RangeShape();
  shape->lead = pos;
  if (pos == size) return true;
  shape->first = indexes[pos];
  while (pos < size && indexes[pos] == shape->first + shape->length) {
    pos++;
    shape->length++;
  }
  for (; pos < size; pos++)
    if (indexes[pos] >= 0) return false;
  return true;
}

// Queues a kSetConst(0) of rows [begin, begin + num_rows) of submatrix s
// before command c, unless they are zero there already.
void ZeroRowsIfNeeded(int32_t c, int32_t s, int32_t begin, int32_t num_rows,
                      NnetComputation *computation,
                      std::vector<std::pair<int32_t, Command>> *inserted) {
  if (num_rows == 0) return;
  NnetComputation::SubMatrixInfo region = computation->submatrices[s];
  region.row_offset += begin;
  region.num_rows = num_rows;
  if (RowsKnownToBeZero(*computation, c, region)) return;
  int32_t rows = computation->NewSubMatrix(s, begin, num_rows, 0, -1);
  inserted->emplace_back(c, Command(0.0f, kSetConst, rows));
}

bool ReplaceCommand(int32_t c, NnetComputation *computation,
                    std::vector<std::pair<int32_t, Command>> *inserted) {
  Command cmd = computation->commands[c];
  if (cmd.command_type != kCopyRows && cmd.command_type != kAddRows)
    return false;
  const bool is_copy = cmd.command_type == kCopyRows;
  if (computation->submatrices[cmd.arg1].matrix_index ==
      computation->submatrices[cmd.arg2].matrix_index)
    return false;
  const std::vector<int32_t> &indexes = computation->indexes[cmd.arg3];
  const int32_t size = static_cast<int32_t>(indexes.size());
  RangeShape shape;
  if (!GetRangeShape(indexes, &shape)) return false;
  if (shape.length == 0) {  // all -1
    if (!is_copy) return false;
    computation->commands[c] = Command(0.0f, kSetConst, cmd.arg1);
    return true;
  }
  if (is_copy) {
    const int32_t trail_begin = shape.lead + shape.length;
    ZeroRowsIfNeeded(c, cmd.arg1, 0, shape.lead, computation, inserted);
    ZeroRowsIfNeeded(c, cmd.arg1, trail_begin, size - trail_begin, computation,
                     inserted);
  }
  const int32_t dest =
      computation->NewSubMatrix(cmd.arg1, shape.lead, shape.length, 0, -1);
  const int32_t src =
      computation->NewSubMatrix(cmd.arg2, shape.first, shape.length, 0, -1);
  computation->commands[c] =
      Command(cmd.alpha, is_copy ? kMatrixCopy : kMatrixAdd, dest, src);
  return true;
}

}  // namespace

bool ReplaceRowWithMatrixOps(NnetComputation *computation) {
  bool changed = false;
  std::vector<std::pair<int32_t, Command>> inserted;
  const int32_t num_commands =
      static_cast<int32_t>(computation->commands.size());
  for (int32_t c = 0; c < num_commands; c++)
    if (ReplaceCommand(c, computation, &inserted)) changed = true;
  InsertCommands(&inserted, computation);
  return changed;
}

}  // namespace nnet3
