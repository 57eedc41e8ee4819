#include "device/caching-allocator.h"

#include <algorithm>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

CachingAllocator::~CachingAllocator() {
  std::lock_guard<std::mutex> lock(mutex_);
  ReleaseCachedLocked();
}

void *CachingAllocator::Allocate(size_t bytes) {
  if (bytes == 0) return nullptr;
  const size_t size = RoundedSize(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  num_allocate_calls_++;
  void *ptr = nullptr;
  auto it = free_lists_.find(size);
  if (it != free_lists_.end() && !it->second.empty()) {
    ptr = it->second.back();
    it->second.pop_back();
    bytes_cached_ -= size;
  } else {
    try {
      ptr = backend_.Allocate(size);
    } catch (const UserError &) {
      // Out of memory: the cache may hold enough in other size classes.
      if (bytes_cached_ == 0) throw;
      NNET3_VLOG(1) << "Releasing " << bytes_cached_
                    << " cached bytes and retrying an allocation of " << size;
      ReleaseCachedLocked();
      ptr = backend_.Allocate(size);
    }
    num_backend_allocations_++;
  }
  in_use_[ptr] = size;
  bytes_in_use_ += size;
  peak_bytes_in_use_ = std::max(peak_bytes_in_use_, bytes_in_use_);
  return ptr;
}

void CachingAllocator::Free(void *ptr, size_t bytes) {
  if (ptr == nullptr) return;
  const size_t size = RoundedSize(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = in_use_.find(ptr);
  if (it == in_use_.end())
    NNET3_INTERNAL_ERR << "CachingAllocator::Free of a pointer that is not "
                       << "in use (double free, or not from this allocator)";
  if (it->second != size)
    NNET3_INTERNAL_ERR << "CachingAllocator::Free with " << bytes
                       << " bytes of a block allocated as " << it->second;
  in_use_.erase(it);
  bytes_in_use_ -= size;
  free_lists_[size].push_back(ptr);
  bytes_cached_ += size;
}

void CachingAllocator::ReleaseCached() {
  std::lock_guard<std::mutex> lock(mutex_);
  ReleaseCachedLocked();
}

void CachingAllocator::ReleaseCachedLocked() {
  for (auto &entry : free_lists_)
    for (void *ptr : entry.second) backend_.Free(ptr);
  free_lists_.clear();
  bytes_cached_ = 0;
}

size_t CachingAllocator::NumBackendAllocations() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return num_backend_allocations_;
}

size_t CachingAllocator::NumAllocateCalls() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return num_allocate_calls_;
}

size_t CachingAllocator::BytesInUse() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_in_use_;
}

size_t CachingAllocator::BytesCached() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_cached_;
}

size_t CachingAllocator::PeakBytesInUse() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return peak_bytes_in_use_;
}

}  // namespace nnet3
