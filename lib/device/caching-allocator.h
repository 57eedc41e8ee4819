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
// are kept in one free list per rounded size. A request takes the smallest
// cached block of at least its rounded size and at most kMaxSlack (1.5)
// times it (best fit; blocks are never split), so that matrices of nearby
// sizes share blocks. The blocks held (in use and cached) never exceed
// kCacheLimitFactor (1.25) times the peak of BytesInUse(), or
// kMinCacheLimit (64 MiB) if that is larger: a Free, or a new block from
// the backend, beyond that first gives the least recently freed blocks
// back to the backend. So a loop that allocates the same shapes every
// iteration keeps them all cached, while a loop over utterances of ever
// new lengths cannot make the memory held grow much beyond the peak it
// needs (before, a block per length stayed cached: GBs over an archive). The
// byte counters count block sizes. When the backend runs out of memory, the
// cached blocks are released and the allocation is tried once more. All member
// functions are thread-safe. The destructor returns the cached blocks to the
// backend; blocks still in use stay with their owners.
#ifndef NNET3_DEVICE_CACHING_ALLOCATOR_H_
#define NNET3_DEVICE_CACHING_ALLOCATOR_H_

#include <cstddef>
#include <list>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "device/backend.h"

namespace nnet3 {

class CachingAllocator {
 public:
  static constexpr size_t kGranularity = 256;
  // A cached block serves requests down to 1 / kMaxSlack of its size.
  static constexpr double kMaxSlack = 1.5;
  // The blocks held stay within this many times the peak in use ...
  static constexpr double kCacheLimitFactor = 1.25;
  // ... or within this, if larger.
  static constexpr size_t kMinCacheLimit = size_t{64} << 20;

  explicit CachingAllocator(Backend &backend) : backend_(backend) {}
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator &) = delete;
  CachingAllocator &operator=(const CachingAllocator &) = delete;

  // A block of at least `bytes` bytes (64-byte aligned); nullptr for 0.
  void *Allocate(size_t bytes);
  // Returns a block from Allocate(bytes) to the cache; nullptr is ignored.
  // A pointer this allocator did not hand out, or `bytes` of another size
  // class than at Allocate, is an InternalError.
  void Free(void *ptr, size_t bytes);
  // Gives every cached block back to the backend.
  void ReleaseCached();

  size_t NumBackendAllocations() const;  // calls to Backend::Allocate
  size_t NumAllocateCalls() const;       // calls to Allocate (bytes > 0)
  size_t BytesInUse() const;             // blocks handed out, not yet freed
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
  struct Block {
    size_t requested;  // the rounded size asked for
    size_t size;       // the block's size
  };
  struct Cached {
    void *ptr;
    size_t size;
  };
  using CachedList = std::list<Cached>;
  // Gives the least recently freed blocks back until the cache holds at
  // most `max_bytes`.
  void EvictLocked(size_t max_bytes);
  // Evicts down to the limit (see the file comment), counting `new_bytes`
  // about to be allocated as in use.
  void EvictToLimitLocked(size_t new_bytes);

  // The cached blocks, least recently freed first, and by size (best fit).
  CachedList lru_;
  std::multimap<size_t, CachedList::iterator> by_size_;
  // The blocks handed out.
  std::unordered_map<void *, Block> in_use_;
  size_t num_backend_allocations_ = 0;
  size_t num_allocate_calls_ = 0;
  size_t bytes_in_use_ = 0;
  size_t bytes_cached_ = 0;
  size_t peak_bytes_in_use_ = 0;
};

}  // namespace nnet3

#endif  // NNET3_DEVICE_CACHING_ALLOCATOR_H_
