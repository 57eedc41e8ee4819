// NnetComputation: construction helpers and serialization. The readable
// listing (Print, GetCommandStrings) is in computation-print.cc.
//
// Serialized form (text shown; binary uses the same tokens, Kaldi's binary
// scalars and compact index vectors):
//   <NnetComputation> <Version> 3
//   <NumMatrices> i <Matrices> (<MatrixInfo> <NumRows> i <NumCols> i
//       [<StrideEqualNumCols>] </MatrixInfo>)*
//   <NumMatrixDebugInfo> i <MatrixDebugInfo> (<MatrixDebugInfo> <IsDeriv> b
//       <Cindexes> CINDEX-VECTOR </MatrixDebugInfo>)*
//   <NumSubMatrices> i <SubMatrices> (<SubMatrixInfo> <MatrixIndex> i
//       <RowOffset> i <NumRows> i <ColOffset> i <NumCols> i
//       </SubMatrixInfo>)*
//   <NumComponentPrecomputedIndexes> i <PrecomputedIndexesInfo>
//       (PRECOMPUTED-INDEXES <I1V>(input) <I1V>(output))*   [entries 1..]
//   <NumIndexes> i <Indexes> intvec*
//   <NumIndexesMulti> i <IndexesMulti> pairvec*
//   <NumIndexesRanges> i <IndexesRanges> pairvec*
//   <NumCommands> i <Commands> (<Cmd> TYPE <Alpha> f <Args> intvec)*
//   <NeedModelDerivative> b </NnetComputation>
// TYPE is the CommandTypeName token in text mode and an int32 in binary.
//
// CINDEX-VECTOR (our own compact form): <CindexRuns> i, then for each
// maximal run of consecutive Cindexes with the same node index: the node
// index (int32) and the run's Indexes as an <I1V> vector (WriteIndexVector,
// one byte per element in binary for the usual t-runs).
#include "compile/nnet-computation.h"

#include <cstring>

#include "base/error.h"
#include "base/io-funcs.h"

namespace nnet3 {

namespace {

const char *const kCommandTypeNames[] = {"kAllocMatrix",
                                         "kDeallocMatrix",
                                         "kSwapMatrix",
                                         "kSetConst",
                                         "kPropagate",
                                         "kBackprop",
                                         "kBackpropNoModelUpdate",
                                         "kMatrixCopy",
                                         "kMatrixAdd",
                                         "kCopyRows",
                                         "kAddRows",
                                         "kCopyRowsMulti",
                                         "kCopyToRowsMulti",
                                         "kAddRowsMulti",
                                         "kAddToRowsMulti",
                                         "kAddRowRanges",
                                         "kCompressMatrix",
                                         "kDecompressMatrix",
                                         "kAcceptInput",
                                         "kProvideOutput",
                                         "kNoOperation",
                                         "kNoOperationPermanent",
                                         "kNoOperationMarker",
                                         "kNoOperationLabel",
                                         "kGotoLabel",
                                         "kMatrixScaleAdd"};
static_assert(sizeof(kCommandTypeNames) / sizeof(kCommandTypeNames[0]) ==
                  kNumCommandTypes,
              "kCommandTypeNames must list every CommandType");

CommandType CommandTypeFromName(const std::string &name) {
  for (int32_t t = 0; t < kNumCommandTypes; t++)
    if (name == kCommandTypeNames[t]) return static_cast<CommandType>(t);
  NNET3_ERR << "Reading <NnetComputation>: unknown command type '" << name
            << "'";
  return kNoOperation;  // not reached
}

// Reads "<Num...> i" and checks it is non-negative.
int32_t ReadCount(std::istream &is, bool binary, const char *token) {
  ExpectToken(is, binary, token);
  int32_t n = 0;
  ReadBasicType(is, binary, &n);
  if (n < 0)
    NNET3_ERR << "Reading <NnetComputation>: " << token << " is " << n
              << " (must be >= 0)";
  return n;
}

void WriteCount(std::ostream &os, bool binary, const char *token, size_t n) {
  WriteToken(os, binary, token);
  WriteBasicType(os, binary, static_cast<int32_t>(n));
}

void WriteCindexVector(std::ostream &os, bool binary,
                       const std::vector<Cindex> &cindexes) {
  int32_t num_runs = 0;
  for (size_t i = 0; i < cindexes.size(); i++)
    if (i == 0 || cindexes[i].first != cindexes[i - 1].first) num_runs++;
  WriteCount(os, binary, "<CindexRuns>", num_runs);
  size_t i = 0;
  std::vector<Index> run;
  while (i < cindexes.size()) {
    int32_t node = cindexes[i].first;
    run.clear();
    for (; i < cindexes.size() && cindexes[i].first == node; i++)
      run.push_back(cindexes[i].second);
    WriteBasicType(os, binary, node);
    WriteIndexVector(os, binary, run);
  }
}

void ReadCindexVector(std::istream &is, bool binary,
                      std::vector<Cindex> *cindexes) {
  int32_t num_runs = ReadCount(is, binary, "<CindexRuns>");
  cindexes->clear();
  std::vector<Index> run;
  for (int32_t r = 0; r < num_runs; r++) {
    int32_t node = 0;
    ReadBasicType(is, binary, &node);
    ReadIndexVector(is, binary, &run);
    for (const Index &index : run) cindexes->push_back(Cindex(node, index));
  }
}

}  // namespace

const char *CommandTypeName(CommandType type) {
  int32_t t = static_cast<int32_t>(type);
  if (t < 0 || t >= kNumCommandTypes) return "kUnknownCommandType";
  return kCommandTypeNames[t];
}

NnetComputation::NnetComputation() {
  matrices.push_back(MatrixInfo());
  submatrices.push_back(SubMatrixInfo());
  component_precomputed_indexes.push_back(PrecomputedIndexesInfo());
}

int32_t NnetComputation::NewMatrix(int32_t num_rows, int32_t num_cols,
                                   MatrixStrideType stride_type) {
  NNET3_ASSERT(num_rows > 0 && num_cols > 0);
  if (matrices.empty()) {  // a default-constructed object was cleared
    matrices.push_back(MatrixInfo());
    submatrices.push_back(SubMatrixInfo());
  }
  int32_t matrix_index = static_cast<int32_t>(matrices.size());
  matrices.push_back(MatrixInfo(num_rows, num_cols, stride_type));
  if (!matrix_debug_info.empty())
    matrix_debug_info.push_back(MatrixDebugInfo());
  int32_t submatrix_index = static_cast<int32_t>(submatrices.size());
  submatrices.push_back(SubMatrixInfo(matrix_index, 0, num_rows, 0, num_cols));
  return submatrix_index;
}

int32_t NnetComputation::NewSubMatrix(int32_t base, int32_t row_offset,
                                      int32_t num_rows, int32_t col_offset,
                                      int32_t num_cols) {
  NNET3_ASSERT(base > 0 && base < static_cast<int32_t>(submatrices.size()));
  // Copy: push_back below may reallocate.
  const SubMatrixInfo base_info = submatrices[base];
  if (num_rows == -1) num_rows = base_info.num_rows - row_offset;
  if (num_cols == -1) num_cols = base_info.num_cols - col_offset;
  NNET3_ASSERT(row_offset >= 0 && num_rows > 0 &&
               row_offset + num_rows <= base_info.num_rows);
  NNET3_ASSERT(col_offset >= 0 && num_cols > 0 &&
               col_offset + num_cols <= base_info.num_cols);
  int32_t ans = static_cast<int32_t>(submatrices.size());
  submatrices.push_back(
      SubMatrixInfo(base_info.matrix_index, base_info.row_offset + row_offset,
                    num_rows, base_info.col_offset + col_offset, num_cols));
  return ans;
}

bool NnetComputation::IsWholeMatrix(int32_t submatrix_index) const {
  if (submatrix_index <= 0 ||
      submatrix_index >= static_cast<int32_t>(submatrices.size()))
    return false;
  const SubMatrixInfo &s = submatrices[submatrix_index];
  if (s.matrix_index <= 0 ||
      s.matrix_index >= static_cast<int32_t>(matrices.size()))
    return false;
  const MatrixInfo &m = matrices[s.matrix_index];
  return s.row_offset == 0 && s.col_offset == 0 && s.num_rows == m.num_rows &&
         s.num_cols == m.num_cols;
}

std::vector<std::pair<int32_t, int32_t>> NnetComputation::RowRanges(
    int32_t i) const {
  NNET3_ASSERT(i >= 0 && i < static_cast<int32_t>(indexes_ranges.size()));
  // Computations (ours and Kaldi's) write an empty range as (-1, -1)
  // ("null" when printed); the matrix layer wants bounds >= 0.
  std::vector<std::pair<int32_t, int32_t>> ranges = indexes_ranges[i];
  for (auto &r : ranges)
    if (r.first == -1 && r.second == -1) r = {0, 0};
  return ranges;
}

void NnetComputation::ComputeDeviceIndexes() {
  device_indexes.indexes.clear();
  device_indexes.ranges.clear();
  for (const std::vector<int32_t> &v : indexes)
    device_indexes.indexes.push_back(std::make_shared<const IndexVector>(v));
  for (size_t i = 0; i < indexes_ranges.size(); i++)
    device_indexes.ranges.push_back(std::make_shared<const IndexVector>(
        IndexVector::FromRanges(RowRanges(static_cast<int32_t>(i)))));
}

// ---------------------------------------------------------------------------
// Element I/O

void NnetComputation::MatrixInfo::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<MatrixInfo>");
  WriteToken(os, binary, "<NumRows>");
  WriteBasicType(os, binary, num_rows);
  WriteToken(os, binary, "<NumCols>");
  WriteBasicType(os, binary, num_cols);
  if (stride_type == MatrixStrideType::kStrideEqualNumCols)
    WriteToken(os, binary, "<StrideEqualNumCols>");
  WriteToken(os, binary, "</MatrixInfo>");
  if (!binary) os << "\n";
}

void NnetComputation::MatrixInfo::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<MatrixInfo>");
  ExpectToken(is, binary, "<NumRows>");
  ReadBasicType(is, binary, &num_rows);
  ExpectToken(is, binary, "<NumCols>");
  ReadBasicType(is, binary, &num_cols);
  std::string token;
  ReadToken(is, binary, &token);
  stride_type = MatrixStrideType::kDefaultStride;
  if (token == "<StrideEqualNumCols>") {
    stride_type = MatrixStrideType::kStrideEqualNumCols;
    ReadToken(is, binary, &token);
  }
  if (token != "</MatrixInfo>")
    NNET3_ERR << "Reading <MatrixInfo>: expected </MatrixInfo> but found '"
              << token << "'";
}

void NnetComputation::MatrixDebugInfo::Write(std::ostream &os,
                                             bool binary) const {
  WriteToken(os, binary, "<MatrixDebugInfo>");
  WriteToken(os, binary, "<IsDeriv>");
  WriteBasicType(os, binary, is_deriv);
  WriteToken(os, binary, "<Cindexes>");
  WriteCindexVector(os, binary, cindexes);
  WriteToken(os, binary, "</MatrixDebugInfo>");
  if (!binary) os << "\n";
}

void NnetComputation::MatrixDebugInfo::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<MatrixDebugInfo>");
  ExpectToken(is, binary, "<IsDeriv>");
  ReadBasicType(is, binary, &is_deriv);
  ExpectToken(is, binary, "<Cindexes>");
  ReadCindexVector(is, binary, &cindexes);
  ExpectToken(is, binary, "</MatrixDebugInfo>");
}

void NnetComputation::SubMatrixInfo::Write(std::ostream &os,
                                           bool binary) const {
  WriteToken(os, binary, "<SubMatrixInfo>");
  WriteToken(os, binary, "<MatrixIndex>");
  WriteBasicType(os, binary, matrix_index);
  WriteToken(os, binary, "<RowOffset>");
  WriteBasicType(os, binary, row_offset);
  WriteToken(os, binary, "<NumRows>");
  WriteBasicType(os, binary, num_rows);
  WriteToken(os, binary, "<ColOffset>");
  WriteBasicType(os, binary, col_offset);
  WriteToken(os, binary, "<NumCols>");
  WriteBasicType(os, binary, num_cols);
  WriteToken(os, binary, "</SubMatrixInfo>");
  if (!binary) os << "\n";
}

void NnetComputation::SubMatrixInfo::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<SubMatrixInfo>");
  ExpectToken(is, binary, "<MatrixIndex>");
  ReadBasicType(is, binary, &matrix_index);
  ExpectToken(is, binary, "<RowOffset>");
  ReadBasicType(is, binary, &row_offset);
  ExpectToken(is, binary, "<NumRows>");
  ReadBasicType(is, binary, &num_rows);
  ExpectToken(is, binary, "<ColOffset>");
  ReadBasicType(is, binary, &col_offset);
  ExpectToken(is, binary, "<NumCols>");
  ReadBasicType(is, binary, &num_cols);
  ExpectToken(is, binary, "</SubMatrixInfo>");
}

void NnetComputation::Command::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<Cmd>");
  if (binary)
    WriteBasicType(os, binary, static_cast<int32_t>(command_type));
  else
    WriteToken(os, binary, CommandTypeName(command_type));
  WriteToken(os, binary, "<Alpha>");
  WriteBasicType(os, binary, alpha);
  std::vector<int32_t> args = {arg1, arg2, arg3, arg4, arg5, arg6, arg7};
  WriteToken(os, binary, "<Args>");
  WriteIntegerVector(os, binary, args);
}

void NnetComputation::Command::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<Cmd>");
  if (binary) {
    int32_t type = 0;
    ReadBasicType(is, binary, &type);
    if (type < 0 || type >= kNumCommandTypes)
      NNET3_ERR << "Reading <NnetComputation>: command type " << type
                << " is out of range";
    command_type = static_cast<CommandType>(type);
  } else {
    std::string name;
    ReadToken(is, binary, &name);
    command_type = CommandTypeFromName(name);
  }
  ExpectToken(is, binary, "<Alpha>");
  ReadBasicType(is, binary, &alpha);
  ExpectToken(is, binary, "<Args>");
  std::vector<int32_t> args;
  ReadIntegerVector(is, binary, &args);
  if (args.size() != 7)
    NNET3_ERR << "Reading <NnetComputation>: a command has " << args.size()
              << " arguments (expected 7)";
  arg1 = args[0];
  arg2 = args[1];
  arg3 = args[2];
  arg4 = args[3];
  arg5 = args[4];
  arg6 = args[5];
  arg7 = args[6];
}

// ---------------------------------------------------------------------------
// The whole computation

void NnetComputation::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<NnetComputation>");
  WriteToken(os, binary, "<Version>");
  WriteBasicType(os, binary, static_cast<int32_t>(3));
  if (!binary) os << "\n";
  WriteCount(os, binary, "<NumMatrices>", matrices.size());
  WriteToken(os, binary, "<Matrices>");
  if (!binary) os << "\n";
  for (const MatrixInfo &m : matrices) m.Write(os, binary);
  WriteCount(os, binary, "<NumMatrixDebugInfo>", matrix_debug_info.size());
  WriteToken(os, binary, "<MatrixDebugInfo>");
  if (!binary) os << "\n";
  for (const MatrixDebugInfo &d : matrix_debug_info) d.Write(os, binary);
  WriteCount(os, binary, "<NumSubMatrices>", submatrices.size());
  WriteToken(os, binary, "<SubMatrices>");
  if (!binary) os << "\n";
  for (const SubMatrixInfo &s : submatrices) s.Write(os, binary);
  WriteCount(os, binary, "<NumComponentPrecomputedIndexes>",
             component_precomputed_indexes.size());
  WriteToken(os, binary, "<PrecomputedIndexesInfo>");
  if (!binary) os << "\n";
  // Entry 0 is the reserved null one.
  for (size_t c = 1; c < component_precomputed_indexes.size(); c++) {
    const PrecomputedIndexesInfo &info = component_precomputed_indexes[c];
    NNET3_ASSERT(info.data != nullptr);
    info.data->Write(os, binary);
    WriteIndexVector(os, binary, info.input_indexes);
    WriteIndexVector(os, binary, info.output_indexes);
    if (!binary) os << "\n";
  }
  WriteCount(os, binary, "<NumIndexes>", indexes.size());
  WriteToken(os, binary, "<Indexes>");
  if (!binary) os << "\n";
  for (const std::vector<int32_t> &v : indexes)
    WriteIntegerVector(os, binary, v);
  WriteCount(os, binary, "<NumIndexesMulti>", indexes_multi.size());
  WriteToken(os, binary, "<IndexesMulti>");
  if (!binary) os << "\n";
  for (const auto &v : indexes_multi) WriteIntegerPairVector(os, binary, v);
  WriteCount(os, binary, "<NumIndexesRanges>", indexes_ranges.size());
  WriteToken(os, binary, "<IndexesRanges>");
  if (!binary) os << "\n";
  for (const auto &v : indexes_ranges) WriteIntegerPairVector(os, binary, v);
  WriteCount(os, binary, "<NumCommands>", commands.size());
  WriteToken(os, binary, "<Commands>");
  if (!binary) os << "\n";
  for (const Command &c : commands) {
    c.Write(os, binary);
  }
  WriteToken(os, binary, "<NeedModelDerivative>");
  WriteBasicType(os, binary, need_model_derivative);
  WriteToken(os, binary, "</NnetComputation>");
  if (!binary) os << "\n";
}

namespace {

// Reads `n` elements one at a time (so that a corrupted count fails on the
// truncated stream instead of allocating a huge vector).
template <class T, class F>
void ReadElements(int32_t n, std::vector<T> *v, F read_one) {
  v->clear();
  for (int32_t i = 0; i < n; i++) {
    T t;
    read_one(&t);
    v->push_back(std::move(t));
  }
}

}  // namespace

void NnetComputation::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<NnetComputation>");
  ExpectToken(is, binary, "<Version>");
  int32_t version = 0;
  ReadBasicType(is, binary, &version);
  if (version != 3)
    NNET3_ERR << "Reading <NnetComputation>: version " << version
              << " is not supported (expected 3); recompile the computation";
  int32_t n = ReadCount(is, binary, "<NumMatrices>");
  ExpectToken(is, binary, "<Matrices>");
  ReadElements(n, &matrices, [&](MatrixInfo *m) { m->Read(is, binary); });
  n = ReadCount(is, binary, "<NumMatrixDebugInfo>");
  ExpectToken(is, binary, "<MatrixDebugInfo>");
  ReadElements(n, &matrix_debug_info,
               [&](MatrixDebugInfo *d) { d->Read(is, binary); });
  n = ReadCount(is, binary, "<NumSubMatrices>");
  ExpectToken(is, binary, "<SubMatrices>");
  ReadElements(n, &submatrices, [&](SubMatrixInfo *s) { s->Read(is, binary); });
  n = ReadCount(is, binary, "<NumComponentPrecomputedIndexes>");
  ExpectToken(is, binary, "<PrecomputedIndexesInfo>");
  component_precomputed_indexes.clear();
  if (n > 0) component_precomputed_indexes.push_back(PrecomputedIndexesInfo());
  for (int32_t c = 1; c < n; c++) {
    PrecomputedIndexesInfo info;
    info.data = ComponentPrecomputedIndexes::ReadNew(is, binary);
    ReadIndexVector(is, binary, &info.input_indexes);
    ReadIndexVector(is, binary, &info.output_indexes);
    component_precomputed_indexes.push_back(std::move(info));
  }
  n = ReadCount(is, binary, "<NumIndexes>");
  ExpectToken(is, binary, "<Indexes>");
  ReadElements(n, &indexes, [&](std::vector<int32_t> *v) {
    ReadIntegerVector(is, binary, v);
  });
  n = ReadCount(is, binary, "<NumIndexesMulti>");
  ExpectToken(is, binary, "<IndexesMulti>");
  ReadElements(n, &indexes_multi,
               [&](std::vector<std::pair<int32_t, int32_t>> *v) {
                 ReadIntegerPairVector(is, binary, v);
               });
  n = ReadCount(is, binary, "<NumIndexesRanges>");
  ExpectToken(is, binary, "<IndexesRanges>");
  ReadElements(n, &indexes_ranges,
               [&](std::vector<std::pair<int32_t, int32_t>> *v) {
                 ReadIntegerPairVector(is, binary, v);
               });
  n = ReadCount(is, binary, "<NumCommands>");
  ExpectToken(is, binary, "<Commands>");
  ReadElements(n, &commands, [&](Command *c) { c->Read(is, binary); });
  ExpectToken(is, binary, "<NeedModelDerivative>");
  ReadBasicType(is, binary, &need_model_derivative);
  ExpectToken(is, binary, "</NnetComputation>");
}

}  // namespace nnet3
