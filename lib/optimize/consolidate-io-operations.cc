#include "optimize/consolidate-io-operations.h"

#include <vector>

#include "base/error.h"
#include "compile/computation-analysis.h"

namespace nnet3 {

namespace {

bool IsSegmentBoundary(CommandType type) {
  return type == kNoOperationMarker || type == kNoOperationLabel ||
         type == kGotoLabel;
}

// Checks the "Needs" of the header for the I/O command k, which moves to
// position `to` of its segment [begin, end): no other command in between
// touches (or sizes) its matrix.
void CheckMoveIsSafe(const NnetComputation &computation, const Analyzer &a,
                     int32_t k, int32_t begin, int32_t end) {
  const NnetComputation::Command &io = computation.commands[k];
  int32_t m = computation.submatrices[io.arg1].matrix_index;
  const MatrixAccesses &ma = a.matrix_accesses[m];
  bool accept = io.command_type == kAcceptInput;
  auto between = [&](int32_t c) {
    return c != k && (accept ? (c >= begin && c < k) : (c > k && c < end));
  };
  bool ok = !between(ma.allocate_command) && !between(ma.deallocate_command);
  for (const Access &access : ma.accesses)
    if (between(access.command_index) &&
        (accept || access.access_type != kReadAccess))
      ok = false;
  if (!ok)
    NNET3_INTERNAL_ERR << "ConsolidateIoOperations: cannot move the "
                       << CommandTypeName(io.command_type) << " command c" << k
                       << " to the " << (accept ? "start" : "end")
                       << " of its segment: another command in between uses "
                       << "its matrix m" << m;
}

}  // namespace

bool ConsolidateIoOperations(const Nnet &nnet, NnetComputation *computation) {
  Analyzer a;
  a.Init(nnet, *computation);
  const std::vector<NnetComputation::Command> &old = computation->commands;
  const int32_t num_commands = static_cast<int32_t>(old.size());
  std::vector<NnetComputation::Command> commands;
  commands.reserve(num_commands);
  std::vector<int32_t> inputs, middle, outputs;
  int32_t begin = 0;
  for (int32_t c = 0; c <= num_commands; c++) {
    if (c < num_commands && !IsSegmentBoundary(old[c].command_type)) {
      CommandType type = old[c].command_type;
      (type == kAcceptInput     ? inputs
       : type == kProvideOutput ? outputs
                                : middle)
          .push_back(c);
      continue;
    }
    for (int32_t k : inputs) CheckMoveIsSafe(*computation, a, k, begin, c);
    for (int32_t k : outputs) CheckMoveIsSafe(*computation, a, k, begin, c);
    for (const std::vector<int32_t> *group : {&inputs, &middle, &outputs})
      for (int32_t k : *group) commands.push_back(old[k]);
    if (c < num_commands) commands.push_back(old[c]);
    inputs.clear();
    middle.clear();
    outputs.clear();
    begin = c + 1;
  }
  bool changed = false;
  for (int32_t c = 0; c < num_commands; c++) {
    const NnetComputation::Command &x = commands[c], &y = old[c];
    if (x.command_type != y.command_type || x.arg1 != y.arg1 ||
        x.arg2 != y.arg2 || x.arg3 != y.arg3 || x.arg4 != y.arg4 ||
        x.arg5 != y.arg5 || x.arg6 != y.arg6 || x.arg7 != y.arg7 ||
        x.alpha != y.alpha) {
      changed = true;
      break;
    }
  }
  computation->commands.swap(commands);
  return changed;
}

}  // namespace nnet3
