// nnet3-compile-info's optimizer part (compile-info.h describes the rest):
// the optimized computation, made as CachingOptimizingCompiler makes it,
// with its statistics and timings, and repeated compilation through one
// caching compiler to time cache hits.
//
//   CompileInfo info;
//   CompileForInfo(nnet, request, use_shortcut, &info);
//   if (optimize) OptimizeForInfo(nnet, optimize_opts, &info);
//   RepeatCompileForInfo(nnet, optimize_opts, compiler_opts, request, 10,
//                        &info);
//   PrintCompileInfo(nnet, info, show, std::cout);
#ifndef NNET3_OPTIMIZE_OPTIMIZE_INFO_H_
#define NNET3_OPTIMIZE_OPTIMIZE_INFO_H_

#include <cstdint>

#include "compile/compile-info.h"
#include "nnet/nnet.h"
#include "optimize/caching-compiler.h"
#include "optimize/nnet-optimize-options.h"

namespace nnet3 {

// After CompileForInfo: checks the Compiler's computation (check_rewrite),
// optimizes it, checks it again and, with the shortcut, expands it to the
// full request; sets info->optimized, optimized_computation and
// optimized_stats (seconds_check, seconds_optimize, and seconds_expand of
// the optimized expansion). InternalError if a check fails.
void OptimizeForInfo(const Nnet &nnet, const NnetOptimizeOptions &opts,
                     CompileInfo *info);

// Compiles `request` `repeat` times (>= 0) with one
// CachingOptimizingCompiler and records each call's seconds and the
// compiler's hits and misses in *info.
void RepeatCompileForInfo(const Nnet &nnet,
                          const NnetOptimizeOptions &optimize_opts,
                          const CachingOptimizingCompilerOptions &compiler_opts,
                          const ComputationRequest &request, int32_t repeat,
                          CompileInfo *info);

// The whole of nnet3-compile-info for one request: CompileForInfo (with
// opts.use_shortcut), OptimizeForInfo unless opts.optimize is false, and
// RepeatCompileForInfo with opts.repeat (optimized or not as opts.optimize
// says).
void CompileInfoForRequest(const Nnet &nnet, const ComputationRequest &request,
                           const CompileInfoOptions &opts,
                           const NnetOptimizeOptions &optimize_opts,
                           CompileInfo *info);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_OPTIMIZE_INFO_H_
