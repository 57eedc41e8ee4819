#include "optimize/nnet-optimize.h"

#include <limits>

#include "base/error.h"
#include "base/log.h"
#include "base/timer.h"
#include "compile/computation-checker.h"
#include "optimize/consolidate-io-operations.h"
#include "optimize/consolidate-model-update.h"
#include "optimize/convert-addition-to-assignment.h"
#include "optimize/extend-matrices.h"
#include "optimize/fuse-memory-passes.h"
#include "optimize/limit-derivative-times.h"
#include "optimize/move-sizing-commands.h"
#include "optimize/optimize-looped-computation.h"
#include "optimize/optimize-memory-compression.h"
#include "optimize/remove-unnecessary-allocation.h"
#include "optimize/remove-unnecessary-zeroing.h"
#include "optimize/renumber-computation.h"
#include "optimize/replace-row-with-matrix-ops.h"
#include "optimize/snip-row-ops.h"
#include "optimize/split-row-ops.h"
#include "optimize/variable-merging-optimization.h"

namespace nnet3 {

namespace {

// Runs one pass: times it, logs it and, when asked, checks the result.
class PassRunner {
 public:
  PassRunner(const NnetOptimizeOptions &opts, const Nnet &nnet,
             const NnetComputation &computation)
      : checking_(opts.check_after_each_pass || VerboseLevel() >= 3),
        nnet_(nnet),
        computation_(computation) {}

  template <class PassFn>
  bool Run(const char *name, PassFn pass) {
    Timer timer;
    bool changed = pass();
    double seconds = timer.Elapsed();
    if (checking_) {
      NNET3_LOG << "pass " << name << ": changed=" << (changed ? "yes" : "no")
                << ", " << seconds << "s";
      Check(name);
    } else {
      NNET3_VLOG(3) << "pass " << name
                    << ": changed=" << (changed ? "yes" : "no") << ", "
                    << seconds << "s";
    }
    return changed;
  }

  // Checks the computation, naming `after` in the error.
  void Check(const char *after) const {
    try {
      CheckComputationOptions check_opts;
      check_opts.check_unused_variables = false;  // as Kaldi, after a pass
      ComputationChecker(check_opts, nnet_, computation_).Check();
    } catch (const InternalError &e) {
      NNET3_INTERNAL_ERR << "Computation check failed after optimization "
                         << "pass " << after << ": " << e.what();
    }
  }

 private:
  const bool checking_;
  const Nnet &nnet_;
  const NnetComputation &computation_;
};

// The effective max-deriv-time (max-deriv-time-relative wins when set).
int32_t EffectiveMaxDerivTime(const NnetOptimizeOptions &opts,
                              int32_t max_output_time_in_request) {
  if (opts.max_deriv_time_relative == std::numeric_limits<int32_t>::max())
    return opts.max_deriv_time;
  int64_t t = static_cast<int64_t>(opts.max_deriv_time_relative) +
              max_output_time_in_request;
  if (t >= std::numeric_limits<int32_t>::max())
    return std::numeric_limits<int32_t>::max();
  if (t <= std::numeric_limits<int32_t>::min())
    return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(t);
}

// Step 4: the row-op passes, then renumbering if any of them changed
// something.
void RunRowOpPasses(const NnetOptimizeOptions &opts, PassRunner *run,
                    NnetComputation *c) {
  bool must_renumber = false;
  if (opts.snip_row_ops &&
      run->Run("SnipRowOps", [&] { return SnipRowOps(c); }))
    must_renumber = true;
  if (opts.split_row_ops &&
      run->Run("SplitRowOps", [&] { return SplitRowOps(c); }))
    must_renumber = true;
  if (opts.optimize_row_ops && run->Run("ReplaceRowWithMatrixOps", [&] {
        return ReplaceRowWithMatrixOps(c);
      }))
    must_renumber = true;
  if (must_renumber)
    run->Run("RenumberComputation", [&] { return RenumberComputation(c); });
}

// After step 7 (ours): the fusions of memory-bound passes; not on looped
// computations (fuse-memory-passes.h).
void RunFusionPasses(const NnetOptimizeOptions &opts, const Nnet &nnet,
                     PassRunner *run, NnetComputation *c) {
  if (!opts.optimize || opts.optimize_looped_computation) return;
  if (opts.fuse_relu_affine)
    run->Run("FuseReluIntoAffine", [&] { return FuseReluIntoAffine(nnet, c); });
  if (opts.fuse_scale_add)
    run->Run("FuseScaleAndAdd", [&] { return FuseScaleAndAdd(nnet, c); });
  if (opts.fuse_zeroing)
    run->Run("FuseZeroing", [&] { return FuseZeroing(nnet, c); });
}

}  // namespace

void Optimize(const NnetOptimizeOptions &opts, const Nnet &nnet,
              int32_t max_output_time_in_request, NnetComputation *c) {
  PassRunner run(opts, nnet, *c);
  const bool on = opts.optimize;
  const bool looped = opts.optimize_looped_computation;
  int32_t max_deriv_time =
      EffectiveMaxDerivTime(opts, max_output_time_in_request);
  if (opts.min_deriv_time != std::numeric_limits<int32_t>::min() ||
      max_deriv_time != std::numeric_limits<int32_t>::max())
    run.Run("LimitDerivativeTimes", [&] {
      return LimitDerivativeTimes(nnet, opts.min_deriv_time, max_deriv_time, c);
    });
  if (on && opts.consolidate_model_update)
    run.Run("ConsolidateModelUpdate",
            [&] { return ConsolidateModelUpdate(nnet, c); });
  if (on && opts.convert_addition)
    run.Run("ConvertAdditionToAssignment",
            [&] { return ConvertAdditionToAssignment(nnet, c); });
  if (on) RunRowOpPasses(opts, &run, c);
  if (on && opts.extend_matrices && !looped)
    run.Run("ExtendMatrices", [&] { return ExtendMatrices(c); });
  if (on && (opts.remove_assignments || opts.backprop_in_place ||
             opts.propagate_in_place))
    run.Run("VariableMergingOptimization",
            [&] { return VariableMergingOptimization(opts, nnet, c); });
  if (on && opts.initialize_undefined)
    run.Run("RemoveUnnecessaryZeroing",
            [&] { return RemoveUnnecessaryZeroing(nnet, c); });
  RunFusionPasses(opts, nnet, &run, c);
  // Not gated by `optimize`: a looped computation needs these to run.
  if ((on && opts.move_sizing_commands) || looped)
    run.Run("MoveSizingCommands", [&] { return MoveSizingCommands(nnet, c); });
  if (looped)
    run.Run("OptimizeLoopedComputation",
            [&] { return OptimizeLoopedComputation(nnet, c); });
  if (on && opts.allocate_from_other && !looped)
    run.Run("RemoveUnnecessaryAllocation",
            [&] { return RemoveUnnecessaryAllocation(nnet, c); });
  run.Run("ConsolidateIoOperations",
          [&] { return ConsolidateIoOperations(nnet, c); });
  if (looped) run.Run("FixGotoLabel", [&] { return FixGotoLabel(c); });
  // Not gated by `optimize` either: Kaldi compresses with --optimize=false.
  if (opts.memory_compression_level > 0 && !looped)
    run.Run("OptimizeMemoryCompression", [&] {
      return OptimizeMemoryCompression(nnet, opts.memory_compression_level, c);
    });
}

int32_t MaxOutputTimeInRequest(const ComputationRequest &request) {
  int32_t ans = std::numeric_limits<int32_t>::min();
  for (const IoSpecification &io : request.outputs)
    for (const Index &index : io.indexes)
      if (index.t != kNoTime && index.t > ans) ans = index.t;
  return ans;
}

namespace {

#define NNET3_BOOL_SWITCH(option, passes, field)                           \
  OptimizationSwitch {                                                     \
    option, passes, [](bool on, NnetOptimizeOptions *o) { o->field = on; } \
  }

std::vector<OptimizationSwitch> MakeSwitches() {
  return {
      NNET3_BOOL_SWITCH("consolidate-model-update", "ConsolidateModelUpdate",
                        consolidate_model_update),
      NNET3_BOOL_SWITCH("convert-addition", "ConvertAdditionToAssignment",
                        convert_addition),
      NNET3_BOOL_SWITCH("snip-row-ops", "SnipRowOps", snip_row_ops),
      NNET3_BOOL_SWITCH("split-row-ops", "SplitRowOps", split_row_ops),
      NNET3_BOOL_SWITCH("optimize-row-ops", "ReplaceRowWithMatrixOps",
                        optimize_row_ops),
      NNET3_BOOL_SWITCH("extend-matrices", "ExtendMatrices", extend_matrices),
      NNET3_BOOL_SWITCH("remove-assignments", "VariableMergingOptimization",
                        remove_assignments),
      NNET3_BOOL_SWITCH("propagate-in-place", "VariableMergingOptimization",
                        propagate_in_place),
      NNET3_BOOL_SWITCH("backprop-in-place", "VariableMergingOptimization",
                        backprop_in_place),
      NNET3_BOOL_SWITCH("allow-left-merge", "VariableMergingOptimization",
                        allow_left_merge),
      NNET3_BOOL_SWITCH("allow-right-merge", "VariableMergingOptimization",
                        allow_right_merge),
      NNET3_BOOL_SWITCH("initialize-undefined", "RemoveUnnecessaryZeroing",
                        initialize_undefined),
      NNET3_BOOL_SWITCH("move-sizing-commands", "MoveSizingCommands",
                        move_sizing_commands),
      NNET3_BOOL_SWITCH("allocate-from-other", "RemoveUnnecessaryAllocation",
                        allocate_from_other),
      NNET3_BOOL_SWITCH("fuse-relu-affine", "FuseReluIntoAffine",
                        fuse_relu_affine),
      NNET3_BOOL_SWITCH("fuse-scale-add", "FuseScaleAndAdd", fuse_scale_add),
      NNET3_BOOL_SWITCH("fuse-zeroing", "FuseZeroing", fuse_zeroing),
      OptimizationSwitch{"memory-compression-level",
                         "OptimizeMemoryCompression",
                         [](bool on, NnetOptimizeOptions *o) {
                           o->memory_compression_level = on ? 1 : 0;
                         }},
  };
}

#undef NNET3_BOOL_SWITCH

}  // namespace

const std::vector<OptimizationSwitch> &OptimizationSwitches() {
  static const std::vector<OptimizationSwitch> switches = MakeSwitches();
  return switches;
}

NnetOptimizeOptions AllPassesOffOptions() {
  NnetOptimizeOptions opts;
  for (const OptimizationSwitch &s : OptimizationSwitches())
    s.set(false, &opts);
  return opts;
}

}  // namespace nnet3
