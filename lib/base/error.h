// Errors: UserError for anything a user can cause (bad config, missing file,
// truncated archive, dimension mismatch), InternalError for broken invariants.
//
//   NNET3_ERR << "Cannot open '" << name << "': " << strerror(errno);
//   NNET3_ASSERT(rows >= 0);
//
// NNET3_ERR collects a message and throws UserError at the end of the
// statement; NNET3_ASSERT throws InternalError naming the failed condition.
// Both record the function, file and line, so that the program helper
// (program.h) prints one Kaldi-shaped line:
//   ERROR (prog[version]:Function():file.cc:line) message
// Library code never calls abort() or exit().
#ifndef NNET3_BASE_ERROR_H_
#define NNET3_BASE_ERROR_H_

#include <sstream>
#include <stdexcept>
#include <string>

namespace nnet3 {

// Where a message came from.
struct SourceLocation {
  const char *file = "";
  int line = 0;
  const char *function = "";
};

class Error : public std::runtime_error {
 public:
  Error(const std::string &message, const SourceLocation &where)
      : std::runtime_error(message), where_(where) {}
  const SourceLocation &where() const { return where_; }

 private:
  SourceLocation where_;
};

// Something the user can fix: the message says what, where, and what to do.
class UserError : public Error {
 public:
  using Error::Error;
};

// A broken invariant in our code.
class InternalError : public Error {
 public:
  using Error::Error;
};

// Collects a message with operator<< and throws when the statement ends.
template <class E>
class ErrorThrower {
 public:
  ErrorThrower(const char *file, int line, const char *function)
      : where_{file, line, function} {}
  ErrorThrower(const ErrorThrower &) = delete;
  ~ErrorThrower() noexcept(false) { throw E(stream_.str(), where_); }
  template <class T>
  ErrorThrower &operator<<(const T &value) {
    stream_ << value;
    return *this;
  }

 private:
  SourceLocation where_;
  std::ostringstream stream_;
};

// Returns "file.cc" for "/a/b/file.cc".
const char *BaseName(const char *path);

}  // namespace nnet3

#define NNET3_ERR \
  ::nnet3::ErrorThrower<::nnet3::UserError>(__FILE__, __LINE__, __func__)

#define NNET3_INTERNAL_ERR \
  ::nnet3::ErrorThrower<::nnet3::InternalError>(__FILE__, __LINE__, __func__)

#define NNET3_ASSERT(cond)                                           \
  do {                                                               \
    if (!(cond))                                                     \
      NNET3_INTERNAL_ERR << "Assertion failed: (" << #cond << ")";   \
  } while (0)

#endif  // NNET3_BASE_ERROR_H_
