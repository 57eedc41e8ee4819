#include "optimize/limit-derivative-times.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "base/error.h"
#include "compile/computation-analysis.h"
#include "optimize/computation-edit.h"
#include "optimize/renumber-computation.h"

namespace nnet3 {

namespace {

using Command = NnetComputation::Command;

// Rows [begin, end); empty when begin >= end.
struct RowRange {
  int32_t begin = 0, end = 0;
  bool Empty() const { return begin >= end; }
};

// Kaldi's DerivativeTimeLimiter, restricted to derivative matrices: each
// derivative matrix keeps the smallest row range holding every row whose t
// is inside the window; derivative rows outside it are taken as zero.
class DerivativeTimeLimiter {
 public:
  DerivativeTimeLimiter(const Nnet &nnet, int32_t min_t, int32_t max_t,
                        NnetComputation *computation)
      : nnet_(nnet), min_t_(min_t), max_t_(max_t), c_(computation) {}

  bool Run() {
    ComputeMatrixRanges();
    bool changed = false;
    for (size_t k = 0; k < c_->commands.size(); k++)
      if (ModifyCommand(&c_->commands[k])) changed = true;
    if (!changed) return false;
    ClearUnusedMemos();
    RemoveUnusedDerivMatrices();
    RemoveNoOps(c_);
    RenumberComputation(c_);
    return true;
  }

 private:
  void ComputeMatrixRanges() {
    const int32_t num_matrices = static_cast<int32_t>(c_->matrices.size());
    if (c_->matrix_debug_info.size() != c_->matrices.size())
      NNET3_INTERNAL_ERR << "LimitDerivativeTimes needs the computation's "
                         << "debug info (compile with output_debug_info)";
    kept_.assign(num_matrices, RowRange());
    for (int32_t m = 1; m < num_matrices; m++) {
      const NnetComputation::MatrixDebugInfo &info = c_->matrix_debug_info[m];
      RowRange &r = kept_[m];
      if (!info.is_deriv) {
        r.end = c_->matrices[m].num_rows;
        continue;
      }
      r.begin = c_->matrices[m].num_rows;
      for (int32_t i = 0; i < static_cast<int32_t>(info.cindexes.size()); i++) {
        int32_t t = info.cindexes[i].second.t;
        if (t >= min_t_ && t <= max_t_) {
          r.begin = std::min(r.begin, i);
          r.end = i + 1;
        }
      }
    }
  }

  bool IsDeriv(int32_t s) const {
    return c_->matrix_debug_info[c_->submatrices[s].matrix_index].is_deriv;
  }
  // The kept rows of submatrix s, relative to s.
  RowRange Kept(int32_t s) const {
    const NnetComputation::SubMatrixInfo &info = c_->submatrices[s];
    const RowRange &m = kept_[info.matrix_index];
    RowRange r;
    r.begin = std::max(m.begin, info.row_offset) - info.row_offset;
    r.end = std::min(m.end, info.row_offset + info.num_rows) - info.row_offset;
    return r;
  }
  bool RowIsKept(int32_t s, int32_t row) const {
    RowRange r = Kept(s);
    return row >= r.begin && row < r.end;
  }
  bool IsAllRows(int32_t s, const RowRange &r) const {
    return r.begin == 0 && r.end == c_->submatrices[s].num_rows;
  }
  // Rows r of submatrix s (s itself when r is all of it; 0 stays 0).
  int32_t Slice(int32_t s, const RowRange &r) {
    if (s <= 0 || IsAllRows(s, r)) return s;
    return c_->NewSubMatrix(s, r.begin, r.end - r.begin, 0, -1);
  }

  bool ModifyCommand(Command *c) {
    switch (c->command_type) {
      case kBackprop:
      case kBackpropNoModelUpdate:
        return ModifyBackprop(c);
      case kMatrixCopy:
      case kMatrixAdd:
        return ModifyMatrixCommand(c);
      case kCopyRows:
      case kAddRows:
        return ModifyRowsCommand(c);
      case kCopyRowsMulti:
      case kAddRowsMulti:
      case kCopyToRowsMulti:
      case kAddToRowsMulti:
        return ModifyMultiCommand(c);
      case kAddRowRanges:
        return ModifyRangesCommand(c);
      default:
        return false;
    }
  }

  bool ModifyBackprop(Command *c) {
    int32_t props = nnet_.GetComponent(c->arg1)->Properties();
    // Non-simple components mix rows; they are left alone.
    if (!(props & kSimpleComponent) || !IsDeriv(c->arg5)) return false;
    RowRange r = Kept(c->arg5);
    if (r.Empty()) {
      if (c->arg7 > 0) removed_memos_.insert(c->arg7);
      c->command_type = kNoOperation;
      return true;
    }
    // A memo describes all rows, so such a backprop cannot be narrowed.
    if (IsAllRows(c->arg5, r) || (props & kUsesMemo)) return false;
    c->arg3 = Slice(c->arg3, r);
    c->arg4 = Slice(c->arg4, r);
    c->arg5 = Slice(c->arg5, r);
    c->arg6 = Slice(c->arg6, r);
    return true;
  }

  bool ModifyMatrixCommand(Command *c) {
    if (!IsDeriv(c->arg1) && !IsDeriv(c->arg2)) return false;
    RowRange r1 = Kept(c->arg1), r2 = Kept(c->arg2), r;
    r.begin = std::max(r1.begin, r2.begin);
    r.end = std::min(r1.end, r2.end);
    if (r.Empty()) {
      c->command_type = kNoOperation;
      return true;
    }
    if (IsAllRows(c->arg1, r)) return false;
    const bool in_place = c->arg1 == c->arg2;  // a scale
    c->arg1 = Slice(c->arg1, r);
    c->arg2 = in_place ? c->arg1 : Slice(c->arg2, r);
    return true;
  }

  bool ModifyRowsCommand(Command *c) {
    if (!IsDeriv(c->arg1) && !IsDeriv(c->arg2)) return false;
    RowRange r1 = Kept(c->arg1), r2 = Kept(c->arg2);
    const std::vector<int32_t> &old = c_->indexes[c->arg3];
    std::vector<int32_t> indexes;
    bool any = false;
    for (int32_t i = std::max(r1.begin, 0); i < r1.end; i++) {
      int32_t j = old[i];
      bool keep = j != -1 && RowIsKept(c->arg2, j);
      indexes.push_back(keep ? j - r2.begin : -1);
      any = any || keep;
    }
    if (!any) {
      c->command_type = kNoOperation;
      return true;
    }
    if (IsAllRows(c->arg1, r1) && IsAllRows(c->arg2, r2) && indexes == old)
      return false;
    c->arg1 = Slice(c->arg1, r1);
    c->arg2 = Slice(c->arg2, r2);
    c->arg3 = static_cast<int32_t>(c_->indexes.size());
    c_->indexes.push_back(std::move(indexes));
    return true;
  }

  bool ModifyMultiCommand(Command *c) {
    const std::vector<std::pair<int32_t, int32_t>> &old =
        c_->indexes_multi[c->arg2];
    bool involves_deriv = IsDeriv(c->arg1);
    for (const auto &p : old)
      if (p.first > 0 && IsDeriv(p.first)) involves_deriv = true;
    if (!involves_deriv) return false;
    RowRange r1 = Kept(c->arg1);
    std::vector<std::pair<int32_t, int32_t>> pairs;
    bool any = false;
    for (int32_t i = std::max(r1.begin, 0); i < r1.end; i++) {
      std::pair<int32_t, int32_t> p = old[i];
      if (p.first > 0 && !RowIsKept(p.first, p.second)) p = {-1, -1};
      any = any || p.first > 0;
      pairs.push_back(p);
    }
    if (!any) {
      c->command_type = kNoOperation;
      return true;
    }
    if (IsAllRows(c->arg1, r1) && pairs == old) return false;
    c->arg1 = Slice(c->arg1, r1);
    c->arg2 = static_cast<int32_t>(c_->indexes_multi.size());
    c_->indexes_multi.push_back(std::move(pairs));
    return true;
  }

  bool ModifyRangesCommand(Command *c) {
    if (!IsDeriv(c->arg1) && !IsDeriv(c->arg2)) return false;
    RowRange r1 = Kept(c->arg1), r2 = Kept(c->arg2);
    const std::vector<std::pair<int32_t, int32_t>> &old =
        c_->indexes_ranges[c->arg3];
    std::vector<std::pair<int32_t, int32_t>> ranges;
    bool any = false;
    for (int32_t i = std::max(r1.begin, 0); i < r1.end; i++) {
      int32_t start = std::max(old[i].first, r2.begin),
              end = std::min(old[i].second, r2.end);
      if (old[i].first < 0 || start >= end) {
        ranges.emplace_back(-1, -1);
      } else {
        ranges.emplace_back(start - r2.begin, end - r2.begin);
        any = true;
      }
    }
    if (!any) {
      c->command_type = kNoOperation;
      return true;
    }
    if (IsAllRows(c->arg1, r1) && IsAllRows(c->arg2, r2) && ranges == old)
      return false;
    c->arg1 = Slice(c->arg1, r1);
    c->arg2 = Slice(c->arg2, r2);
    c->arg3 = static_cast<int32_t>(c_->indexes_ranges.size());
    c_->indexes_ranges.push_back(std::move(ranges));
    return true;
  }

  // Propagates whose memo no backprop uses any more stop making it.
  void ClearUnusedMemos() {
    for (Command &c : c_->commands)
      if (c.command_type == kPropagate && c.arg5 > 0 &&
          removed_memos_.count(c.arg5))
        c.arg5 = 0;
  }

  // Derivative matrices that are now only sized and zeroed lose those
  // commands (RenumberComputation then drops the matrices).
  void RemoveUnusedDerivMatrices() {
    RemoveNoOps(c_);
    Analyzer a;
    a.Init(nnet_, *c_);
    for (size_t m = 1; m < c_->matrices.size(); m++) {
      const MatrixAccesses &ma = a.matrix_accesses[m];
      if (!c_->matrix_debug_info[m].is_deriv || ma.is_input || ma.is_output)
        continue;
      bool only_zeroed = true;
      for (const Access &access : ma.accesses) {
        const Command &c = c_->commands[access.command_index];
        if (!(c.command_type == kSetConst && c.alpha == 0.0f))
          only_zeroed = false;
      }
      if (!only_zeroed) continue;
      for (const Access &access : ma.accesses)
        c_->commands[access.command_index].command_type = kNoOperation;
      for (int32_t k : {ma.allocate_command, ma.deallocate_command})
        if (k != -1) c_->commands[k].command_type = kNoOperation;
    }
  }

  const Nnet &nnet_;
  int32_t min_t_, max_t_;
  NnetComputation *c_;
  std::vector<RowRange> kept_;  // per matrix
  std::set<int32_t> removed_memos_;
};

}  // namespace

bool LimitDerivativeTimes(const Nnet &nnet, int32_t min_deriv_time,
                          int32_t max_deriv_time,
                          NnetComputation *computation) {
  if (min_deriv_time > max_deriv_time)
    NNET3_ERR << "--optimization.min-deriv-time (" << min_deriv_time
              << ") is greater than the max deriv time (" << max_deriv_time
              << "); set them so that min <= max";
  return DerivativeTimeLimiter(nnet, min_deriv_time, max_deriv_time,
                               computation)
      .Run();
}

}  // namespace nnet3
