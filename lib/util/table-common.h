// The non-template pieces shared by the table readers and writers
// (util/table-reader.h, util/table-writer.h): reading archive keys and
// entry headers, reading scp lines, and the "file 'x', key 'y': ..." prefix
// every entry error carries. Programs do not need this header.
#ifndef NNET3_UTIL_TABLE_COMMON_H_
#define NNET3_UTIL_TABLE_COMMON_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/error.h"
#include "util/kaldi-io.h"

namespace nnet3 {
namespace table_internal {

// "file 'foo.ark', key 'utt1'"
std::string EntryContext(const std::string &filename, const std::string &key);

// Reads the next key of an archive (reference 5.4): `is >> key`, then a
// space or tab (consumed) or a newline (left). Returns false at the end of
// the archive; throws UserError naming the archive for a key not followed
// by whitespace (a truncated or corrupted archive).
bool ReadArchiveKey(std::istream &is, const std::string &archive,
                    std::string *key);

// Whether a holder's binary objects follow "\0B" in tables (the default).
// A holder whose objects announce their own form -- Kaldi's FST and
// lattice holders: OpenFst's magic number when binary, a newline when text
// -- declares `static constexpr bool kBinaryHeader = false;`: the tables
// then write no "\0B" (and, for "scp:" outputs, leave the precision alone),
// and call its Read(is, binary) with binary false for it to decide.
template <class Holder, class = void>
struct HolderHasBinaryHeader : std::true_type {};
template <class Holder>
struct HolderHasBinaryHeader<Holder,
                             std::void_t<decltype(Holder::kBinaryHeader)>>
    : std::integral_constant<bool, Holder::kBinaryHeader> {};

// Reads the optional "\0B" that starts an entry's object and returns
// whether the object is binary. Throws UserError (without file context)
// when the stream ends or holds "\0" followed by anything but 'B'.
bool ReadObjectHeader(std::istream &is);

// Writes one archive entry's prefix: the key (checked with IsToken, else a
// UserError naming the key and the table), a space, and "\0B" if binary.
// Returns the byte offset of the object's start (the position right after
// "key "), or -1 when `want_offset` is false.
int64_t WriteEntryPrefix(std::ostream &os, const std::string &key, bool binary,
                         bool want_offset, const std::string &table);

// Checks that `key` is a valid archive key; UserError naming it otherwise.
void CheckKey(const std::string &key, const std::string &table);

// One line of an scp file: "key rxfilename" (the rxfilename may contain
// spaces and end in a [range]).
struct ScriptLine {
  std::string key;
  std::string rxfilename;  // without the range
  std::string range;       // without the brackets; empty if none
  int64_t line_number = 0;
};

// Reads an scp file line by line, so that a sequential reader's memory does
// not grow with the file. Blank lines are skipped; a line without both a
// key and a filename is a UserError naming the file and line.
class ScriptFileReader {
 public:
  void Open(const std::string &rxfilename);
  // False at the end of the file (after which the input has been closed,
  // throwing if a pipe failed).
  bool Next(ScriptLine *line);
  void Close();
  const std::string &Name() const { return name_; }

 private:
  Input input_;
  std::string name_;
  int64_t line_number_ = 0;
};

// Reads a whole scp file (for random access and scp writers). With
// split_range false the rxfilename keeps any [range] (writers).
std::vector<ScriptLine> ReadScriptFile(const std::string &rxfilename,
                                       bool split_range);

}  // namespace table_internal
}  // namespace nnet3

#endif  // NNET3_UTIL_TABLE_COMMON_H_
