// Device-resident arrays that the Backend's row primitives take as
// arguments: IndexVector (int32 row indexes, or [begin, end) row ranges) and
// RowPointers (one device float pointer per row).
//
//   IndexVector idx(std::vector<int32_t>{3, -1, 0});   // on ActiveDevice()
//   dst.CopyRows(src, idx);                            // matrix/matrix.h
//
// The memory comes from the Device's caching allocator and is never
// dereferenced on the host; the host copy is given once, at construction (or
// CopyFromVec). IndexVector remembers the smallest and largest index it
// holds so that matrix operations can refuse out-of-range indexes before the
// backend reads memory it does not own. Copies are deep and stay on the
// source's device.
#ifndef NNET3_MATRIX_DEVICE_ARRAY_H_
#define NNET3_MATRIX_DEVICE_ARRAY_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "base/error.h"
#include "device/device.h"

namespace nnet3 {

// An owning array of trivially copyable T in device memory.
template <class T>
class DeviceArray {
 public:
  // An empty array on ActiveDevice().
  DeviceArray() : device_(&ActiveDevice()) {}
  explicit DeviceArray(Device &device) : device_(&device) {}
  explicit DeviceArray(const std::vector<T> &host,
                       Device &device = ActiveDevice())
      : device_(&device) {
    CopyFromVec(host);
  }
  DeviceArray(const DeviceArray &other) : device_(other.device_) {
    CopyFromVec(other.ToHost());
  }
  DeviceArray(DeviceArray &&other) noexcept
      : device_(other.device_), data_(other.data_), dim_(other.dim_) {
    other.data_ = nullptr;
    other.dim_ = 0;
  }
  DeviceArray &operator=(const DeviceArray &other) {
    if (this != &other) {
      Release();
      device_ = other.device_;
      CopyFromVec(other.ToHost());
    }
    return *this;
  }
  DeviceArray &operator=(DeviceArray &&other) noexcept {
    if (this != &other) {
      Release();
      device_ = other.device_;
      data_ = other.data_;
      dim_ = other.dim_;
      other.data_ = nullptr;
      other.dim_ = 0;
    }
    return *this;
  }
  ~DeviceArray() { Release(); }

  // Replaces the contents with `host` (reallocating when the size changes).
  void CopyFromVec(const std::vector<T> &host) {
    if (static_cast<int64_t>(host.size()) != dim_) {
      Release();
      if (host.size() > static_cast<size_t>(INT32_MAX))
        NNET3_INTERNAL_ERR << "DeviceArray: too many elements (" << host.size()
                           << ")";
      dim_ = static_cast<int32_t>(host.size());
      if (dim_ > 0) data_ = static_cast<T *>(device_->Allocate(Bytes()));
    }
    if (dim_ > 0) device_->backend().CopyFromHost(host.data(), data_, Bytes());
  }
  std::vector<T> ToHost() const {
    std::vector<T> host(dim_);
    if (dim_ > 0) device_->backend().CopyToHost(data_, host.data(), Bytes());
    return host;
  }

  int32_t Dim() const { return dim_; }
  // Device pointer: pass it to Backend primitives, never dereference it.
  T *Data() const { return data_; }
  Device &device() const { return *device_; }

 private:
  size_t Bytes() const { return sizeof(T) * static_cast<size_t>(dim_); }
  void Release() {
    if (data_ != nullptr) device_->Free(data_, Bytes());
    data_ = nullptr;
    dim_ = 0;
  }

  Device *device_;
  T *data_ = nullptr;
  int32_t dim_ = 0;
};

// Row indexes for CopyRows / AddRows / CopyToRows / AddToRows (-1 means "no
// row"), or flattened [begin, end) pairs for AddRowRanges.
class IndexVector : public DeviceArray<int32_t> {
 public:
  IndexVector() = default;
  explicit IndexVector(const std::vector<int32_t> &indexes,
                       Device &device = ActiveDevice());
  // [begin, end) row ranges for AddRowRanges, flattened into
  // 2 * ranges.size() entries.
  static IndexVector FromRanges(
      const std::vector<std::pair<int32_t, int32_t>> &ranges,
      Device &device = ActiveDevice());
  void CopyFromVec(const std::vector<int32_t> &indexes);
  // Smallest / largest entry (0 / -1 for an empty vector).
  int32_t MinIndex() const { return min_; }
  int32_t MaxIndex() const { return max_; }

 private:
  int32_t min_ = 0, max_ = -1;
};

// One device row pointer per destination (or source) row; nullptr means "no
// row". Build it from MatrixView::RowData().
class RowPointers : public DeviceArray<float *> {
 public:
  using DeviceArray<float *>::DeviceArray;
};

}  // namespace nnet3

#endif  // NNET3_MATRIX_DEVICE_ARRAY_H_
