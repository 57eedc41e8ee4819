// The one helper every program's main uses:
//
//   int main(int argc, char *argv[]) {
//     return nnet3::RunProgram(argc, argv, [&]() -> int {
//       OptionsRegistry po(kUsage);
//       ...
//       po.Read(argc, argv);
//       if (po.NumArgs() != 2) { po.PrintUsage(); return 1; }
//       ...
//       return 0;
//     });
//   }
//
// It sets the program name used on every log line, runs the body, and turns
// what escapes it into Kaldi's exit statuses: ExitRequest (from --help or a
// bad option) → its code; UserError → one `ERROR (...)` line, status 1;
// std::bad_alloc → an out-of-memory `ERROR (...)` line, status 1;
// InternalError or any other exception → one `ERROR (...)` line, status 2.
// Under an address-space limit (ulimit -v) it first starts the program
// again with OPENBLAS_NUM_THREADS=1, so that no BLAS worker thread can hang
// retrying an allocation that does not fit (device/blas-workspace.h).
// Also ignores SIGPIPE so that `prog ... | head` ends with a write error
// instead of a silent kill, and SIGXFSZ so that a write past `ulimit -f`
// is a write error ("File too large") instead of a kill.
#ifndef NNET3_BASE_PROGRAM_H_
#define NNET3_BASE_PROGRAM_H_

#include <cstdint>
#include <functional>

namespace nnet3 {

int RunProgram(int argc, char *argv[], const std::function<int()> &body);

// The process's address-space limit (ulimit -v) in bytes; 0 when there is
// none. RunProgram's restart, the BLAS workspace and the choice of matrix
// product library all depend on it.
uint64_t AddressSpaceLimitBytes();

}  // namespace nnet3

#endif  // NNET3_BASE_PROGRAM_H_
