// TableWriter: writes key → object tables, Kaldi's TableWriter. Templated
// on a Holder (util/table-holders.h); programs use the typedefs in
// util/table-types.h.
//
//   BaseFloatMatrixWriter writer("ark,scp:feats.ark,feats.scp");
//   writer.Write("utt1", matrix);
//   writer.Close();                 // throws on a write or pipe failure
//
// Formats (reference 5.4): each archive entry is the key (it must pass
// IsToken; anything else is a UserError naming the key), one space, then
// for binary tables "\0B" (unless the holder has no header, see
// table-common.h) and the object, for text tables ("t") the object with
// precision 7. "ark,scp:A,S" also writes the scp line
// "key A:OFFSET" with OFFSET the byte position right after "key " (the
// start of "\0B" or of the text object); A must be a plain file.
// "scp:S" writes each object to the wxfilename the scp file S lists for its
// key (with a header); a key not listed is a UserError, or with "p" a
// warning (and so is a failed write with "p"). "f" flushes after every
// entry.
#ifndef NNET3_UTIL_TABLE_WRITER_H_
#define NNET3_UTIL_TABLE_WRITER_H_

#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <unordered_map>

#include "base/error.h"
#include "base/log.h"
#include "util/kaldi-io.h"
#include "util/table-common.h"
#include "util/table-specifier.h"

namespace nnet3 {

template <class Holder>
class TableWriter {
 public:
  using T = typename Holder::T;

  TableWriter() = default;
  // Opens or throws UserError.
  explicit TableWriter(const std::string &wspecifier) { Open(wspecifier); }
  // Closes; a failure is logged as a warning, never thrown (call Close()).
  // When destroyed by an exception unwinding the stack, plain-file outputs
  // are discarded instead (see Open), so a failed program leaves no
  // half-written archive behind.
  ~TableWriter() {
    if (std::uncaught_exceptions() > 0) return;  // Output dtors discard
    std::string error;
    if (!CloseOutputs(&error)) NNET3_WARN << error;
  }
  TableWriter(const TableWriter &) = delete;
  TableWriter &operator=(const TableWriter &) = delete;

  // Throws UserError for an invalid wspecifier or an output that cannot be
  // opened. Archive and scp files, and the files an "scp:" wspecifier
  // names, are written atomically (to a temporary file renamed into place
  // by Close()), so they appear complete or not at all; "-" and pipes are
  // written as they go.
  void Open(const std::string &wspecifier);
  bool IsOpen() const { return open_; }
  // Writes one entry; throws UserError for an invalid key or a write error.
  void Write(const std::string &key, const T &value);
  void Flush();
  // Flushes and closes; throws UserError on failure (e.g. the command of
  // "ark:| gzip -c > x.gz" failed). Returns true.
  bool Close();

 private:
  void WriteToArchive(const std::string &key, const T &value);
  void WriteToScript(const std::string &key, const T &value);
  bool CloseOutputs(std::string *error);

  bool open_ = false;
  std::string wspecifier_;
  WspecifierType type_ = WspecifierType::kNoWspecifier;
  WspecifierOptions opts_;
  std::string archive_name_;
  std::string script_name_;
  Output archive_;
  Output script_;  // "ark,scp": the scp file we write
  // "scp": where each key goes.
  std::unordered_map<std::string, std::string> destinations_;
};

template <class Holder>
void TableWriter<Holder>::Open(const std::string &wspecifier) {
  if (open_) Close();
  type_ = ClassifyWspecifier(wspecifier, &archive_name_, &script_name_, &opts_);
  wspecifier_ = wspecifier;
  switch (type_) {
    case WspecifierType::kNoWspecifier:
      NNET3_ERR << "Invalid wspecifier '" << wspecifier
                << "' (expected e.g. 'ark:foo.ark', 'ark,t:-', "
                   "'ark,scp:foo.ark,foo.scp', 'scp:foo.scp')";
      break;
    case WspecifierType::kBothWspecifier:
      if (ClassifyWxfilename(archive_name_) != OutputType::kFileOutput)
        NNET3_ERR << "In wspecifier '" << wspecifier << "' the archive '"
                  << archive_name_ << "' must be a plain file (its byte "
                  << "offsets go into the scp file)";
      script_.Open(script_name_, false, false, /*atomic=*/true);
      archive_.Open(archive_name_, opts_.binary, false, /*atomic=*/true);
      break;
    case WspecifierType::kArchiveWspecifier:
      archive_.Open(archive_name_, opts_.binary, false, /*atomic=*/true);
      break;
    case WspecifierType::kScriptWspecifier:
      destinations_.clear();
      for (auto &line : table_internal::ReadScriptFile(script_name_, false))
        destinations_.emplace(line.key, line.rxfilename);
      break;
  }
  if (archive_.IsOpen() && archive_.Stream().precision() < 7)
    archive_.Stream().precision(7);
  open_ = true;
}

template <class Holder>
void TableWriter<Holder>::Write(const std::string &key, const T &value) {
  if (!open_) NNET3_INTERNAL_ERR << "TableWriter::Write() on a closed writer";
  if (type_ == WspecifierType::kScriptWspecifier)
    WriteToScript(key, value);
  else
    WriteToArchive(key, value);
}

template <class Holder>
void TableWriter<Holder>::WriteToArchive(const std::string &key,
                                         const T &value) {
  std::ostream &os = archive_.Stream();
  bool both = type_ == WspecifierType::kBothWspecifier;
  const bool header =
      opts_.binary && table_internal::HolderHasBinaryHeader<Holder>::value;
  int64_t offset =
      table_internal::WriteEntryPrefix(os, key, header, both, wspecifier_);
  try {
    Holder::Write(os, opts_.binary, value);
  } catch (const UserError &e) {
    RethrowWriteError(e, os, errno,
                      "Writing key '" + key + "' to '" +
                          PrintableWxfilename(archive_name_) + "'");
  }
  if (opts_.flush) os.flush();
  if (os.fail())
    NNET3_ERR << "Write error on '" << PrintableWxfilename(archive_name_)
              << "' (key '" << key << "'): " << strerror(errno)
              << " (disk full, file-size limit, or the reader of a pipe "
              << "went away?)";
  if (both) {
    std::ostream &scp = script_.Stream();
    scp << key << ' ' << archive_name_ << ':' << offset << '\n';
    if (opts_.flush) scp.flush();
    if (scp.fail())
      NNET3_ERR << "Write error on '" << PrintableWxfilename(script_name_)
                << "' (key '" << key << "')";
  }
}

template <class Holder>
void TableWriter<Holder>::WriteToScript(const std::string &key,
                                        const T &value) {
  table_internal::CheckKey(key, wspecifier_);
  auto it = destinations_.find(key);
  if (it == destinations_.end()) {
    if (opts_.permissive) {
      NNET3_WARN << "Key '" << key << "' is not in the scp file '"
                 << script_name_ << "' (permissive: not writing it)";
      return;
    }
    NNET3_ERR << "Key '" << key << "' is not in the scp file '" << script_name_
              << "' of wspecifier '" << wspecifier_ << "'";
  }
  try {
    Output out(it->second, opts_.binary,
               table_internal::HolderHasBinaryHeader<Holder>::value,
               /*atomic=*/true);
    Holder::Write(out.Stream(), opts_.binary, value);
    out.Close();
  } catch (const UserError &e) {
    std::string message = "Writing key '" + key + "' to '" + it->second +
                          "' (from '" + script_name_ + "'): " + e.what();
    if (!opts_.permissive) throw UserError(message, e.where());
    NNET3_WARN << message << " (permissive: skipping it)";
  }
}

template <class Holder>
void TableWriter<Holder>::Flush() {
  if (archive_.IsOpen()) archive_.Stream().flush();
  if (script_.IsOpen()) script_.Stream().flush();
}

template <class Holder>
bool TableWriter<Holder>::CloseOutputs(std::string *error) {
  bool ok = archive_.Close(error);
  std::string script_error;
  if (!script_.Close(&script_error) && ok) {
    *error = script_error;
    ok = false;
  }
  open_ = false;
  return ok;
}

template <class Holder>
bool TableWriter<Holder>::Close() {
  std::string error;
  if (!CloseOutputs(&error))
    NNET3_ERR << "Closing table '" << wspecifier_ << "': " << error;
  return true;
}

}  // namespace nnet3

#endif  // NNET3_UTIL_TABLE_WRITER_H_
