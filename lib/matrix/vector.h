// VectorView and Vector: float vectors in the memory of a Device, and their
// Kaldi binary and text formats.
//
//   Vector bias(512);                        // zeros, on ActiveDevice()
//   bias.AddRowSumMat(1.0, deriv, 1.0);       // bias += column sums of deriv
//   out.AddVecToRows(1.0, bias);              // matrix/matrix.h
//
// For the Backend a vector is a 1 x Dim() matrix view with stride Dim(); a
// VectorView is a non-owning window, a Vector owns its memory (from the
// Device's caching allocator). As with matrices, the memory is never
// dereferenced here: every operation forwards to the Backend, and the host
// sees the numbers through CopyFromHost / CopyToHost / ToHost / Get / Set.
//
// Formats (Kaldi, reference 4.2): binary "FV " + int32 dim (with size byte)
// + raw floats; text " [ 1 2 3 ]\n", empty " [ ]\n". Vector::Read also
// accepts DV (converted to float) and, in text, "[]", inf and nan.
#ifndef NNET3_MATRIX_VECTOR_H_
#define NNET3_MATRIX_VECTOR_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <vector>

#include "device/backend.h"
#include "device/device.h"
#include "matrix/matrix-common.h"

namespace nnet3 {

class MatrixView;

class VectorView {
 public:
  // An empty view on ActiveDevice().
  VectorView();
  VectorView(Device &device, float *data, int32_t dim);
  VectorView(const VectorView &other) = default;
  VectorView &operator=(const VectorView &other) = delete;

  Device &device() const { return *device_; }
  Backend &backend() const { return device_->backend(); }
  float *Data() const { return data_; }  // device pointer
  int32_t Dim() const { return dim_; }
  // The vector as a 1 x Dim() matrix view for the Backend.
  MatView View() const { return MatView(data_, 1, dim_, dim_); }
  ConstMatView ConstView() const { return ConstMatView(data_, 1, dim_, dim_); }
  // The vector as a 1 x Dim() matrix, or as rows x cols (rows * cols ==
  // Dim(), row after row).
  MatrixView AsRowMatrix() const;
  MatrixView AsMatrix(int32_t rows, int32_t cols) const;
  VectorView Range(int32_t offset, int32_t dim) const;

  // ---- filling ----
  void SetZero();
  void Set(float value);
  void SetRandUniform(uint64_t seed);
  void SetRandn(uint64_t seed);

  // ---- copies and arithmetic ----
  // src may be on another device (copied via the host).
  void CopyFromVec(const VectorView &src);
  void AddVec(float alpha, const VectorView &v);  // this += alpha v
  void Scale(float alpha);
  void Add(float value);
  void ApplyFunc(Func f);
  void ApplyPow(float power);
  void Clamp(float lower, float upper);
  void ApplyFloor(float floor);
  void ApplyCeiling(float ceiling);
  void MulElements(const VectorView &v);
  void DivElements(const VectorView &v);
  // this = alpha * (sum of the rows of m) + beta * this; Dim() == m.NumCols().
  void AddRowSumMat(float alpha, const MatrixView &m, float beta = 1.0f);
  // this = alpha * (sum of the columns of m) + beta * this; Dim() ==
  // m.NumRows().
  void AddColSumMat(float alpha, const MatrixView &m, float beta = 1.0f);
  // this = alpha * op(m) v + beta * this.
  void AddMatVec(float alpha, const MatrixView &m, Trans trans,
                 const VectorView &v, float beta);
  // this = alpha * diag(a bᵀ) + beta * this: this(r) = alpha * (row r of a
  // . row r of b) + beta * this(r); a and b have Dim() rows (Kaldi's
  // AddDiagMatMat with kNoTrans, kTrans).
  void AddDiagMatMat(float alpha, const MatrixView &a, const MatrixView &b,
                     float beta);
  // The rows of m one after another (Dim() == rows * cols).
  void CopyRowsFromMat(const MatrixView &m);
  // Column `col` of m (Dim() == m.NumRows()).
  void CopyColFromMat(const MatrixView &m, int32_t col);

  // ---- reductions ----
  double Sum() const;
  float Max() const;
  float Min() const;
  double Norm2() const;  // sqrt(sum x^2)

  // ---- host transfer ----
  void CopyFromHost(const float *data);  // Dim() values
  void CopyFromHost(const std::vector<float> &data);
  void CopyToHost(float *data) const;
  std::vector<float> ToHost() const;
  float Get(int32_t i) const;  // slow: one transfer
  void Set(int32_t i, float value);

  // ||this - other|| <= tol * ||this||.
  bool ApproxEqual(const VectorView &other, float tol = 0.01f) const;
  void Write(std::ostream &os, bool binary) const;

 protected:
  Device *device_;
  float *data_ = nullptr;
  int32_t dim_ = 0;
};

// Sum of a .* b.
double VecVec(const VectorView &a, const VectorView &b);

class Vector : public VectorView {
 public:
  Vector();
  explicit Vector(Device &device);
  explicit Vector(int32_t dim, ResizeType resize_type = ResizeType::kSetZero,
                  Device &device = ActiveDevice());
  // A copy of src on src's device / on `device`.
  explicit Vector(const VectorView &src);
  Vector(const VectorView &src, Device &device);
  // A vector holding `data` on `device`.
  explicit Vector(const std::vector<float> &data,
                  Device &device = ActiveDevice());
  Vector(const Vector &other);
  Vector(Vector &&other) noexcept;
  Vector &operator=(const Vector &other);
  Vector &operator=(Vector &&other) noexcept;
  ~Vector();

  void Resize(int32_t dim, ResizeType resize_type = ResizeType::kSetZero);
  void Swap(Vector *other);
  // Reads FV or DV (binary) or the text form, resizing as needed.
  void Read(std::istream &is, bool binary);

 private:
  void Release();
};

}  // namespace nnet3

#endif  // NNET3_MATRIX_VECTOR_H_
