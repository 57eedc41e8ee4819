#include "compile/computation-checker.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

namespace {

// Builds a message with operator<<.
class Msg {
 public:
  template <class T>
  Msg &operator<<(const T &t) {
    os_ << t;
    return *this;
  }
  operator std::string() const { return os_.str(); }

 private:
  std::ostringstream os_;
};

}  // namespace

ComputationChecker::ComputationChecker(const CheckComputationOptions &opts,
                                       const Nnet &nnet,
                                       const NnetComputation &computation)
    : opts_(opts), nnet_(nnet), computation_(computation) {}

void ComputationChecker::Fail(int32_t k, const std::string &what) const {
  std::ostringstream os;
  os << "Computation check failed";
  if (k >= 0 && k < static_cast<int32_t>(computation_.commands.size())) {
    std::vector<std::string> strings;
    computation_.GetCommandStrings(nnet_, &strings);
    os << " at c" << k << " (" << strings[k] << ")";
  }
  os << ": " << what;
  throw InternalError(os.str(), SourceLocation{__FILE__, __LINE__, __func__});
}

bool ComputationChecker::IsLooped() const {
  return !computation_.commands.empty() &&
         computation_.commands.back().command_type == kGotoLabel;
}

void ComputationChecker::Check() {
  CheckMatricesAndSubmatrices();
  CheckComputationIndexes();
  CheckAllocations();
  CheckComputationDebugInfo();
  a_.Init(nnet_, computation_);
  CheckComputationMatrixAccesses();
  CheckComputationCompression();
  if (!IsLooped()) {
    CheckComputationUndefined();
    if (opts_.check_rewrite) CheckComputationRewrite();
  }
}

// ---------------------------------------------------------------------------
// Indexes

void ComputationChecker::CheckMatricesAndSubmatrices() const {
  const auto &matrices = computation_.matrices;
  const auto &submatrices = computation_.submatrices;
  if (matrices.empty() || submatrices.empty())
    Fail(-1, "the reserved matrix 0 / submatrix 0 is missing");
  for (size_t m = 1; m < matrices.size(); m++)
    if (matrices[m].num_rows <= 0 || matrices[m].num_cols <= 0)
      Fail(-1, Msg() << "matrix m" << m << " has size " << matrices[m].num_rows
                     << "x" << matrices[m].num_cols);
  for (size_t s = 1; s < submatrices.size(); s++) {
    const NnetComputation::SubMatrixInfo &info = submatrices[s];
    int32_t m = info.matrix_index;
    if (m <= 0 || m >= static_cast<int32_t>(matrices.size()))
      Fail(-1, Msg() << "submatrix " << s << " has matrix index " << m);
    if (info.row_offset < 0 || info.num_rows <= 0 || info.col_offset < 0 ||
        info.num_cols <= 0 ||
        int64_t(info.row_offset) + info.num_rows > matrices[m].num_rows ||
        int64_t(info.col_offset) + info.num_cols > matrices[m].num_cols)
      Fail(-1, Msg() << "submatrix " << s << " (rows " << info.row_offset << "+"
                     << info.num_rows << ", cols " << info.col_offset << "+"
                     << info.num_cols << ") is outside m" << m << " ("
                     << matrices[m].num_rows << "x" << matrices[m].num_cols
                     << ")");
  }
  for (size_t p = 1; p < computation_.component_precomputed_indexes.size(); p++)
    if (!computation_.component_precomputed_indexes[p].data)
      Fail(-1, Msg() << "precomputed indexes " << p << " are null");
}

void ComputationChecker::CheckSubmatrix(int32_t k, int32_t s, const char *what,
                                        bool whole) const {
  int32_t n = static_cast<int32_t>(computation_.submatrices.size());
  if (s <= 0 || s >= n)
    Fail(k, Msg() << what << " submatrix " << s << " is out of range [1, " << n
                  << ")");
  if (whole && !computation_.IsWholeMatrix(s))
    Fail(k, Msg() << what << " submatrix " << s << " must be a whole matrix");
}

const Component *ComputationChecker::CheckComponent(int32_t k,
                                                    int32_t c) const {
  if (c < 0 || c >= nnet_.NumComponents())
    Fail(k, Msg() << "component index " << c << " is out of range");
  return nnet_.GetComponent(c);
}

void ComputationChecker::CheckComputationIndexes() const {
  for (int32_t k = 0; k < static_cast<int32_t>(computation_.commands.size());
       k++)
    CheckCommandIndexes(k);
  CheckMemos();
}

void ComputationChecker::CheckCommandIndexes(int32_t k) const {
  const NnetComputation::Command &c = computation_.commands[k];
  switch (c.command_type) {
    case kAllocMatrix:
    case kDeallocMatrix:
    case kDecompressMatrix:
      CheckSubmatrix(k, c.arg1, "the", true);
      break;
    case kSwapMatrix:
      CheckSubmatrix(k, c.arg1, "the first", true);
      CheckSubmatrix(k, c.arg2, "the second", true);
      if (Sub(c.arg1).num_rows != Sub(c.arg2).num_rows ||
          Sub(c.arg1).num_cols != Sub(c.arg2).num_cols)
        Fail(k, "the swapped matrices differ in size");
      if (c.arg1 == c.arg2) Fail(k, "a matrix is swapped with itself");
      break;
    case kSetConst:
      CheckSubmatrix(k, c.arg1, "the", false);
      break;
    case kPropagate:
      CheckPropagate(k);
      break;
    case kBackprop:
    case kBackpropNoModelUpdate:
      CheckBackprop(k);
      break;
    case kMatrixCopy:
    case kMatrixAdd:
    case kMatrixScaleAdd:
      CheckCopyOrAdd(k);
      break;
    case kCopyRows:
    case kAddRows:
      CheckRows(k);
      break;
    case kCopyRowsMulti:
    case kAddRowsMulti:
    case kCopyToRowsMulti:
    case kAddToRowsMulti:
      CheckMulti(k);
      break;
    case kAddRowRanges:
      CheckRanges(k);
      break;
    case kCompressMatrix:
      CheckCompress(k);
      break;
    case kAcceptInput:
    case kProvideOutput:
      CheckIo(k);
      break;
    case kNoOperation:
    case kNoOperationPermanent:
    case kNoOperationMarker:
    case kNoOperationLabel:
      break;
    case kGotoLabel:
      CheckGoto(k);
      break;
    default:
      Fail(k, Msg() << "unknown command type "
                    << static_cast<int32_t>(c.command_type));
  }
}

void ComputationChecker::CheckPropagate(int32_t k) const {
  const NnetComputation::Command &c = computation_.commands[k];
  const Component *comp = CheckComponent(k, c.arg1);
  int32_t props = comp->Properties();
  int32_t num_precomputed =
      static_cast<int32_t>(computation_.component_precomputed_indexes.size());
  if (c.arg2 < 0 || c.arg2 >= num_precomputed)
    Fail(k,
         Msg() << "precomputed-indexes index " << c.arg2 << " is out of range");
  bool simple = props & kSimpleComponent;
  if (simple && c.arg2 != 0)
    Fail(k, "a simple component is given precomputed indexes");
  // A non-simple component may have an empty input (in unusual cases).
  if (c.arg3 != 0 || simple) CheckSubmatrix(k, c.arg3, "the input", false);
  CheckSubmatrix(k, c.arg4, "the output", false);
  if (c.arg3 != 0 && Sub(c.arg3).num_cols != comp->InputDim())
    Fail(k, Msg() << "the input has " << Sub(c.arg3).num_cols
                  << " columns but the component's input dim is "
                  << comp->InputDim());
  if (Sub(c.arg4).num_cols != comp->OutputDim())
    Fail(k, Msg() << "the output has " << Sub(c.arg4).num_cols
                  << " columns but the component's output dim is "
                  << comp->OutputDim());
  if (simple && Sub(c.arg3).num_rows != Sub(c.arg4).num_rows)
    Fail(k, "input and output row counts differ for a simple component");
  if (c.arg3 == c.arg4 && !(props & kPropagateInPlace))
    Fail(k, "in-place propagate for a component without kPropagateInPlace");
  if (c.arg5 > 0 && !(props & kUsesMemo))
    Fail(k, "a memo index for a component without kUsesMemo");
  if (c.arg6 > 1) Fail(k, Msg() << "store-stats flag " << c.arg6);
  if (c.Fusion() != 0 &&
      (c.arg5 > 0 || c.arg6 == 1 || !comp->SupportsPropagateFusion(c.Fusion())))
    Fail(k, Msg() << "fusion flags " << c.arg7 << " that component "
                  << comp->Type()
                  << " does not support here (or with a memo or stats)");
}

void ComputationChecker::CheckBackprop(int32_t k) const {
  const NnetComputation::Command &c = computation_.commands[k];
  const Component *comp = CheckComponent(k, c.arg1);
  int32_t props = comp->Properties();
  int32_t num_precomputed =
      static_cast<int32_t>(computation_.component_precomputed_indexes.size());
  if (c.arg2 < 0 || c.arg2 >= num_precomputed)
    Fail(k,
         Msg() << "precomputed-indexes index " << c.arg2 << " is out of range");
  if ((props & kSimpleComponent) && c.arg2 != 0)
    Fail(k, "a simple component is given precomputed indexes");
  if (c.arg3 != 0) CheckSubmatrix(k, c.arg3, "the input-value", false);
  if (c.arg4 != 0) CheckSubmatrix(k, c.arg4, "the output-value", false);
  CheckSubmatrix(k, c.arg5, "the output-deriv", false);
  if (c.arg6 != 0) CheckSubmatrix(k, c.arg6, "the input-deriv", false);
  if ((props & kBackpropNeedsInput) && c.arg3 == 0)
    Fail(k, "the component needs the input value but none is given");
  if ((props & kBackpropNeedsOutput) && c.arg4 == 0)
    Fail(k, "the component needs the output value but none is given");
  bool updates = c.command_type == kBackprop && (props & kUpdatableComponent) &&
                 computation_.need_model_derivative;
  if (c.arg6 == 0 && !updates)
    Fail(k, "backprop has no effect (no input-deriv and no model update)");
  if (c.arg5 == c.arg6 && !(props & kBackpropInPlace))
    Fail(k, "in-place backprop for a component without kBackpropInPlace");
  int32_t in_dim = comp->InputDim(), out_dim = comp->OutputDim();
  if ((c.arg3 != 0 && Sub(c.arg3).num_cols != in_dim) ||
      (c.arg6 != 0 && Sub(c.arg6).num_cols != in_dim))
    Fail(k, Msg() << "input-side column count differs from the component's "
                  << "input dim " << in_dim);
  if ((c.arg4 != 0 && Sub(c.arg4).num_cols != out_dim) ||
      Sub(c.arg5).num_cols != out_dim)
    Fail(k, Msg() << "output-side column count differs from the component's "
                  << "output dim " << out_dim);
  if (c.arg3 != 0 && c.arg6 != 0 &&
      Sub(c.arg3).num_rows != Sub(c.arg6).num_rows)
    Fail(k, "input-value and input-deriv row counts differ");
  if (c.arg4 != 0 && Sub(c.arg4).num_rows != Sub(c.arg5).num_rows)
    Fail(k, "output-value and output-deriv row counts differ");
  if ((props & kSimpleComponent) && c.arg6 != 0 &&
      Sub(c.arg5).num_rows != Sub(c.arg6).num_rows)
    Fail(k, "input and output row counts differ for a simple component");
  if (c.arg7 > 0 && !(props & kUsesMemo))
    Fail(k, "a memo index for a component without kUsesMemo");
}

void ComputationChecker::CheckMemos() const {
  // memo index -> the propagate that makes it.
  std::map<int32_t, int32_t> made, used;
  const auto &commands = computation_.commands;
  for (int32_t k = 0; k < static_cast<int32_t>(commands.size()); k++) {
    const NnetComputation::Command &c = commands[k];
    if (c.command_type == kPropagate && c.arg5 > 0) {
      if (made.count(c.arg5))
        Fail(k, Msg() << "memo " << c.arg5 << " is also made by c"
                      << made[c.arg5]);
      made[c.arg5] = k;
    } else if ((c.command_type == kBackprop ||
                c.command_type == kBackpropNoModelUpdate) &&
               c.arg7 > 0) {
      auto it = made.find(c.arg7);
      if (it == made.end())
        Fail(k, Msg() << "memo " << c.arg7 << " is not made by an earlier "
                      << "propagate");
      if (commands[it->second].arg1 != c.arg1)
        Fail(k, Msg() << "memo " << c.arg7 << " comes from c" << it->second
                      << ", a propagate of another component");
      if (used.count(c.arg7))
        Fail(k, Msg() << "memo " << c.arg7 << " was already used by c"
                      << used[c.arg7]);
      used[c.arg7] = k;
    }
  }
}

void ComputationChecker::CheckCopyOrAdd(int32_t k) const {
  const NnetComputation::Command &c = computation_.commands[k];
  CheckSubmatrix(k, c.arg1, "the destination", false);
  CheckSubmatrix(k, c.arg2, "the source", false);
  if (Sub(c.arg1).num_rows != Sub(c.arg2).num_rows ||
      Sub(c.arg1).num_cols != Sub(c.arg2).num_cols)
    Fail(k, "source and destination differ in size");
  // A copy onto itself with alpha != 1 is an in-place scale.
  if (c.arg1 == c.arg2 && !(c.command_type == kMatrixCopy && c.alpha != 1.0f))
    Fail(k, "copies or adds a submatrix to itself");
}

void ComputationChecker::CheckRows(int32_t k) const {
  const NnetComputation::Command &c = computation_.commands[k];
  CheckSubmatrix(k, c.arg1, "the destination", false);
  CheckSubmatrix(k, c.arg2, "the source", false);
  if (c.arg3 < 0 || c.arg3 >= static_cast<int32_t>(computation_.indexes.size()))
    Fail(k, Msg() << "indexes " << c.arg3 << " is out of range");
  const std::vector<int32_t> &indexes = computation_.indexes[c.arg3];
  if (static_cast<int32_t>(indexes.size()) != Sub(c.arg1).num_rows)
    Fail(k, Msg() << "the index list has " << indexes.size() << " entries for "
                  << Sub(c.arg1).num_rows << " rows");
  if (Sub(c.arg1).num_cols != Sub(c.arg2).num_cols)
    Fail(k, "source and destination differ in column count");
  for (int32_t i : indexes)
    if (i < -1 || i >= Sub(c.arg2).num_rows)
      Fail(k, Msg() << "row index " << i << " is out of range for the source ("
                    << Sub(c.arg2).num_rows << " rows)");
  if (c.arg1 == c.arg2) Fail(k, "copies or adds rows of a submatrix to itself");
}

void ComputationChecker::CheckMulti(int32_t k) const {
  const NnetComputation::Command &c = computation_.commands[k];
  CheckSubmatrix(k, c.arg1, "the", false);
  if (c.arg2 < 0 ||
      c.arg2 >= static_cast<int32_t>(computation_.indexes_multi.size()))
    Fail(k, Msg() << "indexes-multi " << c.arg2 << " is out of range");
  const auto &pairs = computation_.indexes_multi[c.arg2];
  if (static_cast<int32_t>(pairs.size()) != Sub(c.arg1).num_rows)
    Fail(k, Msg() << "the pair list has " << pairs.size() << " entries for "
                  << Sub(c.arg1).num_rows << " rows");
  int32_t num_submatrices =
      static_cast<int32_t>(computation_.submatrices.size());
  for (const auto &p : pairs) {
    if (p.first == -1) {
      if (p.second != -1)
        Fail(k, Msg() << "pair (-1, " << p.second << ") should be (-1, -1)");
      continue;
    }
    if (p.first <= 0 || p.first >= num_submatrices)
      Fail(k, Msg() << "submatrix " << p.first << " in a pair is out of range");
    if (p.second < 0 || p.second >= Sub(p.first).num_rows)
      Fail(k, Msg() << "row " << p.second << " of submatrix " << p.first
                    << " is out of range");
    if (p.first == c.arg1)
      Fail(k, "rows are copied between a submatrix and itself");
    if (Sub(p.first).num_cols != Sub(c.arg1).num_cols)
      Fail(k,
           Msg() << "submatrix " << p.first << " has a different column count");
  }
  if (c.command_type == kCopyToRowsMulti || c.command_type == kAddToRowsMulti) {
    std::vector<std::pair<int32_t, int32_t>> sorted(pairs);
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 1; i < sorted.size(); i++)
      if (sorted[i] == sorted[i - 1] && sorted[i].first != -1)
        Fail(k, Msg() << "destination (" << sorted[i].first << ", "
                      << sorted[i].second << ") appears twice");
  }
  if (c.command_type == kCopyToRowsMulti && c.alpha != 1.0f)
    Fail(k, "kCopyToRowsMulti supports only alpha = 1");
}

void ComputationChecker::CheckRanges(int32_t k) const {
  const NnetComputation::Command &c = computation_.commands[k];
  CheckSubmatrix(k, c.arg1, "the destination", false);
  CheckSubmatrix(k, c.arg2, "the source", false);
  if (c.arg3 < 0 ||
      c.arg3 >= static_cast<int32_t>(computation_.indexes_ranges.size()))
    Fail(k, Msg() << "indexes-ranges " << c.arg3 << " is out of range");
  const auto &ranges = computation_.indexes_ranges[c.arg3];
  if (static_cast<int32_t>(ranges.size()) != Sub(c.arg1).num_rows)
    Fail(k, Msg() << "the range list has " << ranges.size() << " entries for "
                  << Sub(c.arg1).num_rows << " rows");
  if (Sub(c.arg1).num_cols != Sub(c.arg2).num_cols)
    Fail(k, "source and destination differ in column count");
  if (c.arg1 == c.arg2) Fail(k, "adds row ranges of a submatrix to itself");
  int32_t src_rows = Sub(c.arg2).num_rows;
  for (const auto &r : ranges) {
    if (r.first == -1 && r.second == -1) continue;  // nothing to add
    if (r.first < 0 || r.second < r.first || r.second > src_rows)
      Fail(k, Msg() << "row range [" << r.first << ", " << r.second
                    << ") is invalid for a source of " << src_rows << " rows");
  }
}

void ComputationChecker::CheckCompress(int32_t k) const {
  const NnetComputation::Command &c = computation_.commands[k];
  CheckSubmatrix(k, c.arg1, "the", true);
  if (c.arg2 < 1 || c.arg2 > 4)
    Fail(k, Msg() << "compression type " << c.arg2 << " is not 1..4");
  if (c.arg3 != 0 && c.arg3 != 1)
    Fail(k, Msg() << "truncate flag " << c.arg3 << " is not 0 or 1");
  // Range 0 (keep only whether each value is positive) exists for uint8
  // alone, as in Kaldi.
  if (c.alpha < 0.0f || c.alpha > 1000.0f || (c.alpha == 0.0f && c.arg2 != 2))
    Fail(k, Msg() << "compression range " << c.alpha << " is invalid");
}

void ComputationChecker::CheckIo(int32_t k) const {
  const NnetComputation::Command &c = computation_.commands[k];
  CheckSubmatrix(k, c.arg1, "the", true);
  if (c.arg2 < 0 || c.arg2 >= nnet_.NumNodes())
    Fail(k, Msg() << "node index " << c.arg2 << " is out of range");
  // Output nodes take part in input too (their derivatives), and input
  // nodes in output (input derivatives).
  if (!nnet_.IsInputNode(c.arg2) && !nnet_.IsOutputNode(c.arg2))
    Fail(k, Msg() << "node '" << nnet_.GetNodeName(c.arg2)
                  << "' is neither an input nor an output node");
  int32_t dim = nnet_.GetNode(c.arg2).Dim(nnet_);
  if (Sub(c.arg1).num_cols != dim)
    Fail(k, Msg() << "the matrix has " << Sub(c.arg1).num_cols
                  << " columns but node '" << nnet_.GetNodeName(c.arg2)
                  << "' has dim " << dim);
}

void ComputationChecker::CheckGoto(int32_t k) const {
  const auto &commands = computation_.commands;
  int32_t label = commands[k].arg1;
  if (label < 0 || label >= k ||
      commands[label].command_type != kNoOperationLabel)
    Fail(k, Msg() << "goto destination c" << label
                  << " is not an earlier kNoOperationLabel");
  if (k + 1 != static_cast<int32_t>(commands.size()))
    Fail(k, "kGotoLabel is not the last command");
}

void ComputationChecker::CheckAllocations() const {
  int32_t num_matrices = static_cast<int32_t>(computation_.matrices.size());
  std::vector<int32_t> allocated(num_matrices, -1), freed(num_matrices, -1);
  auto record = [&](int32_t k, int32_t s, std::vector<int32_t> *seen,
                    const char *what) {
    int32_t m = Sub(s).matrix_index;
    if ((*seen)[m] != -1)
      Fail(k, Msg() << "matrix m" << m << " is " << what
                    << " a second time (first at c" << (*seen)[m] << ")");
    (*seen)[m] = k;
  };
  const auto &commands = computation_.commands;
  for (int32_t k = 0; k < static_cast<int32_t>(commands.size()); k++) {
    const NnetComputation::Command &c = commands[k];
    if (c.command_type == kAllocMatrix || c.command_type == kSwapMatrix)
      record(k, c.arg1, &allocated, "allocated");
    if (c.command_type == kDeallocMatrix)
      record(k, c.arg1, &freed, "deallocated");
    if (c.command_type == kSwapMatrix) record(k, c.arg2, &freed, "deallocated");
  }
}

// ---------------------------------------------------------------------------
// Debug info and accesses

void ComputationChecker::CheckComputationDebugInfo() const {
  const auto &debug = computation_.matrix_debug_info;
  if (debug.empty()) return;
  if (debug.size() != computation_.matrices.size())
    Fail(-1, Msg() << "there is debug info for " << debug.size()
                   << " matrices but there are "
                   << computation_.matrices.size());
  for (size_t m = 1; m < debug.size(); m++) {
    if (static_cast<int32_t>(debug[m].cindexes.size()) !=
        computation_.matrices[m].num_rows)
      Fail(-1, Msg() << "debug info of m" << m << " has "
                     << debug[m].cindexes.size() << " cindexes for "
                     << computation_.matrices[m].num_rows << " rows");
    for (const Cindex &cindex : debug[m].cindexes) {
      if (cindex.first < 0 || cindex.first >= nnet_.NumNodes())
        Fail(-1,
             Msg() << "debug info of m" << m << " names node " << cindex.first);
      if (cindex.second.n < 0)
        Fail(-1,
             Msg() << "debug info of m" << m << " has n = " << cindex.second.n);
    }
  }
}

void ComputationChecker::CheckComputationMatrixAccesses() const {
  const auto &commands = computation_.commands;
  for (size_t m = 1; m < a_.matrix_accesses.size(); m++) {
    const MatrixAccesses &ma = a_.matrix_accesses[m];
    if (ma.accesses.empty())
      Fail(ma.allocate_command, Msg() << "matrix m" << m << " is never used");
    int32_t first = ma.accesses.front().command_index,
            last = ma.accesses.back().command_index;
    if (ma.allocate_command == -1)
      Fail(first, Msg() << "matrix m" << m << " is used but never allocated");
    if (first < ma.allocate_command)
      Fail(first, Msg() << "matrix m" << m << " is used before it is "
                        << "allocated at c" << ma.allocate_command);
    if (ma.deallocate_command != -1 && last >= ma.deallocate_command)
      Fail(last, Msg() << "matrix m" << m << " is used after it is "
                       << "deallocated at c" << ma.deallocate_command);
    if (ma.deallocate_command != -1 &&
        ma.deallocate_command < ma.allocate_command)
      Fail(ma.deallocate_command,
           Msg() << "matrix m" << m << " is deallocated before it is "
                 << "allocated at c" << ma.allocate_command);
    if (opts_.check_unused_variables && ma.accesses.size() == 1 &&
        commands[first].command_type == kSetConst)
      Fail(first,
           Msg() << "matrix m" << m << " is set to a constant and never used");
    if (ma.is_input) {
      bool used = false;
      for (const Access &a : ma.accesses)
        if (commands[a.command_index].command_type != kAcceptInput) used = true;
      if (!used)
        NNET3_WARN << "Matrix m" << m << " is an input that is never used "
                   << "(accepted at c" << first << ")";
    }
  }
}

void ComputationChecker::CheckComputationCompression() const {
  const auto &commands = computation_.commands;
  int32_t marker = -1;
  for (size_t k = 0; k < commands.size() && marker < 0; k++)
    if (commands[k].command_type == kNoOperationMarker)
      marker = static_cast<int32_t>(k);
  auto type_at = [&](const Access &a) {
    return commands[a.command_index].command_type;
  };
  for (size_t m = 1; m < a_.matrix_accesses.size(); m++) {
    const std::vector<Access> &accesses = a_.matrix_accesses[m].accesses;
    for (size_t i = 0; i < accesses.size(); i++) {
      const int32_t k = accesses[i].command_index;
      if (type_at(accesses[i]) == kDecompressMatrix &&
          (i == 0 || type_at(accesses[i - 1]) != kCompressMatrix))
        Fail(k, Msg() << "m" << m << " is decompressed without being "
                      << "compressed just before");
      if (type_at(accesses[i]) != kCompressMatrix) continue;
      if (i + 1 == accesses.size() ||
          type_at(accesses[i + 1]) != kDecompressMatrix)
        Fail(k, Msg() << "the next access to m" << m
                      << " after its compression is not its decompression");
      if (marker < 0 || k > marker || accesses[i + 1].command_index < marker)
        Fail(k, Msg() << "m" << m << " is not compressed in the forward "
                      << "commands and decompressed in the backward ones");
      if (commands[k].alpha != 0.0f) continue;
      // Only the sign survives: the one use left must be a ReLU's backprop.
      bool relu_last = false;
      if (i + 3 == accesses.size()) {
        const NnetComputation::Command &last =
            commands[accesses[i + 2].command_index];
        relu_last =
            (last.command_type == kBackprop ||
             last.command_type == kBackpropNoModelUpdate) &&
            nnet_.GetComponent(last.arg1)->Type() == "RectifiedLinearComponent";
      }
      if (!relu_last)
        Fail(k, Msg() << "m" << m << " keeps only its sign (range 0), but "
                      << "its last use is not a ReLU's backprop");
    }
  }
}

void ComputationChecker::CheckComputationUndefined() const {
  for (int32_t v = 0; v < a_.variables.NumVariables(); v++) {
    const std::vector<Access> &accesses = a_.variable_accesses[v];
    if (accesses.empty()) {
      if (opts_.check_unused_variables)
        Fail(-1, Msg() << "variable " << a_.variables.DescribeVariable(v)
                       << " is never used");
      continue;
    }
    // A compression may pack a part that was never written (rows that
    // ExtendMatrices added, say), as Kaldi allows; nothing reads it later.
    if (accesses[0].access_type != kWriteAccess &&
        computation_.commands[accesses[0].command_index].command_type !=
            kCompressMatrix)
      Fail(accesses[0].command_index, Msg() << "reads variable "
                                            << a_.variables.DescribeVariable(v)
                                            << " before it is written");
  }
}

void ComputationChecker::CheckComputationRewrite() const {
  for (int32_t v = 0; v < a_.variables.NumVariables(); v++) {
    const std::vector<Access> &accesses = a_.variable_accesses[v];
    int32_t first_read = -1;
    for (const Access &a : accesses) {
      if (first_read == -1) {
        if (a.access_type == kReadAccess) first_read = a.command_index;
      } else if (a.access_type != kReadAccess) {
        Fail(a.command_index, Msg() << "modifies variable "
                                    << a_.variables.DescribeVariable(v)
                                    << " after it was read at c" << first_read
                                    << " (not expected before optimization)");
      }
    }
  }
}

void CheckComputation(const Nnet &nnet, const NnetComputation &computation,
                      bool check_rewrite) {
  CheckComputationOptions opts;
  opts.check_rewrite = check_rewrite;
  opts.check_unused_variables = false;
  try {
    ComputationChecker(opts, nnet, computation).Check();
  } catch (const InternalError &) {
    std::ostringstream os;
    computation.Print(os, nnet);
    NNET3_WARN << "The computation that failed the check:\n" << os.str();
    throw;
  }
}

}  // namespace nnet3
