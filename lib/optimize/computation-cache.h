// ComputationCache: the least-recently-used map from ComputationRequest to
// compiled NnetComputation behind CachingOptimizingCompiler (Kaldi's
// ComputationCache; reference 8.2), and the serialized form of its entries.
//
//   ComputationCache cache(64);
//   std::shared_ptr<const NnetComputation> c = cache.Find(request);
//   if (c == nullptr) cache.Insert(request, Compile(request));
//
// Keys are compared with ComputationRequest::operator== and hashed with
// ComputationRequestHasher. Find() of a present request makes it the most
// recently used; Insert() beyond the capacity evicts the least recently used
// entries. Computations are handed out as shared pointers, so an evicted
// computation stays valid for whoever still holds it. Not thread-safe: the
// caching compiler serializes access with its mutex.
//
// Serialized entries (Kaldi's layout): <ComputationCacheSize> i
// <ComputationCache> followed by i pairs (<ComputationRequest> ...,
// <NnetComputation> ...). Entries are written least recently used first,
// so that inserting them in file order restores the LRU order.
#ifndef NNET3_OPTIMIZE_COMPUTATION_CACHE_H_
#define NNET3_OPTIMIZE_COMPUTATION_CACHE_H_

#include <cstdint>
#include <istream>
#include <list>
#include <memory>
#include <ostream>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compile/computation-request.h"
#include "compile/nnet-computation.h"

namespace nnet3 {

using CachedComputationPtr = std::shared_ptr<const NnetComputation>;
using ComputationCacheEntry =
    std::pair<ComputationRequest, CachedComputationPtr>;

class ComputationCache {
 public:
  // capacity >= 1 (InternalError otherwise; callers check user options).
  explicit ComputationCache(int32_t capacity);
  ComputationCache(const ComputationCache &) = delete;
  ComputationCache &operator=(const ComputationCache &) = delete;

  // The computation for `request` (made the most recently used), or null.
  CachedComputationPtr Find(const ComputationRequest &request);
  // Whether `request` is cached; does not change the LRU order.
  bool Contains(const ComputationRequest &request) const;
  // Inserts `request` (replacing an equal one) as the most recently used
  // and evicts least recently used entries beyond the capacity. Returns
  // how many were evicted.
  int32_t Insert(const ComputationRequest &request,
                 CachedComputationPtr computation);
  void Clear();

  int32_t Size() const { return static_cast<int32_t>(lru_.size()); }
  int32_t Capacity() const { return capacity_; }
  // The cached requests, most recently used first.
  std::vector<ComputationRequest> Requests() const;
  // Copies of the entries, least recently used first (the written order).
  std::vector<ComputationCacheEntry> Entries() const;

 private:
  struct Entry {
    std::unique_ptr<ComputationRequest> request;  // stable key address
    CachedComputationPtr computation;
  };
  using EntryList = std::list<Entry>;  // most recently used first

  int32_t capacity_;
  EntryList lru_;
  std::unordered_map<const ComputationRequest *, EntryList::iterator,
                     ComputationRequestHasher, ComputationRequestPtrEqual>
      map_;
};

// Writes <ComputationCacheSize> i <ComputationCache> and the pairs.
void WriteComputationCacheEntries(
    const std::vector<ComputationCacheEntry> &entries, std::ostream &os,
    bool binary);
// Reads what WriteComputationCacheEntries writes (the same order). Throws
// UserError on malformed input.
void ReadComputationCacheEntries(std::istream &is, bool binary,
                                 std::vector<ComputationCacheEntry> *entries);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_COMPUTATION_CACHE_H_
