#include "train/training-compiler.h"

#include "base/options.h"

namespace nnet3 {

namespace {

CachingOptimizingCompilerOptions CompilerOptions(
    const TrainingCompilerOptions &opts) {
  CachingOptimizingCompilerOptions ans;
  ans.use_shortcut = opts.use_shortcut;
  ans.cache_capacity = opts.cache_capacity;
  return ans;
}

}  // namespace

void TrainingCompilerOptions::Register(OptionsRegistry *opts) {
  OptionsRegistry compiler_opts("compiler", opts);
  compiler_opts.Register(
      "use-shortcut", &use_shortcut,
      "If true, use the 'shortcut' in compilation whereby computation "
      "requests with regular structure are identified as such, a "
      "computation with a smaller number of distinct values of 'n' is "
      "compiled (this is more efficient), and then expanded.");
  compiler_opts.Register("cache-capacity", &cache_capacity,
                         "Determines how many cached computations we'll "
                         "store.");
  OptionsRegistry optimize_opts("optimization", opts);
  optimize_config.Register(&optimize_opts);
}

TrainingCompiler::TrainingCompiler(const Nnet &nnet,
                                   const TrainingCompilerOptions &opts)
    : compiler_(nnet, opts.optimize_config, CompilerOptions(opts)) {}

}  // namespace nnet3
