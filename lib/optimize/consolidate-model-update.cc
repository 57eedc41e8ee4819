#include "optimize/consolidate-model-update.h"

#include <utility>
#include <vector>

#include "base/error.h"
#include "optimize/computation-edit.h"

namespace nnet3 {

namespace {

using Command = NnetComputation::Command;

class ModelUpdateConsolidator {
 public:
  ModelUpdateConsolidator(const Nnet &nnet, NnetComputation *computation)
      : nnet_(nnet), computation_(computation) {}

  bool Run() {
    std::vector<std::vector<int32_t>> backprops(nnet_.NumComponents());
    const int32_t num_commands =
        static_cast<int32_t>(computation_->commands.size());
    for (int32_t c = 0; c < num_commands; c++) {
      const Command &command = computation_->commands[c];
      if (command.command_type != kBackprop) continue;
      int32_t props = nnet_.GetComponent(command.arg1)->Properties();
      // Only simple components update from per-row sums over their rows;
      // memos tie a backprop to its own propagate.
      if ((props & kUpdatableComponent) && (props & kSimpleComponent) &&
          !(props & kUsesMemo) && command.arg2 <= 0)
        backprops[command.arg1].push_back(c);
    }
    bool changed = false;
    for (int32_t component = 0; component < nnet_.NumComponents();
         component++) {
      if (backprops[component].size() > 1) {
        ConsolidateComponent(component, backprops[component]);
        changed = true;
      }
    }
    if (!changed) return false;
    // The combined updates and then the frees go after everything else.
    for (const Command &c : final_commands_)
      extra_.emplace_back(num_commands, c);
    for (const Command &c : final_deallocs_)
      extra_.emplace_back(num_commands, c);
    InsertCommands(&extra_, computation_);
    RemoveNoOps(computation_);
    return true;
  }

 private:
  void ConsolidateComponent(int32_t component,
                            const std::vector<int32_t> &commands) {
    int32_t props = nnet_.GetComponent(component)->Properties();
    bool need_input = (props & kBackpropNeedsInput) != 0,
         need_output = (props & kBackpropNeedsOutput) != 0;
    std::vector<int32_t> in_values, out_values, out_derivs;
    for (int32_t c : commands) {
      Command &command = computation_->commands[c];
      in_values.push_back(command.arg3);
      out_values.push_back(command.arg4);
      out_derivs.push_back(command.arg5);
      // What is left is the data derivative; without one the command has
      // no effect at all.
      command.command_type =
          command.arg6 > 0 ? kBackpropNoModelUpdate : kNoOperation;
    }
    int32_t in_value = need_input ? Concatenate(commands, in_values) : 0,
            out_value = need_output ? Concatenate(commands, out_values) : 0,
            out_deriv = Concatenate(commands, out_derivs);
    final_commands_.emplace_back(kBackprop, component, 0, in_value, out_value,
                                 out_deriv, 0, 0);
  }

  // A new matrix holding the submatrices one after another, filled by a
  // copy just before each command reads the submatrix; returns its whole
  // submatrix.
  int32_t Concatenate(const std::vector<int32_t> &commands,
                      const std::vector<int32_t> &submatrices) {
    NNET3_ASSERT(submatrices.size() == commands.size());
    const int32_t num_cols = computation_->submatrices[submatrices[0]].num_cols;
    int32_t num_rows = 0;
    NnetComputation::MatrixDebugInfo debug_info;
    const bool has_debug_info = !computation_->matrix_debug_info.empty();
    for (int32_t s : submatrices) {
      const NnetComputation::SubMatrixInfo &info = computation_->submatrices[s];
      NNET3_ASSERT(s > 0 && info.num_cols == num_cols);
      num_rows += info.num_rows;
      if (has_debug_info) {
        const NnetComputation::MatrixDebugInfo &src =
            computation_->matrix_debug_info[info.matrix_index];
        debug_info.is_deriv = src.is_deriv;
        debug_info.cindexes.insert(
            debug_info.cindexes.end(), src.cindexes.begin() + info.row_offset,
            src.cindexes.begin() + info.row_offset + info.num_rows);
      }
    }
    int32_t whole = computation_->NewMatrix(num_rows, num_cols,
                                            MatrixStrideType::kDefaultStride);
    if (has_debug_info) {
      computation_->matrix_debug_info.resize(computation_->matrices.size());
      computation_->matrix_debug_info.back() = std::move(debug_info);
    }
    // Allocated just before the first copy into it, freed at the end.
    extra_.emplace_back(commands[0], Command(kAllocMatrix, whole));
    final_deallocs_.emplace_back(kDeallocMatrix, whole);
    int32_t row_offset = 0;
    for (size_t i = 0; i < submatrices.size(); i++) {
      int32_t rows = computation_->submatrices[submatrices[i]].num_rows;
      int32_t part =
          computation_->NewSubMatrix(whole, row_offset, rows, 0, num_cols);
      extra_.emplace_back(commands[i],
                          Command(kMatrixCopy, part, submatrices[i]));
      row_offset += rows;
    }
    return whole;
  }

  const Nnet &nnet_;
  NnetComputation *computation_;
  // (position, command) pairs to insert before the command at position.
  std::vector<std::pair<int32_t, Command>> extra_;
  std::vector<Command> final_commands_, final_deallocs_;
};

}  // namespace

bool ConsolidateModelUpdate(const Nnet &nnet, NnetComputation *computation) {
  // Without a model derivative there is no update to consolidate.
  if (!computation->need_model_derivative) return false;
  return ModelUpdateConsolidator(nnet, computation).Run();
}

}  // namespace nnet3
