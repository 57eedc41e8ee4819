// Lists of short integer sequences stored end to end: Kaldi's "ilabel_info"
// (what each input label of CLG means, context-fst.h) and the phone
// histories of the context FST's states. A list of 100k phone windows takes
// 16 bytes per window here, not the 56 of a vector of vectors.
//
//   ILabelInfo info;
//   info.Read(is, binary);                  // UserError if malformed
//   for (int32_t i = 0; i < info.Size(); i++)
//     for (int32_t phone : info[i]) ...
//   SequenceTable table;                    // finds sequences by content
//   int32_t index = table.FindOrAdd({0, 5, 7}, &info);   // appends if new
//
// File format (Kaldi's WriteILabelInfo): an int32 count, then each sequence
// as a Kaldi integer vector (binary: the byte 4, an int32 length, the
// int32s; text: "[ 1 2 3 ]" and a newline). Views returned by operator[]
// are valid until the next Append.
#ifndef NNET3_FSTEXT_ILABEL_INFO_H_
#define NNET3_FSTEXT_ILABEL_INFO_H_

#include <cstddef>
#include <cstdint>
#include <istream>
#include <ostream>
#include <vector>

namespace nnet3 {

class IntSequenceList {
 public:
  // A view of one sequence.
  struct Entry {
    const int32_t *first = nullptr, *last = nullptr;
    const int32_t *begin() const { return first; }
    const int32_t *end() const { return last; }
    size_t size() const { return static_cast<size_t>(last - first); }
    bool empty() const { return first == last; }
    int32_t operator[](size_t i) const { return first[i]; }
    std::vector<int32_t> ToVector() const { return {first, last}; }
  };

  IntSequenceList() = default;
  explicit IntSequenceList(const std::vector<std::vector<int32_t>> &seqs);

  int32_t Size() const { return static_cast<int32_t>(ends_.size()); }
  Entry operator[](int32_t i) const;
  void Append(const int32_t *first, const int32_t *last);
  void Append(const std::vector<int32_t> &seq) {
    Append(seq.data(), seq.data() + seq.size());
  }
  void Clear();
  void Swap(IntSequenceList *other);
  bool operator==(const IntSequenceList &other) const {
    return data_ == other.data_ && ends_ == other.ends_;
  }

  void Read(std::istream &is, bool binary);
  void Write(std::ostream &os, bool binary) const;

 private:
  std::vector<int32_t> data_;
  std::vector<uint32_t> ends_;  // where each sequence ends in data_
};

using ILabelInfo = IntSequenceList;

// Finds sequences of an IntSequenceList by content (each stored once).
class SequenceTable {
 public:
  // The index of `key` in *list, appending it if it is not there. Only
  // sequences added through this table are found.
  int32_t FindOrAdd(const std::vector<int32_t> &key, IntSequenceList *list);

 private:
  void Grow(const IntSequenceList &list);
  // Open addressing: indexes into the list, -1 where empty; the size is a
  // power of two at least twice the number stored.
  std::vector<int32_t> slots_;
};

}  // namespace nnet3

#endif  // NNET3_FSTEXT_ILABEL_INFO_H_
