// TrainingCompiler: compiles the requests of training and diagnostics
// (one per distinct minibatch shape) and keeps the computations in a small
// LRU cache, so that a stream of same-shaped minibatches compiles once.
//
//   TrainingCompilerOptions compiler_opts;       // --compiler.use-shortcut,
//   OptionsRegistry compiler_po("compiler", &po);  // --compiler.cache-capacity
//   compiler_opts.Register(&compiler_po);
//   TrainingCompiler compiler(nnet, compiler_opts);
//   std::shared_ptr<const NnetComputation> c = compiler.Compile(request);
//
// A miss compiles with CompileWithShortcut (compile/shortcut-compile.h),
// which for minibatches of N > 2 egs compiles two and stretches the result.
// Computations are returned unoptimized; NnetComputer runs them as they
// are (train/example-computation.h handles I/O commands anywhere in the
// command list). Not thread-safe: one compiler per thread.
//
// TODO(cache): this is the stand-in for Kaldi's CachingOptimizingCompiler
// (reference 8.2), which lib/optimize is growing. When it lands, this class
// becomes a thin wrapper over it (or is replaced by it), and this is the one
// place where the trainer, nnet3-compute-prob and nnet3-show-progress gain
// `--optimization.*` (NnetOptimizeOptions, Optimize() after compiling) and
// where NnetTrainerOptions::read_cache / write_cache / binary_write_cache
// get registered as --read-cache, --write-cache, --binary-write-cache.
#ifndef NNET3_TRAIN_TRAINING_COMPILER_H_
#define NNET3_TRAIN_TRAINING_COMPILER_H_

#include <cstdint>
#include <list>
#include <memory>
#include <unordered_map>
#include <utility>

#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

class OptionsRegistry;

// Kaldi's CachingOptimizingCompilerOptions (the registered part).
struct TrainingCompilerOptions {
  bool use_shortcut = true;
  int32_t cache_capacity = 64;
  // Registers "use-shortcut" and "cache-capacity"; programs pass a
  // sub-registry named "compiler", giving --compiler.use-shortcut etc.
  void Register(OptionsRegistry *opts);
};

class TrainingCompiler {
 public:
  // `nnet` must outlive the compiler. Its structure must not change while
  // the compiler is in use (parameters may).
  TrainingCompiler(const Nnet &nnet, const TrainingCompilerOptions &opts);

  // The cached computation for `request`, compiling it on a miss (and
  // evicting the least recently used entry when the cache is full).
  // UserError if the request cannot be compiled (e.g. an output is not
  // computable from the supplied inputs).
  std::shared_ptr<const NnetComputation> Compile(
      const ComputationRequest &request);

  int64_t NumCompiled() const { return num_compiled_; }
  int64_t NumCacheHits() const { return num_hits_; }
  size_t CacheSize() const { return lru_.size(); }

 private:
  using Entry =
      std::pair<ComputationRequest, std::shared_ptr<const NnetComputation>>;

  const Nnet &nnet_;
  TrainingCompilerOptions opts_;
  // Most recently used first; the map's keys point into the list entries.
  std::list<Entry> lru_;
  std::unordered_map<const ComputationRequest *, std::list<Entry>::iterator,
                     ComputationRequestHasher, ComputationRequestPtrEqual>
      index_;
  int64_t num_compiled_ = 0;
  int64_t num_hits_ = 0;
};

}  // namespace nnet3

#endif  // NNET3_TRAIN_TRAINING_COMPILER_H_
