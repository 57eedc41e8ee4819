// CachingAllocator: keeps freed device blocks for reuse, so that a training
// or inference loop that allocates and frees the same shapes every minibatch
// calls the backend's (slow, on GPU synchronizing) allocator only while it
// warms up.
//
//   CachingAllocator alloc(backend);
//   void *p = alloc.Allocate(bytes);   // nullptr for 0 bytes
//   alloc.Free(p, bytes);              // same byte count as Allocate
//
// Sizes are rounded up to a multiple of kGranularity (256) bytes and blocks
// are kept in one free list per rounded size, so a block is reused only for
// a request of the same rounded size (no splitting, no fragmentation of
// large blocks). The byte counters count rounded sizes. When the backend
// runs out of memory, the cached blocks are released and the allocation is
// tried once more. All member functions are thread-safe. The destructor
// returns the cached blocks to the backend; blocks still in use stay with
// their owners.
#ifndef NNET3_DEVICE_CACHING_ALLOCATOR_H_
#define NNET3_DEVICE_CACHING_ALLOCATOR_H_

#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "device/backend.h"

namespace nnet3 {

class CachingAllocator {
 public:
  static constexpr size_t kGranularity = 256;

  explicit CachingAllocator(Backend &backend) : backend_(backend) {}
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator &) = delete;
  CachingAllocator &operator=(const CachingAllocator &) = delete;

  // A block of at least `bytes` bytes (64-byte aligned); nullptr for 0.
  void *Allocate(size_t bytes);
  // Returns a block from Allocate(bytes) to the cache; nullptr is ignored.
  // A pointer this allocator did not hand out, or a different size class,
  // is an InternalError.
  void Free(void *ptr, size_t bytes);
  // Gives every cached block back to the backend.
  void ReleaseCached();

  size_t NumBackendAllocations() const;  // calls to Backend::Allocate
  size_t NumAllocateCalls() const;       // calls to Allocate (bytes > 0)
  size_t BytesInUse() const;             // handed out, not yet freed
  size_t BytesCached() const;            // freed, kept for reuse
  size_t PeakBytesInUse() const;         // highest BytesInUse so far

  // The size class of a request: bytes rounded up to kGranularity.
  static size_t RoundedSize(size_t bytes) {
    return (bytes + kGranularity - 1) / kGranularity * kGranularity;
  }

 private:
  void ReleaseCachedLocked();

  Backend &backend_;
  mutable std::mutex mutex_;
  // Rounded size -> cached blocks of that size.
  std::unordered_map<size_t, std::vector<void *>> free_lists_;
  // Block -> rounded size, for the blocks handed out.
  std::unordered_map<void *, size_t> in_use_;
  size_t num_backend_allocations_ = 0;
  size_t num_allocate_calls_ = 0;
  size_t bytes_in_use_ = 0;
  size_t bytes_cached_ = 0;
  size_t peak_bytes_in_use_ = 0;
};

}  // namespace nnet3

#endif  // NNET3_DEVICE_CACHING_ALLOCATOR_H_
