#include "optimize/variable-merging-optimization.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "base/error.h"
#include "compile/computation-analysis.h"
#include "optimize/computation-analysis-queries.h"
#include "optimize/computation-edit.h"
#include "optimize/renumber-computation.h"

namespace nnet3 {

namespace {

using Command = NnetComputation::Command;
using SubMatrixInfo = NnetComputation::SubMatrixInfo;

// One round of merging over a fixed analysis of the computation.
class VariableMergingOptimizer {
 public:
  VariableMergingOptimizer(const NnetOptimizeOptions &opts, const Nnet &nnet,
                           NnetComputation *computation)
      : opts_(opts), nnet_(nnet), computation_(computation) {
    analyzer_.Init(nnet, *computation);
    touched_.assign(computation->matrices.size(), false);
  }

  // Returns true if it merged anything (the computation then still holds
  // no-ops and unused submatrices).
  bool MergeVariables();

 private:
  // The (s1, s2) of candidate command c, or false.
  bool GetCandidate(int32_t c, int32_t *s1, int32_t *s2) const;
  // Conditions c1-c7 and c12: which merge directions are possible at all.
  void AllowedDirections(int32_t s1, int32_t s2, bool *left, bool *right) const;
  bool AllocationsOk(int32_t m) const;
  // c8 / c9.
  bool AccessesAllowMerge(int32_t c, int32_t s1, int32_t s2,
                          bool is_assignment) const;
  // c10: the zeroings of s2 before c to remove; false if one cannot be.
  bool GetDeadZeroings(int32_t c, int32_t s1, int32_t s2, bool left,
                       std::vector<int32_t> *dead) const;
  // Right merges: m1's zeroings would become zeroings of part of m2 that
  // RemoveUnnecessaryZeroing cannot remove, so those whose zeros are
  // always overwritten before being read are removed here.
  void AppendDeadZeroingsOfSource(int32_t m1, std::vector<int32_t> *dead) const;
  // c11, with `removed` the commands the merge will remove.
  bool OutputsAllowMerge(int32_t m1, int32_t m2,
                         const std::vector<int32_t> &removed) const;
  // Tries a merge in one direction; true if it merged.
  bool TryMerge(int32_t c, int32_t s1, int32_t s2, bool left,
                bool is_assignment);
  void DoMerge(int32_t s_keep, int32_t s_discard,
               const std::vector<int32_t> &removed);
  void MakeNoOp(int32_t c) {
    computation_->commands[c] = Command(kNoOperation);
  }
  int32_t MatrixOf(int32_t s) const {
    return computation_->submatrices[s].matrix_index;
  }

  const NnetOptimizeOptions &opts_;
  const Nnet &nnet_;
  NnetComputation *computation_;
  Analyzer analyzer_;
  std::vector<bool> touched_;  // c5
};

bool VariableMergingOptimizer::GetCandidate(int32_t c, int32_t *s1,
                                            int32_t *s2) const {
  const Command &cmd = computation_->commands[c];
  *s1 = *s2 = -1;
  if (cmd.command_type == kMatrixCopy && opts_.remove_assignments) {
    *s1 = cmd.arg2;
    *s2 = cmd.arg1;
  } else if (cmd.command_type == kPropagate && opts_.propagate_in_place) {
    const int32_t props = nnet_.GetComponent(cmd.arg1)->Properties();
    if ((props & kPropagateInPlace) && !(props & kPropagateAdds)) {
      *s1 = cmd.arg3;
      *s2 = cmd.arg4;
    }
  } else if ((cmd.command_type == kBackprop ||
              cmd.command_type == kBackpropNoModelUpdate) &&
             opts_.backprop_in_place) {
    const int32_t props = nnet_.GetComponent(cmd.arg1)->Properties();
    if ((props & kBackpropInPlace) && !(props & kBackpropAdds) &&
        cmd.arg5 > 0 && cmd.arg6 > 0) {
      const int32_t m1 = MatrixOf(cmd.arg5), m2 = MatrixOf(cmd.arg6);
      for (int32_t value : {cmd.arg3, cmd.arg4})
        if (value > 0 && (MatrixOf(value) == m1 || MatrixOf(value) == m2))
          return false;
      *s1 = cmd.arg5;
      *s2 = cmd.arg6;
    }
  }
  if (*s1 <= 0 || *s2 <= 0) return false;
  const SubMatrixInfo &a = computation_->submatrices[*s1],
                      &b = computation_->submatrices[*s2];
  return a.matrix_index != b.matrix_index && a.num_rows == b.num_rows &&
         a.num_cols == b.num_cols && !touched_[a.matrix_index] &&
         !touched_[b.matrix_index];
}

bool VariableMergingOptimizer::AllocationsOk(int32_t m) const {
  const MatrixAccesses &ma = analyzer_.matrix_accesses[m];
  if (ma.allocate_command == -1) return false;
  const CommandType alloc =
      computation_->commands[ma.allocate_command].command_type;
  if (alloc != kAllocMatrix && alloc != kAcceptInput) return false;
  return ma.deallocate_command == -1 ||
         computation_->commands[ma.deallocate_command].command_type ==
             kDeallocMatrix;
}

void VariableMergingOptimizer::AllowedDirections(int32_t s1, int32_t s2,
                                                 bool *left,
                                                 bool *right) const {
  *left = *right = false;
  const int32_t m1 = MatrixOf(s1), m2 = MatrixOf(s2);
  const MatrixAccesses &a1 = analyzer_.matrix_accesses[m1],
                       &a2 = analyzer_.matrix_accesses[m2];
  if ((a1.is_input && a2.is_input) || (a1.is_output && a2.is_output))
    return;  // c1
  const bool whole1 = computation_->IsWholeMatrix(s1),
             whole2 = computation_->IsWholeMatrix(s2);
  const bool io = a1.is_input || a1.is_output || a2.is_input || a2.is_output;
  if (io && !(whole1 && whole2)) return;                 // c2
  if (!AllocationsOk(m1) || !AllocationsOk(m2)) return;  // c12
  const MatrixStrideType kEqual = MatrixStrideType::kStrideEqualNumCols;
  *left = opts_.allow_left_merge && whole2 &&                              // c3
          !(computation_->matrices[m2].stride_type == kEqual && !whole1);  // c6
  *right =
      opts_.allow_right_merge && whole1 &&                             // c4
      !(computation_->matrices[m1].stride_type == kEqual && !whole2);  // c7
}

bool VariableMergingOptimizer::AccessesAllowMerge(int32_t c, int32_t s1,
                                                  int32_t s2,
                                                  bool is_assignment) const {
  ComputationAnalysis analysis(*computation_, analyzer_);
  if (analysis.FirstNontrivialAccess(s2) != c) return false;
  if (!is_assignment) return analysis.LastAccess(s1) == c;  // c9
  return analysis.LastWriteAccess(s1) < c &&                // c8
         analysis.LastAccess(s1) < analysis.DataInvalidatedCommand(c, s2);
}

bool VariableMergingOptimizer::GetDeadZeroings(
    int32_t c, int32_t s1, int32_t s2, bool left,
    std::vector<int32_t> *dead) const {
  dead->clear();
  std::vector<int32_t> variables;
  analyzer_.variables.AppendVariablesForSubmatrix(s2, &variables);
  const SubMatrixInfo &s2_info = computation_->submatrices[s2];
  const int32_t m1_first = ComputationAnalysis(*computation_, analyzer_)
                               .FirstNontrivialMatrixAccess(MatrixOf(s1));
  for (int32_t v : variables) {
    for (const Access &access : analyzer_.variable_accesses[v]) {
      const int32_t k = access.command_index;
      if (k >= c) break;
      const Command &zeroing = computation_->commands[k];
      // c8/c9 made sure that only zeroing touches s2 before c.
      NNET3_ASSERT(zeroing.command_type == kSetConst && zeroing.alpha == 0.0f);
      if (SubmatrixInfoContains(s2_info,
                                computation_->submatrices[zeroing.arg1]))
        dead->push_back(k);
      else if (left || k >= m1_first)
        return false;  // (left: cannot happen, s2 is all of m2)
    }
  }
  if (!left) AppendDeadZeroingsOfSource(MatrixOf(s1), dead);
  std::sort(dead->begin(), dead->end());
  dead->erase(std::unique(dead->begin(), dead->end()), dead->end());
  return true;
}

void VariableMergingOptimizer::AppendDeadZeroingsOfSource(
    int32_t m1, std::vector<int32_t> *dead) const {
  // A zeroing is dead if, for every variable it touches, the next access
  // overwrites the variable without reading it.
  std::map<int32_t, bool> is_dead;
  std::vector<int32_t> variables;
  analyzer_.variables.AppendVariablesForMatrix(m1, &variables);
  for (int32_t v : variables) {
    const std::vector<Access> &accesses = analyzer_.variable_accesses[v];
    for (size_t i = 0; i < accesses.size(); i++) {
      const Command &cmd = computation_->commands[accesses[i].command_index];
      if (cmd.command_type != kSetConst || cmd.alpha != 0.0f) continue;
      const bool overwritten = i + 1 < accesses.size() &&
                               accesses[i + 1].access_type == kWriteAccess;
      auto it = is_dead.emplace(accesses[i].command_index, true).first;
      if (!overwritten) it->second = false;
    }
  }
  for (const auto &entry : is_dead)
    if (entry.second) dead->push_back(entry.first);
}

bool VariableMergingOptimizer::OutputsAllowMerge(
    int32_t m1, int32_t m2, const std::vector<int32_t> &removed) const {
  const MatrixAccesses &a1 = analyzer_.matrix_accesses[m1],
                       &a2 = analyzer_.matrix_accesses[m2];
  if (!a1.is_output && !a2.is_output) return true;
  int32_t first_output = static_cast<int32_t>(computation_->commands.size());
  for (const MatrixAccesses *a : {&a1, &a2})
    for (const Access &access : a->accesses)
      if (computation_->commands[access.command_index].command_type ==
          kProvideOutput)
        first_output = std::min(first_output, access.command_index);
  for (const MatrixAccesses *a : {&a1, &a2})
    for (const Access &access : a->accesses)
      if (access.command_index > first_output &&
          access.access_type != kReadAccess &&
          !std::binary_search(removed.begin(), removed.end(),
                              access.command_index))
        return false;
  return true;
}

bool VariableMergingOptimizer::TryMerge(int32_t c, int32_t s1, int32_t s2,
                                        bool left, bool is_assignment) {
  std::vector<int32_t> removed;
  if (!GetDeadZeroings(c, s1, s2, left, &removed)) return false;
  if (is_assignment) {
    removed.push_back(c);
    std::sort(removed.begin(), removed.end());
  }
  if (!OutputsAllowMerge(MatrixOf(s1), MatrixOf(s2), removed)) return false;
  if (left)
    DoMerge(s1, s2, removed);
  else
    DoMerge(s2, s1, removed);
  return true;
}

void VariableMergingOptimizer::DoMerge(int32_t s_keep, int32_t s_discard,
                                       const std::vector<int32_t> &removed) {
  const int32_t m_keep = MatrixOf(s_keep), m_discard = MatrixOf(s_discard);
  NNET3_ASSERT(m_keep != m_discard && computation_->IsWholeMatrix(s_discard));
  const MatrixAccesses &keep = analyzer_.matrix_accesses[m_keep],
                       &discard = analyzer_.matrix_accesses[m_discard];
  auto &commands = computation_->commands;
  // The allocation command's argument is a whole submatrix of m_keep.
  const int32_t whole_keep = commands[keep.allocate_command].arg1;
  const SubMatrixInfo keep_info = computation_->submatrices[s_keep];
  for (SubMatrixInfo &info : computation_->submatrices) {
    if (info.matrix_index != m_discard) continue;
    info.matrix_index = m_keep;
    info.row_offset += keep_info.row_offset;
    info.col_offset += keep_info.col_offset;
  }
  for (int32_t k : removed) MakeNoOp(k);
  // Allocation: a kAcceptInput stays where it is; else the earlier one.
  const int32_t a_keep = keep.allocate_command,
                a_discard = discard.allocate_command;
  if (commands[a_discard].command_type == kAcceptInput) {
    MakeNoOp(a_keep);
  } else if (commands[a_keep].command_type == kAcceptInput) {
    MakeNoOp(a_discard);
  } else {
    commands[std::min(a_keep, a_discard)].arg1 = whole_keep;
    MakeNoOp(std::max(a_keep, a_discard));
  }
  // Deallocation: never if either was kept for the user, else the later.
  const int32_t d_keep = keep.deallocate_command,
                d_discard = discard.deallocate_command;
  if (d_keep == -1 || d_discard == -1) {
    if (d_keep != -1) MakeNoOp(d_keep);
    if (d_discard != -1) MakeNoOp(d_discard);
  } else {
    commands[std::max(d_keep, d_discard)].arg1 = whole_keep;
    MakeNoOp(std::min(d_keep, d_discard));
  }
  const MatrixStrideType kEqual = MatrixStrideType::kStrideEqualNumCols;
  if (computation_->matrices[m_discard].stride_type == kEqual) {
    NNET3_ASSERT(computation_->IsWholeMatrix(s_keep));
    computation_->matrices[m_keep].stride_type = kEqual;
  }
  touched_[m_keep] = touched_[m_discard] = true;
}

bool VariableMergingOptimizer::MergeVariables() {
  bool merged = false;
  const int32_t num_commands =
      static_cast<int32_t>(computation_->commands.size());
  for (int32_t c = 0; c < num_commands; c++) {
    int32_t s1, s2;
    if (!GetCandidate(c, &s1, &s2)) continue;
    bool left, right;
    AllowedDirections(s1, s2, &left, &right);
    if (!left && !right) continue;
    const Command &cmd = computation_->commands[c];
    const bool is_assignment =
        cmd.command_type == kMatrixCopy && cmd.alpha == 1.0f;
    if (!AccessesAllowMerge(c, s1, s2, is_assignment)) continue;
    if ((left && TryMerge(c, s1, s2, true, is_assignment)) ||
        (right && TryMerge(c, s1, s2, false, is_assignment)))
      merged = true;
  }
  return merged;
}

}  // namespace

bool VariableMergingOptimization(const NnetOptimizeOptions &opts,
                                 const Nnet &nnet,
                                 NnetComputation *computation) {
  if (!opts.optimize || IsLoopedComputation(*computation)) return false;
  if (!opts.remove_assignments && !opts.propagate_in_place &&
      !opts.backprop_in_place)
    return false;
  bool changed = false;
  while (true) {
    VariableMergingOptimizer optimizer(opts, nnet, computation);
    if (!optimizer.MergeVariables()) break;
    changed = true;
    RenumberComputation(computation);
    RemoveNoOps(computation);
  }
  return changed;
}

}  // namespace nnet3
