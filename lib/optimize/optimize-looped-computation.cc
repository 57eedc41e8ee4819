#include "optimize/optimize-looped-computation.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "compile/computation-analysis.h"
#include "optimize/computation-analysis-queries.h"
#include "optimize/renumber-computation.h"

namespace nnet3 {

namespace {

// (id of the time-normalized cindex list with is_deriv, time offset).
using MatrixKey = std::pair<int32_t, int32_t>;

std::vector<int32_t> CommandsOfType(const NnetComputation &computation,
                                    CommandType type) {
  std::vector<int32_t> ans;
  for (size_t c = 0; c < computation.commands.size(); c++)
    if (computation.commands[c].command_type == type)
      ans.push_back(static_cast<int32_t>(c));
  return ans;
}

std::vector<int32_t> WholeSubmatrices(const NnetComputation &computation) {
  std::vector<int32_t> whole(computation.matrices.size(), 0);
  for (int32_t s = static_cast<int32_t>(computation.submatrices.size()) - 1;
       s > 0; s--)
    if (computation.IsWholeMatrix(s))
      whole[computation.submatrices[s].matrix_index] = s;
  return whole;
}

// The first kProvideOutput in [begin, end), or -1.
int32_t FirstOutputCommand(const NnetComputation &computation, int32_t begin,
                           int32_t end) {
  for (int32_t c = begin; c < end; c++)
    if (computation.commands[c].command_type == kProvideOutput) return c;
  return -1;
}

// The t shift between successive segments, from the first outputs of
// segments 2 and 3 (segment 1 has the extra left context). Returns false
// if it cannot be determined.
bool FindTimeShift(const NnetComputation &computation, int32_t *shift) {
  std::vector<int32_t> ends = CommandsOfType(computation, kNoOperationMarker);
  if (ends.size() < 3) return false;
  int32_t c2 = FirstOutputCommand(computation, ends[0], ends[1]),
          c3 = FirstOutputCommand(computation, ends[1], ends[2]);
  if (c2 < 0 || c3 < 0) return false;
  const NnetComputation::Command &a = computation.commands[c2],
                                 &b = computation.commands[c3];
  if (a.arg2 != b.arg2) return false;
  int32_t m2 = computation.submatrices[a.arg1].matrix_index,
          m3 = computation.submatrices[b.arg1].matrix_index;
  const std::vector<Cindex> &x = computation.matrix_debug_info[m2].cindexes,
                            &y = computation.matrix_debug_info[m3].cindexes;
  if (x.empty() || x.size() != y.size()) return false;
  *shift = y[0].second.t - x[0].second.t;
  for (size_t r = 0; r < x.size(); r++)
    if (y[r].second.t != x[r].second.t + *shift) return false;
  return *shift > 0;
}

// Describes every matrix as a MatrixKey; false if some matrix has no
// debug info (or only kNoTime rows).
bool CreateMatrixKeys(const NnetComputation &computation,
                      std::vector<MatrixKey> *keys) {
  std::map<std::vector<Cindex>, int32_t> ids;
  const size_t num_matrices = computation.matrices.size();
  keys->assign(num_matrices, MatrixKey(-1, 0));
  for (size_t m = 1; m < num_matrices; m++) {
    std::vector<Cindex> cindexes = computation.matrix_debug_info[m].cindexes;
    auto first =
        std::find_if(cindexes.begin(), cindexes.end(),
                     [](const Cindex &c) { return c.second.t != kNoTime; });
    if (first == cindexes.end()) return false;
    const int32_t offset = first->second.t;
    for (Cindex &c : cindexes)
      if (c.second.t != kNoTime) c.second.t -= offset;
    auto it = ids.emplace(cindexes, static_cast<int32_t>(ids.size())).first;
    const int32_t is_deriv = computation.matrix_debug_info[m].is_deriv ? 1 : 0;
    (*keys)[m] = MatrixKey(2 * it->second + is_deriv, offset);
  }
  return true;
}

// For each splice point, the matrices accessed (other than by zeroing)
// before it and accessed after it, in matrix order.
std::vector<std::vector<int32_t>> FindActiveMatrices(
    const Nnet &nnet, const NnetComputation &computation,
    const std::vector<int32_t> &splice_points) {
  Analyzer analyzer;
  analyzer.Init(nnet, computation);
  ComputationAnalysis analysis(computation, analyzer);
  std::vector<int32_t> whole = WholeSubmatrices(computation);
  std::vector<std::vector<int32_t>> active(splice_points.size());
  for (size_t m = 1; m < computation.matrices.size(); m++) {
    const int32_t first = analysis.FirstNontrivialAccess(whole[m]),
                  last = analysis.LastAccess(whole[m]);
    for (size_t i = 0; i < splice_points.size(); i++)
      if (first < splice_points[i] && last > splice_points[i])
        active[i].push_back(static_cast<int32_t>(m));
  }
  return active;
}

// b equals a except that some entries are shifted in time by `shift`.
bool EqualExceptForShift(const std::vector<MatrixKey> &a,
                         const std::vector<MatrixKey> &b, int32_t shift) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (a[i].first != b[i].first ||
        (b[i].second != a[i].second && b[i].second != a[i].second + shift))
      return false;
  return true;
}

// The first pair of splice points (i < j) whose active matrices repeat.
bool FindFirstRepeat(const std::vector<std::vector<MatrixKey>> &lists,
                     int32_t shift_per_segment, int32_t *i, int32_t *j) {
  const int32_t n = static_cast<int32_t>(lists.size());
  for (int32_t a = 0; a < n; a++)
    for (int32_t b = a + 1; b < n; b++)
      if (EqualExceptForShift(lists[a], lists[b],
                              (b - a) * shift_per_segment)) {
        *i = a;
        *j = b;
        return true;
      }
  return false;
}

// Each matrix of `second` must be its counterpart in `first` shifted by
// `shift` in t.
void CheckIdentifiedMatrices(const NnetComputation &computation,
                             const std::vector<int32_t> &first,
                             const std::vector<int32_t> &second,
                             int32_t shift) {
  NNET3_ASSERT(first.size() == second.size() && shift > 0);
  for (size_t k = 0; k < first.size(); k++) {
    const NnetComputation::MatrixInfo &a = computation.matrices[first[k]],
                                      &b = computation.matrices[second[k]];
    NNET3_ASSERT(a.num_rows == b.num_rows && a.num_cols == b.num_cols &&
                 a.stride_type == b.stride_type);
    const auto &x = computation.matrix_debug_info[first[k]],
               &y = computation.matrix_debug_info[second[k]];
    NNET3_ASSERT(x.is_deriv == y.is_deriv &&
                 x.cindexes.size() == y.cindexes.size());
    for (size_t r = 0; r < x.cindexes.size(); r++) {
      const Cindex &p = x.cindexes[r], &q = y.cindexes[r];
      NNET3_ASSERT(p.first == q.first && p.second.n == q.second.n &&
                   p.second.x == q.second.x &&
                   ((p.second.t == kNoTime && q.second.t == kNoTime) ||
                    q.second.t == p.second.t + shift));
    }
  }
}

// An order for "first[k] = second[k]" (by swap) in which no matrix of
// `first` is overwritten while it is still to be moved into another one.
// There is no cycle: the first t of the matrices grows along any chain.
std::vector<std::pair<int32_t, int32_t>> SwapOrder(
    const std::vector<int32_t> &first, const std::vector<int32_t> &second) {
  const size_t n = first.size();
  std::vector<std::pair<int32_t, int32_t>> order;
  std::vector<bool> done(n, false);
  std::map<int32_t, size_t> position_in_second;
  for (size_t k = 0; k < n; k++) position_in_second[second[k]] = k;
  for (size_t round = 0; order.size() < n; round++) {
    NNET3_ASSERT(round <= n && "cycle in the looped matrix swaps");
    for (size_t k = 0; k < n; k++) {
      if (done[k]) continue;
      auto it = position_in_second.find(first[k]);
      // first[k] must have been moved on (as a `second`) before it is
      // overwritten.
      if (it == position_in_second.end() || done[it->second]) {
        order.emplace_back(first[k], second[k]);
        done[k] = true;
      }
    }
  }
  return order;
}

// Drops the commands after `end_command`, turns it into kGotoLabel to a
// kNoOperationLabel inserted before `begin_command`, and puts the swaps
// just before the goto.
void FormLoop(int32_t begin_command, int32_t end_command,
              const std::vector<std::pair<int32_t, int32_t>> &swaps,
              NnetComputation *computation) {
  auto &commands = computation->commands;
  NNET3_ASSERT(begin_command < end_command &&
               commands[begin_command].command_type == kNoOperationPermanent &&
               commands[end_command].command_type == kNoOperationPermanent);
  commands.resize(end_command);
  std::vector<int32_t> whole = WholeSubmatrices(*computation);
  for (const auto &swap : swaps)
    commands.emplace_back(kSwapMatrix, whole[swap.first], whole[swap.second]);
  commands.insert(commands.begin() + begin_command,
                  NnetComputation::Command(kNoOperationLabel));
  commands.emplace_back(kGotoLabel, begin_command);
}

}  // namespace

bool OptimizeLoopedComputation(const Nnet &nnet, NnetComputation *computation) {
  if (computation->matrix_debug_info.size() != computation->matrices.size())
    NNET3_INTERNAL_ERR << "Looped optimization needs matrix debug info "
                       << "(compile with output_debug_info)";
  const std::vector<int32_t> splice_points =
      CommandsOfType(*computation, kNoOperationPermanent);
  int32_t shift = 0;
  std::vector<MatrixKey> keys;
  if (!FindTimeShift(*computation, &shift) ||
      !CreateMatrixKeys(*computation, &keys)) {
    NNET3_VLOG(2) << "Looped optimization: not a looped multi-segment "
                  << "computation";
    return false;
  }
  std::vector<std::vector<int32_t>> active =
      FindActiveMatrices(nnet, *computation, splice_points);
  std::vector<std::vector<MatrixKey>> lists(active.size());
  for (size_t i = 0; i < active.size(); i++)
    for (int32_t m : active[i]) lists[i].push_back(keys[m]);
  int32_t seg1 = 0, seg2 = 0;
  if (!FindFirstRepeat(lists, shift, &seg1, &seg2)) {
    NNET3_VLOG(2) << "Looped optimization: could not find repeats of "
                  << "variables";
    return false;
  }
  std::vector<int32_t> first, second;  // matrices that move in time
  for (size_t k = 0; k < active[seg1].size(); k++) {
    if (lists[seg1][k] == lists[seg2][k]) continue;
    first.push_back(active[seg1][k]);
    second.push_back(active[seg2][k]);
  }
  CheckIdentifiedMatrices(*computation, first, second, shift * (seg2 - seg1));
  FormLoop(splice_points[seg1], splice_points[seg2], SwapOrder(first, second),
           computation);
  RenumberComputation(computation);
  FixGotoLabel(computation);
  NNET3_VLOG(2) << "Looped optimization: loop from segment " << seg2
                << " back to segment " << seg1 << ", moving " << first.size()
                << " matrices";
  return true;
}

bool FixGotoLabel(NnetComputation *computation) {
  auto &commands = computation->commands;
  for (int32_t c = static_cast<int32_t>(commands.size()) - 1; c >= 0; c--) {
    const CommandType type = commands[c].command_type;
    if (type == kProvideOutput) continue;  // may follow the goto for a while
    if (type != kGotoLabel) return false;  // not looped
    const int32_t target = commands[c].arg1;
    if (target >= 0 && target < static_cast<int32_t>(commands.size()) &&
        commands[target].command_type == kNoOperationLabel)
      return false;
    for (int32_t d = 0; d < c; d++)
      if (commands[d].command_type == kNoOperationLabel) {
        commands[c].arg1 = d;
        return true;
      }
    NNET3_INTERNAL_ERR << "FixGotoLabel: the looped computation has no "
                       << "kNoOperationLabel";
  }
  return false;
}

}  // namespace nnet3
