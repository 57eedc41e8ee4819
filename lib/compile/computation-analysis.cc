#include "compile/computation-analysis.h"

#include <algorithm>
#include <sstream>

#include "base/error.h"
#include "compile/memory-timeline.h"

namespace nnet3 {

namespace {

void SortAndUniq(std::vector<int32_t> *v) {
  if (v->size() < 2) return;  // most lists of a command: nothing to do
  std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

// Index of `value` in the sorted range [begin, end) (which must contain it),
// counted from `begin`.
int32_t PositionOf(const int32_t *begin, const int32_t *end, int32_t value) {
  const int32_t *it = std::lower_bound(begin, end, value);
  NNET3_ASSERT(it != end && *it == value);
  return static_cast<int32_t>(it - begin);
}

// The sorted, unique row (rows == true) or column boundaries of every
// matrix of `computation`, concatenated into `points`; matrix m's are
// [(*begin)[m], (*begin)[m + 1]). One flat buffer, not one per matrix.
void CollectSplitPoints(const NnetComputation &computation, bool rows,
                        std::vector<int32_t> *points,
                        std::vector<int32_t> *begin) {
  const size_t num_matrices = computation.matrices.size();
  begin->assign(num_matrices + 1, 0);
  for (size_t m = 1; m < num_matrices; m++) (*begin)[m + 1] = 2;
  for (size_t s = 1; s < computation.submatrices.size(); s++) {
    int32_t m = computation.submatrices[s].matrix_index;
    NNET3_ASSERT(m > 0 && static_cast<size_t>(m) < num_matrices);
    (*begin)[m + 1] += 2;
  }
  for (size_t m = 0; m < num_matrices; m++) (*begin)[m + 1] += (*begin)[m];
  points->resize(static_cast<size_t>((*begin)[num_matrices]));
  // Fill each matrix's range from its end, the size first.
  std::vector<int32_t> fill(begin->begin() + 1, begin->end());
  for (size_t m = 1; m < num_matrices; m++) {
    const NnetComputation::MatrixInfo &info = computation.matrices[m];
    (*points)[--fill[m]] = 0;
    (*points)[--fill[m]] = rows ? info.num_rows : info.num_cols;
  }
  for (size_t s = 1; s < computation.submatrices.size(); s++) {
    const NnetComputation::SubMatrixInfo &info = computation.submatrices[s];
    int32_t m = info.matrix_index;
    int32_t offset = rows ? info.row_offset : info.col_offset;
    int32_t size = rows ? info.num_rows : info.num_cols;
    (*points)[--fill[m]] = offset;
    (*points)[--fill[m]] = offset + size;
  }
  // Sort and uniq each range, closing up the gaps.
  int32_t *data = points->data();
  int32_t write = 0;
  for (size_t m = 0; m < num_matrices; m++) {
    int32_t *first = data + (*begin)[m], *last = data + (*begin)[m + 1];
    std::sort(first, last);
    int32_t *unique_end = std::unique(first, last);
    (*begin)[m] = write;
    write =
        static_cast<int32_t>(std::copy(first, unique_end, data + write) - data);
  }
  (*begin)[num_matrices] = write;
  points->resize(static_cast<size_t>(write));
}

}  // namespace

// ---------------------------------------------------------------------------
// ComputationVariables

void ComputationVariables::Init(const NnetComputation &computation) {
  int32_t num_matrices = static_cast<int32_t>(computation.matrices.size());
  int32_t num_submatrices =
      static_cast<int32_t>(computation.submatrices.size());
  CollectSplitPoints(computation, true, &row_points_, &row_points_begin_);
  CollectSplitPoints(computation, false, &column_points_,
                     &column_points_begin_);
  matrix_to_variable_index_.assign(num_matrices + 1, 0);
  variable_to_matrix_.clear();
  num_variables_ = 0;
  for (int32_t m = 1; m < num_matrices; m++) {
    matrix_to_variable_index_[m] = num_variables_;
    int32_t n = (row_points_begin_[m + 1] - row_points_begin_[m] - 1) *
                (column_points_begin_[m + 1] - column_points_begin_[m] - 1);
    num_variables_ += n;
    variable_to_matrix_.insert(variable_to_matrix_.end(), n, m);
  }
  matrix_to_variable_index_[num_matrices] = num_variables_;

  submatrix_blocks_.assign(num_submatrices, SubmatrixBlocks());
  for (int32_t s = 1; s < num_submatrices; s++) {
    const NnetComputation::SubMatrixInfo &info = computation.submatrices[s];
    int32_t m = info.matrix_index;
    const int32_t *rows = row_points_.data() + row_points_begin_[m],
                  *rows_end = row_points_.data() + row_points_begin_[m + 1],
                  *cols = column_points_.data() + column_points_begin_[m],
                  *cols_end =
                      column_points_.data() + column_points_begin_[m + 1];
    SubmatrixBlocks &blocks = submatrix_blocks_[s];
    blocks.matrix = m;
    blocks.whole_matrix = computation.IsWholeMatrix(s);
    blocks.r0 = PositionOf(rows, rows_end, info.row_offset);
    blocks.r1 = PositionOf(rows, rows_end, info.row_offset + info.num_rows);
    blocks.c0 = PositionOf(cols, cols_end, info.col_offset);
    blocks.c1 = PositionOf(cols, cols_end, info.col_offset + info.num_cols);
  }
}

void ComputationVariables::AppendVariablesForSubmatrix(
    int32_t submatrix_index, std::vector<int32_t> *variables) const {
  NNET3_ASSERT(submatrix_index > 0 &&
               submatrix_index <
                   static_cast<int32_t>(submatrix_blocks_.size()));
  const SubmatrixBlocks &b = submatrix_blocks_[submatrix_index];
  const int32_t num_col_blocks =
      column_points_begin_[b.matrix + 1] - column_points_begin_[b.matrix] - 1;
  const int32_t first = matrix_to_variable_index_[b.matrix];
  for (int32_t r = b.r0; r < b.r1; r++)
    for (int32_t c = b.c0; c < b.c1; c++)
      variables->push_back(first + r * num_col_blocks + c);
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
                   static_cast<int32_t>(submatrix_blocks_.size()));
  const SubmatrixBlocks &b = submatrix_blocks_[submatrix_index];
  int32_t m = b.matrix;
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
    if (!b.whole_matrix) ca->matrices_read.push_back(m);
  }
}

int32_t ComputationVariables::GetMatrixForVariable(int32_t variable) const {
  NNET3_ASSERT(variable >= 0 && variable < num_variables_);
  return variable_to_matrix_[variable];
}

NnetComputation::SubMatrixInfo ComputationVariables::VariableInfo(
    int32_t variable) const {
  int32_t m = GetMatrixForVariable(variable);
  const int32_t *rows = row_points_.data() + row_points_begin_[m],
                *cols = column_points_.data() + column_points_begin_[m];
  int32_t num_col_blocks =
      column_points_begin_[m + 1] - column_points_begin_[m] - 1;
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
  bool whole_rows = info.row_offset == 0 &&
                    info.num_rows == row_points_[row_points_begin_[m + 1] - 1],
       whole_cols =
           info.col_offset == 0 &&
           info.num_cols == column_points_[column_points_begin_[m + 1] - 1];
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
  const bool adds =
      (props & kPropagateAdds) && !(c.Fusion() & kFuseAssignOutput);
  vars.RecordAccessForSubmatrix(c.arg3, kReadAccess, attr);
  vars.RecordAccessForSubmatrix(c.arg4, adds ? kReadWriteAccess : kWriteAccess,
                                attr);
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
    case kMatrixScaleAdd:
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

// ---------------------------------------------------------------------------
// CommandAttributesList

bool operator==(const IntSpan &a, const std::vector<int32_t> &b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

void CommandAttributesList::Clear() {
  data_.clear();
  bounds_.assign(1, 0);
  side_effects_.clear();
}

void CommandAttributesList::Reserve(size_t num_commands) {
  // About four entries per command in all its lists.
  data_.reserve(4 * num_commands);
  bounds_.reserve(kNumLists * num_commands + 1);
  side_effects_.reserve(num_commands);
}

void CommandAttributesList::Append(CommandAttributes *attributes) {
  if (bounds_.empty()) bounds_.push_back(0);
  for (std::vector<int32_t> *list :
       {&attributes->variables_read, &attributes->variables_written,
        &attributes->submatrices_read, &attributes->submatrices_written,
        &attributes->matrices_read, &attributes->matrices_written}) {
    SortAndUniq(list);
    data_.insert(data_.end(), list->begin(), list->end());
    bounds_.push_back(static_cast<int32_t>(data_.size()));
  }
  side_effects_.push_back(attributes->has_side_effects ? 1 : 0);
}

void ComputeCommandAttributes(const Nnet &nnet,
                              const NnetComputation &computation,
                              const ComputationVariables &variables,
                              CommandAttributesList *attributes) {
  attributes->Clear();
  attributes->Reserve(computation.commands.size());
  // Each command's lists are gathered in one reused scratch object.
  CommandAttributes scratch;
  for (const NnetComputation::Command &command : computation.commands) {
    scratch.variables_read.clear();
    scratch.variables_written.clear();
    scratch.submatrices_read.clear();
    scratch.submatrices_written.clear();
    scratch.matrices_read.clear();
    scratch.matrices_written.clear();
    scratch.has_side_effects = false;
    ComputeOneCommandAttributes(nnet, computation, command, variables,
                                &scratch);
    attributes->Append(&scratch);
  }
}

namespace {

// Calls visit(element, access_type) for each element of read ∪ written
// (both sorted and unique), in increasing order.
template <typename Visit>
void ForEachAccess(const IntSpan &read, const IntSpan &written, Visit visit) {
  auto r = read.begin(), w = written.begin();
  while (r != read.end() || w != written.end()) {
    if (w == written.end() || (r != read.end() && *r < *w)) {
      visit(*r++, kReadAccess);
    } else if (r == read.end() || *w < *r) {
      visit(*w++, kWriteAccess);
    } else {
      visit(*r, kReadWriteAccess);
      ++r;
      ++w;
    }
  }
}

// For each element (variable or matrix) e < num_elements, one Access per
// command that reads or writes it, in command order, taking each command's
// lists through the member pointers `read` and `written`. Counts first, so
// each list is allocated once.
void ComputeAccessLists(const CommandAttributesList &attributes,
                        IntSpan CommandAttributesView::*read,
                        IntSpan CommandAttributesView::*written,
                        size_t num_elements,
                        std::vector<std::vector<Access>> *lists) {
  std::vector<int32_t> counts(num_elements, 0);
  for (size_t k = 0; k < attributes.size(); k++) {
    const CommandAttributesView attr = attributes[k];
    ForEachAccess(attr.*read, attr.*written,
                  [&counts](int32_t e, AccessType) { counts[e]++; });
  }
  lists->resize(num_elements);
  for (size_t e = 0; e < num_elements; e++) {
    (*lists)[e].clear();
    (*lists)[e].reserve(static_cast<size_t>(counts[e]));
  }
  for (size_t k = 0; k < attributes.size(); k++) {
    const int32_t command = static_cast<int32_t>(k);
    const CommandAttributesView attr = attributes[k];
    ForEachAccess(attr.*read, attr.*written,
                  [command, lists](int32_t e, AccessType type) {
                    (*lists)[e].push_back(Access(command, type));
                  });
  }
}

}  // namespace

void ComputeVariableAccesses(
    const ComputationVariables &variables,
    const CommandAttributesList &command_attributes,
    std::vector<std::vector<Access>> *variable_accesses) {
  ComputeAccessLists(command_attributes, &CommandAttributesView::variables_read,
                     &CommandAttributesView::variables_written,
                     static_cast<size_t>(variables.NumVariables()),
                     variable_accesses);
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

void ComputeMatrixAccesses(const Nnet &nnet, const NnetComputation &computation,
                           const ComputationVariables &variables,
                           const CommandAttributesList &command_attributes,
                           std::vector<MatrixAccesses> *matrix_accesses) {
  (void)nnet;
  (void)variables;
  std::vector<std::vector<Access>> accesses;
  ComputeAccessLists(command_attributes, &CommandAttributesView::matrices_read,
                     &CommandAttributesView::matrices_written,
                     computation.matrices.size(), &accesses);
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
