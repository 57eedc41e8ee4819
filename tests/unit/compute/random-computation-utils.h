// Helpers for the tests that run compiled computations of the random
// networks of tests/unit/compile/nnet-test-utils.h (the reference-evaluator
// test and the whole-network derivative test):
//
//   Nnet nnet = NnetFromConfigSequence(configs);
//   PrepareNnetForTest(seed, &nnet);         // batch-norm/dropout test mode
//   NnetComputation computation = CompileAndCheck(nnet, request);
//   ComputationIo io;
//   io.inputs = inputs;                      // one per request input
//   RunComputationIo(request, computation, nnet, nullptr, &io);
//   // io.outputs[i]: values of request.outputs[i]
//
// RunComputationIo drives an NnetComputer through every I/O boundary of the
// computation in command order, whatever the order of the kAcceptInput /
// kProvideOutput commands (unoptimized computations interleave them with
// the work), so it suits optimized and unoptimized computations alike.
#ifndef NNET3_TESTS_UNIT_COMPUTE_RANDOM_COMPUTATION_UTILS_H_
#define NNET3_TESTS_UNIT_COMPUTE_RANDOM_COMPUTATION_UTILS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "matrix/matrix.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Makes a network's output a fixed, row-wise, smooth-enough function of its
// input: every BatchNormComponent gets stats from random data (seeded by
// `seed`) and test mode; random components get test mode.
void PrepareNnetForTest(uint64_t seed, Nnet *nnet);

// Compiles `request` (with debug info) and runs the ComputationChecker;
// with `optimize`, also runs Optimize() with default options.
NnetComputation CompileAndCheck(const Nnet &nnet,
                                const ComputationRequest &request,
                                bool optimize = false);

// The matrices that go into and come out of one run, by position in the
// request: inputs[i] and input_derivs[i] for request.inputs[i],
// output_derivs[i] and outputs[i] for request.outputs[i].
struct ComputationIo {
  std::vector<Matrix> inputs;         // given (copied, not consumed)
  std::vector<Matrix> output_derivs;  // given where has_deriv
  std::vector<Matrix> outputs;        // filled
  std::vector<Matrix> input_derivs;   // filled where has_deriv
};

// Runs `computation` (compiled from `request`) to the end; see the file
// comment. `nnet_to_update` may be null unless the request needs a model
// derivative.
void RunComputationIo(const ComputationRequest &request,
                      const NnetComputation &computation, const Nnet &nnet,
                      Nnet *nnet_to_update, ComputationIo *io);

// For test logs: the configs separated by "---", and the printed request.
std::string ConfigsToString(const std::vector<std::string> &configs);
std::string RequestToString(const ComputationRequest &request);

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_COMPUTE_RANDOM_COMPUTATION_UTILS_H_
