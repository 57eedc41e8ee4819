// Matrix: memory management (Device::Allocate / Free through the caching
// allocator), resizing, and the Kaldi binary / text I/O of matrices.
#include <algorithm>
#include <string>
#include <utility>

#include "base/error.h"
#include "base/io-funcs.h"
#include "matrix/compressed-matrix.h"
#include "matrix/matrix-io.h"
#include "matrix/matrix.h"

namespace nnet3 {

namespace {

int32_t ComputeStride(int32_t cols, MatrixStrideType stride_type) {
  if (stride_type == MatrixStrideType::kStrideEqualNumCols || cols == 0)
    return cols;
  int64_t stride = (static_cast<int64_t>(cols) + 3) / 4 * 4;
  return stride > INT32_MAX ? cols : static_cast<int32_t>(stride);
}

}  // namespace

Matrix::Matrix() : MatrixView() {}

Matrix::Matrix(Device &device) : MatrixView(device, nullptr, 0, 0, 0) {}

Matrix::Matrix(int32_t rows, int32_t cols, ResizeType resize_type,
               Device &device)
    : MatrixView(device, nullptr, 0, 0, 0) {
  Resize(rows, cols, resize_type);
}

Matrix::Matrix(int32_t rows, int32_t cols, ResizeType resize_type,
               MatrixStrideType stride_type, Device &device)
    : MatrixView(device, nullptr, 0, 0, 0) {
  Resize(rows, cols, resize_type, stride_type);
}

Matrix::Matrix(const MatrixView &src, Trans trans)
    : MatrixView(src.device(), nullptr, 0, 0, 0) {
  bool t = trans == Trans::kYes;
  Resize(t ? src.NumCols() : src.NumRows(), t ? src.NumRows() : src.NumCols(),
         ResizeType::kUndefined);
  CopyFromMat(src, trans);
}

Matrix::Matrix(const MatrixView &src, Device &device)
    : MatrixView(device, nullptr, 0, 0, 0) {
  Resize(src.NumRows(), src.NumCols(), ResizeType::kUndefined);
  CopyFromMat(src);
}

Matrix::Matrix(const Matrix &other)
    : MatrixView(other.device(), nullptr, 0, 0, 0) {
  Resize(other.rows_, other.cols_, ResizeType::kUndefined, other.stride_type_);
  CopyFromMat(other);
}

Matrix::Matrix(Matrix &&other) noexcept
    : MatrixView(other),
      bytes_(other.bytes_),
      stride_type_(other.stride_type_) {
  other.data_ = nullptr;
  other.rows_ = other.cols_ = other.stride_ = 0;
  other.bytes_ = 0;
}

Matrix &Matrix::operator=(const Matrix &other) {
  if (this == &other) return *this;
  if (device_ != other.device_) {
    Release();
    device_ = other.device_;
  }
  Resize(other.rows_, other.cols_, ResizeType::kUndefined, other.stride_type_);
  CopyFromMat(other);
  return *this;
}

Matrix &Matrix::operator=(Matrix &&other) noexcept {
  if (this == &other) return *this;
  Matrix tmp(std::move(other));
  Swap(&tmp);
  return *this;
}

Matrix::~Matrix() { Release(); }

void Matrix::Release() {
  if (data_ != nullptr) device_->Free(data_, bytes_);
  data_ = nullptr;
  rows_ = cols_ = stride_ = 0;
  bytes_ = 0;
}

void Matrix::Resize(int32_t rows, int32_t cols, ResizeType resize_type,
                    MatrixStrideType stride_type) {
  if (rows < 0 || cols < 0)
    NNET3_INTERNAL_ERR << "Matrix::Resize to " << rows << " x " << cols;
  if (rows == rows_ && cols == cols_ && stride_type == stride_type_) {
    if (resize_type == ResizeType::kSetZero) SetZero();
    return;
  }
  if (resize_type == ResizeType::kCopyData && !IsEmpty()) {
    bool grows = rows > rows_ || cols > cols_;
    Matrix tmp(rows, cols,
               grows ? ResizeType::kSetZero : ResizeType::kUndefined,
               stride_type, *device_);
    int32_t r = std::min(rows, rows_), c = std::min(cols, cols_);
    if (r > 0 && c > 0) {
      MatrixView dst = tmp.Range(0, r, 0, c);
      dst.CopyFromMat(Range(0, r, 0, c));
    }
    Swap(&tmp);
    return;
  }
  Release();
  int32_t stride = ComputeStride(cols, stride_type);
  size_t bytes =
      sizeof(float) * static_cast<size_t>(rows) * static_cast<size_t>(stride);
  if (bytes > 0) data_ = static_cast<float *>(device_->Allocate(bytes));
  rows_ = rows;
  cols_ = cols;
  stride_ = stride;
  bytes_ = bytes;
  stride_type_ = stride_type;
  if (resize_type != ResizeType::kUndefined) SetZero();
}

void Matrix::Swap(Matrix *other) {
  std::swap(device_, other->device_);
  std::swap(data_, other->data_);
  std::swap(rows_, other->rows_);
  std::swap(cols_, other->cols_);
  std::swap(stride_, other->stride_);
  std::swap(bytes_, other->bytes_);
  std::swap(stride_type_, other->stride_type_);
}

void MatrixView::Write(std::ostream &os, bool binary) const {
  // Host memory is written in place (an utterance's output can be tens of
  // MB: a copy would touch as many fresh pages again).
  if (!device().IsGpu()) {
    matrix_io::WriteMatrix(os, binary, data_, rows_, cols_, stride_);
    return;
  }
  std::vector<float> host = ToHost();
  matrix_io::WriteMatrix(os, binary, host.data(), rows_, cols_);
}

void Matrix::Read(std::istream &is, bool binary) {
  std::vector<float> host;
  int32_t rows = 0, cols = 0;
  if (!binary) {
    matrix_io::ReadTextMatrix(is, &rows, &cols, &host);
  } else if (is.peek() == 'C') {
    CompressedMatrix cmat;
    cmat.Read(is, binary);
    rows = cmat.NumRows();
    cols = cmat.NumCols();
    cmat.CopyToHost(&host);
  } else {
    std::string token = matrix_io::ReadBinaryToken(is, "FM or DM");
    if (token != "FM" && token != "DM")
      NNET3_ERR << "Expected token FM, DM, CM, CM2 or CM3 (a binary matrix) "
                << "but found '" << matrix_io::Printable(token) << "'";
    ReadBasicType(is, binary, &rows);
    ReadBasicType(is, binary, &cols);
    matrix_io::CheckReadSize(rows, cols, "matrix");
    matrix_io::ReadRawValues(is, int64_t(rows) * cols, token == "DM", "matrix",
                             &host);
  }
  Resize(rows, cols, ResizeType::kUndefined);
  if (!IsEmpty()) CopyFromHost(host.data(), cols);
}

}  // namespace nnet3
