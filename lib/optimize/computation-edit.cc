#include "optimize/computation-edit.h"

#include <algorithm>

#include "base/error.h"

namespace nnet3 {

using Command = NnetComputation::Command;
using SubMatrixInfo = NnetComputation::SubMatrixInfo;

void IdentifySubmatrixArgs(Command *c, std::vector<int32_t *> *args) {
  switch (c->command_type) {
    case kAllocMatrix:
    case kDeallocMatrix:
    case kSetConst:
    case kCopyRowsMulti:
    case kCopyToRowsMulti:
    case kAddRowsMulti:
    case kAddToRowsMulti:
    case kCompressMatrix:
    case kDecompressMatrix:
    case kAcceptInput:
    case kProvideOutput:
      args->push_back(&c->arg1);
      break;
    case kSwapMatrix:
    case kMatrixCopy:
    case kMatrixAdd:
    case kMatrixScaleAdd:
    case kCopyRows:
    case kAddRows:
    case kAddRowRanges:
      args->push_back(&c->arg1);
      args->push_back(&c->arg2);
      break;
    case kPropagate:
      args->push_back(&c->arg3);
      args->push_back(&c->arg4);
      break;
    case kBackprop:
    case kBackpropNoModelUpdate:
      args->push_back(&c->arg3);
      args->push_back(&c->arg4);
      args->push_back(&c->arg5);
      args->push_back(&c->arg6);
      break;
    default:  // no-ops, markers, labels, gotos
      break;
  }
}

void IdentifySubmatrixArgsInComputation(NnetComputation *computation,
                                        std::vector<int32_t *> *args) {
  for (Command &c : computation->commands) IdentifySubmatrixArgs(&c, args);
  for (auto &list : computation->indexes_multi)
    for (auto &pair : list) args->push_back(&pair.first);
}

void InsertCommands(std::vector<std::pair<int32_t, Command>> *new_commands,
                    NnetComputation *computation) {
  if (new_commands->empty()) return;
  std::stable_sort(
      new_commands->begin(), new_commands->end(),
      [](const std::pair<int32_t, Command> &a,
         const std::pair<int32_t, Command> &b) { return a.first < b.first; });
  const int32_t num_old = static_cast<int32_t>(computation->commands.size());
  NNET3_ASSERT(new_commands->front().first >= 0 &&
               new_commands->back().first <= num_old);
  std::vector<Command> merged;
  merged.reserve(num_old + new_commands->size());
  // old_to_new[c] is where old command c ends up.
  std::vector<int32_t> old_to_new(num_old);
  size_t next = 0;
  for (int32_t c = 0; c <= num_old; c++) {
    while (next < new_commands->size() && (*new_commands)[next].first == c)
      merged.push_back((*new_commands)[next++].second);
    if (c < num_old) {
      old_to_new[c] = static_cast<int32_t>(merged.size());
      merged.push_back(computation->commands[c]);
    }
  }
  for (Command &c : merged)
    if (c.command_type == kGotoLabel) {
      NNET3_ASSERT(c.arg1 >= 0 && c.arg1 < num_old);
      c.arg1 = old_to_new[c.arg1];
    }
  computation->commands.swap(merged);
  new_commands->clear();
}

bool RemoveNoOps(NnetComputation *computation) {
  std::vector<Command> &commands = computation->commands;
  const int32_t num_old = static_cast<int32_t>(commands.size());
  std::vector<int32_t> old_to_new(num_old, -1);
  int32_t num_new = 0;
  for (int32_t c = 0; c < num_old; c++)
    if (commands[c].command_type != kNoOperation) old_to_new[c] = num_new++;
  if (num_new == num_old) return false;
  std::vector<Command> kept;
  kept.reserve(num_new);
  for (int32_t c = 0; c < num_old; c++)
    if (old_to_new[c] != -1) kept.push_back(commands[c]);
  for (Command &c : kept)
    if (c.command_type == kGotoLabel) {
      NNET3_ASSERT(c.arg1 >= 0 && c.arg1 < num_old && old_to_new[c.arg1] != -1);
      c.arg1 = old_to_new[c.arg1];
    }
  commands.swap(kept);
  return true;
}

bool IsLoopedComputation(const NnetComputation &computation) {
  for (const Command &c : computation.commands)
    if (c.command_type == kGotoLabel) return true;
  return false;
}

void SubmatricesWrittenBy(const NnetComputation &computation, const Command &c,
                          std::vector<int32_t> *out) {
  out->clear();
  switch (c.command_type) {
    case kSetConst:
    case kAcceptInput:
    case kCompressMatrix:
    case kDecompressMatrix:
    case kMatrixCopy:
    case kMatrixAdd:
    case kMatrixScaleAdd:
    case kCopyRows:
    case kAddRows:
    case kAddRowRanges:
    case kCopyRowsMulti:
    case kAddRowsMulti:
      out->push_back(c.arg1);
      break;
    case kPropagate:
      out->push_back(c.arg4);
      break;
    case kBackprop:
    case kBackpropNoModelUpdate:
      if (c.arg6 > 0) out->push_back(c.arg6);
      break;
    case kCopyToRowsMulti:
    case kAddToRowsMulti:
      for (const auto &pair : computation.indexes_multi[c.arg2])
        if (pair.first > 0) out->push_back(pair.first);
      std::sort(out->begin(), out->end());
      out->erase(std::unique(out->begin(), out->end()), out->end());
      break;
    default:
      break;
  }
}

bool SubmatrixInfosOverlap(const SubMatrixInfo &a, const SubMatrixInfo &b) {
  return a.matrix_index == b.matrix_index &&
         a.row_offset < b.row_offset + b.num_rows &&
         b.row_offset < a.row_offset + a.num_rows &&
         a.col_offset < b.col_offset + b.num_cols &&
         b.col_offset < a.col_offset + a.num_cols;
}

bool SubmatrixInfoContains(const SubMatrixInfo &outer,
                           const SubMatrixInfo &inner) {
  return outer.matrix_index == inner.matrix_index &&
         outer.row_offset <= inner.row_offset &&
         inner.row_offset + inner.num_rows <=
             outer.row_offset + outer.num_rows &&
         outer.col_offset <= inner.col_offset &&
         inner.col_offset + inner.num_cols <= outer.col_offset + outer.num_cols;
}

bool RowsKnownToBeZero(const NnetComputation &computation,
                       int32_t command_index, const SubMatrixInfo &region) {
  if (IsLoopedComputation(computation)) return false;
  const int32_t m = region.matrix_index;
  std::vector<int32_t> written;
  for (int32_t c = command_index - 1; c >= 0; c--) {
    const Command &cmd = computation.commands[c];
    if (cmd.command_type == kAllocMatrix ||
        cmd.command_type == kDeallocMatrix) {
      if (computation.submatrices[cmd.arg1].matrix_index == m) return false;
      continue;
    }
    if (cmd.command_type == kSwapMatrix) {
      if (computation.submatrices[cmd.arg1].matrix_index == m ||
          computation.submatrices[cmd.arg2].matrix_index == m)
        return false;
      continue;
    }
    SubmatricesWrittenBy(computation, cmd, &written);
    for (int32_t s : written) {
      const SubMatrixInfo &info = computation.submatrices[s];
      if (!SubmatrixInfosOverlap(info, region)) continue;
      return cmd.command_type == kSetConst && cmd.alpha == 0.0f &&
             SubmatrixInfoContains(info, region);
    }
  }
  return false;
}

}  // namespace nnet3
