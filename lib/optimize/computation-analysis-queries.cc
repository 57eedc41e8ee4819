#include "optimize/computation-analysis-queries.h"

#include <algorithm>
#include <vector>

#include "base/error.h"

namespace nnet3 {

namespace {

std::vector<int32_t> VariablesOf(const Analyzer &analyzer, int32_t s) {
  std::vector<int32_t> variables;
  analyzer.variables.AppendVariablesForSubmatrix(s, &variables);
  return variables;
}

}  // namespace

bool ComputationAnalysis::IsZeroing(int32_t c) const {
  const NnetComputation::Command &command = computation_.commands[c];
  return command.command_type == kSetConst && command.alpha == 0.0f;
}

int32_t ComputationAnalysis::FirstNontrivialAccess(int32_t s) const {
  NNET3_ASSERT(s > 0 &&
               s < static_cast<int32_t>(computation_.submatrices.size()));
  int32_t ans = static_cast<int32_t>(computation_.commands.size());
  for (int32_t v : VariablesOf(analyzer_, s)) {
    for (const Access &access : analyzer_.variable_accesses[v]) {
      if (access.command_index >= ans) break;
      if (!IsZeroing(access.command_index)) {
        ans = access.command_index;
        break;
      }
    }
  }
  return ans;
}

int32_t ComputationAnalysis::FirstAccess(int32_t s) const {
  NNET3_ASSERT(s > 0 &&
               s < static_cast<int32_t>(computation_.submatrices.size()));
  int32_t ans = static_cast<int32_t>(computation_.commands.size());
  for (int32_t v : VariablesOf(analyzer_, s)) {
    const std::vector<Access> &accesses = analyzer_.variable_accesses[v];
    if (!accesses.empty()) ans = std::min(ans, accesses.front().command_index);
  }
  return ans;
}

int32_t ComputationAnalysis::LastAccess(int32_t s) const {
  NNET3_ASSERT(s > 0 &&
               s < static_cast<int32_t>(computation_.submatrices.size()));
  int32_t ans = -1;
  for (int32_t v : VariablesOf(analyzer_, s)) {
    const std::vector<Access> &accesses = analyzer_.variable_accesses[v];
    if (!accesses.empty()) ans = std::max(ans, accesses.back().command_index);
  }
  return ans;
}

int32_t ComputationAnalysis::LastWriteAccess(int32_t s) const {
  NNET3_ASSERT(s > 0 &&
               s < static_cast<int32_t>(computation_.submatrices.size()));
  int32_t ans = -1;
  for (int32_t v : VariablesOf(analyzer_, s)) {
    const std::vector<Access> &accesses = analyzer_.variable_accesses[v];
    for (auto it = accesses.rbegin(); it != accesses.rend(); ++it) {
      if (it->command_index <= ans) break;
      if (it->access_type != kReadAccess) {
        ans = it->command_index;
        break;
      }
    }
  }
  return ans;
}

int32_t ComputationAnalysis::DataInvalidatedCommand(int32_t c,
                                                    int32_t s) const {
  NNET3_ASSERT(s > 0 &&
               s < static_cast<int32_t>(computation_.submatrices.size()));
  int32_t m = computation_.submatrices[s].matrix_index;
  int32_t ans = analyzer_.matrix_accesses[m].deallocate_command;
  if (ans == -1) ans = static_cast<int32_t>(computation_.commands.size());
  for (int32_t v : VariablesOf(analyzer_, s)) {
    const std::vector<Access> &accesses = analyzer_.variable_accesses[v];
    auto it = std::upper_bound(accesses.begin(), accesses.end(),
                               Access(c, kReadAccess));
    for (; it != accesses.end() && it->command_index < ans; ++it) {
      if (it->access_type != kReadAccess) {
        ans = it->command_index;
        break;
      }
    }
  }
  return ans;
}

int32_t ComputationAnalysis::FirstNontrivialMatrixAccess(int32_t m) const {
  NNET3_ASSERT(m > 0 && m < static_cast<int32_t>(computation_.matrices.size()));
  for (const Access &access : analyzer_.matrix_accesses[m].accesses)
    if (!IsZeroing(access.command_index)) return access.command_index;
  return static_cast<int32_t>(computation_.commands.size());
}

int32_t ComputationAnalysis::LastMatrixAccess(int32_t m) const {
  NNET3_ASSERT(m > 0 && m < static_cast<int32_t>(computation_.matrices.size()));
  const std::vector<Access> &accesses = analyzer_.matrix_accesses[m].accesses;
  return accesses.empty() ? -1 : accesses.back().command_index;
}

}  // namespace nnet3
