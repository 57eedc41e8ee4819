// MatrixView: sub-views and the operations that forward to the Backend.
// (Matrix's memory management and the I/O are in matrix-owning.cc.)
#include "matrix/matrix.h"

#include <cmath>
#include <limits>

#include "base/error.h"
#include "matrix/matrix-checks.h"

namespace nnet3 {

using matrix_checks::CheckDevice;
using matrix_checks::CheckShape;

MatrixView::MatrixView() : device_(&ActiveDevice()) {}

MatrixView::MatrixView(Device &device, float *data, int32_t rows, int32_t cols,
                       int32_t stride)
    : device_(&device), data_(data), rows_(rows), cols_(cols), stride_(stride) {
  NNET3_ASSERT(rows >= 0 && cols >= 0 && stride >= cols);
}

float *MatrixView::RowData(int32_t r) const {
  NNET3_ASSERT(r >= 0 && r < rows_);
  return data_ + static_cast<ptrdiff_t>(r) * stride_;
}

MatrixView MatrixView::RowRange(int32_t row_offset, int32_t num_rows) const {
  return Range(row_offset, num_rows, 0, cols_);
}

MatrixView MatrixView::ColRange(int32_t col_offset, int32_t num_cols) const {
  return Range(0, rows_, col_offset, num_cols);
}

MatrixView MatrixView::Range(int32_t row_offset, int32_t num_rows,
                             int32_t col_offset, int32_t num_cols) const {
  if (row_offset < 0 || num_rows < 0 || row_offset + num_rows > rows_ ||
      col_offset < 0 || num_cols < 0 || col_offset + num_cols > cols_)
    NNET3_INTERNAL_ERR << "MatrixView::Range(" << row_offset << ", " << num_rows
                       << ", " << col_offset << ", " << num_cols
                       << ") out of range for a " << rows_ << " x " << cols_
                       << " matrix";
  float *data = data_;
  if (data != nullptr)
    data += static_cast<ptrdiff_t>(row_offset) * stride_ + col_offset;
  return MatrixView(*device_, data, num_rows, num_cols, stride_);
}

VectorView MatrixView::Row(int32_t r) const {
  if (r < 0 || r >= rows_)
    NNET3_INTERNAL_ERR << "MatrixView::Row(" << r << ") out of range for "
                       << rows_ << " rows";
  return VectorView(*device_, RowData(r), cols_);
}

// ---- filling ----

void MatrixView::SetZero() { backend().SetConst(View(), 0.0f); }
void MatrixView::Set(float value) { backend().SetConst(View(), value); }
void MatrixView::SetRandUniform(uint64_t seed) {
  backend().RandUniform(seed, View());
}
void MatrixView::SetRandn(uint64_t seed) {
  backend().RandGaussian(seed, View());
}

// ---- copies and linear algebra ----

void MatrixView::CopyFromMat(const MatrixView &src, Trans trans) {
  bool t = trans == Trans::kYes;
  CheckShape("CopyFromMat",
             rows_ == (t ? src.cols_ : src.rows_) &&
                 cols_ == (t ? src.rows_ : src.cols_),
             *this, src);
  if (&src.device() == device_) {
    if (src.data_ == data_ && !t && src.stride_ == stride_) return;
    backend().CopyMat(1.0f, src.ConstView(), trans, View());
    return;
  }
  // Across devices: through the host.
  std::vector<float> host = src.ToHost();
  if (!t) {
    CopyFromHost(host.data(), src.cols_);
    return;
  }
  std::vector<float> transposed(host.size());
  for (int32_t r = 0; r < src.rows_; r++)
    for (int32_t c = 0; c < src.cols_; c++)
      transposed[static_cast<size_t>(c) * src.rows_ + r] =
          host[static_cast<size_t>(r) * src.cols_ + c];
  CopyFromHost(transposed.data(), src.rows_);
}

void MatrixView::AddMat(float alpha, const MatrixView &src, Trans trans) {
  bool t = trans == Trans::kYes;
  CheckShape("AddMat",
             rows_ == (t ? src.cols_ : src.rows_) &&
                 cols_ == (t ? src.rows_ : src.cols_),
             *this, src);
  CheckDevice("AddMat", *this, src);
  backend().AddMat(alpha, src.ConstView(), trans, View());
}

void MatrixView::ScaleAndAddMat(float beta, float alpha,
                                const MatrixView &src) {
  CheckShape("ScaleAndAddMat", SameShape(src), *this, src);
  CheckDevice("ScaleAndAddMat", *this, src);
  backend().ScaleAndAddMat(beta, alpha, src.ConstView(), View());
}

void MatrixView::AddMatAndScaleSrc(float alpha, MatrixView *src,
                                   float src_scale) {
  CheckShape("AddMatAndScaleSrc", rows_ == src->rows_ && cols_ == src->cols_,
             *this, *src);
  CheckDevice("AddMatAndScaleSrc", *this, *src);
  backend().AddMatAndScaleSrc(alpha, src->View(), src_scale, View());
}

void MatrixView::Scale(float alpha) { backend().Scale(alpha, View()); }
void MatrixView::Add(float value) { backend().AddConst(value, View()); }

void MatrixView::AddMatMat(float alpha, const MatrixView &a, Trans trans_a,
                           const MatrixView &b, Trans trans_b, float beta) {
  int32_t m = trans_a == Trans::kYes ? a.cols_ : a.rows_;
  int32_t ka = trans_a == Trans::kYes ? a.rows_ : a.cols_;
  int32_t kb = trans_b == Trans::kYes ? b.cols_ : b.rows_;
  int32_t n = trans_b == Trans::kYes ? b.rows_ : b.cols_;
  if (m != rows_ || n != cols_ || ka != kb)
    NNET3_INTERNAL_ERR << "AddMatMat: dimension mismatch: " << rows_ << " x "
                       << cols_ << " = op(" << a.rows_ << " x " << a.cols_
                       << ") * op(" << b.rows_ << " x " << b.cols_ << ")";
  CheckDevice("AddMatMat", *this, a);
  CheckDevice("AddMatMat", *this, b);
  backend().Gemm(alpha, a.ConstView(), trans_a, b.ConstView(), trans_b, beta,
                 View());
}

void MatrixView::AddVecVec(float alpha, const VectorView &a,
                           const VectorView &b) {
  if (a.Dim() != rows_ || b.Dim() != cols_)
    NNET3_INTERNAL_ERR << "AddVecVec: dimension mismatch: " << rows_ << " x "
                       << cols_ << " += " << a.Dim() << " x " << b.Dim();
  CheckDevice("AddVecVec", *this, a.AsRowMatrix());
  CheckDevice("AddVecVec", *this, b.AsRowMatrix());
  backend().Gemm(alpha, a.ConstView(), Trans::kYes, b.ConstView(), Trans::kNo,
                 1.0f, View());
}

void MatrixView::AddDiagVecMat(float alpha, const VectorView &v,
                               const MatrixView &m, Trans trans, float beta) {
  if (trans == Trans::kNo) {
    CheckShape("AddDiagVecMat", SameShape(m) && v.Dim() == rows_, *this, m);
    CheckDevice("AddDiagVecMat", *this, m);
    CheckDevice("AddDiagVecMat", *this, v.AsRowMatrix());
    backend().AddDiagVecMat(alpha, v.ConstView(), m.ConstView(), beta, View());
    return;
  }
  Matrix tmp(rows_, cols_, ResizeType::kUndefined, *device_);
  tmp.CopyFromMat(m, trans);
  tmp.MulRowsVec(v);
  if (beta != 1.0f) Scale(beta);
  AddMat(alpha, tmp);
}

void MatrixView::AddMatDiagVec(float alpha, const MatrixView &m, Trans trans,
                               const VectorView &v, float beta) {
  Matrix tmp(rows_, cols_, ResizeType::kUndefined, *device_);
  tmp.CopyFromMat(m, trans);
  tmp.MulColsVec(v);
  if (beta != 1.0f) Scale(beta);
  AddMat(alpha, tmp);
}

// ---- elementwise ----

void MatrixView::ApplyFunc(Func f) { backend().Apply(f, ConstView(), View()); }

void MatrixView::ApplyFunc(Func f, const MatrixView &src) {
  CheckShape("ApplyFunc", SameShape(src), *this, src);
  CheckDevice("ApplyFunc", *this, src);
  backend().Apply(f, src.ConstView(), View());
}

void MatrixView::ApplyPow(float power) {
  backend().ApplyPow(power, ConstView(), View());
}

void MatrixView::Clamp(float lower, float upper) {
  backend().Clamp(lower, upper, ConstView(), View());
}

void MatrixView::ApplyFloor(float floor) {
  Clamp(floor, std::numeric_limits<float>::infinity());
}

void MatrixView::ApplyCeiling(float ceiling) {
  Clamp(-std::numeric_limits<float>::infinity(), ceiling);
}

void MatrixView::MulElements(const MatrixView &src) {
  CheckShape("MulElements", SameShape(src), *this, src);
  CheckDevice("MulElements", *this, src);
  backend().MulElements(src.ConstView(), View());
}

void MatrixView::DivElements(const MatrixView &src) {
  CheckShape("DivElements", SameShape(src), *this, src);
  CheckDevice("DivElements", *this, src);
  backend().DivElements(src.ConstView(), View());
}

void MatrixView::MaxElements(const MatrixView &src) {
  CheckShape("MaxElements", SameShape(src), *this, src);
  CheckDevice("MaxElements", *this, src);
  backend().MaxElements(src.ConstView(), View());
}

void MatrixView::MinElements(const MatrixView &src) {
  CheckShape("MinElements", SameShape(src), *this, src);
  CheckDevice("MinElements", *this, src);
  backend().MinElements(src.ConstView(), View());
}

void MatrixView::AddMatMatElements(float alpha, const MatrixView &a,
                                   const MatrixView &b, float beta) {
  CheckShape("AddMatMatElements", SameShape(a), *this, a);
  CheckShape("AddMatMatElements", SameShape(b), *this, b);
  CheckDevice("AddMatMatElements", *this, a);
  CheckDevice("AddMatMatElements", *this, b);
  backend().AddMatMatElements(alpha, a.ConstView(), b.ConstView(), beta,
                              View());
}

void MatrixView::SoftmaxRows(const MatrixView &src) {
  CheckShape("SoftmaxRows", SameShape(src), *this, src);
  CheckDevice("SoftmaxRows", *this, src);
  backend().SoftmaxRows(src.ConstView(), View());
}

void MatrixView::LogSoftmaxRows(const MatrixView &src) {
  CheckShape("LogSoftmaxRows", SameShape(src), *this, src);
  CheckDevice("LogSoftmaxRows", *this, src);
  backend().LogSoftmaxRows(src.ConstView(), View());
}

// ---- derivatives ----

#define NNET3_MATRIX_DIFF(Name)                                             \
  void MatrixView::Name(const MatrixView &y, const MatrixView &out_deriv) { \
    CheckShape(#Name, SameShape(y), *this, y);                              \
    CheckShape(#Name, SameShape(out_deriv), *this, out_deriv);              \
    CheckDevice(#Name, *this, y);                                           \
    CheckDevice(#Name, *this, out_deriv);                                   \
    backend().Name(y.ConstView(), out_deriv.ConstView(), View());           \
  }
NNET3_MATRIX_DIFF(DiffSigmoid)
NNET3_MATRIX_DIFF(DiffTanh)
NNET3_MATRIX_DIFF(DiffRelu)
NNET3_MATRIX_DIFF(DiffSoftmax)
NNET3_MATRIX_DIFF(DiffLogSoftmax)
#undef NNET3_MATRIX_DIFF

// ---- rows through index vectors ----

namespace {

// Index vectors must match the row count, live on the matrices' device and
// point inside the matrix they index (the backend does not check).
void CheckIndexes(const char *op, const IndexVector &idx, int32_t expected_dim,
                  int32_t num_rows_indexed, const Device &device) {
  if (idx.Dim() != expected_dim)
    NNET3_INTERNAL_ERR << op << ": index vector has " << idx.Dim()
                       << " entries, expected " << expected_dim;
  if (&idx.device() != &device)
    NNET3_INTERNAL_ERR << op << ": index vector is on another device";
  if (idx.Dim() > 0 &&
      (idx.MinIndex() < -1 || idx.MaxIndex() >= num_rows_indexed))
    NNET3_INTERNAL_ERR << op << ": index out of range [" << idx.MinIndex()
                       << ", " << idx.MaxIndex() << "] for " << num_rows_indexed
                       << " rows";
}

}  // namespace

void MatrixView::CopyRows(const MatrixView &src, const IndexVector &idx) {
  CheckShape("CopyRows", cols_ == src.cols_, *this, src);
  CheckDevice("CopyRows", *this, src);
  CheckIndexes("CopyRows", idx, rows_, src.rows_, *device_);
  backend().CopyRows(1.0f, src.ConstView(), idx.Data(), View());
}

void MatrixView::AddRows(float alpha, const MatrixView &src,
                         const IndexVector &idx) {
  CheckShape("AddRows", cols_ == src.cols_, *this, src);
  CheckDevice("AddRows", *this, src);
  CheckIndexes("AddRows", idx, rows_, src.rows_, *device_);
  backend().AddRows(alpha, src.ConstView(), idx.Data(), View());
}

void MatrixView::CopyToRows(const IndexVector &idx, MatrixView *dst) const {
  CheckShape("CopyToRows", cols_ == dst->cols_, *this, *dst);
  CheckDevice("CopyToRows", *this, *dst);
  CheckIndexes("CopyToRows", idx, rows_, dst->rows_, *device_);
  backend().CopyToRows(ConstView(), idx.Data(), dst->View());
}

void MatrixView::AddToRows(float alpha, const IndexVector &idx,
                           MatrixView *dst) const {
  CheckShape("AddToRows", cols_ == dst->cols_, *this, *dst);
  CheckDevice("AddToRows", *this, *dst);
  CheckIndexes("AddToRows", idx, rows_, dst->rows_, *device_);
  backend().AddToRows(alpha, ConstView(), idx.Data(), dst->View());
}

void MatrixView::AddRowRanges(float alpha, const MatrixView &src,
                              const IndexVector &ranges) {
  CheckShape("AddRowRanges", cols_ == src.cols_, *this, src);
  CheckDevice("AddRowRanges", *this, src);
  // Range ends may equal src.rows_, hence rows_ + 1.
  CheckIndexes("AddRowRanges", ranges, 2 * rows_, src.rows_ + 1, *device_);
  if (ranges.Dim() > 0 && ranges.MinIndex() < 0)
    NNET3_INTERNAL_ERR << "AddRowRanges: negative range bound";
  backend().AddRowRanges(alpha, src.ConstView(), ranges.Data(), View());
}

// ---- columns through index vectors ----

void MatrixView::CopyCols(const MatrixView &src, const IndexVector &idx) {
  CheckShape("CopyCols", rows_ == src.rows_, *this, src);
  CheckDevice("CopyCols", *this, src);
  CheckIndexes("CopyCols", idx, cols_, src.cols_, *device_);
  backend().CopyCols(src.ConstView(), idx.Data(), View());
}

void MatrixView::AddCols(const MatrixView &src, const IndexVector &idx) {
  CheckShape("AddCols", rows_ == src.rows_, *this, src);
  CheckDevice("AddCols", *this, src);
  CheckIndexes("AddCols", idx, cols_, src.cols_, *device_);
  backend().AddCols(src.ConstView(), idx.Data(), View());
}

void MatrixView::EqualElementMask(const MatrixView &a, const MatrixView &b) {
  CheckShape("EqualElementMask", SameShape(a) && SameShape(b), a, b);
  CheckDevice("EqualElementMask", *this, a);
  CheckDevice("EqualElementMask", *this, b);
  backend().EqualElementMask(a.ConstView(), b.ConstView(), View());
}

// ---- rows through pointer lists ----

namespace {
void CheckPointers(const char *op, const RowPointers &p, int32_t rows,
                   const Device &device) {
  if (p.Dim() != rows)
    NNET3_INTERNAL_ERR << op << ": pointer list has " << p.Dim()
                       << " entries, expected " << rows;
  if (&p.device() != &device)
    NNET3_INTERNAL_ERR << op << ": pointer list is on another device";
}
}  // namespace

void MatrixView::CopyRows(const RowPointers &src_rows) {
  CheckPointers("CopyRows", src_rows, rows_, *device_);
  backend().CopyRowsFromPtrs(1.0f, src_rows.Data(), View());
}

void MatrixView::AddRows(float alpha, const RowPointers &src_rows) {
  CheckPointers("AddRows", src_rows, rows_, *device_);
  backend().AddRowsFromPtrs(alpha, src_rows.Data(), View());
}

void MatrixView::CopyToRows(const RowPointers &dst_rows) const {
  CheckPointers("CopyToRows", dst_rows, rows_, *device_);
  backend().CopyToRowPtrs(ConstView(), dst_rows.Data());
}

void MatrixView::AddToRows(float alpha, const RowPointers &dst_rows) const {
  CheckPointers("AddToRows", dst_rows, rows_, *device_);
  backend().AddToRowPtrs(alpha, ConstView(), dst_rows.Data());
}

// ---- vectors against matrices ----

void MatrixView::AddVecToRows(float alpha, const VectorView &v) {
  CheckShape("AddVecToRows", v.Dim() == cols_, *this, v.AsRowMatrix());
  CheckDevice("AddVecToRows", *this, v.AsRowMatrix());
  backend().AddVecToRows(alpha, v.ConstView(), View());
}

void MatrixView::AddVecToCols(float alpha, const VectorView &v) {
  CheckShape("AddVecToCols", v.Dim() == rows_, *this, v.AsRowMatrix());
  CheckDevice("AddVecToCols", *this, v.AsRowMatrix());
  backend().AddVecToCols(alpha, v.ConstView(), View());
}

void MatrixView::MulColsVec(const VectorView &v) {
  CheckShape("MulColsVec", v.Dim() == cols_, *this, v.AsRowMatrix());
  CheckDevice("MulColsVec", *this, v.AsRowMatrix());
  backend().MulColsVec(v.ConstView(), View());
}

void MatrixView::ScaleOffsetCols(bool rectify, const VectorView &scale,
                                 const VectorView &offset,
                                 const MatrixView &in) {
  CheckShape("ScaleOffsetCols", in.SameShape(*this), *this, in);
  CheckShape("ScaleOffsetCols", scale.Dim() == cols_ && offset.Dim() == cols_,
             *this, scale.AsRowMatrix());
  CheckDevice("ScaleOffsetCols", *this, in);
  CheckDevice("ScaleOffsetCols", *this, scale.AsRowMatrix());
  backend().ScaleOffsetCols(rectify, scale.ConstView(), offset.ConstView(),
                            in.ConstView(), View());
}

void MatrixView::MulRowsVec(const VectorView &v) {
  CheckShape("MulRowsVec", v.Dim() == rows_, *this, v.AsRowMatrix());
  CheckDevice("MulRowsVec", *this, v.AsRowMatrix());
  backend().MulRowsVec(v.ConstView(), View());
}

void MatrixView::CopyRowsFromVec(const VectorView &v) {
  MatrixView vm = v.AsRowMatrix();
  CheckDevice("CopyRowsFromVec", *this, vm);
  if (v.Dim() == cols_ && rows_ != 1) {
    SetZero();
    backend().AddVecToRows(1.0f, v.ConstView(), View());
    return;
  }
  CheckShape("CopyRowsFromVec",
             static_cast<int64_t>(v.Dim()) == int64_t(rows_) * cols_, *this,
             vm);
  if (IsEmpty()) return;
  backend().CopyMat(1.0f, ConstMatView(v.Data(), rows_, cols_, cols_),
                    Trans::kNo, View());
}

void MatrixView::CopyColFromVec(const VectorView &v, int32_t col) {
  CheckShape("CopyColFromVec", v.Dim() == rows_ && col >= 0 && col < cols_,
             *this, v.AsRowMatrix());
  CheckDevice("CopyColFromVec", *this, v.AsRowMatrix());
  // The column is a rows x 1 view; the vector transposed is rows x 1.
  backend().CopyMat(1.0f, v.ConstView(), Trans::kYes, ColRange(col, 1).View());
}

// ---- reductions ----

double MatrixView::Sum() const { return backend().Sum(ConstView()); }
float MatrixView::Max() const { return backend().Max(ConstView()); }
float MatrixView::Min() const { return backend().Min(ConstView()); }

double MatrixView::FrobeniusNorm() const {
  return std::sqrt(backend().DotProduct(ConstView(), ConstView()));
}

bool MatrixView::IsFinite() const {
  // A sum in double of finite floats stays finite; any inf or NaN poisons it.
  return std::isfinite(Sum());
}

double TraceMatMat(const MatrixView &a, const MatrixView &b, Trans trans) {
  if (trans == Trans::kYes) return DotProduct(a, b);
  if (a.NumRows() != b.NumCols() || a.NumCols() != b.NumRows())
    NNET3_INTERNAL_ERR << "TraceMatMat: dimension mismatch " << a.NumRows()
                       << " x " << a.NumCols() << " vs " << b.NumRows() << " x "
                       << b.NumCols();
  CheckDevice("TraceMatMat", a, b);
  Matrix bt(b, Trans::kYes);
  return a.backend().DotProduct(a.ConstView(), bt.ConstView());
}

double DotProduct(const MatrixView &a, const MatrixView &b) {
  CheckShape("DotProduct",
             a.NumRows() == b.NumRows() && a.NumCols() == b.NumCols(), a, b);
  CheckDevice("DotProduct", a, b);
  return a.backend().DotProduct(a.ConstView(), b.ConstView());
}

// ---- host transfer ----

void MatrixView::CopyFromHost(const float *data, int32_t stride) {
  NNET3_ASSERT(stride >= cols_);
  if (IsEmpty()) return;
  backend().CopyFromHost2D(data, stride, View());
}

void MatrixView::CopyFromHost(const std::vector<float> &data) {
  if (static_cast<int64_t>(data.size()) != int64_t(rows_) * cols_)
    NNET3_INTERNAL_ERR << "CopyFromHost: " << data.size() << " values for a "
                       << rows_ << " x " << cols_ << " matrix";
  CopyFromHost(data.data(), cols_);
}

void MatrixView::CopyToHost(float *data, int32_t stride) const {
  NNET3_ASSERT(stride >= cols_);
  if (IsEmpty()) return;
  backend().CopyToHost2D(ConstView(), data, stride);
}

std::vector<float> MatrixView::ToHost() const {
  std::vector<float> host(static_cast<size_t>(rows_) * cols_);
  CopyToHost(host.data(), cols_);
  return host;
}

float MatrixView::Get(int32_t r, int32_t c) const {
  if (r < 0 || r >= rows_ || c < 0 || c >= cols_)
    NNET3_INTERNAL_ERR << "Get(" << r << ", " << c << ") out of range for "
                       << rows_ << " x " << cols_;
  float v;
  backend().CopyToHost(RowData(r) + c, &v, sizeof(float));
  return v;
}

void MatrixView::Set(int32_t r, int32_t c, float value) {
  if (r < 0 || r >= rows_ || c < 0 || c >= cols_)
    NNET3_INTERNAL_ERR << "Set(" << r << ", " << c << ") out of range for "
                       << rows_ << " x " << cols_;
  backend().CopyFromHost(&value, RowData(r) + c, sizeof(float));
}

bool MatrixView::ApproxEqual(const MatrixView &other, float tol) const {
  if (other.rows_ != rows_ || other.cols_ != cols_)
    NNET3_INTERNAL_ERR << "ApproxEqual: dimension mismatch " << rows_ << " x "
                       << cols_ << " vs " << other.rows_ << " x "
                       << other.cols_;
  Matrix diff(other, *device_);
  diff.AddMat(-1.0f, *this);
  return diff.FrobeniusNorm() <= static_cast<double>(tol) * FrobeniusNorm();
}

}  // namespace nnet3
