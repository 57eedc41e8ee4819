// Table readers: key → object collections read from archives ("ark:...")
// or scp files ("scp:..."), Kaldi's SequentialTableReader and
// RandomAccessTableReader. Templated on a Holder (util/table-holders.h);
// programs use the typedefs in util/table-types.h.
//
//   SequentialBaseFloatMatrixReader reader("ark:feats.ark");
//   for (; !reader.Done(); reader.Next()) {
//     const std::string &key = reader.Key();
//     const Matrix &m = reader.Value();
//     ...
//   }
//   reader.Close();  // throws if, e.g., an input pipe command failed
//
//   RandomAccessInt32VectorReader ali("scp:ali.scp");
//   if (ali.HasKey(key)) use(ali.Value(key));
//
// Guarantees:
// * A sequential reader holds one entry at a time: memory does not grow with
//   the archive. Archives and scp files are streamed (pipes work).
// * Each scp entry "key rxfilename[range]" is opened through Input (so
//   "foo.ark:1234" seeks; consecutive offsets into one file reuse it).
// * Every UserError from reading an entry is one line that starts with
//   "file 'NAME', key 'KEY': " (for scp entries NAME is the scp file and the
//   entry's rxfilename follows in parentheses).
// * Permissive ("p"): an scp entry that cannot be read is skipped with a
//   warning; an archive error is treated as the end of the archive (with a
//   warning); for random access, a key that cannot be read is absent.
// * Random access: scp files are read into a map and entries are loaded on
//   demand. Archives are read forward only as far as needed. With "s" the
//   reader stops at the first key past the one asked for; with "cs" entries
//   before the key asked for are dropped; with "o" an entry is dropped after
//   its Value() has been used. Without "s", looking up a missing key reads
//   (and keeps) the rest of the archive.
// * Value() references stay valid until the next call on the reader.
// * "bg" reads the next entry in a background thread while the current one
//   is processed (sequential readers only; ignored for random access).
#ifndef NNET3_UTIL_TABLE_READER_H_
#define NNET3_UTIL_TABLE_READER_H_

#include <map>
#include <memory>
#include <string>
#include <unordered_map>

#include "util/table-reader-impl.h"

namespace nnet3 {

template <class Holder>
class SequentialTableReader {
 public:
  using T = typename Holder::T;

  SequentialTableReader() = default;
  // Opens or throws UserError.
  explicit SequentialTableReader(const std::string &rspecifier) {
    Open(rspecifier);
  }
  // Closes; a failure is logged as a warning, never thrown.
  ~SequentialTableReader() {
    if (impl_) {
      std::string error;
      if (!impl_->Close(&error)) NNET3_WARN << error;
    }
  }
  SequentialTableReader(const SequentialTableReader &) = delete;
  SequentialTableReader &operator=(const SequentialTableReader &) = delete;

  // Opens `rspecifier` and reads the first entry. Throws UserError for an
  // invalid rspecifier, a missing file, or a bad first entry.
  void Open(const std::string &rspecifier) {
    if (impl_) Close();
    impl_ = table_internal::NewSequentialImpl<Holder>(rspecifier);
  }
  bool IsOpen() const { return impl_ != nullptr; }
  bool Done() const { return Impl().Done(); }
  const std::string &Key() const { return Impl().Key(); }
  T &Value() { return Impl().CurrentHolder().Value(); }
  // Advances to the next entry (reading it). Throws UserError on bad input.
  void Next() { Impl().Next(); }
  // Frees the current value's memory early (before Next()).
  void FreeCurrent() { Impl().CurrentHolder().Clear(); }
  // Closes; throws UserError if an input pipe failed (or an error was seen
  // while reading). Returns true; a reader that is not open is fine.
  bool Close() {
    if (!impl_) return true;
    std::string error;
    bool ok = impl_->Close(&error);
    impl_.reset();
    if (!ok) NNET3_ERR << error;
    return true;
  }

 private:
  table_internal::SequentialImpl<Holder> &Impl() const {
    if (!impl_) NNET3_INTERNAL_ERR << "SequentialTableReader is not open";
    return *impl_;
  }
  std::unique_ptr<table_internal::SequentialImpl<Holder>> impl_;
};

template <class Holder>
class RandomAccessTableReader {
 public:
  using T = typename Holder::T;

  RandomAccessTableReader() = default;
  explicit RandomAccessTableReader(const std::string &rspecifier) {
    Open(rspecifier);
  }
  ~RandomAccessTableReader() {
    if (impl_) {
      std::string error;
      if (!impl_->Close(&error)) NNET3_WARN << error;
    }
  }
  RandomAccessTableReader(const RandomAccessTableReader &) = delete;
  RandomAccessTableReader &operator=(const RandomAccessTableReader &) = delete;

  // Opens `rspecifier` (an scp file is read whole here). Throws UserError.
  void Open(const std::string &rspecifier) {
    if (impl_) Close();
    impl_ = table_internal::NewRandomAccessImpl<Holder>(rspecifier);
  }
  bool IsOpen() const { return impl_ != nullptr; }
  // Whether the table has `key` (and, when permissive, whether it could be
  // read). Throws UserError on bad input (not when permissive).
  bool HasKey(const std::string &key) { return Impl().HasKey(key); }
  // The object for `key`; a UserError naming the key and the table if it
  // is absent or cannot be read.
  const T &Value(const std::string &key) { return Impl().Value(key); }
  bool Close() {
    if (!impl_) return true;
    std::string error;
    bool ok = impl_->Close(&error);
    impl_.reset();
    if (!ok) NNET3_ERR << error;
    return true;
  }

 private:
  table_internal::RandomAccessImpl<Holder> &Impl() const {
    if (!impl_) NNET3_INTERNAL_ERR << "RandomAccessTableReader is not open";
    return *impl_;
  }
  std::unique_ptr<table_internal::RandomAccessImpl<Holder>> impl_;
};

}  // namespace nnet3

#endif  // NNET3_UTIL_TABLE_READER_H_
