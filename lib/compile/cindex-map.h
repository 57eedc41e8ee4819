// CindexMap: a hash map from Cindex (node, Index) to a non-negative id, kept
// in one flat array (open addressing, linear probing) instead of one
// allocated node per entry as std::unordered_map does. The computation
// graph looks up and adds every cindex it touches here, thousands per
// compilation, so the node allocations were a large part of a cold compile.
//
//   CindexMap map;
//   map.Reserve(1000);                        // optional
//   bool inserted;
//   int32_t id = map.Insert(cindex, 7, &inserted);  // 7, or the id it had
//   int32_t same = map.Find(cindex);          // 7; -1 for a missing cindex
//   map.Clear();                              // empty, keeps its memory
//
// Ids must be >= 0 (-1 marks an empty slot). There is no erase: the graph
// renumbers by clearing and re-inserting. The table doubles when it would
// be more than half full, so probe sequences stay short. CindexMapT takes
// the hash function as a parameter so that tests can force collisions;
// CindexMap uses CindexHash, which mixes all four fields.
#ifndef NNET3_COMPILE_CINDEX_MAP_H_
#define NNET3_COMPILE_CINDEX_MAP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/error.h"
#include "nnet/nnet-common.h"

namespace nnet3 {

// A 64-bit hash of a Cindex whose low bits depend on every field (a
// multiply-xorshift mix), as a power-of-two table needs.
struct CindexHash {
  uint64_t operator()(const Cindex &c) const noexcept {
    uint64_t h = static_cast<uint32_t>(c.first);
    h = h * 0x9E3779B97F4A7C15ull + static_cast<uint32_t>(c.second.n);
    h = h * 0x9E3779B97F4A7C15ull + static_cast<uint32_t>(c.second.t);
    h = h * 0x9E3779B97F4A7C15ull + static_cast<uint32_t>(c.second.x);
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    return h;
  }
};

template <typename Hash>
class CindexMapT {
 public:
  CindexMapT() = default;

  // The id of `cindex`; if absent, inserts it with `id` (>= 0) and returns
  // `id`. *inserted says which.
  int32_t Insert(const Cindex &cindex, int32_t id, bool *inserted) {
    NNET3_ASSERT(id >= 0);
    if (2 * (size_ + 1) > slots_.size()) Grow();
    size_t i = Hash()(cindex) & mask_;
    while (true) {
      Slot &slot = slots_[i];
      if (slot.id < 0) {
        slot.cindex = cindex;
        slot.id = id;
        size_++;
        *inserted = true;
        return id;
      }
      if (slot.cindex == cindex) {
        *inserted = false;
        return slot.id;
      }
      i = (i + 1) & mask_;
    }
  }

  // The id of `cindex`, or -1 if absent.
  int32_t Find(const Cindex &cindex) const {
    if (size_ == 0) return -1;
    size_t i = Hash()(cindex) & mask_;
    while (true) {
      const Slot &slot = slots_[i];
      if (slot.id < 0) return -1;
      if (slot.cindex == cindex) return slot.id;
      i = (i + 1) & mask_;
    }
  }

  // Makes room for `n` entries without further growth.
  void Reserve(size_t n) {
    size_t capacity = 16;
    while (capacity < 2 * n) capacity *= 2;
    if (capacity > slots_.size()) Rehash(capacity);
  }

  // Removes every entry; the table keeps its size.
  void Clear() {
    for (Slot &slot : slots_) slot.id = -1;
    size_ = 0;
  }

  size_t Size() const { return size_; }

 private:
  struct Slot {
    Cindex cindex;
    int32_t id = -1;  // -1: empty
  };

  void Grow() { Rehash(slots_.empty() ? 16 : 2 * slots_.size()); }

  // Moves every entry into a table of `capacity` slots (a power of two).
  void Rehash(size_t capacity) {
    std::vector<Slot> old(capacity);
    old.swap(slots_);
    mask_ = capacity - 1;
    for (const Slot &slot : old) {
      if (slot.id < 0) continue;
      size_t i = Hash()(slot.cindex) & mask_;
      while (slots_[i].id >= 0) i = (i + 1) & mask_;
      slots_[i] = slot;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

using CindexMap = CindexMapT<CindexHash>;

}  // namespace nnet3

#endif  // NNET3_COMPILE_CINDEX_MAP_H_
