// Logging to stderr over spdlog, in Kaldi's line shape so that existing
// log-parsing scripts keep working:
//   LOG (nnet3-init[0.1.0]:main():nnet3-init.cc:42) message
//   WARNING (...) / ERROR (...) / VLOG[2] (...)
//
//   NNET3_LOG << "Wrote model to " << name;
//   NNET3_WARN << "Ignoring ...";
//   NNET3_VLOG(2) << "details";   // printed when --verbose >= 2
//
// stdout carries data only; nothing here ever writes to it. The program name
// is set once by the program helper (program.h).
#ifndef NNET3_BASE_LOG_H_
#define NNET3_BASE_LOG_H_

#include <sstream>
#include <string>

#include "base/error.h"

namespace nnet3 {

enum class LogSeverity { kError = -2, kWarning = -1, kInfo = 0 };

void SetProgramName(const std::string &name);
const std::string &ProgramName();
void SetVerboseLevel(int level);
int VerboseLevel();

// Writes one line. severity > 0 means VLOG[severity].
void LogLine(int severity, const SourceLocation &where,
             const std::string &message);

class LogMessage {
 public:
  LogMessage(int severity, const char *file, int line, const char *function)
      : severity_(severity), where_{file, line, function} {}
  LogMessage(const LogMessage &) = delete;
  ~LogMessage() { LogLine(severity_, where_, stream_.str()); }
  template <class T>
  LogMessage &operator<<(const T &value) {
    stream_ << value;
    return *this;
  }

 private:
  int severity_;
  SourceLocation where_;
  std::ostringstream stream_;
};

}  // namespace nnet3

#define NNET3_LOG ::nnet3::LogMessage(0, __FILE__, __LINE__, __func__)
#define NNET3_WARN ::nnet3::LogMessage(-1, __FILE__, __LINE__, __func__)
#define NNET3_VLOG(v)                      \
  if ((v) > ::nnet3::VerboseLevel()) {     \
  } else                                   \
    ::nnet3::LogMessage((v), __FILE__, __LINE__, __func__)

#endif  // NNET3_BASE_LOG_H_
