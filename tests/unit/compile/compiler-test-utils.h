// Helpers shared by the [compiler] tests: networks from inline config
// text, simple requests over t ranges, and a check of the step rules.
#ifndef NNET3_TESTS_UNIT_COMPILE_COMPILER_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_COMPILE_COMPILER_TEST_UTILS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compile/computation-graph.h"
#include "compile/computation-request.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Reads `config` into a new network (Catch2 fails on UserError).
Nnet CompilerTestNnet(const std::string &config);

// Indexes (n, t, 0) for n in [0, num_n), t in [t_begin, t_end), n-major.
std::vector<Index> MakeIndexes(int32_t t_begin, int32_t t_end,
                               int32_t num_n = 1);

// "input" over [in_begin, in_end), "output" over [out_begin, out_end).
ComputationRequest SimpleRequest(int32_t in_begin, int32_t in_end,
                                 int32_t out_begin, int32_t out_end,
                                 int32_t num_n = 1);

// Checks (with Catch2 REQUIREs) that `steps` obey the rules documented in
// compile/computation-steps.h for this graph and request.
void CheckStepRules(const Nnet &nnet, const ComputationRequest &request,
                    const ComputationGraph &graph,
                    const std::vector<std::vector<int32_t>> &steps);

// Some small networks (config text).
extern const char *const kFeedForwardConfig;  // affine, relu, affine
extern const char *const kTdnnConfig;         // +-2 splicing twice
extern const char *const kRnnConfig;          // IfDefined(Offset(r, -1))
extern const char *const kFailoverConfig;     // Failover(Offset(r, -1), input)
extern const char *const kClockworkConfig;    // Round and Switch
extern const char *const kDimRangeConfig;     // dim-range nodes, Sum, Const

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_COMPILE_COMPILER_TEST_UTILS_H_
