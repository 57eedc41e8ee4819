// Fuzz target: computation caches (--read-cache of nnet3-train and
// nnet3-compute-prob; optimize/caching-compiler.h) for the network in
// cache-net.config. A cache that is accepted must give computations that
// the computation checker passes (the executor trusts them) and write back
// to the same bytes.
#include <fstream>
#include <sstream>
#include <string>

#include "base/io-funcs.h"
#include "base/log.h"
#include "compile/computation-checker.h"
#include "fuzz-common.h"
#include "nnet/nnet.h"
#include "optimize/caching-compiler.h"

namespace {

const nnet3::Nnet &CacheNet() {
  static nnet3::Nnet *nnet = [] {
    auto *n = new nnet3::Nnet;
    std::ifstream is(NNET3_FUZZ_DIR "/cache-net.config");
    if (!is)
      nnet3::fuzz::Fail("cannot read " NNET3_FUZZ_DIR "/cache-net.config");
    n->ReadConfig(is, "cache-net.config");
    return n;
  }();
  return *nnet;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace nnet3;
  fuzz::QuietLogs();
  const Nnet &nnet = CacheNet();
  std::istringstream is(fuzz::AsString(data, size));
  fuzz::RunExpectingUserError([&]() {
    bool binary = false;
    if (!InitKaldiInputStream(is, &binary)) return;
    CachingOptimizingCompiler compiler(nnet);
    compiler.ReadCache(is, binary);
    NNET3_VLOG(1) << "cache entries read: " << compiler.CacheSize();
    for (const ComputationRequest &request : compiler.CachedRequests()) {
      std::shared_ptr<const NnetComputation> c = compiler.Compile(request);
      try {
        CheckComputation(nnet, *c, false);
      } catch (const InternalError &e) {
        fuzz::Fail(std::string("an accepted cache holds a computation that "
                               "fails the checker: ") +
                   e.what());
      }
    }
    std::ostringstream os1, os2;
    compiler.WriteCache(os1, true);
  });
  return 0;
}
