#include "optimize/caching-compiler.h"

#include <cstdio>
#include <iomanip>
#include <sstream>
#include <utility>

#include "base/error.h"
#include "base/io-funcs.h"
#include "base/log.h"
#include "base/options.h"
#include "base/timer.h"
#include "compile/compiler.h"
#include "compile/computation-checker.h"
#include "compile/shortcut-compile.h"
#include "optimize/nnet-optimize.h"
#include "util/kaldi-io.h"

namespace nnet3 {

void CachingOptimizingCompilerOptions::Register(OptionsRegistry *registry) {
  registry->Register("use-shortcut", &use_shortcut,
                     "If true, use the 'shortcut' in compilation whereby "
                     "computation requests with regular structure are "
                     "identified as such, a computation with a smaller "
                     "number of distinct values of 'n' is compiled (e.g. 2), "
                     "and the compiled computation is expanded to match the "
                     "size of the real computation request.");
  registry->Register("cache-capacity", &cache_capacity,
                     "Determines how many computations the computation-cache "
                     "will store (most-recently-used).");
}

void ComputationCacheFileOptions::Register(OptionsRegistry *registry) {
  registry->Register("read-cache", &read_cache,
                     "The location from which to read the cached "
                     "computation (a missing file is only a warning).");
  registry->Register("write-cache", &write_cache,
                     "The location to which to write the cached "
                     "computation.");
  registry->Register("binary-write-cache", &binary_write_cache,
                     "Write the computation cache in binary mode");
}

namespace {

// 64-bit FNV-1a: tiny, and unlike std::hash the same in every build.
class Fnv1a64 {
 public:
  void Add(const std::string &s) {
    for (unsigned char c : s) {
      hash_ ^= c;
      hash_ *= 1099511628211ULL;
    }
    // A separator, so that ("ab", "c") and ("a", "bc") differ.
    hash_ ^= 0xff;
    hash_ *= 1099511628211ULL;
  }
  uint64_t Value() const { return hash_; }

 private:
  uint64_t hash_ = 14695981039346656037ULL;
};

// What a non-simple component asks for at a few outputs: captures its
// configured context (time offsets, periods) without its parameters.
std::string ProbeInputIndexes(const Component &c) {
  std::ostringstream os;
  MiscComputationInfo misc;
  for (int32_t t : {0, 1, 2, 3, 7}) {
    std::vector<Index> inputs;
    try {
      c.GetInputIndexes(misc, Index(0, t, 0), &inputs);
    } catch (const std::exception &) {
      os << "!";
      continue;
    }
    os << t << ":";
    for (const Index &i : inputs) os << i.n << "," << i.t << "," << i.x << ";";
  }
  return os.str();
}

int32_t CheckedCapacity(int32_t capacity) {
  if (capacity < 1)
    NNET3_ERR << "--compiler.cache-capacity must be at least 1, got "
              << capacity;
  return capacity;
}

}  // namespace

std::string NnetStructureFingerprint(const Nnet &nnet) {
  Fnv1a64 hash;
  // The computations' format: 2 has the fused commands (kMatrixScaleAdd,
  // kPropagate's fusion flag), which a build of format 1 would misread, so
  // that such a build ignores a newer cache as "of a different structure".
  hash.Add("computation-format 2");
  std::vector<std::string> lines;
  nnet.GetConfigLines(true, &lines);
  for (const std::string &line : lines) hash.Add(line);
  for (int32_t i = 0; i < nnet.NumComponents(); i++) {
    const Component &c = *nnet.GetComponent(i);
    std::ostringstream os;
    os << nnet.GetComponentName(i) << " " << c.Type() << " " << c.InputDim()
       << " " << c.OutputDim() << " " << c.Properties();
    const auto *u = dynamic_cast<const UpdatableComponent *>(&c);
    if (u != nullptr && u->LearningRate() == 0.0f) os << " frozen";
    if (!(c.Properties() & kSimpleComponent)) os << " " << ProbeInputIndexes(c);
    hash.Add(os.str());
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), "fnv1a64-%016llx",
                static_cast<unsigned long long>(hash.Value()));
  return buf;
}

CachingOptimizingCompiler::CachingOptimizingCompiler(
    const Nnet &nnet, const NnetOptimizeOptions &optimize_opts,
    const CachingOptimizingCompilerOptions &config)
    : nnet_(nnet),
      opt_config_(optimize_opts),
      config_(config),
      fingerprint_(NnetStructureFingerprint(nnet)),
      cache_(CheckedCapacity(config.cache_capacity)) {}

CachingOptimizingCompiler::~CachingOptimizingCompiler() {
  const CachingCompilerStats s = Stats();
  if (s.seconds_total <= 0.0 && s.seconds_io <= 0.0) return;
  const double misc = s.seconds_total - s.seconds_compile - s.seconds_check -
                      s.seconds_optimize - s.seconds_expand;
  std::ostringstream os;
  os << std::setprecision(3) << s.seconds_total
     << " seconds taken in nnet3 compilation total (breakdown: "
     << s.seconds_compile << " compilation, " << s.seconds_check
     << " checking, " << s.seconds_optimize << " optimization, "
     << s.seconds_expand << " shortcut expansion, " << (misc > 0 ? misc : 0.0)
     << " misc.) + " << s.seconds_io << " I/O; cache: " << s.hits << " hits, "
     << s.misses << " misses (" << s.shortcut_expansions << " via shortcut), "
     << s.waits << " waits, " << s.evictions << " evictions.";
  NNET3_LOG << os.str();
}

void CachingOptimizingCompiler::AddSeconds(double CachingCompilerStats::*field,
                                           double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.*field += seconds;
}

std::shared_ptr<const NnetComputation> CachingOptimizingCompiler::Compile(
    const ComputationRequest &request) {
  Timer timer;
  CachedComputationPtr ans = CompileInternal(request);
  AddSeconds(&CachingCompilerStats::seconds_total, timer.Elapsed());
  return ans;
}

CachedComputationPtr CachingOptimizingCompiler::CompileInternal(
    const ComputationRequest &request) {
  std::promise<CachedComputationPtr> promise;
  std::shared_future<CachedComputationPtr> compiled_elsewhere;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (CachedComputationPtr hit = cache_.Find(request)) {
      stats_.hits++;
      return hit;
    }
    auto it = in_flight_.find(&request);
    if (it != in_flight_.end()) {
      stats_.waits++;
      compiled_elsewhere = it->second.result;
    } else {
      stats_.misses++;
      auto key = std::make_unique<ComputationRequest>(request);
      const ComputationRequest *key_ptr = key.get();
      in_flight_.emplace(
          key_ptr, InFlight{std::move(key), promise.get_future().share()});
    }
  }
  // Waits without the lock; rethrows the compiling thread's exception.
  if (compiled_elsewhere.valid()) return compiled_elsewhere.get();
  CachedComputationPtr computation;
  try {
    computation = CompileMiss(request);
  } catch (...) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      in_flight_.erase(&request);
    }
    promise.set_exception(std::current_exception());
    throw;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.evictions += cache_.Insert(request, computation);
    in_flight_.erase(&request);
  }
  promise.set_value(computation);
  return computation;
}

CachedComputationPtr CachingOptimizingCompiler::CompileMiss(
    const ComputationRequest &request) {
  if (config_.use_shortcut) {
    CachedComputationPtr ans = CompileViaShortcut(request);
    if (ans != nullptr) return ans;
  }
  return CompileNoShortcut(request);
}

CachedComputationPtr CachingOptimizingCompiler::CompileViaShortcut(
    const ComputationRequest &request) {
  ComputationRequest mini_request;
  int32_t num_n_values = 0;
  if (!RequestIsDecomposable(request, &mini_request, &num_n_values))
    return nullptr;
  // Through the cache, like any request: minibatches of different sizes
  // share the mini computation.
  CachedComputationPtr mini = CompileInternal(mini_request);
  auto ans = std::make_shared<NnetComputation>();
  Timer timer;
  ExpandComputation(nnet_, request.misc_info, *mini,
                    /*need_debug_info=*/true, num_n_values, ans.get());
  AddSeconds(&CachingCompilerStats::seconds_expand, timer.Elapsed());
  if (VerboseLevel() >= 3) {
    timer.Reset();
    CheckComputation(nnet_, *ans, /*check_rewrite=*/false);
    AddSeconds(&CachingCompilerStats::seconds_check, timer.Elapsed());
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.shortcut_expansions++;
  }
  ans->ComputeDeviceIndexes();
  return ans;
}

CachedComputationPtr CachingOptimizingCompiler::CompileNoShortcut(
    const ComputationRequest &request) {
  auto computation = std::make_shared<NnetComputation>();
  Timer timer;
  Compiler compiler(request, nnet_);
  compiler.CreateComputation(CompilerOptions(), computation.get());
  AddSeconds(&CachingCompilerStats::seconds_compile, timer.Elapsed());
  if (VerboseLevel() >= 4) {
    std::ostringstream os;
    request.Print(os);
    computation->Print(os, nnet_);
    NNET3_VLOG(4) << "Computation request and unoptimized computation:\n"
                  << os.str();
  }
  timer.Reset();
  CheckComputationOptions check_opts;
  check_opts.check_rewrite = true;  // true of unoptimized computations
  ComputationChecker(check_opts, nnet_, *computation).Check();
  AddSeconds(&CachingCompilerStats::seconds_check, timer.Elapsed());

  timer.Reset();
  Optimize(opt_config_, nnet_, MaxOutputTimeInRequest(request),
           computation.get());
  AddSeconds(&CachingCompilerStats::seconds_optimize, timer.Elapsed());
  if (VerboseLevel() >= 4) {
    std::ostringstream os;
    computation->Print(os, nnet_);
    NNET3_VLOG(4) << "Optimized computation:\n" << os.str();
  }
  timer.Reset();
  CheckComputationOptions optimized_opts;
  optimized_opts.check_unused_variables = false;
  ComputationChecker(optimized_opts, nnet_, *computation).Check();
  AddSeconds(&CachingCompilerStats::seconds_check, timer.Elapsed());
  computation->ComputeDeviceIndexes();
  return computation;
}

void CachingOptimizingCompiler::WriteCache(std::ostream &os, bool binary) {
  Timer timer;
  std::vector<ComputationCacheEntry> entries;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    entries = cache_.Entries();
  }
  opt_config_.Write(os, binary);
  WriteToken(os, binary, "<NnetStructureHash>");
  WriteToken(os, binary, fingerprint_);
  WriteComputationCacheEntries(entries, os, binary);
  AddSeconds(&CachingCompilerStats::seconds_io, timer.Elapsed());
}

void CachingOptimizingCompiler::ReadCache(std::istream &is, bool binary) {
  ReadCacheInternal(is, binary, "the computation cache");
}

void CachingOptimizingCompiler::ReadCacheInternal(std::istream &is, bool binary,
                                                  const std::string &source) {
  Timer timer;
  NnetOptimizeOptions cached_opts;
  cached_opts.Read(is, binary);
  if (cached_opts != opt_config_) {
    NNET3_WARN << "Ignoring " << source << ": it was written with different "
               << "--optimization.* options; its computations will be "
               << "compiled again";
    return;
  }
  if (PeekWholeToken(is, binary) == "<NnetStructureHash>") {
    ExpectToken(is, binary, "<NnetStructureHash>");
    std::string fingerprint;
    ReadToken(is, binary, &fingerprint);
    if (fingerprint != fingerprint_) {
      NNET3_WARN << "Ignoring " << source << ": it was written for a network "
                 << "of a different structure (fingerprint " << fingerprint
                 << ", this network has " << fingerprint_
                 << "); its computations will be compiled again";
      return;
    }
  } else {
    NNET3_WARN << source << " has no <NnetStructureHash> (written by Kaldi?); "
               << "using it without checking that it fits this network";
  }
  std::vector<ComputationCacheEntry> entries;
  ReadComputationCacheEntries(is, binary, &entries);
  // A damaged cache whose fingerprint still matches must not reach the
  // computer: every computation read is checked (a UserError naming the
  // entry, not a crash).
  for (size_t i = 0; i < entries.size(); i++) {
    try {
      CheckComputation(nnet_, *entries[i].second, /*check_rewrite=*/false);
    } catch (const InternalError &e) {
      NNET3_ERR << "Reading " << source << ": computation " << i
                << " is corrupted (" << e.what()
                << "); delete the cache file to compile again";
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  for (ComputationCacheEntry &e : entries)
    stats_.evictions += cache_.Insert(e.first, std::move(e.second));
  stats_.seconds_io += timer.Elapsed();
}

void CachingOptimizingCompiler::ReadCacheFile(const std::string &rxfilename) {
  if (rxfilename.empty()) return;
  bool binary = false;
  Input ki;
  try {
    ki.Open(rxfilename, &binary);
  } catch (const UserError &e) {
    NNET3_WARN << "Could not open the computation cache '"
               << PrintableRxfilename(rxfilename) << "' (" << e.what()
               << "); probably this is the first training iteration, so "
               << "starting with an empty cache";
    return;
  }
  const std::string source =
      "the computation cache '" + PrintableRxfilename(rxfilename) + "'";
  try {
    ReadCacheInternal(ki.Stream(), binary, source);
  } catch (const UserError &e) {
    RethrowWithContext(e, "Reading " + source);
  }
  ki.Close();
}

void CachingOptimizingCompiler::WriteCacheFile(const std::string &wxfilename,
                                               bool binary) {
  if (wxfilename.empty()) return;
  Output ko(wxfilename, binary, /*write_header=*/true, /*atomic=*/true);
  try {
    WriteCache(ko.Stream(), binary);
  } catch (const UserError &e) {
    RethrowWithContext(e, "Writing the computation cache '" +
                              PrintableWxfilename(wxfilename) + "'");
  }
  ko.Close();
}

CachingCompilerStats CachingOptimizingCompiler::Stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

int32_t CachingOptimizingCompiler::CacheSize() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cache_.Size();
}

bool CachingOptimizingCompiler::IsCached(
    const ComputationRequest &request) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cache_.Contains(request);
}

std::vector<ComputationRequest> CachingOptimizingCompiler::CachedRequests()
    const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cache_.Requests();
}

}  // namespace nnet3
