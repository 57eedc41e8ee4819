// Shell commands connected to us by a pipe: the engine behind input pipes
// ("cmd |") and output pipes ("| cmd") in util/kaldi-io.h.
//
//   Subprocess p;
//   int fd = p.Start("gunzip -c x.gz", SubprocessDirection::kReadFromCommand);
//   ... read fd until EOF, close(fd) ...
//   int status = p.Wait();            // as from waitpid()
//   if (!ExitStatusOk(status, ...)) ... DescribeExitStatus(status) ...
//
// The command runs as `/bin/sh -c command` with SIGPIPE and SIGXFSZ restored
// to their defaults (even when we ignore them) and an empty signal mask, so it
// behaves as it would in a shell pipeline. Our pipe ends are close-on-exec, so
// one command never inherits another's pipe (which would hide end-of-file).
// Starting an output pipe makes this process ignore SIGPIPE, so that writing
// to a command that died is a write error we can report, not a silent kill.
#ifndef NNET3_UTIL_SUBPROCESS_H_
#define NNET3_UTIL_SUBPROCESS_H_

#include <sys/types.h>

#include <string>

namespace nnet3 {

enum class SubprocessDirection {
  kReadFromCommand,  // we read the command's stdout
  kWriteToCommand,   // we write the command's stdin
};

class Subprocess {
 public:
  Subprocess() = default;
  // Waits for a command still running (after our end should be closed).
  ~Subprocess();
  Subprocess(const Subprocess &) = delete;
  Subprocess &operator=(const Subprocess &) = delete;

  // Starts `command`; returns our end of the pipe (the caller owns and
  // closes it). Throws UserError if the pipe or process cannot be created.
  int Start(const std::string &command, SubprocessDirection direction);
  bool Running() const { return pid_ > 0; }
  // Waits for the command to exit and returns its wait status; returns the
  // stored status if already waited for.
  int Wait();
  const std::string &Command() const { return command_; }

 private:
  pid_t pid_ = -1;
  int status_ = 0;
  std::string command_;
};

// True for exit status 0. With `allow_sigpipe`, also true for a command that
// was killed by SIGPIPE (or whose shell reports 128+SIGPIPE): that is what
// happens when we stop reading an input pipe early.
bool ExitStatusOk(int status, bool allow_sigpipe);
// "exit status 1", "exit status 127 (command not found)", "signal 9".
std::string DescribeExitStatus(int status);

}  // namespace nnet3

#endif  // NNET3_UTIL_SUBPROCESS_H_
