#include "util/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/error.h"
#include "base/log.h"
#include "base/text-utils.h"

extern char **environ;

namespace nnet3 {

Subprocess::~Subprocess() {
  if (pid_ > 0) {
    int status = Wait();
    if (!ExitStatusOk(status, true))
      NNET3_WARN << "Pipe command '" << command_ << "' ended with "
                 << DescribeExitStatus(status);
  }
}

int Subprocess::Start(const std::string &command_line,
                      SubprocessDirection direction) {
  NNET3_ASSERT(pid_ <= 0);
  const std::string command = Trim(command_line);  // for messages
  bool child_writes = direction == SubprocessDirection::kReadFromCommand;
  if (!child_writes) signal(SIGPIPE, SIG_IGN);  // see the header
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    NNET3_ERR << "Cannot create a pipe for command '" << command
              << "': " << strerror(errno);
  int child_end = child_writes ? fds[1] : fds[0];
  int our_end = child_writes ? fds[0] : fds[1];

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 clears close-on-exec on the target descriptor.
  posix_spawn_file_actions_adddup2(&actions, child_end, child_writes ? 1 : 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGXFSZ);  // programs ignore it (base/program.h)
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  const char *argv[] = {"sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  int err = posix_spawn(&pid, "/bin/sh", &actions, &attr,
                        const_cast<char *const *>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(child_end);
  if (err != 0) {
    close(our_end);
    NNET3_ERR << "Cannot run pipe command '" << command
              << "': " << strerror(err);
  }
  pid_ = pid;
  status_ = 0;
  command_ = command;
  return our_end;
}

int Subprocess::Wait() {
  if (pid_ <= 0) return status_;
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0) {
    if (errno != EINTR) {
      status = 0;  // already reaped elsewhere: nothing to report
      break;
    }
  }
  pid_ = -1;
  status_ = status;
  return status_;
}

bool ExitStatusOk(int status, bool allow_sigpipe) {
  if (WIFEXITED(status)) {
    int code = WEXITSTATUS(status);
    return code == 0 || (allow_sigpipe && code == 128 + SIGPIPE);
  }
  if (WIFSIGNALED(status)) return allow_sigpipe && WTERMSIG(status) == SIGPIPE;
  return false;
}

std::string DescribeExitStatus(int status) {
  if (WIFEXITED(status)) {
    int code = WEXITSTATUS(status);
    std::string ans = "exit status " + std::to_string(code);
    if (code == 127) ans += " (command not found)";
    if (code == 126) ans += " (command not executable)";
    return ans;
  }
  if (WIFSIGNALED(status))
    return "signal " + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  return "wait status " + std::to_string(status);
}

}  // namespace nnet3
