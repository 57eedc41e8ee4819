// LatticeStringRepository: the label strings (transition-id sequences) that
// lattice determinization carries in its weights, stored once each as a
// trie. A string is a StringId: 0 is the empty string, any other id is its
// parent string plus one last label. Appending a label to a string is one
// hash lookup, so extending the strings of a subset along an arc costs
// O(1) per element instead of a copy of the whole sequence.
//
//   LatticeStringRepository repo;
//   StringId s = repo.Successor(kEmptyString, 7);   // "7"
//   StringId t = repo.Successor(s, 9);              // "7 9"
//   repo.Length(t) == 2; repo.ToVector(t, &labels);
//   repo.Rebuild(needed);    // frees every string not needed (nor a prefix
//                            // of one); the ids of the kept ones stay valid
//
// Two ids are equal exactly when their strings are equal, so strings compare
// in O(1) for equality. Strings are created only by Successor (and the
// functions built on it: Concatenate, RemovePrefix, FromVector), one entry
// per distinct non-empty string; NumStrings() counts the live ones, which
// is what the determinizer's memory estimate charges for the repository
// (the same count as Kaldi's repository, so --max-mem means the same).
#ifndef NNET3_LAT_LATTICE_STRING_REPOSITORY_H_
#define NNET3_LAT_LATTICE_STRING_REPOSITORY_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nnet3 {

using StringId = int32_t;
constexpr StringId kEmptyString = 0;

class LatticeStringRepository {
 public:
  LatticeStringRepository();

  // The string `parent` followed by `label`.
  StringId Successor(StringId parent, int32_t label);
  // a followed by b.
  StringId Concatenate(StringId a, StringId b);
  // a without its first n labels (n <= Length(a)).
  StringId RemovePrefix(StringId a, size_t n);
  StringId FromVector(const std::vector<int32_t> &labels);
  void ToVector(StringId s, std::vector<int32_t> *labels) const;

  int32_t Length(StringId s) const { return entries_[s].length; }
  StringId Parent(StringId s) const { return entries_[s].parent; }
  int32_t LastLabel(StringId s) const { return entries_[s].label; }
  // The longest common prefix of a and b (an existing string: no new
  // entries).
  StringId CommonPrefix(StringId a, StringId b) const;
  // The prefix of s of length n <= Length(s).
  StringId Prefix(StringId s, int32_t n) const;
  // Kaldi's order on strings in CompactLatticeWeight: the shorter string is
  // the greater; equal lengths compare lexicographically. Returns -1, 0, 1.
  int Compare(StringId a, StringId b) const;

  // Live non-empty strings.
  size_t NumStrings() const { return num_live_; }
  // Keeps the strings in `needed` and their prefixes and frees the rest
  // (their ids are reused by later strings).
  void Rebuild(const std::vector<StringId> &needed);
  // Back to only the empty string; keeps the memory.
  void Clear();

 private:
  struct Entry {
    StringId parent;
    int32_t label;
    int32_t length;  // 0 for the empty string and for a free entry
  };
  uint64_t Hash(StringId parent, int32_t label) const;
  // Where (parent, label) is in table_, or the empty slot where it goes.
  size_t FindSlot(StringId parent, int32_t label) const;
  void InsertIntoTable(StringId id);
  void GrowTable();
  // Fills scratch_ with the labels of s after its first n, in reverse.
  void SuffixReversed(StringId s, size_t n);

  std::vector<Entry> entries_;  // [0] is the empty string
  std::vector<StringId> free_;  // entries freed by Rebuild, to reuse
  // Open addressing; a slot holds its entry's key, so that a probe reads
  // no entry. id 0 marks an empty slot.
  struct Slot {
    StringId parent;
    int32_t label;
    StringId id;
  };
  std::vector<Slot> table_;
  size_t mask_ = 0;
  size_t num_live_ = 0;
  std::vector<int32_t> scratch_;
};

}  // namespace nnet3

#endif  // NNET3_LAT_LATTICE_STRING_REPOSITORY_H_
