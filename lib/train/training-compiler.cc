#include "train/training-compiler.h"

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/timer.h"
#include "compile/compiler.h"
#include "compile/shortcut-compile.h"

namespace nnet3 {

void TrainingCompilerOptions::Register(OptionsRegistry *opts) {
  opts->Register("use-shortcut", &use_shortcut,
                 "If true, use the 'shortcut' in compilation whereby "
                 "computation requests with regular structure are identified "
                 "as such, a computation with a smaller number of distinct "
                 "values of 'n' is compiled (this is more efficient), and "
                 "then expanded.");
  opts->Register("cache-capacity", &cache_capacity,
                 "Determines how many cached computations we'll store.");
}

TrainingCompiler::TrainingCompiler(const Nnet &nnet,
                                   const TrainingCompilerOptions &opts)
    : nnet_(nnet), opts_(opts) {
  if (opts_.cache_capacity <= 0)
    NNET3_ERR << "--compiler.cache-capacity must be positive, got "
              << opts_.cache_capacity;
}

std::shared_ptr<const NnetComputation> TrainingCompiler::Compile(
    const ComputationRequest &request) {
  auto found = index_.find(&request);
  if (found != index_.end()) {
    ++num_hits_;
    lru_.splice(lru_.begin(), lru_, found->second);  // now most recent
    return found->second->second;
  }
  Timer timer;
  auto computation = std::make_shared<NnetComputation>();
  CompileWithShortcut(nnet_, request, CompilerOptions(), opts_.use_shortcut,
                      computation.get());
  ++num_compiled_;
  NNET3_VLOG(2) << "Compiled a computation of " << computation->commands.size()
                << " commands in " << timer.Elapsed() << " seconds";
  if (static_cast<int32_t>(lru_.size()) >= opts_.cache_capacity) {
    index_.erase(&lru_.back().first);
    lru_.pop_back();
  }
  lru_.emplace_front(request, computation);
  index_[&lru_.front().first] = lru_.begin();
  return computation;
}

}  // namespace nnet3
