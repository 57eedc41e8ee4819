#include "matrix/device-compressed-matrix.h"

#include <utility>

#include "base/error.h"

namespace nnet3 {

DeviceCompressedMatrix::DeviceCompressedMatrix(
    DeviceCompressedMatrix &&other) noexcept
    : device_(other.device_),
      data_(other.data_),
      rows_(other.rows_),
      cols_(other.cols_),
      type_(other.type_),
      range_(other.range_) {
  other.data_ = nullptr;
  other.rows_ = other.cols_ = 0;
}

DeviceCompressedMatrix &DeviceCompressedMatrix::operator=(
    DeviceCompressedMatrix &&other) noexcept {
  if (this != &other) {
    Clear();
    std::swap(device_, other.device_);
    std::swap(data_, other.data_);
    std::swap(rows_, other.rows_);
    std::swap(cols_, other.cols_);
    std::swap(type_, other.type_);
    std::swap(range_, other.range_);
  }
  return *this;
}

size_t DeviceCompressedMatrix::Bytes() const {
  return static_cast<size_t>(rows_) * static_cast<size_t>(cols_) *
         CompressedTypeBytes(type_);
}

void DeviceCompressedMatrix::Clear() {
  if (data_ != nullptr) device_->Free(data_, Bytes());
  data_ = nullptr;
  rows_ = cols_ = 0;
}

void DeviceCompressedMatrix::CopyFromMat(const MatrixView &src,
                                         CompressedType type, float range) {
  if (range < 0.0f || (range == 0.0f && type != CompressedType::kUint8))
    NNET3_INTERNAL_ERR << "DeviceCompressedMatrix: range " << range
                       << " is invalid for type " << static_cast<int32_t>(type);
  Clear();
  device_ = &src.device();
  rows_ = src.NumRows();
  cols_ = src.NumCols();
  type_ = type;
  range_ = range;
  if (Bytes() > 0) data_ = device_->Allocate(Bytes());
  device_->backend().CompressMat(src.ConstView(), type, range, data_);
}

void DeviceCompressedMatrix::CopyToMat(MatrixView *dst) const {
  NNET3_ASSERT(dst->NumRows() == rows_ && dst->NumCols() == cols_);
  if (IsEmpty()) return;
  NNET3_ASSERT(&dst->device() == device_);
  device_->backend().DecompressMat(data_, type_, range_, dst->View());
}

}  // namespace nnet3
