#include "decoder/active-token-map.h"

#include "base/error.h"

namespace nnet3 {

void ActiveTokenMap::SetSize(size_t size) {
  NNET3_ASSERT(entries_.empty());
  if (size <= hash_size_) return;
  hash_size_ = size;
  buckets_.resize(size);
}

void ActiveTokenMap::Clear(std::vector<Entry> *previous) {
  previous->clear();
  previous->reserve(entries_.size());
  for (int32_t b : used_buckets_) {
    for (int32_t e = buckets_[b].head; e >= 0; e = entries_[e].next)
      previous->push_back(entries_[e]);
    buckets_[b] = Bucket();
  }
  used_buckets_.clear();
  entries_.clear();
}

}  // namespace nnet3
