// Helpers for the [optimize-b] tests (row-op passes, renumbering, matrix
// extension, variable merging): networks from config text, listings of
// computations, and "before and after give the same results" checks that
// run both computations with NnetComputer on the same random inputs.
//
//   Nnet nnet = RowOpsNnet();
//   NnetComputation before = ..., after = before;
//   REQUIRE(SnipRowOps(&after));
//   CheckEquivalent(nnet, before, after, /*seed=*/7);
#ifndef NNET3_TESTS_UNIT_OPTIMIZE_ROWOPS_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_OPTIMIZE_ROWOPS_TEST_UTILS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "matrix/matrix.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Reads `config` into a new network.
Nnet NnetFromText(const std::string &config);

// Nodes: input 0 (dim 3), input2 1 (dim 3), output 2 (dim 3), output2 3
// (dim 6). No components: for hand-written row-op computations.
Nnet RowOpsNnet();
constexpr int32_t kInputNode = 0, kInput2Node = 1, kOutputNode = 2,
                  kOutput2Node = 3;

// Inputs "input", "input2" (dim 3); components relu (0), softmax (1),
// affine (2, 3 -> 3, updatable), normalize (3, NormalizeComponent dim 3);
// outputs "output" = softmax(relu(input)), "output2" =
// normalize(affine(input2)), "output3" = Append(relu, affine) (dim 6).
// Node numbers: use GetNodeIndex.
Nnet MergingNnet();

// The commands as GetCommandStrings prints them, one per line.
std::string Listing(const Nnet &nnet, const NnetComputation &computation);

// What a run produced: every kProvideOutput matrix in command order, and
// the model gradient (when the computation updates the model).
struct RunResults {
  std::vector<std::string> names;
  std::vector<Matrix> values;
  bool has_gradient = false;
  Nnet gradient;
};

// Runs `computation` with NnetComputer; the k-th kAcceptInput gets N(0, 1)
// entries from seed + k. Updates go to a zeroed gradient copy of `nnet`.
RunResults RunComputation(const Nnet &nnet, const NnetComputation &computation,
                          uint64_t seed);

// Checks both computations (ComputationChecker, not check_rewrite; `before`
// only if check_before), runs them on the same inputs and requires the same
// outputs and gradient (relative tolerance `tol`).
void CheckEquivalent(const Nnet &nnet, const NnetComputation &before,
                     const NnetComputation &after, uint64_t seed,
                     bool check_before = true, float tol = 1e-5f);

// Compiles `request` for `nnet` (debug info on) and checks the result.
NnetComputation CompileForTest(const Nnet &nnet,
                               const ComputationRequest &request);

// A request for "input" over t in [in_begin, in_end) and "output" over
// [out_begin, out_end) with num_n sequences; derivatives as asked.
ComputationRequest TimeRequest(int32_t in_begin, int32_t in_end,
                               int32_t out_begin, int32_t out_end,
                               int32_t num_n, bool backprop);

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_OPTIMIZE_ROWOPS_TEST_UTILS_H_
