// Shortcut compilation: the n-stride structure, decomposing a request and
// expanding the computation of its two-sequence version.
#include "compile/shortcut-compile.h"

#include <sstream>
#include <string>
#include <utility>

#include "base/error.h"

namespace nnet3 {

namespace {

int32_t NOf(const Index &index) { return index.n; }
int32_t NOf(const Cindex &cindex) { return cindex.second.n; }
Index WithN(Index index, int32_t n) {
  index.n = n;
  return index;
}
Cindex WithN(Cindex cindex, int32_t n) {
  cindex.second.n = n;
  return cindex;
}

// Whether `v` is made of blocks of s * num_n entries whose k-th run of s
// entries is the first run with n = k (and the first run has n = 0).
template <class T>
bool HasNStride(const std::vector<T> &v, int32_t num_n, int32_t s) {
  const size_t block = static_cast<size_t>(s) * num_n;
  if (v.size() % block != 0) return false;
  for (size_t b = 0; b < v.size(); b += block) {
    for (size_t j = 0; j < static_cast<size_t>(s); j++) {
      const T &first = v[b + j];
      if (NOf(first) != 0) return false;
      for (int32_t k = 1; k < num_n; k++)
        if (v[b + k * s + j] != WithN(first, k)) return false;
    }
  }
  return true;
}

template <class T>
int32_t FindNStrideT(const std::vector<T> &v) {
  if (v.empty()) return 0;
  const int32_t size = static_cast<int32_t>(v.size());
  const int32_t num_n = NOf(v.back()) + 1;
  if (num_n < 2 || NOf(v[0]) != 0 || size % num_n != 0) return 0;
  const int32_t per_n = size / num_n;
  const T twin = WithN(v[0], 1);
  // The usual strides first: 1 (t-major) and per_n (n-major); then the
  // rest (e.g. 2 after subsampling). A candidate must hold v[0]'s twin.
  for (int32_t s : {1, per_n})
    if (v[s] == twin && HasNStride(v, num_n, s)) return s;
  for (int32_t s = 2; s < per_n; s++)
    if (per_n % s == 0 && v[s] == twin && HasNStride(v, num_n, s)) return s;
  return 0;
}

template <class T>
void ConvertNumNValuesT(int32_t n_stride, int32_t num_n_in, int32_t num_n_out,
                        const std::vector<T> &in, std::vector<T> *out) {
  NNET3_ASSERT(n_stride > 0 && num_n_in > 0 && num_n_out > 0);
  const size_t block_in = static_cast<size_t>(n_stride) * num_n_in;
  NNET3_ASSERT(in.size() % block_in == 0);
  // Sized once and written in place: for the debug cindexes of an expanded
  // training computation this runs over hundreds of thousands of entries.
  out->resize(in.size() / num_n_in * num_n_out);
  T *dst = out->data();
  for (size_t b = 0; b < in.size(); b += block_in)
    for (int32_t k = 0; k < num_n_out; k++)
      for (int32_t j = 0; j < n_stride; j++) *dst++ = WithN(in[b + j], k);
}

bool IoIsDecomposable(const IoSpecification &io, IoSpecification *mini,
                      int32_t *num_n_values) {
  if (io.indexes.empty()) return false;
  *num_n_values = io.indexes.back().n + 1;
  // Two sequences or fewer: nothing to gain.
  if (*num_n_values <= 2) return false;
  const int32_t n_stride = FindNStride(io.indexes);
  if (n_stride == 0) return false;
  mini->name = io.name;
  mini->has_deriv = io.has_deriv;
  ConvertNumNValues(n_stride, *num_n_values, 2, io.indexes, &mini->indexes);
  return true;
}

// Stretches a two-sequence computation to N sequences. Row r of a matrix
// with n-stride s lies in block r / 2s, run (r % 2s) / s (its n), position
// r % s; in the expanded matrix the same block and position with n = k is
// row block * N s + k s + position.
class ComputationExpander {
 public:
  using Command = NnetComputation::Command;

  ComputationExpander(const Nnet &nnet, const MiscComputationInfo &misc_info,
                      const NnetComputation &mini, bool need_debug_info,
                      int32_t num_n, NnetComputation *expanded)
      : nnet_(nnet),
        misc_info_(misc_info),
        mini_(mini),
        need_debug_info_(need_debug_info),
        num_n_(num_n),
        expanded_(expanded) {}

  void Expand() {
    NNET3_ASSERT(num_n_ > 2 && expanded_ != &mini_);
    *expanded_ = NnetComputation();
    InitStrides();
    ExpandMatrices();
    ExpandSubmatrices();
    ExpandPrecomputedIndexes();
    ExpandCommands();
    expanded_->need_model_derivative = mini_.need_model_derivative;
  }

 private:
  void InitStrides();
  void ExpandMatrices();
  void ExpandSubmatrices();
  void ExpandPrecomputedIndexes();
  void ExpandCommands();
  void ExpandRows(int32_t k, Command *c);
  void ExpandRowsMulti(int32_t k, Command *c);
  void ExpandRowRanges(int32_t k, Command *c);

  // The n (0 or 1) of row `row` of matrix m in the mini computation.
  int32_t OldN(int32_t m, int32_t row) const {
    return (row % (2 * n_stride_[m])) / n_stride_[m];
  }
  // The expanded row of mini row `row` of matrix m, with n = k.
  int32_t NewMatrixRow(int32_t m, int32_t row, int32_t k) const {
    const int32_t s = n_stride_[m];
    return row / (2 * s) * num_n_ * s + k * s + row % s;
  }
  // If row `row` of mini submatrix `s` has n = 0: true, with *new_row its
  // row in the expanded submatrix and *stride its matrix's n-stride.
  bool NewSubmatrixRow(int32_t s, int32_t row, int32_t *new_row,
                       int32_t *stride) const {
    const int32_t m = mini_.submatrices[s].matrix_index;
    const int32_t matrix_row = row + mini_.submatrices[s].row_offset;
    if (OldN(m, matrix_row) != 0) return false;
    *new_row =
        NewMatrixRow(m, matrix_row, 0) - expanded_->submatrices[s].row_offset;
    *stride = n_stride_[m];
    return true;
  }
  [[noreturn]] void Fail(const std::string &what) const {
    throw UserError("Shortcut compilation failed: " + what +
                        "; compile without it (--compiler.use-shortcut=false)",
                    SourceLocation{__FILE__, __LINE__, __func__});
  }
  // For a row command that does not keep each n to itself.
  [[noreturn]] void FailCommand(int32_t k) const;

  const Nnet &nnet_;
  const MiscComputationInfo &misc_info_;
  const NnetComputation &mini_;
  const bool need_debug_info_;
  const int32_t num_n_;
  NnetComputation *expanded_;
  std::vector<int32_t> n_stride_;  // per matrix; [0] unused
};

void ComputationExpander::FailCommand(int32_t k) const {
  std::vector<std::string> strings;
  mini_.GetCommandStrings(nnet_, &strings);
  Fail("command c" + std::to_string(k) + " (" + strings.at(k) +
       ") of the two-sequence computation mixes sequences");
}

void ComputationExpander::InitStrides() {
  const int32_t num_matrices = static_cast<int32_t>(mini_.matrices.size());
  if (mini_.matrix_debug_info.size() != mini_.matrices.size())
    Fail("the two-sequence computation has no debug info");
  n_stride_.assign(num_matrices, 0);
  for (int32_t m = 1; m < num_matrices; m++) {
    const std::vector<Cindex> &cindexes = mini_.matrix_debug_info[m].cindexes;
    NNET3_ASSERT(static_cast<int32_t>(cindexes.size()) ==
                 mini_.matrices[m].num_rows);
    n_stride_[m] = FindNStride(cindexes);
    if (n_stride_[m] == 0 || cindexes.back().second.n != 1) {
      std::ostringstream what;
      what << "matrix m" << m << " of the two-sequence computation ("
           << CindexToString(cindexes.at(0), nnet_.GetNodeNames())
           << " ...) does not repeat the same rows for n = 0 and n = 1";
      Fail(what.str());
    }
  }
}

void ComputationExpander::ExpandMatrices() {
  const size_t num_matrices = mini_.matrices.size();
  expanded_->matrices = mini_.matrices;
  for (size_t m = 1; m < num_matrices; m++)
    expanded_->matrices[m].num_rows = mini_.matrices[m].num_rows / 2 * num_n_;
  expanded_->matrix_debug_info.clear();
  if (!need_debug_info_) return;
  expanded_->matrix_debug_info.resize(num_matrices);
  for (size_t m = 1; m < num_matrices; m++) {
    const NnetComputation::MatrixDebugInfo &in = mini_.matrix_debug_info[m];
    NnetComputation::MatrixDebugInfo &out = expanded_->matrix_debug_info[m];
    out.is_deriv = in.is_deriv;
    ConvertNumNValues(n_stride_[m], 2, num_n_, in.cindexes, &out.cindexes);
  }
}

void ComputationExpander::ExpandSubmatrices() {
  const int32_t num_submatrices =
      static_cast<int32_t>(mini_.submatrices.size());
  expanded_->submatrices = mini_.submatrices;
  for (int32_t s = 1; s < num_submatrices; s++) {
    const NnetComputation::SubMatrixInfo &in = mini_.submatrices[s];
    const int32_t m = in.matrix_index;
    const int32_t first = in.row_offset, last = first + in.num_rows - 1;
    // A submatrix must cover whole runs: from an n = 0 row to an n = 1 row.
    if (OldN(m, first) != 0 || OldN(m, last) != 1)
      Fail("submatrix s" + std::to_string(s) + " (rows " +
           std::to_string(first) + ".." + std::to_string(last) + " of m" +
           std::to_string(m) + ") does not cover whole sequences");
    const int32_t new_first = NewMatrixRow(m, first, 0),
                  new_last = NewMatrixRow(m, last, num_n_ - 1);
    expanded_->submatrices[s].row_offset = new_first;
    expanded_->submatrices[s].num_rows = new_last + 1 - new_first;
  }
}

void ComputationExpander::ExpandPrecomputedIndexes() {
  const int32_t num_p =
      static_cast<int32_t>(mini_.component_precomputed_indexes.size());
  std::vector<int32_t> component(num_p, -1);
  std::vector<bool> need_backprop(num_p, false);
  for (const Command &c : mini_.commands) {
    if (c.arg2 <= 0 || c.arg2 >= num_p) continue;
    if (c.command_type == kPropagate) component[c.arg2] = c.arg1;
    if (c.command_type == kBackprop || c.command_type == kBackpropNoModelUpdate)
      need_backprop[c.arg2] = true;
  }
  expanded_->component_precomputed_indexes.clear();
  expanded_->component_precomputed_indexes.resize(num_p);
  for (int32_t p = 1; p < num_p; p++) {
    const NnetComputation::PrecomputedIndexesInfo &in =
        mini_.component_precomputed_indexes[p];
    NnetComputation::PrecomputedIndexesInfo &out =
        expanded_->component_precomputed_indexes[p];
    if (component[p] < 0) continue;  // unused: left null
    const int32_t in_stride = FindNStride(in.input_indexes),
                  out_stride = FindNStride(in.output_indexes);
    if (in_stride == 0 || out_stride == 0 || in.input_indexes.back().n != 1 ||
        in.output_indexes.back().n != 1)
      Fail("the Indexes of precomputed indexes " + std::to_string(p) +
           " (component " + nnet_.GetComponentName(component[p]) +
           ") are missing or do not repeat for n = 0 and n = 1");
    ConvertNumNValues(in_stride, 2, num_n_, in.input_indexes,
                      &out.input_indexes);
    ConvertNumNValues(out_stride, 2, num_n_, in.output_indexes,
                      &out.output_indexes);
    std::unique_ptr<ComponentPrecomputedIndexes> data =
        nnet_.GetComponent(component[p])
            ->PrecomputeIndexes(misc_info_, out.input_indexes,
                                out.output_indexes, need_backprop[p]);
    // Non-null for two sequences, so non-null for N.
    NNET3_ASSERT(data != nullptr);
    out.data = std::move(data);
  }
}

void ComputationExpander::ExpandCommands() {
  const int32_t num_commands = static_cast<int32_t>(mini_.commands.size());
  expanded_->commands = mini_.commands;
  for (int32_t k = 0; k < num_commands; k++) {
    Command *c = &expanded_->commands[k];
    switch (c->command_type) {
      case kCopyRows:
      case kAddRows:
        ExpandRows(k, c);
        break;
      case kCopyRowsMulti:
      case kCopyToRowsMulti:
      case kAddRowsMulti:
      case kAddToRowsMulti:
        ExpandRowsMulti(k, c);
        break;
      case kAddRowRanges:
        ExpandRowRanges(k, c);
        break;
      default:
        break;  // refers to submatrices only, which keep their numbers
    }
  }
}

// Each n = 0 row i1 of the destination reads an n = 0 row i2 (or none);
// its twin i1 + stride1 must read i2's twin (or none), and the expanded
// rows i1 + k stride1 read i2 + k stride2.
void ComputationExpander::ExpandRows(int32_t k, Command *c) {
  const std::vector<int32_t> &old = mini_.indexes.at(c->arg3);
  const int32_t s1 = c->arg1, s2 = c->arg2;
  const int32_t old_size = static_cast<int32_t>(old.size());
  NNET3_ASSERT(old_size == mini_.submatrices[s1].num_rows);
  std::vector<int32_t> list(expanded_->submatrices[s1].num_rows, -1);
  for (int32_t i1 = 0; i1 < old_size; i1++) {
    int32_t new_i1, stride1, new_i2 = -1, stride2 = 0;
    if (!NewSubmatrixRow(s1, i1, &new_i1, &stride1)) continue;
    const int32_t i2 = old[i1];
    if (i2 >= 0 && !NewSubmatrixRow(s2, i2, &new_i2, &stride2)) FailCommand(k);
    // SnipRowOps may have cut off trailing -1 rows, and with them the twin
    // of a -1 row (whose expanded rows then stay -1).
    const int32_t twin = i1 + stride1;
    if (twin >= old_size ? i2 >= 0 : old[twin] != (i2 < 0 ? -1 : i2 + stride2))
      FailCommand(k);
    if (i2 < 0) continue;
    for (int32_t n = 0; n < num_n_; n++)
      list[new_i1 + n * stride1] = new_i2 + n * stride2;
  }
  c->arg3 = static_cast<int32_t>(expanded_->indexes.size());
  expanded_->indexes.push_back(std::move(list));
}

void ComputationExpander::ExpandRowsMulti(int32_t k, Command *c) {
  const std::vector<std::pair<int32_t, int32_t>> &old =
      mini_.indexes_multi.at(c->arg2);
  const int32_t s1 = c->arg1;
  const int32_t old_size = static_cast<int32_t>(old.size());
  NNET3_ASSERT(old_size == mini_.submatrices[s1].num_rows);
  std::vector<std::pair<int32_t, int32_t>> list(
      expanded_->submatrices[s1].num_rows, std::make_pair(-1, -1));
  for (int32_t i1 = 0; i1 < old_size; i1++) {
    int32_t new_i1, stride1, new_i2 = -1, stride2 = 0;
    if (!NewSubmatrixRow(s1, i1, &new_i1, &stride1)) continue;
    const std::pair<int32_t, int32_t> p = old[i1];
    std::pair<int32_t, int32_t> want_twin(-1, -1);
    if (p.first >= 0) {
      if (!NewSubmatrixRow(p.first, p.second, &new_i2, &stride2))
        FailCommand(k);
      want_twin = std::make_pair(p.first, p.second + stride2);
    }
    const int32_t twin = i1 + stride1;  // may be snipped off, as above
    if (twin >= old_size ? p.first >= 0 : old[twin] != want_twin)
      FailCommand(k);
    if (p.first < 0) continue;
    for (int32_t n = 0; n < num_n_; n++)
      list[new_i1 + n * stride1] =
          std::make_pair(p.first, new_i2 + n * stride2);
  }
  c->arg2 = static_cast<int32_t>(expanded_->indexes_multi.size());
  expanded_->indexes_multi.push_back(std::move(list));
}

// A non-empty range of an n = 0 row must hold only n = 0 rows (so they are
// consecutive in the expanded matrix too); its twin's range is shifted by
// the source's stride.
void ComputationExpander::ExpandRowRanges(int32_t k, Command *c) {
  const std::vector<std::pair<int32_t, int32_t>> &old =
      mini_.indexes_ranges.at(c->arg3);
  const int32_t s1 = c->arg1, s2 = c->arg2;
  const int32_t old_size = static_cast<int32_t>(old.size());
  NNET3_ASSERT(old_size == mini_.submatrices[s1].num_rows);
  std::vector<std::pair<int32_t, int32_t>> list(
      expanded_->submatrices[s1].num_rows, std::make_pair(-1, -1));
  for (int32_t i1 = 0; i1 < old_size; i1++) {
    int32_t new_i1, stride1;
    if (!NewSubmatrixRow(s1, i1, &new_i1, &stride1)) continue;
    const std::pair<int32_t, int32_t> r = old[i1];
    const int32_t twin = i1 + stride1;  // may be snipped off, as above
    if (r.first >= r.second) {          // empty
      if (twin < old_size && old[twin].first < old[twin].second) FailCommand(k);
      continue;
    }
    if (twin >= old_size) FailCommand(k);
    const std::pair<int32_t, int32_t> t = old[twin];
    int32_t new_begin, new_row, stride2;
    if (!NewSubmatrixRow(s2, r.first, &new_begin, &stride2)) FailCommand(k);
    for (int32_t i2 = r.first + 1; i2 < r.second; i2++)
      if (!NewSubmatrixRow(s2, i2, &new_row, &stride2)) FailCommand(k);
    if (t != std::make_pair(r.first + stride2, r.second + stride2))
      FailCommand(k);
    const int32_t new_end = new_begin + (r.second - r.first);
    for (int32_t n = 0; n < num_n_; n++)
      list[new_i1 + n * stride1] =
          std::make_pair(new_begin + n * stride2, new_end + n * stride2);
  }
  c->arg3 = static_cast<int32_t>(expanded_->indexes_ranges.size());
  expanded_->indexes_ranges.push_back(std::move(list));
}

}  // namespace

int32_t FindNStride(const std::vector<Index> &indexes) {
  return FindNStrideT(indexes);
}

int32_t FindNStride(const std::vector<Cindex> &cindexes) {
  return FindNStrideT(cindexes);
}

void ConvertNumNValues(int32_t n_stride, int32_t num_n_in, int32_t num_n_out,
                       const std::vector<Index> &in, std::vector<Index> *out) {
  ConvertNumNValuesT(n_stride, num_n_in, num_n_out, in, out);
}

void ConvertNumNValues(int32_t n_stride, int32_t num_n_in, int32_t num_n_out,
                       const std::vector<Cindex> &in,
                       std::vector<Cindex> *out) {
  ConvertNumNValuesT(n_stride, num_n_in, num_n_out, in, out);
}

bool RequestIsDecomposable(const ComputationRequest &request,
                           ComputationRequest *mini_request,
                           int32_t *num_n_values) {
  if (request.inputs.empty() || request.outputs.empty()) return false;
  ComputationRequest mini;
  mini.need_model_derivative = request.need_model_derivative;
  mini.store_component_stats = request.store_component_stats;
  mini.misc_info = request.misc_info;
  mini.inputs.resize(request.inputs.size());
  mini.outputs.resize(request.outputs.size());
  int32_t num_n = -1;
  auto decompose = [&num_n](const IoSpecification &io, IoSpecification *out) {
    int32_t this_num_n = 0;
    if (!IoIsDecomposable(io, out, &this_num_n)) return false;
    if (num_n == -1) num_n = this_num_n;
    return this_num_n == num_n;
  };
  for (size_t i = 0; i < request.inputs.size(); i++)
    if (!decompose(request.inputs[i], &mini.inputs[i])) return false;
  for (size_t i = 0; i < request.outputs.size(); i++)
    if (!decompose(request.outputs[i], &mini.outputs[i])) return false;
  *mini_request = std::move(mini);
  *num_n_values = num_n;
  return true;
}

void ExpandComputation(const Nnet &nnet, const MiscComputationInfo &misc_info,
                       const NnetComputation &mini_computation,
                       bool need_debug_info, int32_t num_n_values,
                       NnetComputation *expanded) {
  ComputationExpander(nnet, misc_info, mini_computation, need_debug_info,
                      num_n_values, expanded)
      .Expand();
}

void CompileWithShortcut(const Nnet &nnet, const ComputationRequest &request,
                         const CompilerOptions &opts, bool use_shortcut,
                         NnetComputation *computation) {
  ComputationRequest mini_request;
  int32_t num_n_values = 0;
  if (use_shortcut &&
      RequestIsDecomposable(request, &mini_request, &num_n_values)) {
    CompilerOptions mini_opts = opts;
    mini_opts.output_debug_info = true;  // the expansion needs it
    NnetComputation mini_computation;
    Compiler(mini_request, nnet)
        .CreateComputation(mini_opts, &mini_computation);
    ExpandComputation(nnet, request.misc_info, mini_computation,
                      opts.output_debug_info, num_n_values, computation);
  } else {
    Compiler(request, nnet).CreateComputation(opts, computation);
  }
}

}  // namespace nnet3
