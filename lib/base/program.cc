#include "base/program.h"

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"

namespace nnet3 {

namespace {

int RunBody(const std::function<int()> &body) {
  const int kError = static_cast<int>(LogSeverity::kError);
  try {
    int status = body();
    std::cout.flush();
    if (!std::cout) {
      LogLine(kError, SourceLocation{__FILE__, __LINE__, __func__},
              "Failed to write to standard output");
      return 1;
    }
    return status;
  } catch (const ExitRequest &e) {
    return e.code();
  } catch (const UserError &e) {
    LogLine(kError, e.where(), e.what());
    return 1;
  } catch (const InternalError &e) {
    LogLine(kError, e.where(),
            std::string(e.what()) + " (this is a bug; please report it)");
    return 2;
  } catch (const std::bad_alloc &) {
    // Not a bug: the machine (or the memory limit) is too small.
    LogLine(kError, SourceLocation{__FILE__, __LINE__, __func__},
            "Out of memory: a memory allocation failed; raise the memory "
            "limit (ulimit -v) or use a smaller model or minibatch");
    return 1;
  } catch (const std::exception &e) {
    LogLine(kError, SourceLocation{__FILE__, __LINE__, __func__},
            std::string("Unexpected exception: ") + e.what());
    return 2;
  }
}

// Under an address-space limit (ulimit -v, or a batch scheduler's h_vmem)
// every BLAS worker thread takes a 128 MiB buffer when it starts and,
// when that does not fit, retries for ever, hanging the program. How many
// threads the library starts is read from OPENBLAS_NUM_THREADS when it is
// loaded, before main(): so start again, once, with it set to 1
// (device/blas-workspace.h then reserves the one buffer that is left).
// oneDNN's OpenMP threads (OMP_NUM_THREADS) likewise crash when their
// stacks do not fit, so they are limited to one as well.
void RestartSingleThreadedIfLimited(char *argv[]) {
  if (argv == nullptr || argv[0] == nullptr || AddressSpaceLimitBytes() == 0)
    return;
  const char *threads = std::getenv("OPENBLAS_NUM_THREADS");
  const char *omp = std::getenv("OMP_NUM_THREADS");
  if (threads != nullptr && std::string(threads) == "1" && omp != nullptr &&
      std::string(omp) == "1")
    return;
  setenv("OPENBLAS_NUM_THREADS", "1", 1);
  setenv("OMP_NUM_THREADS", "1", 1);
  execv("/proc/self/exe", argv);
  // Could not start again: go on with the threads we have.
}

}  // namespace

uint64_t AddressSpaceLimitBytes() {
  struct rlimit limit;
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return 0;
  return static_cast<uint64_t>(limit.rlim_cur);
}

int RunProgram(int argc, char *argv[], const std::function<int()> &body) {
  if (argc > 0) RestartSingleThreadedIfLimited(argv);
  SetProgramName(argc > 0 ? argv[0] : "nnet3");
  std::signal(SIGPIPE, SIG_IGN);
  // Past `ulimit -f` a write fails with EFBIG (reported like a full disk)
  // instead of the process being killed.
  std::signal(SIGXFSZ, SIG_IGN);
  return RunBody(body);
}

}  // namespace nnet3
