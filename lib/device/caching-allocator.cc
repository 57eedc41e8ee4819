#include "device/caching-allocator.h"

#include <algorithm>
#include <iterator>

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
  size_t block = size;
  auto it = by_size_.lower_bound(size);
  if (it != by_size_.end() &&
      static_cast<double>(it->first) <= kMaxSlack * static_cast<double>(size)) {
    block = it->first;
    ptr = it->second->ptr;
    lru_.erase(it->second);
    by_size_.erase(it);
    bytes_cached_ -= block;
  } else {
    // Make room first: the blocks held stay within the limit.
    EvictToLimitLocked(size);
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
  in_use_[ptr] = Block{size, block};
  bytes_in_use_ += block;
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
  if (it->second.requested != size)
    NNET3_INTERNAL_ERR << "CachingAllocator::Free with " << bytes
                       << " bytes of a block allocated as "
                       << it->second.requested;
  const size_t block = it->second.size;
  in_use_.erase(it);
  bytes_in_use_ -= block;
  lru_.push_back(Cached{ptr, block});
  by_size_.emplace(block, std::prev(lru_.end()));
  bytes_cached_ += block;
  EvictToLimitLocked(0);
}

void CachingAllocator::EvictToLimitLocked(size_t new_bytes) {
  const size_t in_use = bytes_in_use_ + new_bytes;
  const size_t limit = std::max(
      std::max(static_cast<size_t>(kCacheLimitFactor *
                                   static_cast<double>(peak_bytes_in_use_)),
               in_use),
      kMinCacheLimit);
  EvictLocked(limit - in_use);
}

void CachingAllocator::EvictLocked(size_t max_bytes) {
  while (bytes_cached_ > max_bytes && !lru_.empty()) {
    const Cached oldest = lru_.front();
    auto range = by_size_.equal_range(oldest.size);
    for (auto it = range.first; it != range.second; ++it) {
      if (it->second == lru_.begin()) {
        by_size_.erase(it);
        break;
      }
    }
    lru_.pop_front();
    bytes_cached_ -= oldest.size;
    backend_.Free(oldest.ptr);
  }
}

void CachingAllocator::ReleaseCached() {
  std::lock_guard<std::mutex> lock(mutex_);
  ReleaseCachedLocked();
}

void CachingAllocator::ReleaseCachedLocked() { EvictLocked(0); }

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
