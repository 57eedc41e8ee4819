#include "optimize/fuse-memory-passes.h"

#include <algorithm>
#include <vector>

#include "compile/computation-analysis.h"
#include "optimize/computation-edit.h"

namespace nnet3 {

namespace {

using Command = NnetComputation::Command;

std::vector<int32_t> VariablesOf(const Analyzer &a, int32_t s) {
  std::vector<int32_t> variables;
  a.variables.AppendVariablesForSubmatrix(s, &variables);
  return variables;
}

// The first access of variable v after command k, or null.
const Access *NextAccess(const Analyzer &a, int32_t v, int32_t k) {
  const std::vector<Access> &accesses = a.variable_accesses[v];
  auto it =
      std::upper_bound(accesses.begin(), accesses.end(), Access(k, kReadAccess),
                       [](const Access &x, const Access &y) { return x < y; });
  return it == accesses.end() ? nullptr : &*it;
}

// The command that next accesses submatrix s after command k, if that is
// one command for every variable of s; -1 otherwise.
int32_t CommonNextAccess(const Analyzer &a, int32_t s, int32_t k) {
  int32_t next = -1;
  for (int32_t v : VariablesOf(a, s)) {
    const Access *access = NextAccess(a, v, k);
    if (access == nullptr) return -1;
    if (next != -1 && access->command_index != next) return -1;
    next = access->command_index;
  }
  return next;
}

// True if nothing reads submatrix s after command k: each variable's next
// access writes it without reading, or there is none and the matrix does
// not go to the user.
bool DeadAfter(const Analyzer &a, const NnetComputation &c, int32_t s,
               int32_t k) {
  for (int32_t v : VariablesOf(a, s)) {
    const Access *access = NextAccess(a, v, k);
    if (access == nullptr) {
      if (a.matrix_accesses[c.submatrices[s].matrix_index].is_output)
        return false;
    } else if (access->access_type != kWriteAccess) {
      return false;
    }
  }
  return true;
}

// A propagate that runs unfused, without memo or stats.
bool IsPlainPropagate(const Command &c) {
  return c.command_type == kPropagate && c.Fusion() == 0 && c.arg5 <= 0 &&
         c.arg6 != 1;
}

// Returns the command that can absorb the in-place ReLU r, or -1.
int32_t ReluConsumer(const Nnet &nnet, const Analyzer &a,
                     const NnetComputation &c, int32_t r) {
  const Command &relu = c.commands[r];
  if (!IsPlainPropagate(relu) || relu.arg3 != relu.arg4 ||
      nnet.GetComponent(relu.arg1)->Type() != "RectifiedLinearComponent")
    return -1;
  const int32_t s = relu.arg4;
  const int32_t b = CommonNextAccess(a, s, r);
  if (b < 0) return -1;
  const Command &next = c.commands[b];
  if (!IsPlainPropagate(next) || next.arg3 != s ||
      !nnet.GetComponent(next.arg1)->SupportsPropagateFusion(kFuseRectifyInput))
    return -1;
  // The rectified values must have no other reader.
  if (next.arg4 != s && !DeadAfter(a, c, s, b)) return -1;
  return b;
}

}  // namespace

bool FuseReluIntoAffine(const Nnet &nnet, NnetComputation *computation) {
  Analyzer a;
  a.Init(nnet, *computation);
  bool changed = false;
  const int32_t n = static_cast<int32_t>(computation->commands.size());
  for (int32_t r = 0; r < n; r++) {
    const int32_t b = ReluConsumer(nnet, a, *computation, r);
    if (b < 0) continue;
    computation->commands[r].command_type = kNoOperation;
    computation->commands[b].arg7 = kFuseRectifyInput;
    changed = true;
  }
  if (changed) RemoveNoOps(computation);
  return changed;
}

bool FuseScaleAndAdd(const Nnet &nnet, NnetComputation *computation) {
  Analyzer a;
  a.Init(nnet, *computation);
  bool changed = false;
  std::vector<Command> &commands = computation->commands;
  const int32_t n = static_cast<int32_t>(commands.size());
  for (int32_t k = 0; k < n; k++) {
    const Command &scale = commands[k];
    if (scale.command_type != kMatrixCopy || scale.arg1 != scale.arg2) continue;
    const int32_t s = scale.arg1;
    const int32_t k2 = CommonNextAccess(a, s, k);
    if (k2 < 0) continue;
    Command &add = commands[k2];
    if (add.command_type != kMatrixAdd || add.arg1 != s || add.alpha != 1.0f ||
        SubmatrixInfosOverlap(computation->submatrices[s],
                              computation->submatrices[add.arg2]))
      continue;
    add.command_type = kMatrixScaleAdd;
    add.alpha = scale.alpha;
    commands[k].command_type = kNoOperation;
    changed = true;
  }
  if (changed) RemoveNoOps(computation);
  return changed;
}

bool FuseZeroing(const Nnet &nnet, NnetComputation *computation) {
  Analyzer a;
  a.Init(nnet, *computation);
  bool changed = false;
  std::vector<Command> &commands = computation->commands;
  const int32_t n = static_cast<int32_t>(commands.size());
  for (int32_t z = 0; z < n; z++) {
    const Command &zero = commands[z];
    if (zero.command_type != kSetConst || zero.alpha != 0.0f) continue;
    const int32_t s = zero.arg1;
    const int32_t p = CommonNextAccess(a, s, z);
    if (p < 0) continue;
    Command &prop = commands[p];
    if (!IsPlainPropagate(prop) || prop.arg4 != s ||
        (prop.arg3 > 0 &&
         SubmatrixInfosOverlap(computation->submatrices[s],
                               computation->submatrices[prop.arg3])))
      continue;
    const Component *component = nnet.GetComponent(prop.arg1);
    if (!(component->Properties() & kPropagateAdds) ||
        !component->SupportsPropagateFusion(kFuseAssignOutput))
      continue;
    prop.arg7 = kFuseAssignOutput;
    commands[z].command_type = kNoOperation;
    changed = true;
  }
  if (changed) RemoveNoOps(computation);
  return changed;
}

}  // namespace nnet3
