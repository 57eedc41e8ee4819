#include "optimize/computation-cache.h"

#include "base/error.h"
#include "base/io-funcs.h"

namespace nnet3 {

ComputationCache::ComputationCache(int32_t capacity) : capacity_(capacity) {
  NNET3_ASSERT(capacity >= 1);
}

CachedComputationPtr ComputationCache::Find(const ComputationRequest &request) {
  auto it = map_.find(&request);
  if (it == map_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->computation;
}

bool ComputationCache::Contains(const ComputationRequest &request) const {
  return map_.count(&request) != 0;
}

int32_t ComputationCache::Insert(const ComputationRequest &request,
                                 CachedComputationPtr computation) {
  NNET3_ASSERT(computation != nullptr);
  auto it = map_.find(&request);
  if (it != map_.end()) {
    it->second->computation = std::move(computation);
    lru_.splice(lru_.begin(), lru_, it->second);
    return 0;
  }
  lru_.push_front(Entry{std::make_unique<ComputationRequest>(request),
                        std::move(computation)});
  map_[lru_.front().request.get()] = lru_.begin();
  int32_t num_evicted = 0;
  while (static_cast<int32_t>(lru_.size()) > capacity_) {
    map_.erase(lru_.back().request.get());
    lru_.pop_back();
    num_evicted++;
  }
  return num_evicted;
}

void ComputationCache::Clear() {
  map_.clear();
  lru_.clear();
}

std::vector<ComputationRequest> ComputationCache::Requests() const {
  std::vector<ComputationRequest> ans;
  ans.reserve(lru_.size());
  for (const Entry &e : lru_) ans.push_back(*e.request);
  return ans;
}

std::vector<ComputationCacheEntry> ComputationCache::Entries() const {
  std::vector<ComputationCacheEntry> ans;
  ans.reserve(lru_.size());
  for (auto it = lru_.rbegin(); it != lru_.rend(); ++it)
    ans.emplace_back(*it->request, it->computation);
  return ans;
}

void WriteComputationCacheEntries(
    const std::vector<ComputationCacheEntry> &entries, std::ostream &os,
    bool binary) {
  WriteToken(os, binary, "<ComputationCacheSize>");
  WriteBasicType(os, binary, static_cast<int32_t>(entries.size()));
  WriteToken(os, binary, "<ComputationCache>");
  for (const ComputationCacheEntry &e : entries) {
    e.first.Write(os, binary);
    e.second->Write(os, binary);
  }
}

void ReadComputationCacheEntries(std::istream &is, bool binary,
                                 std::vector<ComputationCacheEntry> *entries) {
  ExpectToken(is, binary, "<ComputationCacheSize>");
  int32_t size = 0;
  ReadBasicType(is, binary, &size);
  if (size < 0)
    NNET3_ERR << "Reading a computation cache: <ComputationCacheSize> is "
              << size << " (expected a count >= 0)";
  ExpectToken(is, binary, "<ComputationCache>");
  entries->clear();
  // Each entry takes far more than 16 bytes of the file.
  entries->reserve(
      CheckCountFits(is, size, 16, "<ComputationCacheSize> of the cache"));
  for (int32_t i = 0; i < size; i++) {
    ComputationRequest request;
    request.Read(is, binary);
    auto computation = std::make_shared<NnetComputation>();
    computation->Read(is, binary);
    computation->ComputeDeviceIndexes();
    entries->emplace_back(std::move(request), std::move(computation));
  }
}

}  // namespace nnet3
