#include "lat/lattice-string-repository.h"

#include <algorithm>

#include "base/error.h"

namespace nnet3 {

LatticeStringRepository::LatticeStringRepository() { Clear(); }

void LatticeStringRepository::Clear() {
  entries_.assign(1, Entry{kEmptyString, 0, 0});
  free_.clear();
  table_.assign(64, Slot{0, 0, kEmptyString});
  mask_ = table_.size() - 1;
  num_live_ = 0;
}

uint64_t LatticeStringRepository::Hash(StringId parent, int32_t label) const {
  uint64_t h = static_cast<uint32_t>(parent);
  h = h * 0x9E3779B97F4A7C15ull + static_cast<uint32_t>(label);
  h ^= h >> 32;
  h *= 0xD6E8FEB86659FD93ull;
  h ^= h >> 32;
  return h;
}

size_t LatticeStringRepository::FindSlot(StringId parent, int32_t label) const {
  size_t i = Hash(parent, label) & mask_;
  while (true) {
    const Slot &slot = table_[i];
    if (slot.id == kEmptyString ||
        (slot.parent == parent && slot.label == label))
      return i;
    i = (i + 1) & mask_;
  }
}

void LatticeStringRepository::InsertIntoTable(StringId id) {
  const Entry &e = entries_[id];
  table_[FindSlot(e.parent, e.label)] = Slot{e.parent, e.label, id};
}

void LatticeStringRepository::GrowTable() {
  table_.assign(table_.size() * 2, Slot{0, 0, kEmptyString});
  mask_ = table_.size() - 1;
  for (StringId id = 1; id < static_cast<StringId>(entries_.size()); id++)
    if (entries_[id].length != 0) InsertIntoTable(id);
}

StringId LatticeStringRepository::Successor(StringId parent, int32_t label) {
  size_t slot = FindSlot(parent, label);
  if (table_[slot].id != kEmptyString) return table_[slot].id;
  if (2 * (num_live_ + 1) > table_.size()) {
    GrowTable();
    slot = FindSlot(parent, label);
  }
  const Entry entry{parent, label, entries_[parent].length + 1};
  StringId id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
    entries_[id] = entry;
  } else {
    NNET3_ASSERT(entries_.size() < 0x7fffffffu);
    id = static_cast<StringId>(entries_.size());
    entries_.push_back(entry);
  }
  table_[slot] = Slot{parent, label, id};
  num_live_++;
  return id;
}

void LatticeStringRepository::SuffixReversed(StringId s, size_t n) {
  NNET3_ASSERT(n <= static_cast<size_t>(Length(s)));
  scratch_.clear();
  for (size_t k = Length(s); k > n; k--) {
    scratch_.push_back(entries_[s].label);
    s = entries_[s].parent;
  }
}

StringId LatticeStringRepository::Concatenate(StringId a, StringId b) {
  if (b == kEmptyString) return a;
  if (a == kEmptyString) return b;
  SuffixReversed(b, 0);
  for (size_t k = scratch_.size(); k > 0; k--)
    a = Successor(a, scratch_[k - 1]);
  return a;
}

StringId LatticeStringRepository::RemovePrefix(StringId a, size_t n) {
  if (n == 0) return a;
  SuffixReversed(a, n);
  StringId ans = kEmptyString;
  for (size_t k = scratch_.size(); k > 0; k--)
    ans = Successor(ans, scratch_[k - 1]);
  return ans;
}

StringId LatticeStringRepository::FromVector(
    const std::vector<int32_t> &labels) {
  StringId ans = kEmptyString;
  for (int32_t label : labels) ans = Successor(ans, label);
  return ans;
}

void LatticeStringRepository::ToVector(StringId s,
                                       std::vector<int32_t> *labels) const {
  labels->resize(Length(s));
  for (size_t k = labels->size(); k > 0; k--) {
    (*labels)[k - 1] = entries_[s].label;
    s = entries_[s].parent;
  }
}

StringId LatticeStringRepository::Prefix(StringId s, int32_t n) const {
  NNET3_ASSERT(n >= 0 && n <= Length(s));
  for (int32_t k = Length(s); k > n; k--) s = entries_[s].parent;
  return s;
}

StringId LatticeStringRepository::CommonPrefix(StringId a, StringId b) const {
  const int32_t n = std::min(Length(a), Length(b));
  a = Prefix(a, n);
  b = Prefix(b, n);
  while (a != b) {
    a = entries_[a].parent;
    b = entries_[b].parent;
  }
  return a;
}

int LatticeStringRepository::Compare(StringId a, StringId b) const {
  if (a == b) return 0;
  if (Length(a) != Length(b)) return Length(a) > Length(b) ? -1 : 1;
  // Walk up to the first position where they differ (the one nearest the
  // root): there the parents are equal and the labels are not.
  while (entries_[a].parent != entries_[b].parent) {
    a = entries_[a].parent;
    b = entries_[b].parent;
  }
  return entries_[a].label < entries_[b].label ? -1 : 1;
}

void LatticeStringRepository::Rebuild(const std::vector<StringId> &needed) {
  std::vector<char> keep(entries_.size(), 0);
  keep[kEmptyString] = 1;
  for (StringId s : needed)
    for (; !keep[s]; s = entries_[s].parent) keep[s] = 1;
  free_.clear();
  num_live_ = 0;
  for (StringId id = static_cast<StringId>(entries_.size()) - 1; id > 0; id--) {
    if (keep[id]) {
      num_live_++;
    } else {
      entries_[id].length = 0;
      free_.push_back(id);
    }
  }
  std::fill(table_.begin(), table_.end(), Slot{0, 0, kEmptyString});
  for (StringId id = 1; id < static_cast<StringId>(entries_.size()); id++)
    if (keep[id]) InsertIntoTable(id);
}

}  // namespace nnet3
