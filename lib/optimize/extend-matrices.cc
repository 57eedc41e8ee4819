#include "optimize/extend-matrices.h"

#include <cstdint>
#include <vector>

#include "base/error.h"
#include "nnet/nnet-common.h"
#include "optimize/computation-edit.h"
#include "optimize/renumber-computation.h"

namespace nnet3 {

namespace {

using Command = NnetComputation::Command;
using SubMatrixInfo = NnetComputation::SubMatrixInfo;

// The least fraction of its matrix's rows a source submatrix must have.
constexpr float kMinProportion = 0.8f;

class MatrixExtender {
 public:
  explicit MatrixExtender(NnetComputation *computation);
  bool Extend();

 private:
  bool CanBeExtended(int32_t c, int32_t dest, int32_t src) const;
  void ExtendCommand(Command *command);
  // True if some command before c writes a submatrix containing `region`.
  bool WrittenBefore(int32_t c, const SubMatrixInfo &region) const;
  void FixCommands();
  void FixDebugInfo();

  NnetComputation *computation_;
  std::vector<int32_t> orig_num_rows_;
  std::vector<bool> is_input_or_output_;
  std::vector<bool> zeroed_whole_;  // some kSetConst(0) zeroes all of it
  std::vector<bool> extended_;      // grown, or the target of an extension
};

MatrixExtender::MatrixExtender(NnetComputation *computation)
    : computation_(computation) {
  const size_t num_matrices = computation->matrices.size();
  orig_num_rows_.resize(num_matrices);
  for (size_t m = 0; m < num_matrices; m++)
    orig_num_rows_[m] = computation->matrices[m].num_rows;
  is_input_or_output_.assign(num_matrices, false);
  zeroed_whole_.assign(num_matrices, false);
  extended_.assign(num_matrices, false);
  for (const Command &c : computation->commands) {
    if (c.command_type != kAcceptInput && c.command_type != kProvideOutput &&
        c.command_type != kSetConst)
      continue;
    const int32_t m = computation->submatrices[c.arg1].matrix_index;
    if (c.command_type == kSetConst) {
      if (c.alpha == 0.0f && computation->IsWholeMatrix(c.arg1))
        zeroed_whole_[m] = true;
    } else {
      is_input_or_output_[m] = true;
    }
  }
}

bool MatrixExtender::WrittenBefore(int32_t c,
                                   const SubMatrixInfo &region) const {
  std::vector<int32_t> written;
  for (int32_t k = c - 1; k >= 0; k--) {
    const Command &cmd = computation_->commands[k];
    if (cmd.command_type == kAllocMatrix &&
        computation_->submatrices[cmd.arg1].matrix_index == region.matrix_index)
      return false;
    SubmatricesWrittenBy(*computation_, cmd, &written);
    for (int32_t s : written)
      if (SubmatrixInfoContains(computation_->submatrices[s], region))
        return true;
  }
  return false;
}

bool MatrixExtender::CanBeExtended(int32_t c, int32_t dest, int32_t src) const {
  const SubMatrixInfo &s = computation_->submatrices[src],
                      &d = computation_->submatrices[dest];
  const int32_t ms = s.matrix_index, md = d.matrix_index;
  if (ms == md || is_input_or_output_[md] || extended_[ms]) return false;
  const NnetComputation::MatrixInfo &src_matrix = computation_->matrices[ms],
                                    &dest_matrix = computation_->matrices[md];
  if (s.row_offset != 0 || s.col_offset != 0 ||
      s.num_cols != src_matrix.num_cols || s.num_rows >= src_matrix.num_rows ||
      s.num_rows < kMinProportion * src_matrix.num_rows)
    return false;
  if (d.row_offset + d.num_rows != orig_num_rows_[md]) return false;
  const bool all_columns =
      d.col_offset == 0 && d.num_cols == dest_matrix.num_cols;
  if (!all_columns && !zeroed_whole_[md]) return false;
  SubMatrixInfo missing(ms, s.num_rows, src_matrix.num_rows - s.num_rows, 0,
                        src_matrix.num_cols);
  return WrittenBefore(c, missing);
}

void MatrixExtender::ExtendCommand(Command *command) {
  const SubMatrixInfo s = computation_->submatrices[command->arg2],
                      d = computation_->submatrices[command->arg1];
  const NnetComputation::MatrixInfo src_matrix =
      computation_->matrices[s.matrix_index];
  NnetComputation::MatrixInfo &dest_matrix =
      computation_->matrices[d.matrix_index];
  const int32_t new_dest_rows = d.row_offset + src_matrix.num_rows;
  if (new_dest_rows > dest_matrix.num_rows)
    dest_matrix.num_rows = new_dest_rows;
  extended_[d.matrix_index] = true;
  auto &subs = computation_->submatrices;
  command->arg1 = static_cast<int32_t>(subs.size());
  subs.emplace_back(d.matrix_index, d.row_offset, src_matrix.num_rows,
                    d.col_offset, d.num_cols);
  command->arg2 = static_cast<int32_t>(subs.size());
  subs.emplace_back(s.matrix_index, 0, src_matrix.num_rows, 0,
                    src_matrix.num_cols);
}

// Allocation, deallocation and whole-matrix zeroing of grown matrices
// refer to the whole grown matrix.
void MatrixExtender::FixCommands() {
  auto &subs = computation_->submatrices;
  std::vector<int32_t> whole(computation_->matrices.size(), -1);
  for (size_t m = 1; m < whole.size(); m++) {
    if (computation_->matrices[m].num_rows == orig_num_rows_[m]) continue;
    whole[m] = static_cast<int32_t>(subs.size());
    subs.emplace_back(static_cast<int32_t>(m), 0,
                      computation_->matrices[m].num_rows, 0,
                      computation_->matrices[m].num_cols);
  }
  for (Command &c : computation_->commands) {
    const bool sizing =
        c.command_type == kAllocMatrix || c.command_type == kDeallocMatrix;
    const bool zeroing = c.command_type == kSetConst && c.alpha == 0.0f;
    if (!sizing && !zeroing) continue;
    const SubMatrixInfo &info = subs[c.arg1];
    const int32_t m = info.matrix_index;
    if (whole[m] == -1) continue;
    const bool was_whole = info.row_offset == 0 && info.col_offset == 0 &&
                           info.num_rows == orig_num_rows_[m] &&
                           info.num_cols == computation_->matrices[m].num_cols;
    if (was_whole) c.arg1 = whole[m];
  }
}

void MatrixExtender::FixDebugInfo() {
  if (computation_->matrix_debug_info.empty()) return;
  for (size_t m = 1; m < computation_->matrices.size(); m++) {
    std::vector<Cindex> &cindexes = computation_->matrix_debug_info[m].cindexes;
    const int32_t old_rows = static_cast<int32_t>(cindexes.size()),
                  new_rows = computation_->matrices[m].num_rows;
    if (new_rows == old_rows) continue;
    const int32_t extra = new_rows - old_rows;
    NNET3_ASSERT(extra > 0 && extra <= old_rows);
    cindexes.resize(new_rows);
    for (int32_t r = old_rows; r < new_rows; r++) {
      cindexes[r] = cindexes[r - extra];
      cindexes[r].second.t = kNoTime;
    }
  }
}

bool MatrixExtender::Extend() {
  for (const Command &c : computation_->commands)
    if (c.command_type == kSwapMatrix || c.command_type == kCompressMatrix ||
        c.command_type == kDecompressMatrix || c.command_type == kGotoLabel)
      return false;
  bool changed = false;
  const int32_t num_commands =
      static_cast<int32_t>(computation_->commands.size());
  for (int32_t c = 0; c < num_commands; c++) {
    Command &command = computation_->commands[c];
    if (command.command_type != kMatrixCopy || command.alpha != 1.0f) continue;
    if (!CanBeExtended(c, command.arg1, command.arg2)) continue;
    ExtendCommand(&command);
    changed = true;
  }
  if (!changed) return false;
  FixCommands();
  FixDebugInfo();
  RenumberComputation(computation_);
  return true;
}

}  // namespace

bool ExtendMatrices(NnetComputation *computation) {
  return MatrixExtender(computation).Extend();
}

}  // namespace nnet3
