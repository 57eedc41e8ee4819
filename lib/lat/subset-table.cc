#include "lat/subset-table.h"

#include "base/error.h"

namespace nnet3 {

void SubsetTable::Clear() {
  elements_.clear();
  offsets_.assign(1, 0);
  hashes_.clear();
  table_.assign(64, -1);
  mask_ = table_.size() - 1;
}

uint64_t SubsetTable::Hash(const SubsetElement *elems, size_t n) {
  uint64_t h = n;
  for (size_t i = 0; i < n; i++) {
    h = (h ^ static_cast<uint32_t>(elems[i].state)) * 0x9E3779B97F4A7C15ull;
    h = (h ^ static_cast<uint32_t>(elems[i].string)) * 0xD6E8FEB86659FD93ull;
  }
  return h ^ (h >> 29);
}

bool SubsetTable::Equal(int32_t id, const SubsetElement *elems,
                        size_t n) const {
  const Span s = Subset(id);
  if (s.size != n) return false;
  for (size_t i = 0; i < n; i++) {
    const SubsetElement &a = s.begin[i], &b = elems[i];
    if (a.state != b.state || a.string != b.string ||
        !ApproxEqual(a.weight, b.weight, delta_))
      return false;
  }
  return true;
}

int32_t SubsetTable::Find(const SubsetElement *elems, size_t n,
                          uint64_t *hash) const {
  *hash = Hash(elems, n);
  for (size_t i = *hash & mask_;; i = (i + 1) & mask_) {
    const int32_t id = table_[i];
    if (id < 0) return -1;
    if (hashes_[id] == *hash && Equal(id, elems, n)) return id;
  }
}

int32_t SubsetTable::Insert(const SubsetElement *elems, size_t n,
                            uint64_t hash) {
  NNET3_ASSERT(n == 0 || elems + n <= elements_.data() ||
               elems >= elements_.data() + elements_.size());
  const int32_t id = NumSubsets();
  elements_.insert(elements_.end(), elems, elems + n);
  offsets_.push_back(elements_.size());
  hashes_.push_back(hash);
  if (2 * hashes_.size() > table_.size()) {
    Grow();
  } else {
    size_t i = hash & mask_;
    while (table_[i] >= 0) i = (i + 1) & mask_;
    table_[i] = id;
  }
  return id;
}

void SubsetTable::Grow() {
  table_.assign(table_.size() * 2, -1);
  mask_ = table_.size() - 1;
  for (int32_t id = 0; id < NumSubsets(); id++) {
    size_t i = hashes_[id] & mask_;
    while (table_[i] >= 0) i = (i + 1) & mask_;
    table_[i] = id;
  }
}

}  // namespace nnet3
