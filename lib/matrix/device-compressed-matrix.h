// DeviceCompressedMatrix: Kaldi's CuCompressedMatrix — a matrix held on its
// device as 8- or 16-bit integers, which the executor keeps in place of a
// float matrix between the forward pass that computed it and the backprop
// that reads it (kCompressMatrix / kDecompressMatrix). It is not the
// CompressedMatrix of feature archives (compressed-matrix.h).
//
//   DeviceCompressedMatrix packed;
//   packed.CopyFromMat(m, CompressedType::kUint8, 0.0f);  // keeps m > 0
//   m.Resize(0, 0);                                       // frees the floats
//   ...
//   m.Resize(packed.NumRows(), packed.NumCols(), ResizeType::kUndefined);
//   packed.CopyToMat(&m);
//   packed.Clear();
//
// The quantization is Backend::CompressMat's (device/backend.h), exactly
// Kaldi's: with range r > 0 a value becomes the nearest multiple of
// r / (the type's largest value), clamped to the type's limits; with range
// 0 (uint8 only) a value becomes 1 if it is positive, else 0. The packed
// elements take NumRows() * NumCols() * CompressedTypeBytes(type) bytes of
// the device's caching allocator, no padding. Move-only.
#ifndef NNET3_MATRIX_DEVICE_COMPRESSED_MATRIX_H_
#define NNET3_MATRIX_DEVICE_COMPRESSED_MATRIX_H_

#include <cstddef>
#include <cstdint>

#include "device/device.h"
#include "matrix/matrix.h"

namespace nnet3 {

class DeviceCompressedMatrix {
 public:
  DeviceCompressedMatrix() = default;
  DeviceCompressedMatrix(const DeviceCompressedMatrix &) = delete;
  DeviceCompressedMatrix &operator=(const DeviceCompressedMatrix &) = delete;
  DeviceCompressedMatrix(DeviceCompressedMatrix &&other) noexcept;
  DeviceCompressedMatrix &operator=(DeviceCompressedMatrix &&other) noexcept;
  ~DeviceCompressedMatrix() { Clear(); }

  // Replaces the contents with `src` compressed, on src's device. Range 0
  // with another type than kUint8, or a negative range, is an
  // InternalError (as in Kaldi).
  void CopyFromMat(const MatrixView &src, CompressedType type, float range);
  // Writes the decompressed values into `dst`, which must have this shape
  // and live on this device (InternalError otherwise).
  void CopyToMat(MatrixView *dst) const;
  // Frees the packed elements.
  void Clear();

  int32_t NumRows() const { return rows_; }
  int32_t NumCols() const { return cols_; }
  bool IsEmpty() const { return rows_ == 0 || cols_ == 0; }
  // The device bytes held.
  size_t Bytes() const;

 private:
  Device *device_ = nullptr;
  void *data_ = nullptr;
  int32_t rows_ = 0, cols_ = 0;
  CompressedType type_ = CompressedType::kUint8;
  float range_ = 0.0f;
};

}  // namespace nnet3

#endif  // NNET3_MATRIX_DEVICE_COMPRESSED_MATRIX_H_
