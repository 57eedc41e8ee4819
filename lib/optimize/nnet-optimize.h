// Optimize(): the optimizer as a straight list of passes (Kaldi's
// Optimize(); reference 8.1). Each pass is a function in its own file pair
// that returns whether it changed the computation and is switched by an
// option of NnetOptimizeOptions; Optimize() runs them in Kaldi's order:
//
//   1 LimitDerivativeTimes (only if a deriv-time limit is set)
//   2 ConsolidateModelUpdate        3 ConvertAdditionToAssignment
//   4 SnipRowOps, SplitRowOps, ReplaceRowWithMatrixOps, then
//     RenumberComputation if any of them changed something
//   5 ExtendMatrices                6 VariableMergingOptimization
//   7 RemoveUnnecessaryZeroing, then (ours, not on looped computations)
//     FuseReluIntoAffine, FuseScaleAndAdd, FuseZeroing
//                                   8 MoveSizingCommands
//   9 OptimizeLoopedComputation (looped only; optimize-looped-computation.h)
//  10 RemoveUnnecessaryAllocation  11 ConsolidateIoOperations (always)
//  12 FixGotoLabel (looped only)   13 OptimizeMemoryCompression
// With opts.optimize_looped_computation (set by CompileLooped, not a
// command-line option), ExtendMatrices, RemoveUnnecessaryAllocation and
// OptimizeMemoryCompression are skipped and MoveSizingCommands and the
// looped pass run even with `optimize` off, as in Kaldi; so does
// OptimizeMemoryCompression (at --memory-compression-level >= 1, the
// default) in a computation that is not looped.
//
//   NnetComputation computation;
//   compiler.CreateComputation(CompilerOptions(), &computation);
//   Optimize(opts, nnet, MaxOutputTimeInRequest(request), &computation);
//
// Needs: a computation as the Compiler makes it (it passes
// ComputationChecker with check_rewrite). Guarantees: the result computes
// the same outputs, input derivatives and model updates (within the
// quantization at memory-compression level 2), passes the checker, uses no
// more peak memory (GetMaxMemoryUse; a compression at the peak itself can
// add its packed bytes, as in Kaldi) and has its
// kAcceptInput / kProvideOutput commands at segment boundaries (so
// NnetComputer may accept all inputs before the first Run()). With
// opts.check_after_each_pass or at --verbose >= 3, the checker runs after
// every pass, a failure throws InternalError naming the pass, and each pass
// logs "pass <name>: changed=<yes|no>, <seconds>s".
#ifndef NNET3_OPTIMIZE_NNET_OPTIMIZE_H_
#define NNET3_OPTIMIZE_NNET_OPTIMIZE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "nnet/nnet.h"
#include "optimize/nnet-optimize-options.h"

namespace nnet3 {

void Optimize(const NnetOptimizeOptions &opts, const Nnet &nnet,
              int32_t max_output_time_in_request, NnetComputation *computation);

// The largest t of any output index in the request (INT_MIN if none); the
// max_output_time_in_request argument of Optimize().
int32_t MaxOutputTimeInRequest(const ComputationRequest &request);

// An option that switches passes on and off, for tests that run the
// optimizer with each pass alone on and alone off.
struct OptimizationSwitch {
  std::string option;  // Kaldi's option name, e.g. "convert-addition"
  std::string passes;  // the passes it controls, e.g. "ConvertAddition..."
  // Switches it on (true) or off (false) in *opts.
  void (*set)(bool on, NnetOptimizeOptions *opts);
};

// Every optional switch (all options of 8.1 except `optimize` and the
// deriv-time limits), in pass order.
const std::vector<OptimizationSwitch> &OptimizationSwitches();

// Options with `optimize` true and every switch off: the starting point for
// "this pass alone on" (ConsolidateIoOperations still runs).
NnetOptimizeOptions AllPassesOffOptions();

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_NNET_OPTIMIZE_H_
