// SubsetTable: the hash map from weighted subsets to ids that lattice
// determinization uses to find the output state of a subset of input states.
// A subset is a run of SubsetElements (input state, string carried so far,
// weight carried so far), sorted on state without repeats. Subsets are
// stored back to back in one array, so adding one is a copy into that array,
// not an allocation; ids count 0, 1, 2... in insertion order.
//
//   SubsetTable table(delta);
//   uint64_t hash;
//   int32_t id = table.Find(elems.data(), elems.size(), &hash);  // -1: none
//   if (id < 0) id = table.Insert(elems.data(), elems.size(), hash);
//   SubsetTable::Span s = table.Subset(id);
//
// Two subsets are equal when they have the same states and strings and
// their weights agree within delta (Kaldi's ApproxEqual on LatticeWeight);
// the hash covers only the states and strings, so subsets that differ only
// in weight share a hash.
#ifndef NNET3_LAT_SUBSET_TABLE_H_
#define NNET3_LAT_SUBSET_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "lat/kaldi-lattice.h"
#include "lat/lattice-string-repository.h"

namespace nnet3 {

struct SubsetElement {
  int32_t state;
  StringId string;
  LatticeWeight weight;
};

class SubsetTable {
 public:
  struct Span {
    const SubsetElement *begin;
    size_t size;
  };

  explicit SubsetTable(float delta) : delta_(delta) { Clear(); }

  // The id of a stored subset equal to elems[0..n), or -1. *hash receives
  // the subset's hash for a following Insert.
  int32_t Find(const SubsetElement *elems, size_t n, uint64_t *hash) const;
  // Stores a copy of elems[0..n) (not checked for presence) and returns its
  // id. `hash` is what Find gave for it.
  int32_t Insert(const SubsetElement *elems, size_t n, uint64_t hash);

  Span Subset(int32_t id) const {
    return Span{elements_.data() + offsets_[id],
                offsets_[id + 1] - offsets_[id]};
  }
  int32_t NumSubsets() const {
    return static_cast<int32_t>(offsets_.size()) - 1;
  }
  // All elements of all subsets, in id order.
  const std::vector<SubsetElement> &Elements() const { return elements_; }
  void Clear();

 private:
  static uint64_t Hash(const SubsetElement *elems, size_t n);
  bool Equal(int32_t id, const SubsetElement *elems, size_t n) const;
  void Grow();

  float delta_;
  std::vector<SubsetElement> elements_;
  std::vector<size_t> offsets_;  // subset i is [offsets_[i], offsets_[i+1])
  std::vector<uint64_t> hashes_;
  std::vector<int32_t> table_;  // ids; -1 marks an empty slot
  size_t mask_ = 0;
};

}  // namespace nnet3

#endif  // NNET3_LAT_SUBSET_TABLE_H_
