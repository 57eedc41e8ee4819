#include "optimize/optimize-memory-compression.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "compile/computation-analysis.h"
#include "optimize/computation-edit.h"

namespace nnet3 {

namespace {

using Command = NnetComputation::Command;

// Kaldi's compression type numbers (reference 9.2) and level-2 range.
constexpr int32_t kCompressedUint8 = 2;
constexpr int32_t kCompressedInt16 = 3;
constexpr float kLevel2Range = 10.0f;

// The index of the only kNoOperationMarker between forward and backward
// commands; -1 if there is none or more than one.
int32_t FindForwardBackwardMarker(const NnetComputation &computation) {
  int32_t marker = -1;
  for (size_t c = 0; c < computation.commands.size(); c++) {
    if (computation.commands[c].command_type != kNoOperationMarker) continue;
    if (marker >= 0) return -1;
    marker = static_cast<int32_t>(c);
  }
  return marker;
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

// Whether `backward` (the first backward access, which is also the last
// access) is a ReLU's backprop reading the matrix as its output value.
bool IsLastReadByReluBackprop(const Nnet &nnet, const NnetComputation &c,
                              const Access &backward) {
  const Command &command = c.commands[backward.command_index];
  return backward.access_type == kReadAccess &&
         (command.command_type == kBackprop ||
          command.command_type == kBackpropNoModelUpdate) &&
         nnet.GetComponent(command.arg1)->Type() == "RectifiedLinearComponent";
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
    // Used on both sides of the marker.
    if (it == accesses.begin() || it == accesses.end()) continue;
    const Access &forward = it[-1], &backward = it[0];
    Command compress;
    if (it + 1 == accesses.end() &&
        IsLastReadByReluBackprop(nnet, *computation, backward)) {
      // The ReLU's backprop reads only whether each output is positive,
      // which uint8 with range 0 keeps exactly.
      compress = Command(0.0f, kCompressMatrix, whole[m], kCompressedUint8, 1);
    } else if (level >= 2) {
      compress =
          Command(kLevel2Range, kCompressMatrix, whole[m], kCompressedInt16, 1);
    } else {
      continue;
    }
    inserts.emplace_back(forward.command_index + 1, compress);
    inserts.emplace_back(backward.command_index,
                         Command(1.0f, kDecompressMatrix, whole[m]));
  }
  if (inserts.empty()) return false;
  InsertCommands(&inserts, computation);
  return true;
}

}  // namespace nnet3
