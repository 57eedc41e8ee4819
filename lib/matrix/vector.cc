#include "matrix/vector.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "base/error.h"
#include "base/io-funcs.h"
#include "matrix/matrix-checks.h"
#include "matrix/matrix-io.h"
#include "matrix/matrix.h"

namespace nnet3 {

using matrix_checks::CheckDevice;
using matrix_checks::CheckShape;

VectorView::VectorView() : device_(&ActiveDevice()) {}

VectorView::VectorView(Device &device, float *data, int32_t dim)
    : device_(&device), data_(data), dim_(dim) {
  NNET3_ASSERT(dim >= 0);
}

MatrixView VectorView::AsRowMatrix() const {
  return MatrixView(*device_, data_, 1, dim_, dim_);
}

MatrixView VectorView::AsMatrix(int32_t rows, int32_t cols) const {
  if (rows < 0 || cols < 0 || int64_t(rows) * cols != dim_)
    NNET3_INTERNAL_ERR << "VectorView::AsMatrix(" << rows << ", " << cols
                       << ") for a vector of dimension " << dim_;
  return MatrixView(*device_, data_, rows, cols, cols);
}

VectorView VectorView::Range(int32_t offset, int32_t dim) const {
  if (offset < 0 || dim < 0 || offset + dim > dim_)
    NNET3_INTERNAL_ERR << "VectorView::Range(" << offset << ", " << dim
                       << ") out of range for dimension " << dim_;
  return VectorView(*device_, data_ == nullptr ? nullptr : data_ + offset, dim);
}

void VectorView::SetZero() { backend().SetConst(View(), 0.0f); }
void VectorView::Set(float value) { backend().SetConst(View(), value); }
void VectorView::SetRandUniform(uint64_t seed) {
  backend().RandUniform(seed, View());
}
void VectorView::SetRandn(uint64_t seed) {
  backend().RandGaussian(seed, View());
}

void VectorView::CopyFromVec(const VectorView &src) {
  AsRowMatrix().CopyFromMat(src.AsRowMatrix());
}

void VectorView::AddVec(float alpha, const VectorView &v) {
  AsRowMatrix().AddMat(alpha, v.AsRowMatrix());
}

void VectorView::Scale(float alpha) { backend().Scale(alpha, View()); }
void VectorView::Add(float value) { backend().AddConst(value, View()); }
void VectorView::ApplyFunc(Func f) { backend().Apply(f, ConstView(), View()); }
void VectorView::ApplyPow(float power) {
  backend().ApplyPow(power, ConstView(), View());
}
void VectorView::Clamp(float lower, float upper) {
  backend().Clamp(lower, upper, ConstView(), View());
}
void VectorView::ApplyFloor(float floor) {
  Clamp(floor, std::numeric_limits<float>::infinity());
}
void VectorView::ApplyCeiling(float ceiling) {
  Clamp(-std::numeric_limits<float>::infinity(), ceiling);
}
void VectorView::MulElements(const VectorView &v) {
  AsRowMatrix().MulElements(v.AsRowMatrix());
}
void VectorView::DivElements(const VectorView &v) {
  AsRowMatrix().DivElements(v.AsRowMatrix());
}

void VectorView::AddRowSumMat(float alpha, const MatrixView &m, float beta) {
  CheckShape("AddRowSumMat", m.NumCols() == dim_, AsRowMatrix(), m);
  CheckDevice("AddRowSumMat", AsRowMatrix(), m);
  backend().AddRowSumToVec(alpha, m.ConstView(), beta, View());
}

void VectorView::AddColSumMat(float alpha, const MatrixView &m, float beta) {
  CheckShape("AddColSumMat", m.NumRows() == dim_, AsRowMatrix(), m);
  CheckDevice("AddColSumMat", AsRowMatrix(), m);
  backend().AddColSumToVec(alpha, m.ConstView(), beta, View());
}

void VectorView::AddMatVec(float alpha, const MatrixView &m, Trans trans,
                           const VectorView &v, float beta) {
  // As row vectors: this = alpha * v op(m)^T + beta * this.
  Trans t = trans == Trans::kYes ? Trans::kNo : Trans::kYes;
  AsRowMatrix().AddMatMat(alpha, v.AsRowMatrix(), Trans::kNo, m, t, beta);
}

void VectorView::AddDiagMatMat(float alpha, const MatrixView &a,
                               const MatrixView &b, float beta) {
  CheckShape("AddDiagMatMat", a.SameShape(b) && a.NumRows() == dim_, a, b);
  CheckDevice("AddDiagMatMat", a, b);
  CheckDevice("AddDiagMatMat", AsRowMatrix(), a);
  backend().AddRowDotProducts(alpha, a.ConstView(), b.ConstView(), beta,
                              View());
}

void VectorView::CopyRowsFromMat(const MatrixView &m) {
  CheckShape("CopyRowsFromMat", int64_t(m.NumRows()) * m.NumCols() == dim_,
             AsRowMatrix(), m);
  if (dim_ == 0) return;
  AsMatrix(m.NumRows(), m.NumCols()).CopyFromMat(m);
}

void VectorView::CopyColFromMat(const MatrixView &m, int32_t col) {
  CheckShape("CopyColFromMat",
             m.NumRows() == dim_ && col >= 0 && col < m.NumCols(),
             AsRowMatrix(), m);
  AsRowMatrix().CopyFromMat(m.ColRange(col, 1), Trans::kYes);
}

double VectorView::Sum() const { return backend().Sum(ConstView()); }
float VectorView::Max() const { return backend().Max(ConstView()); }
float VectorView::Min() const { return backend().Min(ConstView()); }
double VectorView::Norm2() const {
  return std::sqrt(backend().DotProduct(ConstView(), ConstView()));
}

double VecVec(const VectorView &a, const VectorView &b) {
  return DotProduct(a.AsRowMatrix(), b.AsRowMatrix());
}

void VectorView::CopyFromHost(const float *data) {
  if (dim_ > 0)
    backend().CopyFromHost(data, data_, sizeof(float) * size_t(dim_));
}

void VectorView::CopyFromHost(const std::vector<float> &data) {
  if (static_cast<int64_t>(data.size()) != dim_)
    NNET3_INTERNAL_ERR << "VectorView::CopyFromHost: " << data.size()
                       << " values for dimension " << dim_;
  CopyFromHost(data.data());
}

void VectorView::CopyToHost(float *data) const {
  if (dim_ > 0) backend().CopyToHost(data_, data, sizeof(float) * size_t(dim_));
}

std::vector<float> VectorView::ToHost() const {
  std::vector<float> host(dim_);
  CopyToHost(host.data());
  return host;
}

float VectorView::Get(int32_t i) const {
  if (i < 0 || i >= dim_)
    NNET3_INTERNAL_ERR << "VectorView::Get(" << i << ") out of range for "
                       << dim_;
  float v;
  backend().CopyToHost(data_ + i, &v, sizeof(float));
  return v;
}

void VectorView::Set(int32_t i, float value) {
  if (i < 0 || i >= dim_)
    NNET3_INTERNAL_ERR << "VectorView::Set(" << i << ") out of range for "
                       << dim_;
  backend().CopyFromHost(&value, data_ + i, sizeof(float));
}

bool VectorView::ApproxEqual(const VectorView &other, float tol) const {
  return AsRowMatrix().ApproxEqual(other.AsRowMatrix(), tol);
}

void VectorView::Write(std::ostream &os, bool binary) const {
  std::vector<float> host = ToHost();
  matrix_io::WriteVector(os, binary, host.data(), dim_);
}

// ---- Vector ----

Vector::Vector() : VectorView() {}

Vector::Vector(Device &device) : VectorView(device, nullptr, 0) {}

Vector::Vector(int32_t dim, ResizeType resize_type, Device &device)
    : VectorView(device, nullptr, 0) {
  Resize(dim, resize_type);
}

Vector::Vector(const VectorView &src) : VectorView(src.device(), nullptr, 0) {
  Resize(src.Dim(), ResizeType::kUndefined);
  CopyFromVec(src);
}

Vector::Vector(const VectorView &src, Device &device)
    : VectorView(device, nullptr, 0) {
  Resize(src.Dim(), ResizeType::kUndefined);
  CopyFromVec(src);
}

Vector::Vector(const std::vector<float> &data, Device &device)
    : VectorView(device, nullptr, 0) {
  if (data.size() > static_cast<size_t>(INT32_MAX))
    NNET3_INTERNAL_ERR << "Vector: too many elements (" << data.size() << ")";
  Resize(static_cast<int32_t>(data.size()), ResizeType::kUndefined);
  CopyFromHost(data);
}

Vector::Vector(const Vector &other) : VectorView(other.device(), nullptr, 0) {
  Resize(other.dim_, ResizeType::kUndefined);
  CopyFromVec(other);
}

Vector::Vector(Vector &&other) noexcept : VectorView(other) {
  other.data_ = nullptr;
  other.dim_ = 0;
}

Vector &Vector::operator=(const Vector &other) {
  if (this == &other) return *this;
  if (device_ != other.device_) {
    Release();
    device_ = other.device_;
  }
  Resize(other.dim_, ResizeType::kUndefined);
  CopyFromVec(other);
  return *this;
}

Vector &Vector::operator=(Vector &&other) noexcept {
  if (this == &other) return *this;
  Vector tmp(std::move(other));
  Swap(&tmp);
  return *this;
}

Vector::~Vector() { Release(); }

void Vector::Release() {
  if (data_ != nullptr) device_->Free(data_, sizeof(float) * size_t(dim_));
  data_ = nullptr;
  dim_ = 0;
}

void Vector::Resize(int32_t dim, ResizeType resize_type) {
  if (dim < 0) NNET3_INTERNAL_ERR << "Vector::Resize to " << dim;
  if (dim == dim_) {
    if (resize_type == ResizeType::kSetZero) SetZero();
    return;
  }
  if (resize_type == ResizeType::kCopyData && dim_ > 0) {
    Vector tmp(dim, ResizeType::kSetZero, *device_);
    int32_t n = std::min(dim, dim_);
    tmp.Range(0, n).CopyFromVec(Range(0, n));
    Swap(&tmp);
    return;
  }
  Release();
  if (dim > 0)
    data_ =
        static_cast<float *>(device_->Allocate(sizeof(float) * size_t(dim)));
  dim_ = dim;
  if (resize_type != ResizeType::kUndefined) SetZero();
}

void Vector::Swap(Vector *other) {
  std::swap(device_, other->device_);
  std::swap(data_, other->data_);
  std::swap(dim_, other->dim_);
}

void Vector::Read(std::istream &is, bool binary) {
  std::vector<float> host;
  if (binary) {
    std::string token = matrix_io::ReadBinaryToken(is, "FV or DV");
    if (token != "FV" && token != "DV")
      NNET3_ERR << "Expected token FV or DV (a binary vector) but found '"
                << matrix_io::Printable(token) << "'";
    int32_t dim;
    ReadBasicType(is, binary, &dim);
    matrix_io::CheckReadSize(1, dim, "vector");
    matrix_io::ReadRawValues(is, dim, token == "DV", "vector", &host);
  } else {
    matrix_io::ReadTextVector(is, &host);
  }
  Resize(static_cast<int32_t>(host.size()), ResizeType::kUndefined);
  CopyFromHost(host);
}

}  // namespace nnet3
