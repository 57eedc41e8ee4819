#include "fuzz-common.h"

#include <spdlog/spdlog.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "base/log.h"

namespace nnet3 {
namespace fuzz {

void QuietLogs() {
  static bool done = false;
  if (done) return;
  done = true;
  SetProgramName("fuzz");
  // NNET3_FUZZ_LOG=1 keeps the logs, to see why an input is rejected.
  const char *keep = std::getenv("NNET3_FUZZ_LOG");
  if (keep == nullptr || std::string(keep) != "1")
    spdlog::default_logger()->set_level(spdlog::level::off);
}

void Fail(const std::string &message) {
  std::fprintf(stderr, "FUZZ FAILURE: %s\n", message.c_str());
  std::abort();
}

MemFile::MemFile(const void *data, size_t size) {
  fd_ = memfd_create("fuzz-input", MFD_CLOEXEC);
  if (fd_ < 0) Fail("memfd_create failed");
  const char *p = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t n = write(fd_, p, size);
    if (n <= 0) Fail("writing to a memfd failed");
    p += n;
    size -= static_cast<size_t>(n);
  }
  path_ = "/proc/self/fd/" + std::to_string(fd_);
}

MemFile::~MemFile() { close(fd_); }

}  // namespace fuzz
}  // namespace nnet3
