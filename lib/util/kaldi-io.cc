#include "util/kaldi-io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <ext/stdio_filebuf.h>

#include "base/io-funcs.h"
#include "base/log.h"
#include "util/output-target.h"
#include "util/subprocess.h"
#include "util/table-specifier.h"

namespace nnet3 {
namespace {

using FdBuf = __gnu_cxx::stdio_filebuf<char>;
constexpr size_t kBufferSize = 1 << 16;

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)); }

// "foo:123" → true, with the part before the colon and the number.
bool SplitOffset(const std::string &name, std::string *file, int64_t *offset) {
  size_t colon = name.find_last_of(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == name.size())
    return false;
  for (size_t i = colon + 1; i < name.size(); i++)
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
  if (file) *file = name.substr(0, colon);
  if (offset) {
    errno = 0;
    *offset = std::strtoll(name.c_str() + colon + 1, nullptr, 10);
    if (errno == ERANGE) NNET3_ERR << "Offset too large in '" << name << "'";
  }
  return true;
}

// A filename that parses as "ark:..." or "scp:..." is almost certainly a
// scripting mistake, so we refuse it rather than create such a file.
bool LooksLikeSpecifier(const std::string &name) {
  return (name[0] == 'a' || name[0] == 's') &&
         name.find(':') != std::string::npos &&
         (IsRspecifier(name) || IsWspecifier(name));
}

// Wraps a descriptor we own in a buffered streambuf (which closes it).
std::unique_ptr<FdBuf> WrapFd(int fd, std::ios_base::openmode mode) {
  auto buf = std::make_unique<FdBuf>(fd, mode, kBufferSize);
  NNET3_ASSERT(buf->is_open());
  return buf;
}

// A close-on-exec duplicate of stdin/stdout, so that closing our stream
// never closes the process's descriptor.
int DupStandard(int fd, const char *what) {
  int dup = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (dup < 0) NNET3_ERR << "Cannot use " << what << ": " << strerror(errno);
  return dup;
}

std::string Quoted(const std::string &s) { return "'" + s + "'"; }

}  // namespace

InputType ClassifyRxfilename(const std::string &name) {
  if (name.empty() || name == "-") return InputType::kStandardInput;
  if (name.front() == '|') return InputType::kNoInput;  // an output pipe
  if (name.back() == '|') return InputType::kPipeInput;
  if (IsSpace(name.front()) || IsSpace(name.back())) return InputType::kNoInput;
  if (LooksLikeSpecifier(name)) return InputType::kNoInput;
  if (name.find('|') != std::string::npos) return InputType::kNoInput;
  if (SplitOffset(name, nullptr, nullptr)) return InputType::kOffsetFileInput;
  return InputType::kFileInput;
}

OutputType ClassifyWxfilename(const std::string &name) {
  if (name.empty() || name == "-") return OutputType::kStandardOutput;
  if (name.front() == '|') return OutputType::kPipeOutput;
  if (IsSpace(name.front()) || IsSpace(name.back()) || name.back() == '|')
    return OutputType::kNoOutput;
  if (LooksLikeSpecifier(name)) return OutputType::kNoOutput;
  // "foo:123" could be written but never read back as a whole file.
  if (SplitOffset(name, nullptr, nullptr)) return OutputType::kNoOutput;
  if (name.find('|') != std::string::npos) return OutputType::kNoOutput;
  return OutputType::kFileOutput;
}

std::string PrintableRxfilename(const std::string &name) {
  return name.empty() || name == "-" ? "standard input" : name;
}

std::string PrintableWxfilename(const std::string &name) {
  return name.empty() || name == "-" ? "standard output" : name;
}

void RethrowWithContext(const UserError &e, const std::string &context) {
  throw UserError(context + ": " + e.what(), e.where());
}

void RethrowWriteError(const UserError &e, const std::ostream &os,
                       int saved_errno, const std::string &context) {
  if (!os.fail() || saved_errno == 0) RethrowWithContext(e, context);
  throw UserError(context + ": write error: " + strerror(saved_errno) +
                      " (disk full, file-size limit, or the reader of a "
                      "pipe went away?)",
                  e.where());
}

// ---------------------------------------------------------------- Input

struct Input::Impl {
  InputType type = InputType::kNoInput;
  std::string file;  // the underlying file (offset and plain inputs)
  std::unique_ptr<FdBuf> buf;
  std::istream stream{nullptr};
  Subprocess process;

  void OpenFile(const std::string &filename, int64_t offset);
  void OpenPipe(const std::string &command);
  void Seek(int64_t offset, const std::string &rxfilename);
  // Closes the stream and reaps a pipe command; "" or an error message.
  std::string Finish(const std::string &rxfilename);
};

void Input::Impl::OpenFile(const std::string &filename, int64_t offset) {
  int fd = open(filename.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    NNET3_ERR << "Cannot open " << Quoted(filename)
              << " for reading: " << strerror(errno);
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close(fd);
    NNET3_ERR << "Cannot open " << Quoted(filename)
              << " for reading: it is a directory";
  }
  buf = WrapFd(fd, std::ios::in);
  stream.rdbuf(buf.get());
  stream.clear();
  file = filename;
  if (offset > 0) Seek(offset, filename + ":" + std::to_string(offset));
}

void Input::Impl::Seek(int64_t offset, const std::string &rxfilename) {
  struct stat st;
  if (fstat(buf->fd(), &st) == 0 && S_ISREG(st.st_mode) && offset >= st.st_size)
    NNET3_ERR
        << "Offset " << offset << " is at or past the end of " << Quoted(file)
        << " (" << st.st_size
        << " bytes): wrong offset in an scp file, or a truncated archive?";
  stream.clear();
  stream.seekg(offset, std::ios::beg);
  if (stream.fail())
    NNET3_ERR << "Cannot seek to byte " << offset << " in " << Quoted(file)
              << " (from " << Quoted(rxfilename) << ")";
}

void Input::Impl::OpenPipe(const std::string &command) {
  int fd = process.Start(command, SubprocessDirection::kReadFromCommand);
  buf = WrapFd(fd, std::ios::in);
  stream.rdbuf(buf.get());
  stream.clear();
  // Wait for the first byte: a command that fails before writing anything
  // ("false |", a missing program) is reported here, by name.
  if (stream.peek() == EOF) {
    int status = process.Wait();
    if (!ExitStatusOk(status, false)) {
      buf.reset();
      stream.rdbuf(nullptr);
      NNET3_ERR << "Input pipe command " << Quoted(process.Command())
                << " failed with " << DescribeExitStatus(status)
                << " before writing anything";
    }
  }
  stream.clear();
}

std::string Input::Impl::Finish(const std::string &rxfilename) {
  buf.reset();  // closes our end; a command still writing gets SIGPIPE
  stream.rdbuf(nullptr);
  std::string error;
  if (type == InputType::kPipeInput) {
    int status = process.Wait();
    if (!ExitStatusOk(status, true))
      error = "Input pipe command " + Quoted(process.Command()) + " (from " +
              Quoted(rxfilename) + ") failed with " +
              DescribeExitStatus(status);
  }
  type = InputType::kNoInput;
  file.clear();
  return error;
}

Input::Input() : impl_(std::make_unique<Impl>()) {}

Input::Input(const std::string &rxfilename, bool *binary) : Input() {
  Open(rxfilename, binary);
}

Input::~Input() {
  std::string error;
  if (!Close(&error)) NNET3_WARN << error;
}

bool Input::IsOpen() const { return impl_->type != InputType::kNoInput; }

std::istream &Input::Stream() {
  NNET3_ASSERT(IsOpen());
  return impl_->stream;
}

void Input::Open(const std::string &rxfilename, bool *binary) {
  InputType type = ClassifyRxfilename(rxfilename);
  std::string file;
  int64_t offset = 0;
  if (type == InputType::kOffsetFileInput)
    SplitOffset(rxfilename, &file, &offset);
  bool reuse = type == InputType::kOffsetFileInput && IsOpen() &&
               !impl_->file.empty() && impl_->file == file;
  if (reuse) {
    impl_->Seek(offset, rxfilename);
  } else {
    if (IsOpen()) Close();
    switch (type) {
      case InputType::kNoInput:
        NNET3_ERR << "Invalid input filename " << Quoted(rxfilename)
                  << " (see the rules for rxfilenames: files, '-', 'cmd |', "
                     "'file:offset')";
        break;
      case InputType::kStandardInput:
        impl_->buf = WrapFd(DupStandard(0, "standard input"), std::ios::in);
        impl_->stream.rdbuf(impl_->buf.get());
        impl_->stream.clear();
        break;
      case InputType::kPipeInput:
        impl_->OpenPipe(rxfilename.substr(0, rxfilename.size() - 1));
        break;
      case InputType::kFileInput:
        impl_->OpenFile(rxfilename, 0);
        break;
      case InputType::kOffsetFileInput:
        impl_->OpenFile(file, offset);
        break;
    }
    impl_->type = type;
  }
  name_ = rxfilename;
  if (binary && !InitKaldiInputStream(impl_->stream, binary))
    NNET3_ERR << Quoted(PrintableRxfilename(rxfilename))
              << " starts with a \\0 byte not followed by 'B': not a Kaldi "
                 "object (corrupted file or wrong offset?)";
}

bool Input::Close(std::string *error) {
  if (!IsOpen()) return true;
  std::string message = impl_->Finish(name_);
  if (message.empty()) return true;
  if (!error) NNET3_ERR << message;
  *error = message;
  return false;
}

// ---------------------------------------------------------------- Output

struct Output::Impl {
  OutputType type = OutputType::kNoOutput;
  std::string target;     // the file finally written (plain files)
  std::string temporary;  // non-empty for an atomic output
  // The temporary file has no name yet (O_TMPFILE): it gets `temporary` as
  // its name only at Close(), just before the rename.
  bool unnamed = false;
  std::unique_ptr<FdBuf> buf;
  std::ostream stream{nullptr};
  Subprocess process;

  void OpenFile(const std::string &filename, bool atomic);
  std::string Finish(const std::string &wxfilename);
  void Discard();
};

static int OpenForWriting(const std::string &path) {
  return open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
}

// An unnamed file in the directory of `path` (O_TMPFILE), which vanishes
// with the process if it is killed before Close(); -1 where the filesystem
// does not support that.
static int OpenUnnamed(const std::string &path) {
  size_t slash = path.find_last_of('/');
  std::string dir = slash == std::string::npos ? "."
                    : slash == 0               ? "/"
                                               : path.substr(0, slash);
  return open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
}

// Gives the unnamed file `fd` the name `path` (which must not exist).
static bool LinkUnnamed(int fd, const std::string &path) {
  std::string proc = "/proc/self/fd/" + std::to_string(fd);
  if (linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, path.c_str(),
             AT_SYMLINK_FOLLOW) == 0)
    return true;
  return linkat(fd, "", AT_FDCWD, path.c_str(), AT_EMPTY_PATH) == 0;
}

// Atomic outputs go through PlanOutputFile (util/output-target.h): regular
// files and new paths get a temporary file beside the real target, renamed on
// Close(); devices, FIFOs and /proc paths are written in place.
void Output::Impl::OpenFile(const std::string &filename, bool atomic) {
  static std::atomic<int> counter{0};
  OutputPlan plan;
  plan.file = filename;
  if (atomic) plan = PlanOutputFile(filename);
  std::string path = plan.file;
  int fd = -1;
  if (plan.replace) {
    path = plan.file + ".tmp." + std::to_string(getpid()) + "." +
           std::to_string(counter++);
    fd = OpenUnnamed(plan.file);
    unnamed = fd >= 0;
    if (!unnamed) fd = OpenForWriting(path);
    // A writable file in a directory we may not create files in: write it
    // in place, as Kaldi would, rather than fail.
    if (fd < 0 && plan.existed && (errno == EACCES || errno == EROFS)) {
      plan.replace = false;
      path = plan.file;
    } else if (fd >= 0 && plan.existed) {
      fchmod(fd, plan.mode);  // the replacement keeps the old permissions
    }
  }
  if (fd < 0 && !plan.replace) fd = OpenForWriting(path);
  if (fd < 0) {
    int err = errno;
    NNET3_ERR << "Cannot open " << Quoted(filename) << " for writing"
              << (plan.replace ? " (temporary file " + Quoted(path) + ")" : "")
              << ": " << strerror(err);
  }
  buf = WrapFd(fd, std::ios::out);
  target = plan.file;
  if (plan.replace) temporary = path;
}

std::string Output::Impl::Finish(const std::string &wxfilename) {
  std::string error;
  errno = 0;
  stream.flush();
  if (stream.fail()) {
    error = "Write error on " + Quoted(PrintableWxfilename(wxfilename));
    if (errno != 0) error += std::string(": ") + strerror(errno);
  }
  if (unnamed && buf && error.empty() && !LinkUnnamed(buf->fd(), temporary))
    error = "Cannot create " + Quoted(temporary) + " (to be renamed to " +
            Quoted(target) + "): " + strerror(errno);
  if (buf && buf->close() == nullptr && error.empty())
    error = "Error closing " + Quoted(PrintableWxfilename(wxfilename)) + ": " +
            strerror(errno);
  buf.reset();
  stream.rdbuf(nullptr);
  if (type == OutputType::kPipeOutput) {
    int status = process.Wait();
    // The command's failure explains a write error (EPIPE), so it wins.
    if (!ExitStatusOk(status, false))
      error = "Output pipe command " + Quoted(process.Command()) + " (from " +
              Quoted(wxfilename) + ") failed with " +
              DescribeExitStatus(status);
  }
  if (!temporary.empty()) {
    if (error.empty() && rename(temporary.c_str(), target.c_str()) != 0)
      error = "Cannot rename " + Quoted(temporary) + " to " + Quoted(target) +
              ": " + strerror(errno);
    if (!error.empty()) unlink(temporary.c_str());
    temporary.clear();
  }
  unnamed = false;
  type = OutputType::kNoOutput;
  return error;
}

void Output::Impl::Discard() {
  buf.reset();
  stream.rdbuf(nullptr);
  if (!unnamed) unlink(temporary.c_str());  // an unnamed file just vanishes
  unnamed = false;
  temporary.clear();
  type = OutputType::kNoOutput;
}

Output::Output() : impl_(std::make_unique<Impl>()) {}

Output::Output(const std::string &wxfilename, bool binary, bool write_header,
               bool atomic)
    : Output() {
  Open(wxfilename, binary, write_header, atomic);
}

Output::~Output() {
  if (IsOpen() && !impl_->temporary.empty()) {
    // While an error propagates, the program reports it in one line; the
    // output is discarded without a second message.
    if (std::uncaught_exceptions() == 0)
      NNET3_WARN << "Output " << Quoted(impl_->target)
                 << " was not closed: not writing it";
    impl_->Discard();
    return;
  }
  std::string error;
  if (!Close(&error)) NNET3_WARN << error;
}

bool Output::IsOpen() const { return impl_->type != OutputType::kNoOutput; }

std::ostream &Output::Stream() {
  NNET3_ASSERT(IsOpen());
  return impl_->stream;
}

void Output::Open(const std::string &wxfilename, bool binary, bool write_header,
                  bool atomic) {
  if (IsOpen()) Close();
  OutputType type = ClassifyWxfilename(wxfilename);
  switch (type) {
    case OutputType::kNoOutput:
      NNET3_ERR << "Invalid output filename " << Quoted(wxfilename)
                << " (see the rules for wxfilenames: files, '-', '| cmd')";
      break;
    case OutputType::kStandardOutput:
      impl_->buf = WrapFd(DupStandard(1, "standard output"), std::ios::out);
      break;
    case OutputType::kPipeOutput: {
      int fd = impl_->process.Start(wxfilename.substr(1),
                                    SubprocessDirection::kWriteToCommand);
      impl_->buf = WrapFd(fd, std::ios::out);
      break;
    }
    case OutputType::kFileOutput:
      impl_->OpenFile(wxfilename, atomic);
      break;
  }
  impl_->type = type;
  impl_->stream.rdbuf(impl_->buf.get());
  impl_->stream.clear();
  name_ = wxfilename;
  if (write_header) InitKaldiOutputStream(impl_->stream, binary);
}

bool Output::Close(std::string *error) {
  if (!IsOpen()) return true;
  std::string message = impl_->Finish(name_);
  if (message.empty()) return true;
  if (!error) NNET3_ERR << message;
  *error = message;
  return false;
}

}  // namespace nnet3
