#include "matrix/sparse-matrix.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "base/error.h"
#include "base/io-funcs.h"
#include "matrix/matrix-common.h"
#include "matrix/matrix-io.h"
#include "matrix/matrix.h"

namespace nnet3 {

namespace {

// Parses "<prefix><non-negative int>" (e.g. "dim=5", "rows=3").
int32_t ReadPrefixedCount(std::istream &is, const std::string &prefix,
                          const char *what) {
  std::string word;
  is >> word;
  if (is.fail())
    NNET3_ERR << "Reading " << what << ": expected '" << prefix
              << "N' but found end of file";
  std::string rest = word.substr(std::min(word.size(), prefix.size()));
  bool ok = word.compare(0, prefix.size(), prefix) == 0 && !rest.empty() &&
            rest.size() <= 10 &&
            std::all_of(rest.begin(), rest.end(),
                        [](char c) { return std::isdigit(c) != 0; });
  int64_t value = ok ? std::stoll(rest) : -1;
  if (!ok || value > INT32_MAX)
    NNET3_ERR << "Reading " << what << ": expected '" << prefix
              << "N' but found '" << matrix_io::Printable(word) << "'";
  return static_cast<int32_t>(value);
}

}  // namespace

// ---- SparseVector ----

SparseVector::SparseVector(int32_t dim, const std::vector<Pair> &pairs)
    : dim_(dim) {
  std::vector<Pair> sorted(pairs);
  // Sorting whole pairs (as Kaldi) fixes the order in which duplicates are
  // summed.
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size();) {
    Pair sum = sorted[i++];
    while (i < sorted.size() && sorted[i].first == sum.first)
      sum.second += sorted[i++].second;
    if (sum.second != 0.0f) pairs_.push_back(sum);
  }
  if (!pairs_.empty() &&
      (pairs_.front().first < 0 || pairs_.back().first >= dim_))
    NNET3_INTERNAL_ERR << "SparseVector: index out of range [0, " << dim_
                       << ")";
}

double SparseVector::Sum() const {
  double sum = 0.0;
  for (const Pair &p : pairs_) sum += p.second;
  return sum;
}

void SparseVector::Scale(float alpha) {
  for (Pair &p : pairs_) p.second *= alpha;
}

void SparseVector::CopyToHost(float *row) const {
  std::fill(row, row + dim_, 0.0f);
  for (const Pair &p : pairs_) row[p.first] = p.second;
}

void SparseVector::Write(std::ostream &os, bool binary) const {
  if (binary) {
    WriteToken(os, binary, "SV");
    WriteBasicType(os, binary, dim_);
    WriteBasicType(os, binary, NumElements());
    for (const Pair &p : pairs_) {
      WriteBasicType(os, binary, p.first);
      WriteBasicType(os, binary, p.second);
    }
  } else {
    os << "dim=" << dim_ << " [ ";
    for (const Pair &p : pairs_) os << p.first << ' ' << p.second << ' ';
    os << "] ";
  }
  if (os.fail()) NNET3_ERR << "Write failure while writing a sparse vector";
}

void SparseVector::Read(std::istream &is, bool binary) {
  pairs_.clear();
  dim_ = 0;
  int32_t dim;
  std::vector<Pair> pairs;
  auto check_index = [&](int32_t index) {
    if (index < 0 || index >= dim ||
        (!pairs.empty() && index <= pairs.back().first))
      NNET3_ERR << "Reading sparse vector: index " << index
                << " out of range [0, " << dim << ") or not increasing";
  };
  if (binary) {
    std::string token = matrix_io::ReadBinaryToken(is, "SV");
    if (token != "SV")
      NNET3_ERR << "Expected token SV (a sparse vector) but found '"
                << matrix_io::Printable(token) << "'";
    int32_t num_elems;
    ReadBasicType(is, binary, &dim);
    ReadBasicType(is, binary, &num_elems);
    if (dim < 0 || num_elems < 0 || num_elems > dim)
      NNET3_ERR << "Reading sparse vector: bad sizes dim=" << dim
                << " num_elems=" << num_elems << " (corrupted data?)";
    for (int32_t i = 0; i < num_elems; i++) {
      Pair p;
      ReadBasicType(is, binary, &p.first);
      ReadBasicType(is, binary, &p.second);
      check_index(p.first);
      pairs.push_back(p);
    }
  } else {
    dim = ReadPrefixedCount(is, "dim=", "sparse vector");
    std::string bracket;
    is >> bracket;
    if (bracket != "[")
      NNET3_ERR << "Reading sparse vector: expected '[' but found '"
                << matrix_io::Printable(bracket) << "'";
    while (true) {
      is >> std::ws;
      if (is.peek() == ']') {
        is.get();
        break;
      }
      if (is.peek() == EOF)
        NNET3_ERR << "Reading sparse vector: ended without ']'";
      Pair p;
      is >> p.first;
      if (is.fail())
        NNET3_ERR << "Reading sparse vector: expected an index or ']'";
      p.second = matrix_io::ReadFloatWord(is, "sparse vector");
      check_index(p.first);
      pairs.push_back(p);
    }
  }
  dim_ = dim;
  pairs_.swap(pairs);
}

// ---- SparseMatrix ----

SparseMatrix::SparseMatrix(int32_t num_cols,
                           const std::vector<SparseVector> &rows)
    : rows_(rows) {
  for (const SparseVector &row : rows_)
    if (row.Dim() != num_cols)
      NNET3_INTERNAL_ERR << "SparseMatrix: row of dim " << row.Dim()
                         << " in a matrix of " << num_cols << " columns";
}

SparseMatrix::SparseMatrix(
    int32_t num_cols,
    const std::vector<std::vector<SparseVector::Pair>> &rows) {
  rows_.reserve(rows.size());
  for (const auto &pairs : rows) rows_.emplace_back(num_cols, pairs);
}

SparseMatrix::SparseMatrix(const std::vector<int32_t> &indexes,
                           int32_t num_cols) {
  rows_.reserve(indexes.size());
  for (int32_t index : indexes) {
    if (index < -1 || index >= num_cols)
      NNET3_INTERNAL_ERR << "SparseMatrix: one-hot index " << index
                         << " out of range [0, " << num_cols << ")";
    if (index == -1)
      rows_.emplace_back(num_cols);
    else
      rows_.emplace_back(num_cols,
                         std::vector<SparseVector::Pair>{{index, 1.0f}});
  }
}

SparseMatrix::SparseMatrix(const MatrixView &mat) {
  std::vector<float> host = mat.ToHost();
  int32_t cols = mat.NumCols();
  rows_.reserve(mat.NumRows());
  for (int32_t r = 0; r < mat.NumRows(); r++) {
    std::vector<SparseVector::Pair> pairs;
    for (int32_t c = 0; c < cols; c++) {
      float v = host[static_cast<size_t>(r) * cols + c];
      if (v != 0.0f) pairs.emplace_back(c, v);
    }
    rows_.emplace_back(cols, pairs);
  }
}

int64_t SparseMatrix::NumElements() const {
  int64_t n = 0;
  for (const SparseVector &row : rows_) n += row.NumElements();
  return n;
}

const SparseVector &SparseMatrix::Row(int32_t r) const {
  if (r < 0 || r >= NumRows())
    NNET3_INTERNAL_ERR << "SparseMatrix::Row(" << r << ") out of range for "
                       << NumRows() << " rows";
  return rows_[r];
}

void SparseMatrix::SetRow(int32_t r, const SparseVector &row) {
  if (r < 0 || r >= NumRows() || row.Dim() != NumCols())
    NNET3_INTERNAL_ERR << "SparseMatrix::SetRow(" << r << "): bad row index "
                       << "or dim " << row.Dim() << " vs " << NumCols();
  rows_[r] = row;
}

double SparseMatrix::Sum() const {
  double sum = 0.0;
  for (const SparseVector &row : rows_) sum += row.Sum();
  return sum;
}

void SparseMatrix::Scale(float alpha) {
  for (SparseVector &row : rows_) row.Scale(alpha);
}

void SparseMatrix::CopyToHost(std::vector<float> *data) const {
  int32_t cols = NumCols();
  data->resize(static_cast<size_t>(NumRows()) * cols);
  for (int32_t r = 0; r < NumRows(); r++)
    rows_[r].CopyToHost(data->data() + static_cast<size_t>(r) * cols);
}

void SparseMatrix::CopyToMatrix(MatrixView *mat) const {
  if (mat->NumRows() != NumRows() || mat->NumCols() != NumCols())
    NNET3_INTERNAL_ERR << "SparseMatrix::CopyToMatrix: " << NumRows() << " x "
                       << NumCols() << " into " << mat->NumRows() << " x "
                       << mat->NumCols();
  std::vector<float> host;
  CopyToHost(&host);
  if (!mat->IsEmpty()) mat->CopyFromHost(host.data(), NumCols());
}

void SparseMatrix::Write(std::ostream &os, bool binary) const {
  if (binary) {
    WriteToken(os, binary, "SM");
    WriteBasicType(os, binary, NumRows());
    for (const SparseVector &row : rows_) row.Write(os, binary);
  } else {
    os << "rows=" << NumRows() << " ";
    for (const SparseVector &row : rows_) row.Write(os, binary);
    os << "\n";
  }
  if (os.fail()) NNET3_ERR << "Write failure while writing a sparse matrix";
}

void SparseMatrix::Read(std::istream &is, bool binary) {
  rows_.clear();
  int32_t num_rows;
  if (binary) {
    std::string token = matrix_io::ReadBinaryToken(is, "SM");
    if (token != "SM")
      NNET3_ERR << "Expected token SM (a sparse matrix) but found '"
                << matrix_io::Printable(token) << "'";
    ReadBasicType(is, binary, &num_rows);
    if (num_rows < 0 || num_rows > kMaxReadElements / 2)
      NNET3_ERR << "Reading sparse matrix: bad number of rows " << num_rows
                << " (corrupted data?)";
  } else {
    num_rows = ReadPrefixedCount(is, "rows=", "sparse matrix");
  }
  std::vector<SparseVector> rows;
  for (int32_t r = 0; r < num_rows; r++) {
    SparseVector row;
    row.Read(is, binary);
    if (r > 0 && row.Dim() != rows[0].Dim())
      NNET3_ERR << "Reading sparse matrix: row " << r << " has dim "
                << row.Dim() << " but row 0 has dim " << rows[0].Dim();
    rows.push_back(std::move(row));
  }
  rows_.swap(rows);
}

}  // namespace nnet3
