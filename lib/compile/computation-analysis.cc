#include "compile/computation-analysis.h"

#include <algorithm>
#include <iterator>
#include <sstream>

#include "base/error.h"
#include "compile/memory-timeline.h"

namespace nnet3 {

namespace {

void SortAndUniq(std::vector<int32_t> *v) {
  std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

// Index of `value` in the sorted vector `points` (which must contain it).
int32_t PositionOf(const std::vector<int32_t> &points, int32_t value) {
  auto it = std::lower_bound(points.begin(), points.end(), value);
  NNET3_ASSERT(it != points.end() && *it == value);
  return static_cast<int32_t>(it - points.begin());
}

}  // namespace

// ---------------------------------------------------------------------------
// ComputationVariables

void ComputationVariables::Init(const NnetComputation &computation) {
  int32_t num_matrices = static_cast<int32_t>(computation.matrices.size());
  int32_t num_submatrices =
      static_cast<int32_t>(computation.submatrices.size());
  row_split_points_.assign(num_matrices, std::vector<int32_t>());
  column_split_points_.assign(num_matrices, std::vector<int32_t>());
  for (int32_t m = 1; m < num_matrices; m++) {
    row_split_points_[m] = {0, computation.matrices[m].num_rows};
    column_split_points_[m] = {0, computation.matrices[m].num_cols};
  }
  for (int32_t s = 1; s < num_submatrices; s++) {
    const NnetComputation::SubMatrixInfo &info = computation.submatrices[s];
    NNET3_ASSERT(info.matrix_index > 0 && info.matrix_index < num_matrices);
    std::vector<int32_t> &rows = row_split_points_[info.matrix_index];
    rows.push_back(info.row_offset);
    rows.push_back(info.row_offset + info.num_rows);
    std::vector<int32_t> &cols = column_split_points_[info.matrix_index];
    cols.push_back(info.col_offset);
    cols.push_back(info.col_offset + info.num_cols);
  }
  matrix_to_variable_index_.assign(num_matrices + 1, 0);
  variable_to_matrix_.clear();
  num_variables_ = 0;
  for (int32_t m = 1; m < num_matrices; m++) {
    SortAndUniq(&row_split_points_[m]);
    SortAndUniq(&column_split_points_[m]);
    matrix_to_variable_index_[m] = num_variables_;
    int32_t n = static_cast<int32_t>((row_split_points_[m].size() - 1) *
                                     (column_split_points_[m].size() - 1));
    num_variables_ += n;
    variable_to_matrix_.insert(variable_to_matrix_.end(), n, m);
  }
  matrix_to_variable_index_[num_matrices] = num_variables_;
  if (num_matrices > 0) matrix_to_variable_index_[0] = 0;

  submatrix_to_matrix_.assign(num_submatrices, 0);
  submatrix_is_whole_matrix_.assign(num_submatrices, false);
  variables_for_submatrix_.assign(num_submatrices, std::vector<int32_t>());
  for (int32_t s = 1; s < num_submatrices; s++) {
    const NnetComputation::SubMatrixInfo &info = computation.submatrices[s];
    int32_t m = info.matrix_index;
    submatrix_to_matrix_[s] = m;
    submatrix_is_whole_matrix_[s] = computation.IsWholeMatrix(s);
    const std::vector<int32_t> &rows = row_split_points_[m],
                               &cols = column_split_points_[m];
    int32_t r0 = PositionOf(rows, info.row_offset),
            r1 = PositionOf(rows, info.row_offset + info.num_rows),
            c0 = PositionOf(cols, info.col_offset),
            c1 = PositionOf(cols, info.col_offset + info.num_cols);
    int32_t num_col_blocks = static_cast<int32_t>(cols.size()) - 1;
    for (int32_t r = r0; r < r1; r++)
      for (int32_t c = c0; c < c1; c++)
        variables_for_submatrix_[s].push_back(matrix_to_variable_index_[m] +
                                              r * num_col_blocks + c);
  }
}

void ComputationVariables::AppendVariablesForSubmatrix(
    int32_t submatrix_index, std::vector<int32_t> *variables) const {
  NNET3_ASSERT(submatrix_index > 0 &&
               submatrix_index <
                   static_cast<int32_t>(variables_for_submatrix_.size()));
  const std::vector<int32_t> &v = variables_for_submatrix_[submatrix_index];
  variables->insert(variables->end(), v.begin(), v.end());
}

void ComputationVariables::AppendVariablesForMatrix(
    int32_t matrix_index, std::vector<int32_t> *variables) const {
  NNET3_ASSERT(matrix_index > 0 &&
               matrix_index + 1 <
                   static_cast<int32_t>(matrix_to_variable_index_.size()));
  for (int32_t v = matrix_to_variable_index_[matrix_index];
       v < matrix_to_variable_index_[matrix_index + 1]; v++)
    variables->push_back(v);
}

void ComputationVariables::RecordAccessForSubmatrix(
    int32_t submatrix_index, AccessType access_type,
    CommandAttributes *ca) const {
  if (submatrix_index == 0) return;
  NNET3_ASSERT(submatrix_index > 0 &&
               submatrix_index <
                   static_cast<int32_t>(submatrix_to_matrix_.size()));
  int32_t m = submatrix_to_matrix_[submatrix_index];
  bool read = access_type != kWriteAccess, write = access_type != kReadAccess;
  if (read) {
    AppendVariablesForSubmatrix(submatrix_index, &ca->variables_read);
    ca->submatrices_read.push_back(submatrix_index);
    ca->matrices_read.push_back(m);
  }
  if (write) {
    AppendVariablesForSubmatrix(submatrix_index, &ca->variables_written);
    ca->submatrices_written.push_back(submatrix_index);
    ca->matrices_written.push_back(m);
    // The rest of the matrix is kept, so its old contents matter.
    if (!submatrix_is_whole_matrix_[submatrix_index])
      ca->matrices_read.push_back(m);
  }
}

int32_t ComputationVariables::GetMatrixForVariable(int32_t variable) const {
  NNET3_ASSERT(variable >= 0 && variable < num_variables_);
  return variable_to_matrix_[variable];
}

NnetComputation::SubMatrixInfo ComputationVariables::VariableInfo(
    int32_t variable) const {
  int32_t m = GetMatrixForVariable(variable);
  const std::vector<int32_t> &rows = row_split_points_[m],
                             &cols = column_split_points_[m];
  int32_t num_col_blocks = static_cast<int32_t>(cols.size()) - 1;
  int32_t offset = variable - matrix_to_variable_index_[m];
  int32_t r = offset / num_col_blocks, c = offset % num_col_blocks;
  return NnetComputation::SubMatrixInfo(m, rows[r], rows[r + 1] - rows[r],
                                        cols[c], cols[c + 1] - cols[c]);
}

std::string ComputationVariables::DescribeVariable(int32_t variable) const {
  NnetComputation::SubMatrixInfo info = VariableInfo(variable);
  int32_t m = info.matrix_index;
  std::ostringstream os;
  os << "m" << m;
  bool whole_rows =
           info.row_offset == 0 && info.num_rows == row_split_points_[m].back(),
       whole_cols = info.col_offset == 0 &&
                    info.num_cols == column_split_points_[m].back();
  if (whole_rows && whole_cols) return os.str();
  os << "(";
  if (whole_rows)
    os << ":";
  else
    os << info.row_offset << ":" << (info.row_offset + info.num_rows - 1);
  os << ", ";
  if (whole_cols)
    os << ":";
  else
    os << info.col_offset << ":" << (info.col_offset + info.num_cols - 1);
  os << ")";
  return os.str();
}

// ---------------------------------------------------------------------------
// Command attributes

void IndexesMultiToSubmatrixIndexes(
    const std::vector<std::pair<int32_t, int32_t>> &indexes_multi,
    std::vector<int32_t> *submatrix_indexes) {
  submatrix_indexes->clear();
  for (const auto &p : indexes_multi)
    if (p.first >= 0) submatrix_indexes->push_back(p.first);
  SortAndUniq(submatrix_indexes);
}

namespace {

void RecordMultiAccesses(const NnetComputation &computation,
                         const ComputationVariables &vars, int32_t list,
                         AccessType type, CommandAttributes *attr) {
  std::vector<int32_t> submatrices;
  IndexesMultiToSubmatrixIndexes(computation.indexes_multi[list], &submatrices);
  for (int32_t s : submatrices) vars.RecordAccessForSubmatrix(s, type, attr);
}

void RecordPropagate(const Nnet &nnet, const NnetComputation::Command &c,
                     const ComputationVariables &vars,
                     CommandAttributes *attr) {
  int32_t props = nnet.GetComponent(c.arg1)->Properties();
  vars.RecordAccessForSubmatrix(c.arg3, kReadAccess, attr);
  vars.RecordAccessForSubmatrix(
      c.arg4, (props & kPropagateAdds) ? kReadWriteAccess : kWriteAccess, attr);
  if (c.arg6 == 1) attr->has_side_effects = true;
}

void RecordBackprop(const Nnet &nnet, const NnetComputation::Command &c,
                    const ComputationVariables &vars, CommandAttributes *attr) {
  int32_t props = nnet.GetComponent(c.arg1)->Properties();
  if (props & kBackpropNeedsInput)
    vars.RecordAccessForSubmatrix(c.arg3, kReadAccess, attr);
  if (props & kBackpropNeedsOutput)
    vars.RecordAccessForSubmatrix(c.arg4, kReadAccess, attr);
  vars.RecordAccessForSubmatrix(c.arg5, kReadAccess, attr);
  vars.RecordAccessForSubmatrix(
      c.arg6, (props & kBackpropAdds) ? kReadWriteAccess : kWriteAccess, attr);
  if (c.command_type == kBackprop && (props & kUpdatableComponent))
    attr->has_side_effects = true;
}

void ComputeOneCommandAttributes(const Nnet &nnet,
                                 const NnetComputation &computation,
                                 const NnetComputation::Command &c,
                                 const ComputationVariables &vars,
                                 CommandAttributes *attr) {
  switch (c.command_type) {
    case kSetConst:
    case kAcceptInput:
    case kDecompressMatrix:
      vars.RecordAccessForSubmatrix(c.arg1, kWriteAccess, attr);
      break;
    case kPropagate:
      RecordPropagate(nnet, c, vars, attr);
      break;
    case kBackprop:
    case kBackpropNoModelUpdate:
      RecordBackprop(nnet, c, vars, attr);
      break;
    case kMatrixCopy:
    case kCopyRows:
      vars.RecordAccessForSubmatrix(c.arg2, kReadAccess, attr);
      // An in-place scale (arg1 == arg2) reads and writes.
      vars.RecordAccessForSubmatrix(
          c.arg1, c.arg1 == c.arg2 ? kReadWriteAccess : kWriteAccess, attr);
      break;
    case kMatrixAdd:
    case kAddRows:
    case kAddRowRanges:
      vars.RecordAccessForSubmatrix(c.arg2, kReadAccess, attr);
      vars.RecordAccessForSubmatrix(c.arg1, kReadWriteAccess, attr);
      break;
    case kCopyRowsMulti:
      RecordMultiAccesses(computation, vars, c.arg2, kReadAccess, attr);
      vars.RecordAccessForSubmatrix(c.arg1, kWriteAccess, attr);
      break;
    case kAddRowsMulti:
      RecordMultiAccesses(computation, vars, c.arg2, kReadAccess, attr);
      vars.RecordAccessForSubmatrix(c.arg1, kReadWriteAccess, attr);
      break;
    case kCopyToRowsMulti:
    case kAddToRowsMulti:
      vars.RecordAccessForSubmatrix(c.arg1, kReadAccess, attr);
      RecordMultiAccesses(computation, vars, c.arg2, kReadWriteAccess, attr);
      break;
    case kCompressMatrix:
    case kProvideOutput:
      vars.RecordAccessForSubmatrix(
          c.arg1,
          c.command_type == kCompressMatrix ? kReadWriteAccess : kReadAccess,
          attr);
      break;
    default:  // allocation, swaps, no-ops, labels, gotos
      break;
  }
}

}  // namespace

void ComputeCommandAttributes(const Nnet &nnet,
                              const NnetComputation &computation,
                              const ComputationVariables &variables,
                              std::vector<CommandAttributes> *attributes) {
  attributes->clear();
  attributes->resize(computation.commands.size());
  for (size_t k = 0; k < computation.commands.size(); k++) {
    CommandAttributes &attr = (*attributes)[k];
    ComputeOneCommandAttributes(nnet, computation, computation.commands[k],
                                variables, &attr);
    SortAndUniq(&attr.variables_read);
    SortAndUniq(&attr.variables_written);
    SortAndUniq(&attr.submatrices_read);
    SortAndUniq(&attr.submatrices_written);
    SortAndUniq(&attr.matrices_read);
    SortAndUniq(&attr.matrices_written);
  }
}

namespace {

// Appends one Access per element of read ∪ written (both sorted) to
// (*lists)[element].
void AppendAccesses(int32_t command, const std::vector<int32_t> &read,
                    const std::vector<int32_t> &written,
                    std::vector<std::vector<Access>> *lists) {
  std::vector<int32_t> all;
  std::set_union(read.begin(), read.end(), written.begin(), written.end(),
                 std::back_inserter(all));
  for (int32_t e : all) {
    bool r = std::binary_search(read.begin(), read.end(), e),
         w = std::binary_search(written.begin(), written.end(), e);
    AccessType type =
        r && w ? kReadWriteAccess : (r ? kReadAccess : kWriteAccess);
    (*lists)[e].push_back(Access(command, type));
  }
}

}  // namespace

void ComputeVariableAccesses(
    const ComputationVariables &variables,
    const std::vector<CommandAttributes> &command_attributes,
    std::vector<std::vector<Access>> *variable_accesses) {
  variable_accesses->clear();
  variable_accesses->resize(variables.NumVariables());
  for (size_t k = 0; k < command_attributes.size(); k++)
    AppendAccesses(static_cast<int32_t>(k),
                   command_attributes[k].variables_read,
                   command_attributes[k].variables_written, variable_accesses);
}

namespace {

int32_t MatrixOf(const NnetComputation &computation, int32_t submatrix) {
  NNET3_ASSERT(computation.IsWholeMatrix(submatrix));
  return computation.submatrices[submatrix].matrix_index;
}

void SetAllocate(int32_t m, int32_t command, std::vector<MatrixAccesses> *a) {
  if ((*a)[m].allocate_command != -1)
    NNET3_INTERNAL_ERR << "Matrix m" << m << " is allocated twice (commands c"
                       << (*a)[m].allocate_command << " and c" << command
                       << ")";
  (*a)[m].allocate_command = command;
}

void SetDeallocate(int32_t m, int32_t command, std::vector<MatrixAccesses> *a) {
  if ((*a)[m].deallocate_command != -1)
    NNET3_INTERNAL_ERR << "Matrix m" << m << " is deallocated twice (commands c"
                       << (*a)[m].deallocate_command << " and c" << command
                       << ")";
  (*a)[m].deallocate_command = command;
}

}  // namespace

void ComputeMatrixAccesses(
    const Nnet &nnet, const NnetComputation &computation,
    const ComputationVariables &variables,
    const std::vector<CommandAttributes> &command_attributes,
    std::vector<MatrixAccesses> *matrix_accesses) {
  (void)nnet;
  (void)variables;
  std::vector<std::vector<Access>> accesses(computation.matrices.size());
  matrix_accesses->clear();
  matrix_accesses->resize(computation.matrices.size());
  // In a looped computation the kSwapMatrix commands just before the
  // closing kGotoLabel hand each matrix of one chunk to its counterpart in
  // the chunk before, which already exists: as in Kaldi's checker, they
  // count only as the end of the source matrix.
  const auto &commands = computation.commands;
  size_t loop_swaps_begin = commands.size();
  if (!commands.empty() && commands.back().command_type == kGotoLabel) {
    loop_swaps_begin = commands.size() - 1;
    while (loop_swaps_begin > 0 &&
           commands[loop_swaps_begin - 1].command_type == kSwapMatrix)
      loop_swaps_begin--;
  }
  for (size_t k = 0; k < command_attributes.size(); k++) {
    int32_t c = static_cast<int32_t>(k);
    AppendAccesses(c, command_attributes[k].matrices_read,
                   command_attributes[k].matrices_written, &accesses);
    const NnetComputation::Command &cmd = computation.commands[k];
    switch (cmd.command_type) {
      case kAllocMatrix:
        SetAllocate(MatrixOf(computation, cmd.arg1), c, matrix_accesses);
        break;
      case kDeallocMatrix:
        SetDeallocate(MatrixOf(computation, cmd.arg1), c, matrix_accesses);
        break;
      case kSwapMatrix:
        // arg1 takes over arg2's memory: arg1 starts to exist, arg2 ends.
        if (k < loop_swaps_begin)
          SetAllocate(MatrixOf(computation, cmd.arg1), c, matrix_accesses);
        SetDeallocate(MatrixOf(computation, cmd.arg2), c, matrix_accesses);
        break;
      case kAcceptInput: {
        int32_t m = MatrixOf(computation, cmd.arg1);
        (*matrix_accesses)[m].is_input = true;
        // Accepting the same matrix again (looped computations) re-creates
        // it; the first acceptance counts as its allocation.
        if ((*matrix_accesses)[m].allocate_command == -1)
          (*matrix_accesses)[m].allocate_command = c;
        break;
      }
      case kProvideOutput:
        (*matrix_accesses)[MatrixOf(computation, cmd.arg1)].is_output = true;
        break;
      default:
        break;
    }
  }
  for (size_t m = 0; m < accesses.size(); m++)
    (*matrix_accesses)[m].accesses = std::move(accesses[m]);
}

void Analyzer::Init(const Nnet &nnet, const NnetComputation &computation) {
  variables.Init(computation);
  ComputeCommandAttributes(nnet, computation, variables, &command_attributes);
  ComputeVariableAccesses(variables, command_attributes, &variable_accesses);
  ComputeMatrixAccesses(nnet, computation, variables, command_attributes,
                        &matrix_accesses);
}

// ---------------------------------------------------------------------------
// Memory

int64_t GetMaxMemoryUse(const NnetComputation &computation) {
  MemoryTimeline timeline;
  ComputeMemoryTimeline(computation, &timeline);
  return timeline.peak_bytes;
}

}  // namespace nnet3
