#include "optimize/optimize-info.h"

#include "base/timer.h"
#include "compile/computation-checker.h"
#include "compile/shortcut-compile.h"
#include "optimize/nnet-optimize.h"

namespace nnet3 {

void OptimizeForInfo(const Nnet &nnet, const NnetOptimizeOptions &opts,
                     CompileInfo *info) {
  CompileInfoStats &stats = info->optimized_stats;
  stats = info->stats;  // the same compilation, graph and steps
  stats.seconds_expand = 0.0;
  const bool shortcut = info->stats.used_shortcut;
  // With the shortcut, the caching compiler optimizes the two-sequence
  // computation and expands the result.
  const ComputationRequest &compiled_request =
      shortcut ? info->compiled_request : info->request;
  NnetComputation computation =
      shortcut ? info->mini_computation : info->computation;
  Timer timer;
  CheckComputationOptions check_rewrite;
  check_rewrite.check_rewrite = true;
  ComputationChecker(check_rewrite, nnet, computation).Check();
  stats.seconds_check = timer.Elapsed();
  timer.Reset();
  Optimize(opts, nnet, MaxOutputTimeInRequest(compiled_request), &computation);
  stats.seconds_optimize = timer.Elapsed();
  timer.Reset();
  CheckComputationOptions optimized_opts;
  optimized_opts.check_unused_variables = false;
  ComputationChecker(optimized_opts, nnet, computation).Check();
  stats.seconds_check += timer.Elapsed();
  if (shortcut) {
    timer.Reset();
    ExpandComputation(nnet, info->request.misc_info, computation,
                      /*need_debug_info=*/true, stats.num_n_values,
                      &info->optimized_computation);
    stats.seconds_expand = timer.Elapsed();
  } else {
    info->optimized_computation = std::move(computation);
  }
  CollectComputationStats(info->optimized_computation, &stats);
  info->optimized = true;
}

void RepeatCompileForInfo(const Nnet &nnet,
                          const NnetOptimizeOptions &optimize_opts,
                          const CachingOptimizingCompilerOptions &compiler_opts,
                          const ComputationRequest &request, int32_t repeat,
                          CompileInfo *info) {
  info->repeat_seconds.clear();
  if (repeat <= 0) return;
  CachingOptimizingCompiler compiler(nnet, optimize_opts, compiler_opts);
  for (int32_t i = 0; i < repeat; i++) {
    Timer timer;
    compiler.Compile(request);
    info->repeat_seconds.push_back(timer.Elapsed());
  }
  const CachingCompilerStats s = compiler.Stats();
  info->repeat_hits = s.hits;
  info->repeat_misses = s.misses;
}

void CompileInfoForRequest(const Nnet &nnet, const ComputationRequest &request,
                           const CompileInfoOptions &opts,
                           const NnetOptimizeOptions &optimize_opts,
                           CompileInfo *info) {
  CompileForInfo(nnet, request, opts.use_shortcut, info);
  if (opts.optimize) OptimizeForInfo(nnet, optimize_opts, info);
  CachingOptimizingCompilerOptions compiler_opts;
  compiler_opts.use_shortcut = opts.use_shortcut;
  NnetOptimizeOptions repeat_opts = optimize_opts;
  if (!opts.optimize) repeat_opts.optimize = false;
  RepeatCompileForInfo(nnet, repeat_opts, compiler_opts, request, opts.repeat,
                       info);
}

}  // namespace nnet3
