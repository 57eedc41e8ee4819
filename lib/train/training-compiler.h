// TrainingCompiler: the compiler of training and diagnostics (one
// computation per distinct minibatch shape): a thin wrapper over
// CachingOptimizingCompiler (optimize/caching-compiler.h; Kaldi's, reference
// 8.2), so that the trainer, nnet3-compute-prob and nnet3-show-progress get
// compiled, checked and optimized computations from an LRU cache, and the
// options --compiler.* and --optimization.* in one place.
//
//   TrainingCompilerOptions compiler_opts;
//   compiler_opts.Register(&po);   // --compiler.use-shortcut,
//                                  // --compiler.cache-capacity,
//                                  --optimization.*
//   TrainingCompiler compiler(nnet, compiler_opts);
//   compiler.ReadCacheFile(read_cache);        // "": nothing
//   std::shared_ptr<const NnetComputation> c = compiler.Compile(request);
//   compiler.WriteCacheFile(write_cache, binary_write_cache);
//
// A miss compiles via the shortcut when possible (minibatches of N > 2 egs
// compile two and stretch the result), else directly; the computation is
// checked and optimized (its inputs come first; train/example-computation.h
// handles I/O commands anywhere anyway). Thread-safe, as the caching
// compiler is; the statistics line is logged when it is destroyed.
#ifndef NNET3_TRAIN_TRAINING_COMPILER_H_
#define NNET3_TRAIN_TRAINING_COMPILER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "nnet/nnet.h"
#include "optimize/caching-compiler.h"
#include "optimize/nnet-optimize-options.h"

namespace nnet3 {

class OptionsRegistry;

// Kaldi's CachingOptimizingCompilerOptions and NnetOptimizeOptions.
struct TrainingCompilerOptions {
  bool use_shortcut = true;
  int32_t cache_capacity = 64;
  NnetOptimizeOptions optimize_config;
  // Registers into the program's registry: --compiler.use-shortcut,
  // --compiler.cache-capacity and --optimization.*.
  void Register(OptionsRegistry *opts);
};

class TrainingCompiler {
 public:
  // `nnet` must outlive the compiler. Its structure must not change while
  // the compiler is in use (parameters may). UserError if cache_capacity
  // < 1.
  TrainingCompiler(const Nnet &nnet, const TrainingCompilerOptions &opts);

  // The cached computation for `request`, compiling it on a miss (and
  // evicting the least recently used entry when the cache is full).
  // UserError if the request cannot be compiled (e.g. an output is not
  // computable from the supplied inputs).
  std::shared_ptr<const NnetComputation> Compile(
      const ComputationRequest &request) {
    return compiler_.Compile(request);
  }

  // --read-cache / --write-cache (see CachingOptimizingCompiler): "" does
  // nothing; a missing read cache is a warning.
  void ReadCacheFile(const std::string &rxfilename) {
    compiler_.ReadCacheFile(rxfilename);
  }
  void WriteCacheFile(const std::string &wxfilename, bool binary) {
    compiler_.WriteCacheFile(wxfilename, binary);
  }

  // Requests compiled (cache misses; with the shortcut a minibatch shape
  // also compiles its two-sequence request) and cache hits.
  int64_t NumCompiled() const { return compiler_.Stats().misses; }
  int64_t NumCacheHits() const { return compiler_.Stats().hits; }
  size_t CacheSize() const { return compiler_.CacheSize(); }
  const CachingOptimizingCompiler &Compiler() const { return compiler_; }

 private:
  CachingOptimizingCompiler compiler_;
};

}  // namespace nnet3

#endif  // NNET3_TRAIN_TRAINING_COMPILER_H_
