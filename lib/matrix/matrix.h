// MatrixView and Matrix: row-major float matrices in the memory of a Device
// (the CPU, or a GPU), and their Kaldi binary and text formats.
//
//   Matrix m(10, 20);                         // zeros, on ActiveDevice()
//   m.SetRandn(1234);
//   MatrixView top = m.RowRange(0, 5);        // a view, no copy
//   Matrix out(5, 30);
//   out.AddMatMat(1.0, top, Trans::kNo, w, Trans::kYes, 0.0);  // out = top w^T
//   out.Write(std::cout, binary);
//
// A MatrixView is a non-owning strided window (data, rows, cols, stride) on
// a Device; a Matrix owns its memory (from the Device's caching allocator)
// and is also a MatrixView. The memory is device memory: this layer never
// dereferences it, every operation forwards to the Device's Backend, and the
// host sees the numbers only through CopyFromHost / CopyToHost / ToHost /
// Get / Set. Views are cheap to copy but cannot be re-assigned (assigning
// one view to another would look like a data copy, as in Kaldi's SubMatrix).
//
// Operands of an operation must live on the same device, except for
// CopyFromMat, which copies across devices through the host. Shape
// mismatches are programming errors and throw InternalError; bad input files
// throw UserError with a one-line message.
//
// Formats (Kaldi, reference 4.2): binary "FM " + int32 rows + int32 cols (with
// size bytes) + raw floats; text " [\n  1 2 \n  3 4 ]\n", empty " [ ]\n".
// Matrix::Read also accepts DM (converted to float) and the compressed forms
// CM, CM2, CM3 (decompressed), and in text "[]", rows ended by ';', inf/nan.
#ifndef NNET3_MATRIX_MATRIX_H_
#define NNET3_MATRIX_MATRIX_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <vector>

#include "device/backend.h"
#include "device/device.h"
#include "matrix/device-array.h"
#include "matrix/matrix-common.h"
#include "matrix/vector.h"

namespace nnet3 {

class MatrixView {
 public:
  // An empty view on ActiveDevice().
  MatrixView();
  MatrixView(Device &device, float *data, int32_t rows, int32_t cols,
             int32_t stride);
  MatrixView(const MatrixView &other) = default;
  MatrixView &operator=(const MatrixView &other) = delete;

  Device &device() const { return *device_; }
  Backend &backend() const { return device_->backend(); }
  // Device pointer to element (0, 0): pass it on, never dereference it.
  float *Data() const { return data_; }
  // Device pointer to row r (for RowPointers).
  float *RowData(int32_t r) const;
  int32_t NumRows() const { return rows_; }
  int32_t NumCols() const { return cols_; }
  int32_t Stride() const { return stride_; }
  bool IsEmpty() const { return rows_ == 0 || cols_ == 0; }
  bool SameShape(const MatrixView &other) const {
    return rows_ == other.rows_ && cols_ == other.cols_;
  }
  MatView View() const { return MatView(data_, rows_, cols_, stride_); }
  ConstMatView ConstView() const {
    return ConstMatView(data_, rows_, cols_, stride_);
  }

  // ---- sub-views (no copy) ----
  MatrixView RowRange(int32_t row_offset, int32_t num_rows) const;
  MatrixView ColRange(int32_t col_offset, int32_t num_cols) const;
  MatrixView Range(int32_t row_offset, int32_t num_rows, int32_t col_offset,
                   int32_t num_cols) const;
  VectorView Row(int32_t r) const;

  // ---- filling ----
  void SetZero();
  void Set(float value);
  // Counter-based random numbers: the same on every backend for a seed.
  void SetRandUniform(uint64_t seed);  // in [0, 1)
  void SetRandn(uint64_t seed);        // N(0, 1)

  // ---- copies and linear algebra ----
  // this = op(src); src may be on another device (copied via the host).
  void CopyFromMat(const MatrixView &src, Trans trans = Trans::kNo);
  // this += alpha * op(src).
  void AddMat(float alpha, const MatrixView &src, Trans trans = Trans::kNo);
  void Scale(float alpha);
  // this += alpha * src, then src *= src_scale, in one pass (0: zeros).
  void AddMatAndScaleSrc(float alpha, MatrixView *src, float src_scale);
  // this = beta * this + alpha * src in one pass (beta == 0 ignores this).
  void ScaleAndAddMat(float beta, float alpha, const MatrixView &src);
  void Add(float value);  // every element += value
  // this = alpha * op(a) * op(b) + beta * this (beta == 0 ignores the old
  // contents, NaN included).
  void AddMatMat(float alpha, const MatrixView &a, Trans trans_a,
                 const MatrixView &b, Trans trans_b, float beta);
  // this += alpha * a^T b (outer product; a has NumRows(), b NumCols()).
  void AddVecVec(float alpha, const VectorView &a, const VectorView &b);
  // this = alpha * diag(v) * op(m) + beta * this.
  void AddDiagVecMat(float alpha, const VectorView &v, const MatrixView &m,
                     Trans trans, float beta);
  // this = alpha * op(m) * diag(v) + beta * this.
  void AddMatDiagVec(float alpha, const MatrixView &m, Trans trans,
                     const VectorView &v, float beta);

  // ---- elementwise ----
  void ApplyFunc(Func f);                         // this = f(this)
  void ApplyFunc(Func f, const MatrixView &src);  // this = f(src)
  void ApplyPow(float power);  // std::pow(x, power), as Kaldi's ApplyPow
  void Clamp(float lower, float upper);
  void ApplyFloor(float floor);             // max(x, floor)
  void ApplyCeiling(float ceiling);         // min(x, ceiling)
  void MulElements(const MatrixView &src);  // this *= src
  void DivElements(const MatrixView &src);  // this /= src
  void MaxElements(const MatrixView &src);  // this = max(this, src)
  void MinElements(const MatrixView &src);  // this = min(this, src)
  // this = alpha * a .* b + beta * this.
  void AddMatMatElements(float alpha, const MatrixView &a, const MatrixView &b,
                         float beta);
  // Row-wise (log-)softmax: this = softmax(src); in place ok.
  void SoftmaxRows(const MatrixView &src);
  void LogSoftmaxRows(const MatrixView &src);

  // ---- derivatives of nonlinearities (this = in_deriv; y = forward output;
  //      formulas in device/backend.h) ----
  void DiffSigmoid(const MatrixView &y, const MatrixView &out_deriv);
  void DiffTanh(const MatrixView &y, const MatrixView &out_deriv);
  void DiffRelu(const MatrixView &y, const MatrixView &out_deriv);
  void DiffSoftmax(const MatrixView &y, const MatrixView &out_deriv);
  void DiffLogSoftmax(const MatrixView &y, const MatrixView &out_deriv);

  // ---- rows through index vectors (idx on the same device) ----
  // this row r = src row idx[r] (-1: zero row).
  void CopyRows(const MatrixView &src, const IndexVector &idx);
  // this row r += alpha * src row idx[r] (-1: skipped).
  void AddRows(float alpha, const MatrixView &src, const IndexVector &idx);
  // dst row idx[r] = this row r (-1: skipped); idx has NumRows() entries.
  void CopyToRows(const IndexVector &idx, MatrixView *dst) const;
  // dst row idx[r] += alpha * this row r; destinations distinct.
  void AddToRows(float alpha, const IndexVector &idx, MatrixView *dst) const;
  // this row r += alpha * sum of src rows [ranges[2r], ranges[2r+1]).
  void AddRowRanges(float alpha, const MatrixView &src,
                    const IndexVector &ranges);

  // ---- columns through index vectors (idx has NumCols() entries, each -1
  //      or a column of src; src has NumRows() rows) ----
  void CopyCols(const MatrixView &src, const IndexVector &idx);  // -1: zero
  void AddCols(const MatrixView &src, const IndexVector &idx);   // -1: skip
  // this(r, c) = (a(r, c) == b(r, c)) ? 1 : 0.
  void EqualElementMask(const MatrixView &a, const MatrixView &b);

  // ---- rows through pointer lists (nullptr: zero row / skipped) ----
  void CopyRows(const RowPointers &src_rows);              // this r = *p[r]
  void AddRows(float alpha, const RowPointers &src_rows);  // this r += ..
  void CopyToRows(const RowPointers &dst_rows) const;      // *p[r] = this r
  void AddToRows(float alpha, const RowPointers &dst_rows) const;

  // ---- vectors against matrices ----
  void AddVecToRows(float alpha, const VectorView &v);  // v: NumCols()
  void AddVecToCols(float alpha, const VectorView &v);  // v: NumRows()
  void MulColsVec(const VectorView &v);                 // column c *= v(c)
  void MulRowsVec(const VectorView &v);                 // row r *= v(r)
  // this(r, c) = g(in(r, c)) * scale(c) + offset(c) in one pass, g = ReLU
  // when `rectify`; in may be this.
  void ScaleOffsetCols(bool rectify, const VectorView &scale,
                       const VectorView &offset, const MatrixView &in);
  // v has NumRows() * NumCols() elements (row after row) or NumCols()
  // (copied into every row).
  void CopyRowsFromVec(const VectorView &v);
  void CopyColFromVec(const VectorView &v, int32_t col);

  // ---- reductions (accumulated in double) ----
  double Sum() const;
  float Max() const;  // -inf when empty
  float Min() const;  // +inf when empty
  double FrobeniusNorm() const;
  bool IsFinite() const;  // no inf or NaN

  // ---- host transfer ----
  // Host data is row-major with the given stride (>= NumCols()).
  void CopyFromHost(const float *data, int32_t stride);
  // Row-major without padding: NumRows() * NumCols() values.
  void CopyFromHost(const std::vector<float> &data);
  void CopyToHost(float *data, int32_t stride) const;
  std::vector<float> ToHost() const;  // row-major, no padding
  // Slow single-element access (one transfer each): for tests and debugging.
  float Get(int32_t r, int32_t c) const;
  void Set(int32_t r, int32_t c, float value);

  // Kaldi's ApproxEqual: ||this - other|| <= tol * ||this|| (Frobenius).
  bool ApproxEqual(const MatrixView &other, float tol = 0.01f) const;

  // Kaldi's FM binary or text format (see the top of this file).
  void Write(std::ostream &os, bool binary) const;

 protected:
  Device *device_;
  float *data_ = nullptr;
  int32_t rows_ = 0, cols_ = 0, stride_ = 0;
};

// tr(a op(b)); with Trans::kYes this is the sum of a .* b.
double TraceMatMat(const MatrixView &a, const MatrixView &b,
                   Trans trans = Trans::kNo);
// Sum of a .* b (shapes equal).
double DotProduct(const MatrixView &a, const MatrixView &b);

class Matrix : public MatrixView {
 public:
  // An empty matrix on ActiveDevice() / on `device`.
  Matrix();
  explicit Matrix(Device &device);
  Matrix(int32_t rows, int32_t cols,
         ResizeType resize_type = ResizeType::kSetZero,
         Device &device = ActiveDevice());
  Matrix(int32_t rows, int32_t cols, ResizeType resize_type,
         MatrixStrideType stride_type, Device &device = ActiveDevice());
  // A copy of op(src) on src's device.
  explicit Matrix(const MatrixView &src, Trans trans = Trans::kNo);
  // A copy of src on `device`.
  Matrix(const MatrixView &src, Device &device);
  // Copies are deep and live on the source's device (assignment included).
  Matrix(const Matrix &other);
  Matrix(Matrix &&other) noexcept;
  Matrix &operator=(const Matrix &other);
  Matrix &operator=(Matrix &&other) noexcept;
  ~Matrix();

  // Keeps the device. Same shape and stride type: no reallocation.
  void Resize(int32_t rows, int32_t cols,
              ResizeType resize_type = ResizeType::kSetZero,
              MatrixStrideType stride_type = MatrixStrideType::kDefaultStride);
  // Swaps everything, the device included.
  void Swap(Matrix *other);
  MatrixStrideType GetStrideType() const { return stride_type_; }

  // Reads FM or DM, or (binary only) CM / CM2 / CM3, resizing as needed.
  // Throws UserError on malformed or truncated input.
  void Read(std::istream &is, bool binary);

 private:
  void Release();
  size_t bytes_ = 0;  // what was allocated, for Device::Free
  MatrixStrideType stride_type_ = MatrixStrideType::kDefaultStride;
};

}  // namespace nnet3

#endif  // NNET3_MATRIX_MATRIX_H_
