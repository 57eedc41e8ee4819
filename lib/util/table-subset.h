// Copying part of a table: the entries whose keys a list file names, or all
// the others (Kaldi's lattice-copy --include / --exclude, and the same
// options of other copy programs).
//
//   KeyList list = ReadKeyList("data/dev/utt2spk");   // first field of lines
//   SubsetCopyCounts counts =
//       CopyTableSubset(list, /*include=*/true, /*stop_after_last=*/sorted,
//                       &reader, &writer);
//
// A key list file is read as text, one key per line (what follows the first
// field is ignored, so utt2spk, text or segments files serve). With
// stop_after_last (an include list and a reader whose rspecifier says the
// table is sorted, "s"), reading stops at the first key that sorts after
// the list's largest key, since no later entry can be wanted.
#ifndef NNET3_UTIL_TABLE_SUBSET_H_
#define NNET3_UTIL_TABLE_SUBSET_H_

#include <cstdint>
#include <string>
#include <unordered_set>

namespace nnet3 {

struct KeyList {
  std::unordered_set<std::string> keys;
  std::string largest;  // the largest key in byte order ("" if none)
};

// UserError naming the file and line for a blank line.
KeyList ReadKeyList(const std::string &rxfilename);

struct SubsetCopyCounts {
  int64_t num_read = 0;     // entries looked at
  int64_t num_written = 0;  // entries copied
  bool stopped_early = false;
};

template <class Reader, class Writer>
SubsetCopyCounts CopyTableSubset(const KeyList &list, bool include,
                                 bool stop_after_last, Reader *reader,
                                 Writer *writer) {
  SubsetCopyCounts counts;
  for (; !reader->Done(); reader->Next(), ++counts.num_read) {
    const std::string &key = reader->Key();
    if (include && stop_after_last && !list.keys.empty() &&
        key > list.largest) {
      counts.stopped_early = true;
      break;
    }
    if ((list.keys.count(key) != 0) == include) {
      writer->Write(key, reader->Value());
      ++counts.num_written;
    }
  }
  return counts;
}

}  // namespace nnet3

#endif  // NNET3_UTIL_TABLE_SUBSET_H_
