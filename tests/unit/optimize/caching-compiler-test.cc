// Tests of CachingOptimizingCompiler and ComputationCache: hits and misses,
// LRU eviction, cache files (round trip, stale caches ignored with a
// warning), threads, and shortcut compilation through the cache.
#include "optimize/caching-compiler.h"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "compile/computation-checker.h"
#include "compile/shortcut-compile.h"
#include "optimize-a-test-utils.h"
#include "optimize/computation-cache.h"

namespace nnet3 {
namespace {

// A small TDNN-like network: spliced input, affine, ReLU, affine.
std::string TdnnConfig(int32_t hidden_dim) {
  std::ostringstream os;
  os << "input-node name=input dim=4\n"
     << "component name=a1 type=AffineComponent input-dim=12 output-dim="
     << hidden_dim << "\n"
     << "component-node name=a1 component=a1 "
        "input=Append(Offset(input, -1), input, Offset(input, 1))\n"
     << "component name=r1 type=RectifiedLinearComponent dim=" << hidden_dim
     << "\n"
     << "component-node name=r1 component=r1 input=a1\n"
     << "component name=a2 type=AffineComponent input-dim=" << hidden_dim
     << " output-dim=3\n"
     << "component-node name=a2 component=a2 input=r1\n"
     << "output-node name=output input=a2\n";
  return os.str();
}

// Sequences n = 0..num_n-1 (n-major), output frames 0..frames-1, input
// widened by the network's context of one frame each side.
ComputationRequest Request(int32_t num_n, int32_t frames, bool backward) {
  ComputationRequest r;
  std::vector<Index> in, out;
  for (int32_t n = 0; n < num_n; n++) {
    for (int32_t t = -1; t <= frames; t++) in.emplace_back(n, t, 0);
    for (int32_t t = 0; t < frames; t++) out.emplace_back(n, t, 0);
  }
  r.inputs.emplace_back("input", in, backward);
  r.outputs.emplace_back("output", out, backward);
  r.need_model_derivative = backward;
  return r;
}

std::string Written(const NnetComputation &c) {
  std::ostringstream os;
  c.Write(os, false);
  return os.str();
}

CachingOptimizingCompilerOptions Config(int32_t capacity, bool shortcut) {
  CachingOptimizingCompilerOptions c;
  c.cache_capacity = capacity;
  c.use_shortcut = shortcut;
  return c;
}

// Collects what is written to stderr (fd 2) while it exists.
class CaptureStderr {
 public:
  CaptureStderr() {
    std::fflush(stderr);
    file_ = std::tmpfile();
    saved_fd_ = dup(2);
    dup2(fileno(file_), 2);
  }
  ~CaptureStderr() { Restore(); }
  std::string Text() {
    Restore();
    std::rewind(file_);
    std::string ans;
    int ch;
    while ((ch = std::fgetc(file_)) != EOF) ans += static_cast<char>(ch);
    return ans;
  }

 private:
  void Restore() {
    if (saved_fd_ < 0) return;
    std::fflush(stderr);
    dup2(saved_fd_, 2);
    close(saved_fd_);
    saved_fd_ = -1;
  }
  std::FILE *file_;
  int saved_fd_ = -1;
};

}  // namespace

TEST_CASE("caching compiler: hits and misses", "[cache]") {
  Nnet nnet = passes_a::NnetFromConfigText(TdnnConfig(8));
  CachingOptimizingCompiler compiler(nnet);
  auto c1 = compiler.Compile(Request(1, 5, true));
  auto c2 = compiler.Compile(Request(1, 5, true));
  CHECK(c1 == c2);                                   // the same object: a hit
  auto c3 = compiler.Compile(Request(1, 5, false));  // differs in derivs
  CHECK(c3 != c1);
  CachingCompilerStats s = compiler.Stats();
  CHECK(s.hits == 1);
  CHECK(s.misses == 2);
  CHECK(s.shortcut_expansions == 0);
  CHECK(compiler.CacheSize() == 2);
  CHECK(s.seconds_compile > 0.0);
  CHECK(s.seconds_optimize > 0.0);
  CHECK(s.seconds_check > 0.0);
  // The result is optimized: the inputs come first, and it is smaller than
  // what the Compiler makes.
  NnetComputation plain = passes_a::Compile(nnet, Request(1, 5, true));
  CHECK(c1->commands.size() < plain.commands.size());
  CHECK(c1->commands[0].command_type == kAcceptInput);
}

TEST_CASE("caching compiler: failed compilations are not cached", "[cache]") {
  Nnet nnet = passes_a::NnetFromConfigText(TdnnConfig(8));
  CachingOptimizingCompiler compiler(nnet);
  ComputationRequest bad = Request(1, 5, false);
  bad.inputs[0].indexes.pop_back();  // output t=4 needs input t=5
  CHECK_THROWS_AS(compiler.Compile(bad), UserError);
  CHECK_THROWS_AS(compiler.Compile(bad), UserError);
  CHECK(compiler.CacheSize() == 0);
  CHECK(compiler.Stats().misses == 2);
}

TEST_CASE("caching compiler: bad capacity", "[cache]") {
  Nnet nnet = passes_a::NnetFromConfigText(TdnnConfig(8));
  CHECK_THROWS_AS(
      CachingOptimizingCompiler(nnet, NnetOptimizeOptions(), Config(0, true)),
      UserError);
}

TEST_CASE("caching compiler: LRU eviction", "[cache]") {
  Nnet nnet = passes_a::NnetFromConfigText(TdnnConfig(8));
  CachingOptimizingCompiler compiler(nnet, NnetOptimizeOptions(),
                                     Config(2, true));
  const ComputationRequest a = Request(1, 2, false), b = Request(1, 3, false),
                           c = Request(1, 4, false);
  compiler.Compile(a);
  compiler.Compile(b);
  compiler.Compile(a);  // a is now the most recently used; b the least
  compiler.Compile(c);  // evicts b
  CHECK(compiler.IsCached(a));
  CHECK_FALSE(compiler.IsCached(b));
  CHECK(compiler.IsCached(c));
  std::vector<ComputationRequest> order = compiler.CachedRequests();
  REQUIRE(order.size() == 2);
  CHECK(order[0] == c);
  CHECK(order[1] == a);
  CHECK(compiler.Stats().evictions == 1);
  compiler.Compile(b);  // a miss again; evicts a (c was used after a)
  CHECK_FALSE(compiler.IsCached(a));
  CachingCompilerStats s = compiler.Stats();
  CHECK(s.misses == 4);
  CHECK(s.hits == 1);
  CHECK(s.evictions == 2);
}

TEST_CASE("computation cache: IsCached does not change the order", "[cache]") {
  ComputationCache cache(2);
  auto c = std::make_shared<NnetComputation>();
  cache.Insert(Request(1, 2, false), c);
  cache.Insert(Request(1, 3, false), c);
  CHECK(cache.Contains(Request(1, 2, false)));  // no reordering
  cache.Insert(Request(1, 4, false), c);
  CHECK_FALSE(cache.Contains(Request(1, 2, false)));
  CHECK(cache.Find(Request(1, 3, false)) == c);
  CHECK(cache.Find(Request(1, 2, false)) == nullptr);
  // Entries: least recently used first.
  std::vector<ComputationCacheEntry> entries = cache.Entries();
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].first == Request(1, 4, false));
  CHECK(entries[1].first == Request(1, 3, false));
}

TEST_CASE("caching compiler: write and read the cache", "[cache]") {
  Nnet nnet = passes_a::NnetFromConfigText(TdnnConfig(8));
  for (bool binary : {false, true}) {
    INFO("binary=" << binary);
    std::vector<ComputationRequest> requests = {
        Request(1, 5, true), Request(4, 3, true), Request(1, 7, false)};
    std::string written;
    std::vector<std::string> computations;
    {
      CachingOptimizingCompiler compiler(nnet);
      for (const ComputationRequest &r : requests)
        computations.push_back(Written(*compiler.Compile(r)));
      std::ostringstream os;
      compiler.WriteCache(os, binary);
      written = os.str();
    }
    CachingOptimizingCompiler reread(nnet);
    std::istringstream is(written);
    reread.ReadCache(is, binary);
    CHECK(reread.CacheSize() == 4);  // with the shortcut's mini request
    for (size_t i = 0; i < requests.size(); i++)
      CHECK(Written(*reread.Compile(requests[i])) == computations[i]);
    CHECK(reread.Stats().misses == 0);
    CHECK(reread.Stats().hits == 3);
    // The LRU order survives: writing again gives the same bytes once the
    // hits above are replayed in the same order.
    CachingOptimizingCompiler again(nnet);
    std::istringstream is2(written);
    again.ReadCache(is2, binary);
    std::ostringstream os2;
    again.WriteCache(os2, binary);
    CHECK(os2.str() == written);
  }
}

TEST_CASE("caching compiler: cache files", "[cache]") {
  Nnet nnet = passes_a::NnetFromConfigText(TdnnConfig(8));
  char name[] = "/tmp/caching-compiler-test-XXXXXX";
  int fd = mkstemp(name);
  REQUIRE(fd >= 0);
  close(fd);
  {
    CachingOptimizingCompiler compiler(nnet);
    compiler.Compile(Request(1, 5, true));
    compiler.WriteCacheFile(name, true);
    compiler.WriteCacheFile("", true);  // does nothing
  }
  CachingOptimizingCompiler reread(nnet);
  reread.ReadCacheFile(name);
  reread.ReadCacheFile("");  // does nothing
  CHECK(reread.CacheSize() == 1);
  std::remove(name);
  // A missing file is a warning only.
  CaptureStderr capture;
  CachingOptimizingCompiler fresh(nnet);
  fresh.ReadCacheFile(name);
  const std::string text = capture.Text();
  CHECK(text.find("WARNING") != std::string::npos);
  CHECK(text.find("Could not open the computation cache") != std::string::npos);
  CHECK(fresh.CacheSize() == 0);
  // Malformed data is an error naming the file.
  {
    std::ofstream os(name);
    os << "<OptimizationConfig> garbage";
  }
  CHECK_THROWS_AS(fresh.ReadCacheFile(name), UserError);
  std::remove(name);
}

TEST_CASE("caching compiler: stale caches are ignored with a warning",
          "[cache]") {
  Nnet nnet = passes_a::NnetFromConfigText(TdnnConfig(8));
  std::string written;
  {
    CachingOptimizingCompiler compiler(nnet);
    compiler.Compile(Request(1, 5, true));
    std::ostringstream os;
    compiler.WriteCache(os, false);
    written = os.str();
  }
  SECTION("different optimization options") {
    NnetOptimizeOptions other;
    other.snip_row_ops = false;
    CachingOptimizingCompiler compiler(nnet, other);
    std::istringstream is(written);
    CaptureStderr capture;
    compiler.ReadCache(is, false);
    const std::string text = capture.Text();
    CHECK(text.find("WARNING") != std::string::npos);
    CHECK(text.find("different --optimization.* options") != std::string::npos);
    CHECK(compiler.CacheSize() == 0);
  }
  SECTION("changed network structure") {
    Nnet wider = passes_a::NnetFromConfigText(TdnnConfig(9));
    CachingOptimizingCompiler compiler(wider);
    std::istringstream is(written);
    CaptureStderr capture;
    compiler.ReadCache(is, false);
    const std::string text = capture.Text();
    CHECK(text.find("WARNING") != std::string::npos);
    CHECK(text.find("different structure") != std::string::npos);
    CHECK(compiler.CacheSize() == 0);
  }
  SECTION("same structure, other parameters") {
    Nnet other = passes_a::NnetFromConfigText(TdnnConfig(8));  // new params
    CachingOptimizingCompiler compiler(other);
    std::istringstream is(written);
    compiler.ReadCache(is, false);
    CHECK(compiler.CacheSize() == 1);
  }
}

TEST_CASE("structure fingerprint", "[cache]") {
  Nnet a = passes_a::NnetFromConfigText(TdnnConfig(8));
  Nnet b = passes_a::NnetFromConfigText(TdnnConfig(8));
  Nnet c = passes_a::NnetFromConfigText(TdnnConfig(9));
  const std::string fa = NnetStructureFingerprint(a);
  CHECK(fa.rfind("fnv1a64-", 0) == 0);
  CHECK(fa.size() == 8 + 16);
  // Golden for computation format 2; a build of format 1 gave
  // fnv1a64-cb392c8bf9b7360e for this network and must not take its caches.
  CHECK(fa == "fnv1a64-4fa7e0438d8a8864");
  CHECK(fa == NnetStructureFingerprint(b));
  CHECK(fa != NnetStructureFingerprint(c));
  // Freezing a component changes what the compiler does.
  dynamic_cast<UpdatableComponent *>(a.GetComponent(0))
      ->SetActualLearningRate(0.0f);
  CHECK(fa != NnetStructureFingerprint(a));
}

TEST_CASE("caching compiler: threads", "[cache]") {
  Nnet nnet = passes_a::NnetFromConfigText(TdnnConfig(8));
  CachingOptimizingCompiler compiler(nnet, NnetOptimizeOptions(),
                                     Config(64, false));
  const ComputationRequest shared = Request(1, 6, true);
  const int kRounds = 20;
  std::vector<std::shared_ptr<const NnetComputation>> got[2];
  auto work = [&](int id) {
    for (int i = 0; i < kRounds; i++) {
      got[id].push_back(compiler.Compile(shared));
      got[id].push_back(compiler.Compile(Request(1, 2 + id, i % 2 == 0)));
    }
  };
  std::thread t0(work, 0), t1(work, 1);
  t0.join();
  t1.join();
  // One computation per distinct request: nobody compiled one twice.
  CHECK(got[0][0] == got[1][0]);
  for (int id = 0; id < 2; id++)
    for (int i = 0; i < kRounds; i++) CHECK(got[id][2 * i] == got[0][0]);
  CachingCompilerStats s = compiler.Stats();
  CHECK(s.misses == 5);  // shared + 2 per thread
  CHECK(s.hits + s.waits + s.misses == 4 * kRounds);
  CHECK(compiler.CacheSize() == 5);
}

TEST_CASE("caching compiler: shortcut for 128 sequences", "[cache]") {
  Nnet nnet = passes_a::NnetFromConfigText(TdnnConfig(8));
  const ComputationRequest request = Request(128, 8, true);
  ComputationRequest mini;
  int32_t num_n = 0;
  REQUIRE(RequestIsDecomposable(request, &mini, &num_n));
  CHECK(num_n == 128);

  CachingOptimizingCompiler compiler(nnet);
  auto computation = compiler.Compile(request);
  CachingCompilerStats s = compiler.Stats();
  CHECK(s.shortcut_expansions == 1);
  CHECK(s.misses == 2);  // the request and its mini request
  CHECK(s.seconds_expand > 0.0);
  CHECK(compiler.IsCached(request));
  CHECK(compiler.IsCached(mini));
  CHECK(compiler.CacheSize() == 2);
  // Another minibatch size shares the mini computation.
  compiler.Compile(Request(64, 8, true));
  CHECK(compiler.Stats().hits == 1);
  CHECK(compiler.Stats().shortcut_expansions == 2);

  // The expanded computation computes what direct compilation computes.
  CachingOptimizingCompiler direct(nnet, NnetOptimizeOptions(),
                                   Config(64, false));
  auto direct_computation = direct.Compile(request);
  CHECK(direct.Stats().shortcut_expansions == 0);
  CHECK(direct.CacheSize() == 1);
  CheckComputation(nnet, *computation, false);
  passes_a::Io io = passes_a::RandomIo(nnet, request, 1234);
  passes_a::Results a = passes_a::Run(nnet, *computation, io),
                    b = passes_a::Run(nnet, *direct_computation, io);
  CHECK(passes_a::Compare(a, b, 1e-4f) == "");
}

}  // namespace nnet3
