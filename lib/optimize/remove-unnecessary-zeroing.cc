#include "optimize/remove-unnecessary-zeroing.h"

#include <vector>

#include "compile/computation-analysis.h"
#include "optimize/computation-edit.h"

namespace nnet3 {

namespace {

bool IsZeroing(const NnetComputation::Command &c) {
  return c.command_type == kSetConst && c.alpha == 0.0f;
}

// True if the zeroing command z (the first access of matrix m) can go: for
// every variable of m, z is its first access and the next access, if any,
// writes all of it without reading it. As Kaldi: a variable nothing else
// touches may stay undefined, unless the matrix goes to the user.
bool ZeroingIsUnneeded(const Analyzer &a, int32_t m, int32_t z) {
  std::vector<int32_t> variables;
  a.variables.AppendVariablesForMatrix(m, &variables);
  for (int32_t v : variables) {
    const std::vector<Access> &accesses = a.variable_accesses[v];
    if (accesses.empty() || accesses[0].command_index != z) return false;
    if (accesses.size() == 1) {
      if (a.matrix_accesses[m].is_output) return false;
    } else if (accesses[1].access_type != kWriteAccess) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool RemoveUnnecessaryZeroing(const Nnet &nnet, NnetComputation *computation) {
  Analyzer a;
  a.Init(nnet, *computation);
  bool changed = false;
  const int32_t num_matrices =
      static_cast<int32_t>(computation->matrices.size());
  for (int32_t m = 1; m < num_matrices; m++) {
    const MatrixAccesses &ma = a.matrix_accesses[m];
    if (ma.accesses.empty()) continue;
    int32_t z = ma.accesses[0].command_index;
    if (!IsZeroing(computation->commands[z])) continue;
    if (!ZeroingIsUnneeded(a, m, z)) continue;
    computation->commands[z].command_type = kNoOperation;
    changed = true;
  }
  if (changed) RemoveNoOps(computation);
  return changed;
}

}  // namespace nnet3
