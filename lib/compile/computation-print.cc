// NnetComputation::Print and GetCommandStrings: the readable listing of a
// computation, in the spirit of Kaldi's (nnet3-compile-info, checker errors,
// debugging).
//
// Submatrices print as `m3` (a whole matrix) or `m3(0:9, 10:19)` (rows
// first:last, columns first:last, both inclusive; `:` alone means all), and
// submatrix 0 as `[]`. Index lists print compactly: `0:9` is the run
// 0,1,...,9 and `-1x4` four -1's. Command forms (alpha shown only when not 1):
//   m2 = undefined(10x65)                kAllocMatrix
//   m2 = []                              kDeallocMatrix
//   m2.swap(m3) [10x65]                  kSwapMatrix
//   m2 = 0                               kSetConst
//   component-node 'affine1' propagate: m2 -> m3 [precomputed=1] [memo=1]
//       [and store stats]                kPropagate
//   component-node 'affine1' backprop: (m2, [], m6) -> m5 [memo=1]
//       [and update model]               kBackprop(NoModelUpdate): the
//                                        triple is (in-value, out-value,
//                                        out-deriv), then in-deriv
//   m4 = m3 / m4 = 2 * m3                kMatrixCopy
//   m4 += m3 / m4 += 0.5 * m3            kMatrixAdd
//   m4 = 0.66 * m4 + m3                  kMatrixScaleAdd
//   m4 = m3.CopyRows([0:9 -1x2])         kCopyRows
//   m4 += m3.AddRows([0:9])              kAddRows
//   m4.CopyRowsMulti([m1[0:4] m2[0:4]])  kCopyRowsMulti (and AddRowsMulti,
//                                        CopyToRowsMulti, AddToRowsMulti;
//                                        alpha as a first argument)
//   m4.AddRowRanges(m3, [0:1 2:3 -])     kAddRowRanges (inclusive ranges,
//                                        `-` an empty one)
//   m2.Compress(int8, range=10, truncate) / m2.Decompress()
//   m1 = user input [for node: 'input']  kAcceptInput
//   output m5 to user [for node: 'output']  kProvideOutput
//   # (no-op) / # (no-op, permanent) / # begin backward commands (the first
//   marker; later ones: # segment separator) / # label / goto c3
// Every lookup is range-checked, so broken computations (which the checker
// prints in its errors) print too.
#include <sstream>

#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

namespace {

class CommandPrinter {
 public:
  CommandPrinter(const NnetComputation &computation, const Nnet &nnet)
      : c_(computation), nnet_(nnet) {}
  std::string CommandText(int32_t command_index, bool first_marker) const;
  std::string SubmatrixName(int32_t s) const;

 private:
  std::string Alpha(float alpha, const char *suffix) const;
  std::string ComponentNodeText(int32_t component, int32_t out_submatrix) const;
  std::string PropagateText(const NnetComputation::Command &c) const;
  std::string BackpropText(const NnetComputation::Command &c) const;
  std::string RowsText(const NnetComputation::Command &c) const;
  std::string MultiText(const NnetComputation::Command &c) const;
  std::string RangesText(const NnetComputation::Command &c) const;
  std::string MatrixText(const NnetComputation::Command &c) const;
  std::string ControlText(const NnetComputation::Command &c,
                          bool first_marker) const;
  std::string NodeName(int32_t node) const;

  const NnetComputation &c_;
  const Nnet &nnet_;
};

bool ValidSubmatrix(const NnetComputation &c, int32_t s) {
  if (s <= 0 || s >= static_cast<int32_t>(c.submatrices.size())) return false;
  int32_t m = c.submatrices[s].matrix_index;
  return m > 0 && m < static_cast<int32_t>(c.matrices.size());
}

void PrintSpan(std::ostream &os, int32_t offset, int32_t num, int32_t total) {
  if (offset == 0 && num == total)
    os << ":";
  else
    os << offset << ":" << (int64_t(offset) + num - 1);
}

// "0:9 -1x3 12": runs of +1 steps (length >= 2) as first:last, runs of an
// equal value (length >= 3) as valuexcount.
std::string CompactIntList(const std::vector<int32_t> &v) {
  std::ostringstream os;
  size_t i = 0;
  while (i < v.size()) {
    if (i > 0) os << " ";
    size_t j = i + 1;
    while (j < v.size() && v[j] == v[j - 1] + 1 && v[i] >= 0) j++;
    if (j - i >= 2) {
      os << v[i] << ":" << v[j - 1];
      i = j;
      continue;
    }
    j = i + 1;
    while (j < v.size() && v[j] == v[i]) j++;
    if (j - i >= 3) {
      os << v[i] << "x" << (j - i);
      i = j;
    } else {
      os << v[i];
      i++;
    }
  }
  return os.str();
}

std::string FloatText(float f) {
  std::ostringstream os;
  os << f;
  return os.str();
}

}  // namespace

std::string CommandPrinter::SubmatrixName(int32_t s) const {
  if (s == 0) return "[]";
  if (!ValidSubmatrix(c_, s))
    return "<invalid-submatrix " + std::to_string(s) + ">";
  const NnetComputation::SubMatrixInfo &info = c_.submatrices[s];
  const NnetComputation::MatrixInfo &m = c_.matrices[info.matrix_index];
  std::ostringstream os;
  os << "m" << info.matrix_index;
  if (c_.IsWholeMatrix(s)) return os.str();
  os << "(";
  PrintSpan(os, info.row_offset, info.num_rows, m.num_rows);
  os << ", ";
  PrintSpan(os, info.col_offset, info.num_cols, m.num_cols);
  os << ")";
  return os.str();
}

std::string CommandPrinter::NodeName(int32_t node) const {
  if (node < 0 || node >= nnet_.NumNodes())
    return "<invalid-node " + std::to_string(node) + ">";
  return nnet_.GetNodeName(node);
}

std::string CommandPrinter::Alpha(float alpha, const char *suffix) const {
  if (alpha == 1.0f) return "";
  return FloatText(alpha) + suffix;
}

// "component-node 'affine1'": the node is the one named by the debug info
// of the output rows if that node uses this component, else the first
// component node that does; "component 'c'" if none does.
std::string CommandPrinter::ComponentNodeText(int32_t component,
                                              int32_t out_submatrix) const {
  if (component < 0 || component >= nnet_.NumComponents())
    return "<invalid-component " + std::to_string(component) + ">";
  int32_t node = -1;
  if (ValidSubmatrix(c_, out_submatrix) && !c_.matrix_debug_info.empty()) {
    int32_t m = c_.submatrices[out_submatrix].matrix_index;
    if (m < static_cast<int32_t>(c_.matrix_debug_info.size()) &&
        !c_.matrix_debug_info[m].cindexes.empty()) {
      int32_t n = c_.matrix_debug_info[m].cindexes[0].first;
      if (n >= 0 && n < nnet_.NumNodes() && nnet_.IsComponentNode(n) &&
          nnet_.GetNode(n).component_index == component)
        node = n;
    }
  }
  for (int32_t n = 0; node < 0 && n < nnet_.NumNodes(); n++)
    if (nnet_.IsComponentNode(n) &&
        nnet_.GetNode(n).component_index == component)
      node = n;
  const std::string &cname = nnet_.GetComponentName(component);
  if (node < 0) return "component '" + cname + "'";
  std::string ans = "component-node '" + nnet_.GetNodeName(node) + "'";
  if (nnet_.GetNodeName(node) != cname) ans += " [component '" + cname + "']";
  return ans;
}

std::string CommandPrinter::PropagateText(
    const NnetComputation::Command &c) const {
  std::ostringstream os;
  os << ComponentNodeText(c.arg1, c.arg4)
     << " propagate: " << SubmatrixName(c.arg3) << " -> "
     << SubmatrixName(c.arg4);
  if (c.arg2 > 0) os << " [precomputed=" << c.arg2 << "]";
  if (c.arg5 > 0) os << " [memo=" << c.arg5 << "]";
  if (c.arg6 == 1) os << " [and store stats]";
  if (c.Fusion() & kFuseRectifyInput) os << " [ReLU fused]";
  if (c.Fusion() & kFuseAssignOutput) os << " [assigns]";
  return os.str();
}

std::string CommandPrinter::BackpropText(
    const NnetComputation::Command &c) const {
  std::ostringstream os;
  os << ComponentNodeText(c.arg1, c.arg5) << " backprop: ("
     << SubmatrixName(c.arg3) << ", " << SubmatrixName(c.arg4) << ", "
     << SubmatrixName(c.arg5) << ") -> " << SubmatrixName(c.arg6);
  if (c.arg2 > 0) os << " [precomputed=" << c.arg2 << "]";
  if (c.arg7 > 0) os << " [memo=" << c.arg7 << "]";
  bool updatable =
      c.arg1 >= 0 && c.arg1 < nnet_.NumComponents() &&
      (nnet_.GetComponent(c.arg1)->Properties() & kUpdatableComponent);
  if (c.command_type == kBackprop && updatable && c_.need_model_derivative)
    os << " [and update model]";
  return os.str();
}

std::string CommandPrinter::RowsText(const NnetComputation::Command &c) const {
  std::ostringstream os;
  bool copy = c.command_type == kCopyRows;
  os << SubmatrixName(c.arg1) << (copy ? " = " : " += ")
     << Alpha(c.alpha, " * ") << SubmatrixName(c.arg2)
     << (copy ? ".CopyRows([" : ".AddRows([");
  if (c.arg3 >= 0 && c.arg3 < static_cast<int32_t>(c_.indexes.size()))
    os << CompactIntList(c_.indexes[c.arg3]);
  else
    os << "<invalid-indexes " << c.arg3 << ">";
  os << "])";
  return os.str();
}

std::string CommandPrinter::MultiText(const NnetComputation::Command &c) const {
  const char *name = c.command_type == kCopyRowsMulti     ? "CopyRowsMulti"
                     : c.command_type == kAddRowsMulti    ? "AddRowsMulti"
                     : c.command_type == kCopyToRowsMulti ? "CopyToRowsMulti"
                                                          : "AddToRowsMulti";
  std::ostringstream os;
  os << SubmatrixName(c.arg1) << "." << name << "(" << Alpha(c.alpha, ", ")
     << "[";
  if (c.arg2 < 0 || c.arg2 >= static_cast<int32_t>(c_.indexes_multi.size())) {
    os << "<invalid-indexes-multi " << c.arg2 << ">])";
    return os.str();
  }
  // Groups of consecutive pairs with the same submatrix: "m1[0:4]"; pairs
  // (-1, -1) as a list of -1's.
  const auto &pairs = c_.indexes_multi[c.arg2];
  size_t i = 0;
  while (i < pairs.size()) {
    if (i > 0) os << " ";
    size_t j = i;
    std::vector<int32_t> rows;
    for (; j < pairs.size() && pairs[j].first == pairs[i].first; j++)
      rows.push_back(pairs[j].second);
    if (pairs[i].first == -1)
      os << CompactIntList(rows);
    else
      os << SubmatrixName(pairs[i].first) << "[" << CompactIntList(rows) << "]";
    i = j;
  }
  os << "])";
  return os.str();
}

std::string CommandPrinter::RangesText(
    const NnetComputation::Command &c) const {
  std::ostringstream os;
  os << SubmatrixName(c.arg1) << ".AddRowRanges(" << Alpha(c.alpha, ", ")
     << SubmatrixName(c.arg2) << ", [";
  if (c.arg3 < 0 || c.arg3 >= static_cast<int32_t>(c_.indexes_ranges.size())) {
    os << "<invalid-indexes-ranges " << c.arg3 << ">])";
    return os.str();
  }
  const auto &ranges = c_.indexes_ranges[c.arg3];
  for (size_t i = 0; i < ranges.size(); i++) {
    if (i > 0) os << " ";
    int32_t b = ranges[i].first, e = ranges[i].second;
    if (e <= b)
      os << "-";
    else if (e == b + 1)
      os << b;
    else
      os << b << ":" << (e - 1);
  }
  os << "])";
  return os.str();
}

std::string CommandPrinter::MatrixText(
    const NnetComputation::Command &c) const {
  std::ostringstream os;
  std::string size;
  if (ValidSubmatrix(c_, c.arg1))
    size = std::to_string(c_.submatrices[c.arg1].num_rows) + "x" +
           std::to_string(c_.submatrices[c.arg1].num_cols);
  switch (c.command_type) {
    case kAllocMatrix:
      os << SubmatrixName(c.arg1) << " = undefined(" << size << ")";
      break;
    case kDeallocMatrix:
      os << SubmatrixName(c.arg1) << " = []";
      break;
    case kSwapMatrix:
      os << SubmatrixName(c.arg1) << ".swap(" << SubmatrixName(c.arg2) << ") ["
         << size << "]";
      break;
    case kSetConst:
      os << SubmatrixName(c.arg1) << " = " << FloatText(c.alpha);
      break;
    case kMatrixCopy:
    case kMatrixAdd:
      os << SubmatrixName(c.arg1)
         << (c.command_type == kMatrixCopy ? " = " : " += ")
         << Alpha(c.alpha, " * ") << SubmatrixName(c.arg2);
      break;
    case kMatrixScaleAdd:
      os << SubmatrixName(c.arg1) << " = " << Alpha(c.alpha, " * ")
         << SubmatrixName(c.arg1) << " + " << SubmatrixName(c.arg2);
      break;
    case kCompressMatrix: {
      static const char *const kTypes[] = {"?", "int8", "uint8", "int16",
                                           "uint16"};
      os << SubmatrixName(c.arg1) << ".Compress("
         << (c.arg2 >= 1 && c.arg2 <= 4 ? kTypes[c.arg2] : "<invalid-type>")
         << ", range=" << FloatText(c.alpha)
         << (c.arg3 == 1 ? ", truncate" : "") << ")";
      break;
    }
    default:  // kDecompressMatrix
      os << SubmatrixName(c.arg1) << ".Decompress()";
  }
  return os.str();
}

std::string CommandPrinter::ControlText(const NnetComputation::Command &c,
                                        bool first_marker) const {
  std::ostringstream os;
  switch (c.command_type) {
    case kAcceptInput:
      os << SubmatrixName(c.arg1) << " = user input [for node: '"
         << NodeName(c.arg2) << "']";
      break;
    case kProvideOutput:
      os << "output " << SubmatrixName(c.arg1) << " to user [for node: '"
         << NodeName(c.arg2) << "']";
      break;
    case kNoOperation:
      os << "# (no-op)";
      break;
    case kNoOperationPermanent:
      os << "# (no-op, permanent)";
      break;
    case kNoOperationMarker:
      os << (first_marker ? "# begin backward commands"
                          : "# segment separator");
      break;
    case kNoOperationLabel:
      os << "# label";
      break;
    case kGotoLabel:
      os << "goto c" << c.arg1;
      break;
    default:
      os << "<invalid-command-type " << static_cast<int32_t>(c.command_type)
         << ">";
  }
  return os.str();
}

std::string CommandPrinter::CommandText(int32_t k, bool first_marker) const {
  const NnetComputation::Command &c = c_.commands[k];
  switch (c.command_type) {
    case kAllocMatrix:
    case kDeallocMatrix:
    case kSwapMatrix:
    case kSetConst:
    case kMatrixCopy:
    case kMatrixAdd:
    case kMatrixScaleAdd:
    case kCompressMatrix:
    case kDecompressMatrix:
      return MatrixText(c);
    case kPropagate:
      return PropagateText(c);
    case kBackprop:
    case kBackpropNoModelUpdate:
      return BackpropText(c);
    case kCopyRows:
    case kAddRows:
      return RowsText(c);
    case kCopyRowsMulti:
    case kAddRowsMulti:
    case kCopyToRowsMulti:
    case kAddToRowsMulti:
      return MultiText(c);
    case kAddRowRanges:
      return RangesText(c);
    default:
      return ControlText(c, first_marker);
  }
}

void NnetComputation::GetCommandStrings(
    const Nnet &nnet, std::vector<std::string> *command_strings) const {
  CommandPrinter printer(*this, nnet);
  command_strings->clear();
  bool seen_marker = false;
  for (size_t k = 0; k < commands.size(); k++) {
    bool is_marker = commands[k].command_type == kNoOperationMarker;
    command_strings->push_back(printer.CommandText(static_cast<int32_t>(k),
                                                   is_marker && !seen_marker));
    if (is_marker) seen_marker = true;
  }
}

void NnetComputation::Print(std::ostream &os, const Nnet &nnet) const {
  CommandPrinter printer(*this, nnet);
  os << "# matrices\n";
  for (size_t m = 1; m < matrices.size(); m++) {
    const MatrixInfo &info = matrices[m];
    os << "m" << m << ": " << info.num_rows << "x" << info.num_cols;
    if (info.stride_type == MatrixStrideType::kStrideEqualNumCols)
      os << " (stride=cols)";
    if (m < matrix_debug_info.size()) {
      const MatrixDebugInfo &d = matrix_debug_info[m];
      os << (d.is_deriv ? ", deriv: " : ", value: ");
      PrintCindexes(os, d.cindexes, nnet.GetNodeNames());
    }
    os << "\n";
  }
  if (component_precomputed_indexes.size() > 1) {
    os << "# precomputed indexes\n";
    for (size_t i = 1; i < component_precomputed_indexes.size(); i++) {
      const PrecomputedIndexesInfo &p = component_precomputed_indexes[i];
      os << "precomputed " << i << ": "
         << (p.data ? p.data->Type() : std::string("<null>")) << ", "
         << p.input_indexes.size() << " input and " << p.output_indexes.size()
         << " output indexes\n";
    }
  }
  std::vector<std::string> strings;
  GetCommandStrings(nnet, &strings);
  os << "# begin forward commands\n";
  for (size_t k = 0; k < strings.size(); k++)
    os << "c" << k << ": " << strings[k] << "\n";
}

}  // namespace nnet3
