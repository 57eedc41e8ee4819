// CachingOptimizingCompiler: compiles, checks and optimizes computation
// requests, and remembers the results in an LRU cache keyed by request
// (Kaldi's class of the same name; reference 8.2). Trainers and inference
// code ask it for a computation per minibatch or chunk; since minibatches
// repeat their shapes, almost every call is a cache hit.
//
//   NnetOptimizeOptions optimize_opts;         // --optimization.*
//   CachingOptimizingCompilerOptions compiler_opts;  // --compiler.*
//   CachingOptimizingCompiler compiler(nnet, optimize_opts, compiler_opts);
//   compiler.ReadCacheFile(read_cache);        // "" does nothing
//   std::shared_ptr<const NnetComputation> c = compiler.Compile(request);
//   NnetComputer computer(compute_opts, *c, nnet, delta_nnet);
//   ...
//   compiler.WriteCacheFile(write_cache, binary);
//
// Compile() on a miss: if --compiler.use-shortcut and the request is
// decomposable (shortcut-compile.h), the two-sequence mini request is
// compiled through Compile() itself (so it is cached like any request) and
// expanded with ExpandComputation (checked at --verbose >= 3, as Kaldi);
// otherwise Compiler::CreateComputation (with debug info), the
// ComputationChecker with check_rewrite, Optimize(), and the checker again.
// The result is the optimized computation: its kAcceptInput commands come
// before any other work of their segment (ConsolidateIoOperations), so a
// caller may AcceptInput everything before Run().
//
// Threads: Compile(), the cache I/O and the queries may be called from
// many threads at once. The lock is never held while compiling: the first
// thread to miss a request registers it as "in flight" and compiles it
// alone; other threads asking for the same request wait for that result
// (and rethrow its exception, if compilation failed) instead of compiling
// it again, so a request is inserted once. Different requests compile in
// parallel. The network must outlive the compiler and must not change its
// structure meanwhile (its parameters may change: computations do not
// depend on them).
//
// Cache files: WriteCache writes the NnetOptimizeOptions (Kaldi's
// <OptimizationConfig> block), then — our extension of Kaldi's format —
// <NnetStructureHash> and a token fingerprinting the network's structure
// (NnetStructureFingerprint), then the entries (computation-cache.h).
// ReadCache ignores the whole cache, with a warning, when the options or
// the fingerprint differ; a file without <NnetStructureHash> (Kaldi's
// layout) is used unchecked, with a warning. Malformed data is a UserError
// and leaves the cache as it was.
//
// At destruction, if anything was compiled or read, one LOG line gives
// the hits, misses, shortcut expansions and the seconds spent compiling,
// checking, optimizing, expanding and in cache I/O.
#ifndef NNET3_OPTIMIZE_CACHING_COMPILER_H_
#define NNET3_OPTIMIZE_CACHING_COMPILER_H_

#include <cstdint>
#include <future>
#include <istream>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "nnet/nnet.h"
#include "optimize/computation-cache.h"
#include "optimize/nnet-optimize-options.h"

namespace nnet3 {

class OptionsRegistry;

struct CachingOptimizingCompilerOptions {
  bool use_shortcut = true;
  int32_t cache_capacity = 64;
  // Registers "use-shortcut" and "cache-capacity"; callers pass a
  // "compiler" sub-registry, giving --compiler.use-shortcut and
  // --compiler.cache-capacity as in Kaldi.
  void Register(OptionsRegistry *registry);
};

// --read-cache, --write-cache and --binary-write-cache (nnet3-train's
// options), for programs that keep a compiler's cache between runs.
struct ComputationCacheFileOptions {
  std::string read_cache;
  std::string write_cache;
  bool binary_write_cache = true;
  void Register(OptionsRegistry *registry);
};

// Counters since construction. Lookups include the internal ones of the
// shortcut (a shortcut miss also looks up its mini request); `waits` are
// lookups that found the request in flight in another thread (counted in
// neither hits nor misses).
struct CachingCompilerStats {
  int64_t hits = 0, misses = 0, waits = 0;
  int64_t shortcut_expansions = 0;  // misses compiled via the shortcut
  int64_t evictions = 0;
  double seconds_total = 0.0;  // in Compile(), outermost calls only
  double seconds_compile = 0.0, seconds_check = 0.0, seconds_optimize = 0.0,
         seconds_expand = 0.0, seconds_io = 0.0;
};

// A token fingerprinting what compilation depends on: the node config
// lines with dims, and per component its name, type, dims, properties,
// whether it is an updatable component with learning rate 0 (which the
// compiler treats as frozen), and for non-simple components the input
// indexes it asks for at a few probe outputs, and the version of the
// computation format (bumped when a command's meaning is extended, so that
// older builds ignore newer caches). Stable across runs and builds of one
// format ("fnv1a64-" and 16 hex digits).
std::string NnetStructureFingerprint(const Nnet &nnet);

class CachingOptimizingCompiler {
 public:
  // UserError if config.cache_capacity < 1.
  explicit CachingOptimizingCompiler(
      const Nnet &nnet,
      const NnetOptimizeOptions &optimize_opts = NnetOptimizeOptions(),
      const CachingOptimizingCompilerOptions &config =
          CachingOptimizingCompilerOptions());
  CachingOptimizingCompiler(const CachingOptimizingCompiler &) = delete;
  CachingOptimizingCompiler &operator=(const CachingOptimizingCompiler &) =
      delete;
  // Logs the statistics (see the file comment).
  ~CachingOptimizingCompiler();

  // The optimized computation for `request`, from the cache or compiled
  // now. UserError if an output cannot be computed (the Compiler's
  // message); InternalError if a check fails.
  std::shared_ptr<const NnetComputation> Compile(
      const ComputationRequest &request);

  // See the file comment. ReadCache throws UserError on malformed input.
  void ReadCache(std::istream &is, bool binary);
  void WriteCache(std::ostream &os, bool binary);
  // ReadCache from an rxfilename; "" does nothing, and a file that cannot
  // be opened (e.g. the first training iteration) is only a warning.
  void ReadCacheFile(const std::string &rxfilename);
  // WriteCache to a wxfilename (atomically for plain files); "" does
  // nothing. UserError if it cannot be written.
  void WriteCacheFile(const std::string &wxfilename, bool binary);

  CachingCompilerStats Stats() const;
  int32_t CacheSize() const;
  // Whether `request` is cached; neither a hit nor a change of LRU order.
  bool IsCached(const ComputationRequest &request) const;
  // The cached requests, most recently used first.
  std::vector<ComputationRequest> CachedRequests() const;
  const NnetOptimizeOptions &OptimizeOptions() const { return opt_config_; }
  const CachingOptimizingCompilerOptions &Config() const { return config_; }

 private:
  struct InFlight {
    std::unique_ptr<ComputationRequest> request;  // the map's key
    std::shared_future<CachedComputationPtr> result;
  };

  CachedComputationPtr CompileInternal(const ComputationRequest &request);
  // Compiles a request that is not cached (the lock is not held).
  CachedComputationPtr CompileMiss(const ComputationRequest &request);
  // nullptr if the shortcut does not apply.
  CachedComputationPtr CompileViaShortcut(const ComputationRequest &request);
  CachedComputationPtr CompileNoShortcut(const ComputationRequest &request);
  void AddSeconds(double CachingCompilerStats::*field, double seconds);
  // Reads and validates a cache; `source` names it in warnings.
  void ReadCacheInternal(std::istream &is, bool binary,
                         const std::string &source);

  const Nnet &nnet_;
  const NnetOptimizeOptions opt_config_;
  const CachingOptimizingCompilerOptions config_;
  // Computed at construction: the structure the cache is valid for.
  const std::string fingerprint_;

  mutable std::mutex mutex_;  // guards everything below
  ComputationCache cache_;
  std::unordered_map<const ComputationRequest *, InFlight,
                     ComputationRequestHasher, ComputationRequestPtrEqual>
      in_flight_;
  CachingCompilerStats stats_;
};

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_CACHING_COMPILER_H_
