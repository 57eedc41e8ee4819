// Kaldi's extended filenames: where every program reads and writes its data.
//
// An rxfilename (for reading) is one of
//   "-" or ""          standard input
//   "gunzip -c x.gz |" the output of a shell command (an input pipe)
//   "foo.ark:1234"     a file, opened and positioned at byte 1234
//   "foo.mat"          a plain file
// and a wxfilename (for writing) is one of
//   "-" or ""          standard output
//   "| gzip -c > x.gz" the input of a shell command (an output pipe)
//   "foo.mat"          a plain file
// Anything else (a leading '|' on input, a trailing '|' on output, leading or
// trailing whitespace, "name:123" for output, a '|' in the middle, or a string
// that parses as an ark:/scp: specifier) is invalid: Open() throws UserError.
//
//   bool binary;
//   Input ki(rxfilename, &binary);       // reads the optional "\0B" header
//   matrix.Read(ki.Stream(), binary);
//   ki.Close();                          // throws if a pipe command failed
//
//   Output ko(wxfilename, binary);       // writes "\0B" when binary
//   matrix.Write(ko.Stream(), binary);
//   ko.Close();                          // throws on a write error or when
//                                        // the pipe command exits non-zero
//
// Guarantees: every failure is a one-line UserError naming the file or the
// command (and errno text or the command's exit status). Pipe commands run
// under /bin/sh with SIGPIPE at its default; a command that cannot be found
// exits 127 and is reported as such. Nothing here writes to stdout except an
// Output opened on "-"; logs go to stderr.
//
// Standard input is read through our own buffer: bytes read ahead but not
// consumed when an Input on "-" is closed are lost, so read stdin through
// one Input per program (as Kaldi programs do).
//
// Atomic output: Output::Open(name, binary, header, /*atomic=*/true) on a
// regular file (or a path that does not exist yet) writes to a temporary file
// beside it and renames it over `name` only when Close() succeeds, so a
// failure (or an exception that destroys the Output without Close) never
// leaves a half-written file. The temporary file is unnamed (O_TMPFILE)
// until Close() names it "name.tmp.<pid>.<n>" just before the rename, so a
// process killed while writing (SIGKILL, out of memory) leaves nothing
// behind either; on filesystems without O_TMPFILE it has that name from
// the start. A symbolic link is
// followed and its target replaced that way; devices (/dev/null), FIFOs,
// sockets and /dev/stdout, /dev/fd/N are written in place, never replaced
// (util/output-target.h decides). WriteKaldiObject() and the table writers
// always write this way; programs that write models should too. For "-" and
// pipes the flag has no effect.
#ifndef NNET3_UTIL_KALDI_IO_H_
#define NNET3_UTIL_KALDI_IO_H_

#include <cerrno>
#include <cstdint>
#include <istream>
#include <memory>
#include <ostream>
#include <string>

#include "base/error.h"

namespace nnet3 {

class Matrix;

enum class InputType {
  kNoInput,  // invalid rxfilename
  kFileInput,
  kStandardInput,
  kOffsetFileInput,
  kPipeInput,
};

enum class OutputType {
  kNoOutput,  // invalid wxfilename
  kFileOutput,
  kStandardOutput,
  kPipeOutput,
};

InputType ClassifyRxfilename(const std::string &rxfilename);
OutputType ClassifyWxfilename(const std::string &wxfilename);

// Human-readable form of an extended filename for messages: "standard input"
// for "-", otherwise the name itself.
std::string PrintableRxfilename(const std::string &rxfilename);
std::string PrintableWxfilename(const std::string &wxfilename);

class Input {
 public:
  Input();
  // Opens or throws UserError; see Open().
  explicit Input(const std::string &rxfilename, bool *binary = nullptr);
  ~Input();  // Closes; a failure is logged as a warning, never thrown.
  Input(const Input &) = delete;
  Input &operator=(const Input &) = delete;

  // Opens `rxfilename`. With `binary` non-null, also reads the optional
  // "\0B" header and sets *binary (a stream starting with '\0' but not
  // "\0B" is a UserError). Re-opening an offset into the file that is
  // already open just seeks, so scp files pointing into one archive are
  // cheap. An input pipe whose command produces no output at all is waited
  // for here, and a non-zero exit status is a UserError naming the command.
  void Open(const std::string &rxfilename, bool *binary = nullptr);
  bool IsOpen() const;
  std::istream &Stream();
  // Closes the stream. For an input pipe, waits for the command: a non-zero
  // exit status is an error (a command killed by SIGPIPE because we stopped
  // reading early is not). On error: with `error` null throws UserError,
  // otherwise stores the message there and returns false. Returns true on
  // success or when nothing was open.
  bool Close(std::string *error = nullptr);
  // The rxfilename as opened (for messages).
  const std::string &Name() const { return name_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string name_;
};

class Output {
 public:
  Output();
  // Opens or throws UserError; see Open().
  Output(const std::string &wxfilename, bool binary, bool write_header = true,
         bool atomic = false);
  // Closes. An atomic output that was not closed is discarded (the
  // temporary file is removed). Errors are logged, never thrown.
  ~Output();
  Output(const Output &) = delete;
  Output &operator=(const Output &) = delete;

  // Opens `wxfilename`; with write_header and binary, writes "\0B". The
  // stream's precision is raised to at least 7 when write_header is true
  // (Kaldi's InitKaldiOutputStream). `atomic`: see the top of this file.
  void Open(const std::string &wxfilename, bool binary, bool write_header,
            bool atomic = false);
  bool IsOpen() const;
  std::ostream &Stream();
  // Flushes and closes. Fails on a write error, or when an output pipe's
  // command exits non-zero (the message names the command and its exit
  // status; 127 means the command was not found). An atomic output is
  // renamed into place only on success. On error: with `error` null throws
  // UserError, otherwise stores the message and returns false.
  bool Close(std::string *error = nullptr);
  const std::string &Name() const { return name_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string name_;
};

// Prefixes the message of a UserError with `context` (e.g. "Reading 'x'")
// and rethrows it, keeping its source location.
[[noreturn]] void RethrowWithContext(const UserError &e,
                                     const std::string &context);

// For a writer's UserError: when `os` has failed (a write error: disk full,
// `ulimit -f`, a reader that went away), rethrows "<context>: write error:
// <the system's reason> (disk full, or ...)" with errno as it was when the
// error was caught (`saved_errno`); otherwise as RethrowWithContext.
[[noreturn]] void RethrowWriteError(const UserError &e, const std::ostream &os,
                                    int saved_errno,
                                    const std::string &context);

// Reads an object with `void Read(std::istream&, bool binary)` from a whole
// extended filename (header detected). Errors name the file.
template <class T>
void ReadKaldiObject(const std::string &rxfilename, T *obj) {
  bool binary = false;
  Input ki(rxfilename, &binary);
  try {
    obj->Read(ki.Stream(), binary);
  } catch (const UserError &e) {
    RethrowWithContext(e, "Reading '" + PrintableRxfilename(rxfilename) + "'");
  }
  ki.Close();
}

// Matrices also accept a trailing range, "foo.mat[0:9]" or
// "foo.ark:123[0:9,2:5]" (see util/matrix-range.h). Defined in
// matrix-range.cc; declared here so that it is always the overload chosen.
void ReadKaldiObject(const std::string &rxfilename, Matrix *mat);

// Writes an object with `void Write(std::ostream&, bool binary) const`
// ("\0B" header when binary). Plain files are written atomically (temporary
// file, renamed on success).
template <class T>
void WriteKaldiObject(const T &obj, const std::string &wxfilename,
                      bool binary) {
  Output ko(wxfilename, binary, true, /*atomic=*/true);
  try {
    obj.Write(ko.Stream(), binary);
  } catch (const UserError &e) {
    RethrowWriteError(e, ko.Stream(), errno,
                      "Writing '" + PrintableWxfilename(wxfilename) + "'");
  }
  ko.Close();
}

}  // namespace nnet3

#endif  // NNET3_UTIL_KALDI_IO_H_
