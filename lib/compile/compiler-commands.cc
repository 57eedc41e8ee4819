// Compiler: the commands (allocation, forward pass, backward pass,
// deallocation), as listed in compiler.h.
#include <algorithm>
#include <map>

#include "base/error.h"
#include "compile/compiler.h"

namespace nnet3 {

using Command = NnetComputation::Command;

void Compiler::AddCommands(const std::vector<bool> &deriv_needed,
                           NnetComputation *computation) {
  computation->need_model_derivative = requests_[0].need_model_derivative;
  const bool multi_segment = requests_.size() > 1;
  whole_submatrices_.assign(computation->matrices.size(), 0);
  for (int32_t s = static_cast<int32_t>(computation->submatrices.size()) - 1;
       s > 0; s--)
    if (computation->IsWholeMatrix(s))
      whole_submatrices_[computation->submatrices[s].matrix_index] = s;
  AllocateMatrices(computation);
  SetUpPrecomputedIndexes(computation);
  const int32_t num_steps = static_cast<int32_t>(steps_.size());
  for (int32_t step = 0; step < num_steps; step++) {
    CompileForward(step, computation);
    // After a segment's inputs (Kaldi's): a command that keeps the forward
    // pass non-empty when an output reads an input directly (so that Run()
    // has something to run between AcceptInput and GetOutput), and the
    // splice point of the looped optimization.
    if (IsInputNodeStep(step) && !IsInputNodeStep(step + 1))
      computation->commands.emplace_back(kNoOperationPermanent);
    if (multi_segment && step + 1 < num_steps &&
        steps_[step + 1].segment != steps_[step].segment)
      computation->commands.emplace_back(kNoOperationMarker);
  }
  computation->commands.emplace_back(kNoOperationMarker);
  for (int32_t step = num_steps - 1; step >= 0; step--) {
    if (!deriv_needed[step]) continue;
    CompileBackward(step, computation);
    // The same for the backward pass, after the last input's derivative.
    if (IsInputNodeStep(step) && !IsInputNodeStep(step + 1))
      computation->commands.emplace_back(kNoOperationPermanent);
  }
  DeallocateMatrices(computation);
}

bool Compiler::IsInputNodeStep(int32_t step) const {
  if (step < 0 || step >= static_cast<int32_t>(steps_.size())) return false;
  return nnet_.IsInputNode(steps_[step].node_index);
}

void Compiler::AllocateMatrices(NnetComputation *computation) const {
  // The user supplies the input values and the output derivatives.
  std::vector<bool> supplied(computation->matrices.size(), false);
  for (const StepInfo &info : steps_) {
    if (info.value == 0) continue;
    if (info.is_input)
      supplied[computation->submatrices[info.value].matrix_index] = true;
    if (nnet_.IsOutputNode(info.node_index) && info.deriv != 0)
      supplied[computation->submatrices[info.deriv].matrix_index] = true;
  }
  for (size_t m = 1; m < computation->matrices.size(); m++) {
    if (supplied[m]) continue;
    int32_t s = whole_submatrices_[m];
    computation->commands.emplace_back(kAllocMatrix, s);
    computation->commands.emplace_back(0.0f, kSetConst, s);
  }
}

void Compiler::CompileForward(int32_t step,
                              NnetComputation *computation) const {
  const StepInfo &info = steps_[step];
  if (info.value == 0) return;  // an empty step
  if (info.is_input) {
    computation->commands.emplace_back(kAcceptInput, info.value,
                                       info.node_index);
    return;
  }
  switch (nnet_.GetNode(info.node_index).node_type) {
    case kComponent:
      AddPropagateStep(step, computation);
      break;
    case kDescriptor: {
      const int32_t num_parts = static_cast<int32_t>(info.value_parts.size());
      for (int32_t part = 0; part < num_parts; part++)
        CompileForwardSumDescriptor(step, part, computation);
      if (nnet_.IsOutputNode(info.node_index))
        computation->commands.emplace_back(kProvideOutput, info.value,
                                           info.node_index);
      break;
    }
    default:
      break;  // kDimRange: a submatrix, nothing to do.
  }
}

void Compiler::AddPropagateStep(int32_t step,
                                NnetComputation *computation) const {
  const StepInfo &info = steps_[step];
  const StepInfo &input_info = steps_[step - 1];
  const int32_t c = nnet_.GetNode(info.node_index).component_index;
  const int32_t properties = nnet_.GetComponent(c)->Properties();
  // Memo indexes are the step index, which is unique and > 0.
  const int32_t memo = (info.deriv != 0 && (properties & kUsesMemo)) ? step : 0;
  const int32_t store_stats =
      (RequestOf(step).store_component_stats && (properties & kStoresStats))
          ? 1
          : 0;
  computation->commands.emplace_back(
      kPropagate, c, info.precomputed_indexes_index, input_info.value,
      info.value, memo, store_stats);
}

void Compiler::GetSubmatLocationsByScale(
    int32_t step, int32_t part, bool deriv,
    std::vector<std::pair<float, std::vector<std::vector<SubmatLocation>>>>
        *by_scale) const {
  const StepInfo &info = steps_[step];
  const std::vector<std::vector<Location>> &locations =
      info.input_locations_list[part];
  const std::vector<std::vector<float>> &scales = info.input_scales_list[part];
  const size_t num_rows = locations.size();
  std::map<float, size_t> scale_to_entry;
  by_scale->clear();
  for (size_t r = 0; r < num_rows; r++) {
    for (size_t k = 0; k < locations[r].size(); k++) {
      const Location &loc = locations[r][k];
      const StepInfo &source = steps_[loc.first];
      int32_t submatrix = deriv ? source.deriv : source.value;
      if (submatrix == 0) continue;  // the source needs no derivative
      const float scale = scales[r][k];
      auto e = scale_to_entry.find(scale);
      if (e == scale_to_entry.end()) {
        e = scale_to_entry.emplace(scale, by_scale->size()).first;
        by_scale->emplace_back(
            scale, std::vector<std::vector<SubmatLocation>>(num_rows));
      }
      (*by_scale)[e->second].second[r].emplace_back(submatrix, loc.second);
    }
  }
}

void Compiler::CompileForwardSumDescriptor(int32_t step, int32_t part,
                                           NnetComputation *computation) const {
  const StepInfo &info = steps_[step];
  const int32_t value_submatrix = info.value_parts[part];
  const SumDescriptor &descriptor =
      nnet_.GetNode(info.node_index).descriptor.Part(part);
  const float offset_term = descriptor.GetScaleForNode(-1);
  // The matrix was zeroed when allocated; a Const() term sets it, and then
  // every input term adds.
  bool is_first = true;
  if (offset_term != 0.0f) {
    computation->commands.emplace_back(offset_term, kSetConst, value_submatrix);
    is_first = false;
  }
  std::vector<std::pair<float, std::vector<std::vector<SubmatLocation>>>>
      by_scale;
  GetSubmatLocationsByScale(step, part, false, &by_scale);
  for (const auto &entry : by_scale) {
    std::vector<std::vector<SubmatLocation>> split_lists;
    SplitLocations(entry.second, &split_lists);
    for (const std::vector<SubmatLocation> &split : split_lists) {
      CompileForwardFromSubmatLocations(value_submatrix, entry.first, is_first,
                                        split, computation);
      is_first = false;
    }
  }
}

void Compiler::CompileForwardFromSubmatLocations(
    int32_t value_submatrix, float alpha, bool is_first_term,
    const std::vector<SubmatLocation> &submat_locations,
    NnetComputation *computation) const {
  int32_t input_submatrix;
  std::vector<int32_t> rows;
  if (!ConvertToIndexes(submat_locations, &input_submatrix, &rows)) {
    int32_t k = static_cast<int32_t>(computation->indexes_multi.size());
    computation->indexes_multi.push_back(submat_locations);
    computation->commands.emplace_back(
        alpha, is_first_term ? kCopyRowsMulti : kAddRowsMulti, value_submatrix,
        k);
    return;
  }
  NNET3_ASSERT(input_submatrix != -1);  // split lists have real pairs
  const int32_t num_rows = static_cast<int32_t>(rows.size());
  if (computation->submatrices[input_submatrix].num_rows == num_rows) {
    int32_t r = 0;
    while (r < num_rows && rows[r] == r) r++;
    if (r == num_rows) {  // row i from row i: a matrix copy / add
      computation->commands.emplace_back(
          alpha, is_first_term ? kMatrixCopy : kMatrixAdd, value_submatrix,
          input_submatrix);
      return;
    }
  }
  int32_t k = static_cast<int32_t>(computation->indexes.size());
  computation->indexes.push_back(rows);
  computation->commands.emplace_back(alpha,
                                     is_first_term ? kCopyRows : kAddRows,
                                     value_submatrix, input_submatrix, k);
}

void Compiler::CompileBackward(int32_t step,
                               NnetComputation *computation) const {
  const StepInfo &info = steps_[step];
  if (info.value == 0) return;
  if (info.is_input) {
    // Hand the requested input derivative to the user.
    const ComputationRequest &request = RequestOf(step);
    int32_t i = request.IndexForInput(nnet_.GetNodeName(info.node_index));
    if (i != -1 && request.inputs[i].has_deriv)
      computation->commands.emplace_back(kProvideOutput, info.deriv,
                                         info.node_index);
    return;
  }
  switch (nnet_.GetNode(info.node_index).node_type) {
    case kComponent:
      AddBackpropStep(step, computation);
      break;
    case kDescriptor: {
      if (nnet_.IsOutputNode(info.node_index))
        computation->commands.emplace_back(kAcceptInput, info.deriv,
                                           info.node_index);
      const int32_t num_parts = static_cast<int32_t>(info.deriv_parts.size());
      for (int32_t part = 0; part < num_parts; part++)
        CompileBackwardSumDescriptor(step, part, computation);
      break;
    }
    default:
      break;  // kDimRange: its derivative is a submatrix of the source's.
  }
}

void Compiler::AddBackpropStep(int32_t step,
                               NnetComputation *computation) const {
  const StepInfo &info = steps_[step];
  const StepInfo &input_info = steps_[step - 1];
  const int32_t c = nnet_.GetNode(info.node_index).component_index;
  const int32_t properties = nnet_.GetComponent(c)->Properties();
  NNET3_ASSERT(info.deriv != 0);
  const int32_t in_value =
      (properties & kBackpropNeedsInput) ? input_info.value : 0;
  const int32_t out_value =
      (properties & kBackpropNeedsOutput) ? info.value : 0;
  const int32_t memo = (properties & kUsesMemo) ? step : 0;
  // kBackprop lets the executor update the model (updatable components) or
  // store backprop stats (e.g. nonlinearities), as Kaldi does.
  CommandType type = RequestOf(step).need_model_derivative
                         ? kBackprop
                         : kBackpropNoModelUpdate;
  computation->commands.emplace_back(type, c, info.precomputed_indexes_index,
                                     in_value, out_value, info.deriv,
                                     input_info.deriv, memo);
}

void Compiler::CompileBackwardSumDescriptor(
    int32_t step, int32_t part, NnetComputation *computation) const {
  const int32_t deriv_submatrix = steps_[step].deriv_parts[part];
  std::vector<std::pair<float, std::vector<std::vector<SubmatLocation>>>>
      by_scale;
  GetSubmatLocationsByScale(step, part, true, &by_scale);
  for (const auto &entry : by_scale) {
    std::vector<std::vector<SubmatLocation>> split_lists;
    SplitLocationsBackward(entry.second, &split_lists);
    for (const std::vector<SubmatLocation> &split : split_lists)
      CompileBackwardFromSubmatLocations(deriv_submatrix, entry.first, split,
                                         computation);
  }
}

void Compiler::CompileBackwardFromSubmatLocations(
    int32_t deriv_submatrix, float alpha,
    const std::vector<SubmatLocation> &submat_locations,
    NnetComputation *computation) const {
  int32_t input_deriv_submatrix;
  std::vector<int32_t> rows;
  if (ConvertToIndexes(submat_locations, &input_deriv_submatrix, &rows)) {
    NNET3_ASSERT(input_deriv_submatrix != -1);
    CompileBackwardFromIndexes(deriv_submatrix, input_deriv_submatrix, alpha,
                               rows, computation);
    return;
  }
  // Several source matrices; SplitLocationsBackward made the pairs unique.
  int32_t k = static_cast<int32_t>(computation->indexes_multi.size());
  computation->indexes_multi.push_back(submat_locations);
  computation->commands.emplace_back(alpha, kAddToRowsMulti, deriv_submatrix,
                                     k);
}

void Compiler::CompileBackwardFromIndexes(int32_t deriv_submatrix,
                                          int32_t input_deriv_submatrix,
                                          float alpha,
                                          const std::vector<int32_t> &indexes,
                                          NnetComputation *computation) const {
  const int32_t num_rows = static_cast<int32_t>(indexes.size());
  const int32_t input_num_rows =
      computation->submatrices[input_deriv_submatrix].num_rows;
  if (input_num_rows == num_rows) {
    int32_t r = 0;
    while (r < num_rows && indexes[r] == r) r++;
    if (r == num_rows) {
      computation->commands.emplace_back(
          alpha, kMatrixAdd, input_deriv_submatrix, deriv_submatrix);
      return;
    }
  }
  // If no source row is used twice, the transpose is a gather: input row
  // i += deriv row reverse[i].
  std::vector<int32_t> reverse(input_num_rows, -1);
  bool unique = true;
  for (int32_t r = 0; r < num_rows && unique; r++) {
    int32_t i = indexes[r];
    if (i < 0) continue;
    NNET3_ASSERT(i < input_num_rows);
    if (reverse[i] != -1) unique = false;
    reverse[i] = r;
  }
  if (unique) {
    int32_t k = static_cast<int32_t>(computation->indexes.size());
    computation->indexes.push_back(reverse);
    computation->commands.emplace_back(alpha, kAddRows, input_deriv_submatrix,
                                       deriv_submatrix, k);
    return;
  }
  std::vector<std::pair<int32_t, int32_t>> ranges;
  if (HasContiguousProperty(indexes, &ranges)) {
    NNET3_ASSERT(static_cast<int32_t>(ranges.size()) <= input_num_rows);
    ranges.resize(input_num_rows, std::pair<int32_t, int32_t>(-1, -1));
    int32_t k = static_cast<int32_t>(computation->indexes_ranges.size());
    computation->indexes_ranges.push_back(ranges);
    computation->commands.emplace_back(
        alpha, kAddRowRanges, input_deriv_submatrix, deriv_submatrix, k);
    return;
  }
  // Not reached after SplitLocationsBackward, but correct anyway: a
  // scatter-add with distinct destinations is not guaranteed here, so
  // fall back to one command per occurrence.
  std::vector<std::vector<int32_t>> pieces;
  EnsureContiguousProperty(indexes, &pieces);
  for (const std::vector<int32_t> &piece : pieces)
    CompileBackwardFromIndexes(deriv_submatrix, input_deriv_submatrix, alpha,
                               piece, computation);
}

void Compiler::DeallocateMatrices(NnetComputation *computation) const {
  // The user takes the output values and the requested input derivatives.
  std::vector<bool> keep(computation->matrices.size(), false);
  for (size_t step = 0; step < steps_.size(); step++) {
    const StepInfo &info = steps_[step];
    if (info.value == 0) continue;
    if (nnet_.IsOutputNode(info.node_index))
      keep[computation->submatrices[info.value].matrix_index] = true;
    if (info.is_input && info.deriv != 0) {
      const ComputationRequest &request = RequestOf(step);
      int32_t i = request.IndexForInput(nnet_.GetNodeName(info.node_index));
      if (i != -1 && request.inputs[i].has_deriv)
        keep[computation->submatrices[info.deriv].matrix_index] = true;
    }
  }
  for (size_t m = 1; m < computation->matrices.size(); m++)
    if (!keep[m])
      computation->commands.emplace_back(kDeallocMatrix, whole_submatrices_[m]);
}

}  // namespace nnet3
