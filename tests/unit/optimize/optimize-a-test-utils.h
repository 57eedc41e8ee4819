// Helpers for the [optimize-a] and [optimize-diff] tests: compiling
// requests, listings, random I/O for a request, running a computation with
// NnetComputer (inputs by node name) and comparing two runs' outputs, input
// derivatives and model gradients with tolerances.
//
//   NnetComputation c = passes_a::Compile(nnet, request);
//   passes_a::Io io = passes_a::RandomIo(nnet, request, seed);
//   passes_a::Results r1 = passes_a::Run(nnet, c, io), r2 = ...;
//   std::string diff = passes_a::Compare(r1, r2, 1e-4f);  // "" if equal
#ifndef NNET3_TESTS_UNIT_OPTIMIZE_OPTIMIZE_A_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_OPTIMIZE_OPTIMIZE_A_TEST_UTILS_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "matrix/matrix.h"
#include "nnet/nnet.h"

namespace nnet3 {
namespace passes_a {

// Reads config text into a network.
Nnet NnetFromConfigText(const std::string &config);

// input (dim 3) -> affine -> relu; output = Sum(relu, Offset(relu, 1)).
extern const char *const kFeedForwardConfig;
// input (dim 2); affine on Append(input, IfDefined(Offset(tanh, -1)));
// tanh; output = tanh. Backprop runs through "affine" once per frame.
extern const char *const kRecurrentConfig;
// No components: input (dim 3) and outputs o1..o4 (= input), for
// hand-written computations.
Nnet IoNnet();

// "input" over t in [in_begin, in_end), "output" over [out_begin, out_end),
// one sequence; with `backward`, every derivative and the model's.
ComputationRequest SimpleTrainingRequest(int32_t in_begin, int32_t in_end,
                                         int32_t out_begin, int32_t out_end,
                                         bool backward);

// Compiles the request (debug info on) and checks the result with
// check_rewrite, as the caching compiler does before optimizing.
NnetComputation Compile(const Nnet &nnet, const ComputationRequest &request);

// The commands, one per line, as GetCommandStrings prints them.
std::string Listing(const Nnet &nnet, const NnetComputation &computation);

// Input values (by input name) and output derivatives (by output name).
struct Io {
  std::map<std::string, Matrix> input_values;
  std::map<std::string, Matrix> output_derivs;
};
// N(0, 1) matrices shaped for the request, from `seed`; output derivatives
// only for outputs with has_deriv.
Io RandomIo(const Nnet &nnet, const ComputationRequest &request, uint64_t seed);

struct Results {
  // "value:<output name>" and "deriv:<input name>" -> the matrix provided.
  std::map<std::string, Matrix> provided;
  // A zeroed gradient copy of the nnet that received the model update.
  Nnet gradient;
};
// Random matrices shaped like the computation's kAcceptInput matrices.
Io RandomIoForComputation(const Nnet &nnet, const NnetComputation &computation,
                          uint64_t seed);

// Runs the computation, feeding inputs at every I/O stop (so it works on
// unoptimized computations, whose inputs are spread over the forward
// pass).
Results Run(const Nnet &nnet, const NnetComputation &computation, const Io &io);

// "" if both runs provided the same matrices and gradients within `tol`
// (relative to the larger of 1 and the largest magnitude), else what
// differs.
std::string Compare(const Results &a, const Results &b, float tol);

// Checks `after` (ComputationChecker) and that it gives `before`'s results
// on random I/O from `seed` (Catch CHECKs).
void CheckSameResults(const Nnet &nnet, const NnetComputation &before,
                      const NnetComputation &after, uint64_t seed);

// Number of occurrences of `what` in `text`.
int32_t CountOf(const std::string &text, const std::string &what);

// Redirects stderr (fd 2) to /dev/null while it exists: the per-pass log
// lines of check_after_each_pass would flood the test output.
class QuietStderr {
 public:
  QuietStderr();
  ~QuietStderr();
  QuietStderr(const QuietStderr &) = delete;
  QuietStderr &operator=(const QuietStderr &) = delete;

 private:
  int saved_fd_ = -1;
};

// Collects what is written to stderr (fd 2) while it exists into *text.
class CaptureStderr {
 public:
  explicit CaptureStderr(std::string *text);
  ~CaptureStderr();
  CaptureStderr(const CaptureStderr &) = delete;
  CaptureStderr &operator=(const CaptureStderr &) = delete;

 private:
  std::string *text_;
  std::FILE *file_ = nullptr;
  int saved_fd_ = -1;
};

}  // namespace passes_a
}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_OPTIMIZE_OPTIMIZE_A_TEST_UTILS_H_
