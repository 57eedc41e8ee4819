// The decoder's map from graph state to the token of the frame being built,
// iterated in the same order as Kaldi's HashList, which the decoder's
// results depend on.
//
//   ActiveTokenMap map;  map.SetSize(1000);
//   int32_t e = map.Insert(state);          // finds, or adds with kNoId
//   if (map.TokenAt(e) == kNoId) map.SetToken(e, NewToken(...));
//   for (int32_t e : map.Order()) ... map.StateAt(e) ... map.TokenAt(e)
//   map.Clear(&previous);    // previous = the entries in iteration order
//
// Why the order matters: the decoder expands the tokens of a frame in this
// order, and it prunes arcs against a cutoff that tightens as it goes, so
// the order decides which borderline tokens are created (with --max-active
// they can survive); the order of creation is also the order of each
// frame's token list and of the next frame's map. Kaldi's HashList keeps
// one list whose entries are grouped by bucket (state mod the table size),
// the buckets in the order they were first used since the last Clear and
// the entries of a bucket in the order they were inserted. This map keeps
// that order with arrays: a chain per bucket and the list of used buckets.
// The table size only grows (SetSize with a smaller size is ignored), and
// persists across Clear, as Kaldi's.
#ifndef NNET3_DECODER_ACTIVE_TOKEN_MAP_H_
#define NNET3_DECODER_ACTIVE_TOKEN_MAP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "decoder/token-lattice.h"

namespace nnet3 {

class ActiveTokenMap {
 public:
  struct Entry {
    int32_t state;
    int32_t next;  // the next entry of the same bucket, or -1
    TokenId tok;
  };

  // Sets the number of buckets; only while empty. Never shrinks.
  void SetSize(size_t size);
  size_t Size() const { return hash_size_; }
  bool Empty() const { return entries_.empty(); }
  size_t NumEntries() const { return entries_.size(); }

  // The entry of `state`, added with token kNoId if there is none.
  int32_t Insert(int32_t state) {
    const size_t b = static_cast<size_t>(state) % hash_size_;
    Bucket &bucket = buckets_[b];
    if (bucket.head < 0) {
      used_buckets_.push_back(static_cast<int32_t>(b));
      const int32_t e = NewEntry(state);
      bucket.head = bucket.tail = e;
      return e;
    }
    for (int32_t e = bucket.head; e >= 0; e = entries_[e].next)
      if (entries_[e].state == state) return e;
    const int32_t e = NewEntry(state);
    entries_[bucket.tail].next = e;
    bucket.tail = e;
    return e;
  }
  int32_t StateAt(int32_t e) const { return entries_[e].state; }
  TokenId TokenAt(int32_t e) const { return entries_[e].tok; }
  void SetToken(int32_t e, TokenId tok) { entries_[e].tok = tok; }

  // Calls f(entry index) for every entry, in Kaldi's order.
  template <typename F>
  void ForEach(F &&f) const {
    for (int32_t b : used_buckets_)
      for (int32_t e = buckets_[b].head; e >= 0; e = entries_[e].next) f(e);
  }
  // Moves the entries, in Kaldi's order, into *previous (replacing its
  // contents) and empties the map.
  void Clear(std::vector<Entry> *previous);

 private:
  struct Bucket {
    int32_t head = -1, tail = -1;
  };
  int32_t NewEntry(int32_t state) {
    entries_.push_back(Entry{state, -1, kNoId});
    return static_cast<int32_t>(entries_.size()) - 1;
  }

  size_t hash_size_ = 0;
  std::vector<Bucket> buckets_;
  std::vector<int32_t> used_buckets_;  // in order of first use
  std::vector<Entry> entries_;         // in order of insertion
};

}  // namespace nnet3

#endif  // NNET3_DECODER_ACTIVE_TOKEN_MAP_H_
