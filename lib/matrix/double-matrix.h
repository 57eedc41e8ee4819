// Double-precision host matrices, vectors and packed symmetric matrices
// in Kaldi's formats, for statistics that are accumulated in double and are
// small enough to live on the host: CMVN stats (Kaldi's Matrix<double>), the
// LDA accumulators (Vector / Matrix / SpMatrix). They never go to a device.
//
//   DoubleMatrix stats(2, dim + 1);           // zeros
//   stats(0, dim) += 1.0;
//   stats.Write(os, binary);                  // DM (or FM with kFloat)
//   DoubleMatrix m;  m.Read(is, binary);      // FM or DM, or text
//   DoubleSpMatrix s(dim);  s(i, j) += x;     // lower triangle, j <= i
//   s.Write(os, binary, WritePrecision::kFloat);  // Kaldi's SpMatrix<float>
//
// Formats (reference 4.2): binary "DM "/"FM " + int32 rows + int32 cols +
// raw values; "DV "/"FV " + int32 dim + values; "DP "/"FP " + int32 rows +
// the lower triangle row by row (rows (rows+1)/2 values). Text: " [\n  1 2 \n
// ]\n" for matrices, " [ 1 2 ]\n" for vectors, "[\n1 \n2 3 ]\n" for packed
// matrices ("[ ]\n" when empty). Readers accept either precision in binary;
// text is read through the float readers of matrix-io.h, so it keeps about
// seven significant digits, as much as Kaldi writes. Readers throw UserError
// on malformed or truncated input.
#ifndef NNET3_MATRIX_DOUBLE_MATRIX_H_
#define NNET3_MATRIX_DOUBLE_MATRIX_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <vector>

namespace nnet3 {

// Which precision a writer uses in binary mode.
enum class WritePrecision { kFloat, kDouble };

struct DoubleMatrix {
  int32_t rows = 0, cols = 0;
  std::vector<double> data;  // row-major, rows * cols

  DoubleMatrix() = default;
  DoubleMatrix(int32_t r, int32_t c) { Resize(r, c); }
  void Resize(int32_t r, int32_t c);  // zeros
  double &operator()(int32_t r, int32_t c) {
    return data[static_cast<size_t>(r) * cols + c];
  }
  double operator()(int32_t r, int32_t c) const {
    return data[static_cast<size_t>(r) * cols + c];
  }
  void Read(std::istream &is, bool binary);
  void Write(std::ostream &os, bool binary,
             WritePrecision precision = WritePrecision::kDouble) const;
};

// Kaldi's vector formats for a std::vector<double>.
void ReadDoubleVector(std::istream &is, bool binary, std::vector<double> *v);
void WriteDoubleVector(std::ostream &os, bool binary,
                       const std::vector<double> &v, WritePrecision precision);

// Symmetric (or lower-triangular, for Kaldi's TpMatrix) matrix stored as its
// lower triangle.
struct DoubleSpMatrix {
  int32_t dim = 0;
  std::vector<double> data;  // dim (dim + 1) / 2: row i holds columns 0..i

  DoubleSpMatrix() = default;
  explicit DoubleSpMatrix(int32_t d) { Resize(d); }
  void Resize(int32_t d);  // zeros
  // Element (i, j) with j <= i.
  double &operator()(int32_t i, int32_t j) {
    return data[static_cast<size_t>(i) * (i + 1) / 2 + j];
  }
  double operator()(int32_t i, int32_t j) const {
    return data[static_cast<size_t>(i) * (i + 1) / 2 + j];
  }
  // The full dim x dim symmetric matrix, row-major.
  std::vector<double> ToFull() const;
  void Read(std::istream &is, bool binary);
  void Write(std::ostream &os, bool binary,
             WritePrecision precision = WritePrecision::kFloat) const;
};

}  // namespace nnet3

#endif  // NNET3_MATRIX_DOUBLE_MATRIX_H_
