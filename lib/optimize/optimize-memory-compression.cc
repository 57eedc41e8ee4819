#include "optimize/optimize-memory-compression.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "compile/computation-analysis.h"
#include "optimize/computation-edit.h"

namespace nnet3 {

namespace {

using Command = NnetComputation::Command;

// Kaldi's compression type numbers (reference 9.2).
constexpr int32_t kCompressedUint8 = 2;

// The index of the kNoOperationMarker between forward and backward
// commands, or -1.
int32_t FindForwardBackwardMarker(const NnetComputation &computation) {
  for (size_t c = 0; c < computation.commands.size(); c++)
    if (computation.commands[c].command_type == kNoOperationMarker)
      return static_cast<int32_t>(c);
  return -1;
}

// The whole submatrix of each matrix.
std::vector<int32_t> WholeSubmatrices(const NnetComputation &computation) {
  std::vector<int32_t> whole(computation.matrices.size(), 0);
  for (int32_t s = static_cast<int32_t>(computation.submatrices.size()) - 1;
       s > 0; s--)
    if (computation.IsWholeMatrix(s))
      whole[computation.submatrices[s].matrix_index] = s;
  return whole;
}

}  // namespace

bool OptimizeMemoryCompression(const Nnet &nnet, int32_t level,
                               NnetComputation *computation) {
  if (level < 1 || IsLoopedComputation(*computation)) return false;
  const int32_t middle = FindForwardBackwardMarker(*computation);
  if (middle == -1) return false;
  Analyzer a;
  a.Init(nnet, *computation);
  std::vector<int32_t> whole = WholeSubmatrices(*computation);
  std::vector<std::pair<int32_t, Command>> inserts;
  for (size_t m = 1; m < computation->matrices.size(); m++) {
    const MatrixAccesses &ma = a.matrix_accesses[m];
    if (ma.is_output || whole[m] == 0) continue;  // the user gets it whole
    const std::vector<Access> &accesses = ma.accesses;
    auto it = std::lower_bound(accesses.begin(), accesses.end(),
                               Access(middle, kReadAccess));
    // Used on both sides of the marker, and last by one backward read.
    if (it == accesses.begin() || it + 1 != accesses.end()) continue;
    const Access &forward = it[-1], &backward = it[0];
    const Command &command = computation->commands[backward.command_index];
    if (backward.access_type != kReadAccess ||
        (command.command_type != kBackprop &&
         command.command_type != kBackpropNoModelUpdate) ||
        nnet.GetComponent(command.arg1)->Type() != "RectifiedLinearComponent")
      continue;
    // The ReLU's backprop reads only whether each output is positive, which
    // 1-byte unsigned compression with range 0 (truncating) keeps exactly.
    inserts.emplace_back(
        forward.command_index + 1,
        Command(0.0f, kCompressMatrix, whole[m], kCompressedUint8, 1));
    inserts.emplace_back(backward.command_index,
                         Command(kDecompressMatrix, whole[m]));
  }
  if (inserts.empty()) return false;
  InsertCommands(&inserts, computation);
  return true;
}

}  // namespace nnet3
