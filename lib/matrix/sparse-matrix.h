// SparseVector and SparseMatrix: Kaldi's sparse formats (egs targets, one-hot
// labels), held in host memory as sorted (index, value) pairs.
//
//   SparseMatrix targets(alignment, num_pdfs);     // one-hot rows
//   targets.Write(os, binary);                     // "SM " ...
//   Matrix dense(targets.NumRows(), targets.NumCols());
//   targets.CopyToMatrix(&dense);
//
// Formats (reference 4.2):
//   SparseVector  binary "SV " int32 dim, int32 num_elems, then (int32 index,
//                 float value) pairs, every number with its size byte;
//                 text   "dim=5 [ 0 0.2 3 0.9 ] ".
//   SparseMatrix  binary "SM " int32 num_rows, then the rows as SparseVectors;
//                 text   "rows=N " + N text sparse vectors + "\n".
// The pairs of a SparseVector are sorted by index with no duplicates and
// indexes in [0, dim); readers check this (UserError) and grow their
// storage only as data arrives. All rows of a SparseMatrix have the same
// dim, which is NumCols() (0 for a matrix without rows).
#ifndef NNET3_MATRIX_SPARSE_MATRIX_H_
#define NNET3_MATRIX_SPARSE_MATRIX_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <utility>
#include <vector>

namespace nnet3 {

class MatrixView;

class SparseVector {
 public:
  using Pair = std::pair<int32_t, float>;

  SparseVector() = default;
  explicit SparseVector(int32_t dim) : dim_(dim) {}
  // As Kaldi: the pairs are sorted, values of equal indexes summed, and zero
  // results dropped. Indexes outside [0, dim) are an InternalError.
  SparseVector(int32_t dim, const std::vector<Pair> &pairs);

  int32_t Dim() const { return dim_; }
  int32_t NumElements() const { return static_cast<int32_t>(pairs_.size()); }
  const std::vector<Pair> &Pairs() const { return pairs_; }
  double Sum() const;
  void Scale(float alpha);
  // Writes the dense row into `row` (Dim() floats; all of them are set).
  void CopyToHost(float *row) const;

  void Read(std::istream &is, bool binary);
  void Write(std::ostream &os, bool binary) const;

 private:
  int32_t dim_ = 0;
  std::vector<Pair> pairs_;
};

class SparseMatrix {
 public:
  SparseMatrix() = default;
  // Rows must all have dimension num_cols.
  SparseMatrix(int32_t num_cols, const std::vector<SparseVector> &rows);
  SparseMatrix(int32_t num_cols,
               const std::vector<std::vector<SparseVector::Pair>> &rows);
  // One-hot rows: row i has 1.0 at indexes[i] (no element when -1).
  SparseMatrix(const std::vector<int32_t> &indexes, int32_t num_cols);
  // The nonzero elements of a dense matrix.
  explicit SparseMatrix(const MatrixView &mat);

  int32_t NumRows() const { return static_cast<int32_t>(rows_.size()); }
  int32_t NumCols() const { return rows_.empty() ? 0 : rows_[0].Dim(); }
  int64_t NumElements() const;
  const SparseVector &Row(int32_t r) const;
  const std::vector<SparseVector> &Rows() const { return rows_; }
  void SetRow(int32_t r, const SparseVector &row);
  double Sum() const;
  void Scale(float alpha);
  void Swap(SparseMatrix *other) { rows_.swap(other->rows_); }
  void Clear() { rows_.clear(); }

  // Dense copy into mat (NumRows() x NumCols()), on any device.
  void CopyToMatrix(MatrixView *mat) const;
  // Dense copy, row-major without padding.
  void CopyToHost(std::vector<float> *data) const;

  void Read(std::istream &is, bool binary);
  void Write(std::ostream &os, bool binary) const;

 private:
  std::vector<SparseVector> rows_;
};

}  // namespace nnet3

#endif  // NNET3_MATRIX_SPARSE_MATRIX_H_
