// Analysis of an NnetComputation (Kaldi's nnet-analyze; reference 9.3):
// which parts of which matrices each command reads and writes, in which
// order, and when each matrix lives. The checker uses it to prove a compiled
// computation sound; the optimizer uses it to decide what it may change.
//
//   Analyzer a;
//   a.Init(nnet, computation);
//   a.command_attributes[c].variables_read;   // what command c reads
//   a.variable_accesses[v];                    // who touches variable v
//   a.matrix_accesses[m].allocate_command;     // when matrix m lives
//   int64_t bytes = GetMaxMemoryUse(computation);
//
// Variables: each matrix is cut at every row and every column boundary that
// any of its submatrices has; each resulting rectangle is a variable, so
// every submatrix is exactly a set of whole variables and two submatrices
// overlap exactly when they share a variable.
//
// Access semantics (ComputeCommandAttributes): a command that sets every
// element of a submatrix writes its variables (kSetConst, kMatrixCopy,
// kCopyRows and kCopyRowsMulti — whose -1 rows are zeroed —, a Propagate
// without kPropagateAdds or fused with kFuseAssignOutput, a Backprop's in-deriv
// without kBackpropAdds, kAcceptInput, kDecompressMatrix); one that adds to it
// reads and writes them (kMatrixAdd, kMatrixScaleAdd, kAddRows, kAddRowsMulti,
// kAddRowRanges, kPropagateAdds / kBackpropAdds outputs, the destinations of
// kCopyToRowsMulti and kAddToRowsMulti, which need not cover every row,
// kCompressMatrix); sources are read (kProvideOutput reads its matrix; Backprop
// reads in-value / out-value only when the component's kBackpropNeedsInput /
// kBackpropNeedsOutput say so, and always out-deriv). At the matrix level a
// write to part of a matrix also counts as a read of the matrix, since the
// rest of it is kept. kAllocMatrix, kDeallocMatrix and kSwapMatrix access no
// variables (they leave contents undefined); they are recorded as the
// allocation and deallocation of matrices instead. A kBackprop of an
// updatable component and a kPropagate that stores stats have side effects.
//
// Indexes in the computation are assumed valid (ComputationChecker checks
// them before analysing); a matrix allocated or deallocated twice is an
// InternalError here.
#ifndef NNET3_COMPILE_COMPUTATION_ANALYSIS_H_
#define NNET3_COMPILE_COMPUTATION_ANALYSIS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

enum AccessType { kReadAccess, kWriteAccess, kReadWriteAccess };

// What one command touches, as gathered (RecordAccessForSubmatrix appends
// to the lists); CommandAttributesList::Append sorts and uniqs them and
// stores them with those of the other commands.
struct CommandAttributes {
  std::vector<int32_t> variables_read;
  std::vector<int32_t> variables_written;
  std::vector<int32_t> submatrices_read;
  std::vector<int32_t> submatrices_written;
  std::vector<int32_t> matrices_read;
  std::vector<int32_t> matrices_written;
  // True if the command does something beyond writing its outputs (updates
  // the model, stores stats), so it may not be removed even if nothing
  // reads what it writes.
  bool has_side_effects = false;
};

// A read-only view of a sorted, unique run of ints stored elsewhere (in a
// CommandAttributesList); valid while that storage is unchanged.
class IntSpan {
 public:
  IntSpan() = default;
  IntSpan(const int32_t *begin, const int32_t *end)
      : begin_(begin), end_(end) {}
  const int32_t *begin() const { return begin_; }
  const int32_t *end() const { return end_; }
  size_t size() const { return static_cast<size_t>(end_ - begin_); }
  bool empty() const { return begin_ == end_; }
  int32_t operator[](size_t i) const { return begin_[i]; }

 private:
  const int32_t *begin_ = nullptr;
  const int32_t *end_ = nullptr;
};

// Same elements in the same order.
bool operator==(const IntSpan &a, const std::vector<int32_t> &b);

// One command's CommandAttributes as a CommandAttributesList holds them.
struct CommandAttributesView {
  IntSpan variables_read;
  IntSpan variables_written;
  IntSpan submatrices_read;
  IntSpan submatrices_written;
  IntSpan matrices_read;
  IntSpan matrices_written;
  bool has_side_effects = false;
};

// The CommandAttributes of every command of a computation, with all their
// lists in one buffer (an analysis is rebuilt many times per compilation,
// and six allocations per command were a large part of its cost).
class CommandAttributesList {
 public:
  size_t size() const { return side_effects_.size(); }
  CommandAttributesView operator[](size_t command) const {
    NNET3_ASSERT(command < size());
    CommandAttributesView view;
    view.variables_read = List(command, 0);
    view.variables_written = List(command, 1);
    view.submatrices_read = List(command, 2);
    view.submatrices_written = List(command, 3);
    view.matrices_read = List(command, 4);
    view.matrices_written = List(command, 5);
    view.has_side_effects = side_effects_[command] != 0;
    return view;
  }
  void Clear();
  // Makes room for `num_commands` commands (an estimate for the lists).
  void Reserve(size_t num_commands);
  // Appends the attributes of the next command, sorting and uniq-ing its
  // lists (in *attributes) on the way.
  void Append(CommandAttributes *attributes);

 private:
  static constexpr size_t kNumLists = 6;
  IntSpan List(size_t command, size_t list) const {
    const size_t k = command * kNumLists + list;
    return IntSpan(data_.data() + bounds_[k], data_.data() + bounds_[k + 1]);
  }
  std::vector<int32_t> data_;
  // kNumLists ends per command after a leading 0: list l of command c is
  // data_[bounds_[c * kNumLists + l], bounds_[c * kNumLists + l + 1]).
  std::vector<int32_t> bounds_;
  std::vector<char> side_effects_;
};

class ComputationVariables {
 public:
  // Sets up the variables of `computation` (whose submatrices must be
  // valid).
  void Init(const NnetComputation &computation);

  // Appends the variables making up submatrix `s` (s > 0), in increasing
  // order.
  void AppendVariablesForSubmatrix(int32_t submatrix_index,
                                   std::vector<int32_t> *variables) const;
  // Appends all variables of matrix `m` (m > 0), in increasing order.
  void AppendVariablesForMatrix(int32_t matrix_index,
                                std::vector<int32_t> *variables) const;
  // Records in `ca` an access of submatrix `s` (nothing for s == 0):
  // variables, the submatrix and its matrix go to the read and/or written
  // lists; a write to part of a matrix also adds the matrix to
  // matrices_read. The lists are not re-sorted; ComputeCommandAttributes
  // sorts them.
  void RecordAccessForSubmatrix(int32_t submatrix_index, AccessType access_type,
                                CommandAttributes *ca) const;

  int32_t NumVariables() const { return num_variables_; }
  int32_t GetMatrixForVariable(int32_t variable) const;
  // The rectangle of the variable, as a submatrix of its matrix.
  NnetComputation::SubMatrixInfo VariableInfo(int32_t variable) const;
  // "m3(0:9, 10:19)" (inclusive ranges, ':' for all rows / columns).
  std::string DescribeVariable(int32_t variable) const;

 private:
  // Where submatrix s lies among its matrix's blocks: rows [r0, r1) and
  // columns [c0, c1) of the blocks the split points cut.
  struct SubmatrixBlocks {
    int32_t matrix = 0;
    int32_t r0 = 0, r1 = 0, c0 = 0, c1 = 0;
    bool whole_matrix = false;
  };
  // Sorted boundaries of every matrix, each including 0 and the matrix
  // size, concatenated: matrix m's are [points_begin_[m],
  // points_begin_[m + 1]) (num_matrices + 1 entries each).
  std::vector<int32_t> row_points_, row_points_begin_;
  std::vector<int32_t> column_points_, column_points_begin_;
  // First variable of each matrix; a matrix's variables are numbered
  // row-block-major (first + row_block * num_column_blocks + column_block).
  // Has num_matrices + 1 entries.
  std::vector<int32_t> matrix_to_variable_index_;
  std::vector<SubmatrixBlocks> submatrix_blocks_;
  std::vector<int32_t> variable_to_matrix_;
  int32_t num_variables_ = 0;
};

// One touch of a variable or matrix by a command.
struct Access {
  int32_t command_index = -1;
  AccessType access_type = kReadAccess;
  Access() = default;
  Access(int32_t c, AccessType t) : command_index(c), access_type(t) {}
  bool operator<(const Access &o) const {
    return command_index < o.command_index;
  }
};

// The lifetime and uses of one matrix. (In a looped computation the
// kSwapMatrix commands just before the final kGotoLabel count only as the
// deallocation of their second matrix, as in Kaldi's checker.)
struct MatrixAccesses {
  // The kAllocMatrix, kSwapMatrix (as arg1) or first kAcceptInput command
  // that makes the matrix exist; -1 if none.
  int32_t allocate_command = -1;
  // The kDeallocMatrix or kSwapMatrix (as arg2) command that ends it; -1 if
  // none (outputs stay allocated for the user).
  int32_t deallocate_command = -1;
  // Commands that read or write the matrix's contents, in command order.
  std::vector<Access> accesses;
  bool is_input = false;   // written by kAcceptInput
  bool is_output = false;  // read by kProvideOutput
};

// The submatrices named by an indexes_multi list (the -1 entries left out),
// sorted and unique.
void IndexesMultiToSubmatrixIndexes(
    const std::vector<std::pair<int32_t, int32_t>> &indexes_multi,
    std::vector<int32_t> *submatrix_indexes);

// The attributes of every command, in command order (semantics in the
// file comment).
void ComputeCommandAttributes(const Nnet &nnet,
                              const NnetComputation &computation,
                              const ComputationVariables &variables,
                              CommandAttributesList *attributes);

// For each variable, its accesses in command order (one per command; a
// command that reads and writes it gives kReadWriteAccess).
void ComputeVariableAccesses(
    const ComputationVariables &variables,
    const CommandAttributesList &command_attributes,
    std::vector<std::vector<Access>> *variable_accesses);

// For each matrix (entry 0 unused), its lifetime and accesses.
void ComputeMatrixAccesses(const Nnet &nnet, const NnetComputation &computation,
                           const ComputationVariables &variables,
                           const CommandAttributesList &command_attributes,
                           std::vector<MatrixAccesses> *matrix_accesses);

// All of the above for one computation.
struct Analyzer {
  ComputationVariables variables;
  CommandAttributesList command_attributes;
  std::vector<std::vector<Access>> variable_accesses;
  std::vector<MatrixAccesses> matrix_accesses;
  void Init(const Nnet &nnet, const NnetComputation &computation);
};

// Peak bytes of matrices allocated at once while the commands run in order
// (4 bytes per element; kAcceptInput allocates, kProvideOutput does not
// free; compressed matrices count their compressed size, and both forms
// while a compression or decompression runs): the peak of
// ComputeMemoryTimeline (memory-timeline.h), which has the whole curve.
int64_t GetMaxMemoryUse(const NnetComputation &computation);

}  // namespace nnet3

#endif  // NNET3_COMPILE_COMPUTATION_ANALYSIS_H_
