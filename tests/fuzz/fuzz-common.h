// Shared pieces of the libFuzzer targets in tests/fuzz/.
//
// Each target is one file defining LLVMFuzzerTestOneInput, built two ways:
// with -Dfuzz=true (clang, -fsanitize=fuzzer; scripts/fuzz.sh) as a fuzzer,
// and in every test build with replay-main.cc as a program that runs the
// target on each file of its corpus (the regression test, suite 'fuzz').
//
// The contract every target checks: bad bytes end in a UserError (the one
// clear ERROR line a program prints before exiting 1), never in a crash, a
// hang, an InternalError, an unbounded allocation or another exception.
// RunExpectingUserError swallows UserError and nothing else, so anything
// else reaches libFuzzer (or the replay program) as a crash.
#ifndef NNET3_TESTS_FUZZ_FUZZ_COMMON_H_
#define NNET3_TESTS_FUZZ_FUZZ_COMMON_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "base/error.h"

namespace nnet3 {
namespace fuzz {

// Turns logging off (warnings about bad input would flood the fuzzer's
// output and slow it down) unless NNET3_FUZZ_LOG=1. Call at the start of
// every input; cheap.
void QuietLogs();

template <class F>
void RunExpectingUserError(F &&body) {
  try {
    body();
  } catch (const UserError &) {
  }
}

// Aborts with `message` on stderr: for properties that must hold after a
// successful read (a round trip that does not reproduce itself).
[[noreturn]] void Fail(const std::string &message);

// An in-memory file holding some bytes, with a path that the toolkit's
// Input (util/kaldi-io.h) opens like any regular file: "/proc/self/fd/N"
// of a memfd. Closed on destruction.
class MemFile {
 public:
  MemFile(const void *data, size_t size);
  explicit MemFile(const std::string &data)
      : MemFile(data.data(), data.size()) {}
  ~MemFile();
  MemFile(const MemFile &) = delete;
  MemFile &operator=(const MemFile &) = delete;
  const std::string &Path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

// The input as a string.
inline std::string AsString(const uint8_t *data, size_t size) {
  return std::string(reinterpret_cast<const char *>(data), size);
}

}  // namespace fuzz
}  // namespace nnet3

#endif  // NNET3_TESTS_FUZZ_FUZZ_COMMON_H_
