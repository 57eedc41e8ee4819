#include "base/program.h"

#include <csignal>
#include <iostream>
#include <new>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"

namespace nnet3 {

int RunProgram(int argc, char *argv[], const std::function<int()> &body) {
  SetProgramName(argc > 0 ? argv[0] : "nnet3");
  std::signal(SIGPIPE, SIG_IGN);
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
    LogLine(kError, SourceLocation{__FILE__, __LINE__, __func__},
            "Out of memory");
    return 2;
  } catch (const std::exception &e) {
    LogLine(kError, SourceLocation{__FILE__, __LINE__, __func__},
            std::string("Unexpected exception: ") + e.what());
    return 2;
  }
}

}  // namespace nnet3
