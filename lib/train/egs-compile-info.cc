#include "train/egs-compile-info.h"

#include <algorithm>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "optimize/optimize-info.h"
#include "train/example-computation.h"
#include "train/nnet-diagnostics.h"
#include "train/nnet-training.h"

namespace nnet3 {

namespace {

// The options that describe the request when there are no egs.
const char *const kRequestOptions[] = {
    "num-sequences",       "frames",
    "output-range",        "extra-left-context",
    "extra-right-context", "need-model-derivative",
    "input-deriv",         "output-deriv"};

}  // namespace

EgsRequestOptions GetEgsRequestOptions(const CompileInfoOptions &opts,
                                       const OptionsRegistry &po) {
  for (const char *name : kRequestOptions)
    if (po.WasGiven(name))
      NNET3_ERR << "--" << name
                << " describes a request without egs; with egs each request "
                   "is built from the examples as "
                << (opts.for_compute_prob ? "nnet3-compute-prob"
                                          : "nnet3-train")
                << " builds it: drop --" << name << " or the egs argument";
  EgsRequestOptions ans;
  ans.for_compute_prob = opts.for_compute_prob;
  ans.max_requests = opts.max_requests;
  const bool given = po.WasGiven("store-component-stats");
  if (opts.for_compute_prob) {
    if (given && opts.store_component_stats)
      NNET3_ERR << "--store-component-stats=true cannot be used with "
                   "--for-compute-prob: nnet3-compute-prob never stores "
                   "component stats";
    ans.store_component_stats = false;
  } else {
    ans.store_component_stats =
        given ? opts.store_component_stats
              : NnetTrainerOptions().store_component_stats;
  }
  return ans;
}

void CheckNoEgsOptions(const OptionsRegistry &po) {
  for (const char *name : {"for-compute-prob", "max-requests"})
    if (po.WasGiven(name))
      NNET3_ERR << "--" << name
                << " applies to egs input only: give an egs rspecifier "
                   "after the model, or drop --"
                << name;
}

EgsRequestCollector::EgsRequestCollector(const Nnet &nnet,
                                         const EgsRequestOptions &opts)
    : nnet_(nnet), opts_(opts) {}

void EgsRequestCollector::Add(const std::string &key, const NnetExample &eg) {
  ComputationRequest request;
  try {
    if (opts_.for_compute_prob) {
      NnetComputeProbOptions config;
      GetComputeProbRequest(nnet_, eg, config, &request);
    } else {
      NnetTrainerOptions config;
      config.store_component_stats = opts_.store_component_stats;
      GetTrainingRequest(nnet_, eg, config, &request);
    }
  } catch (const UserError &e) {
    throw UserError("Example '" + key + "': " + e.what(), e.where());
  }
  num_minibatches_++;
  const size_t hash = ComputationRequestHasher()(&request);
  auto range = by_hash_.equal_range(hash);
  for (auto it = range.first; it != range.second; ++it)
    if (requests_[it->second].request == request) {
      requests_[it->second].num_minibatches++;
      return;
    }
  Request r;
  r.request = std::move(request);
  r.first_key = key;
  r.num_sequences = GetNumNvalues(eg);
  r.num_minibatches = 1;
  by_hash_.emplace(hash, requests_.size());
  requests_.push_back(std::move(r));
}

void CompileEgsRequests(const Nnet &nnet, const EgsRequestCollector &collector,
                        const CompileInfoOptions &opts,
                        const NnetOptimizeOptions &optimize_opts,
                        std::vector<CompileInfoEntry> *entries) {
  const std::vector<EgsRequestCollector::Request> &requests =
      collector.Requests();
  if (requests.empty())
    NNET3_ERR << "No examples were read from the egs (is the archive empty?)";
  const size_t num_shown = std::min(
      requests.size(), static_cast<size_t>(collector.Options().max_requests));
  const char *program = collector.Options().for_compute_prob
                            ? "nnet3-compute-prob"
                            : "nnet3-train";
  NNET3_LOG << "Read " << collector.NumMinibatches() << " minibatches with "
            << requests.size() << " distinct computation requests (as "
            << program << " builds them); showing " << num_shown;
  if (num_shown < requests.size())
    NNET3_WARN << (requests.size() - num_shown)
               << " distinct requests are not shown (--max-requests="
               << collector.Options().max_requests << ")";
  entries->assign(num_shown, CompileInfoEntry());
  for (size_t i = 0; i < num_shown; i++) {
    const EgsRequestCollector::Request &r = requests[i];
    CompileInfoEntry &e = (*entries)[i];
    e.heading = "Request " + std::to_string(i + 1) + " of " +
                std::to_string(requests.size()) + " (as " + program +
                " compiles it): " + std::to_string(r.num_minibatches) +
                (r.num_minibatches == 1 ? " minibatch" : " minibatches") +
                " of " + std::to_string(r.num_sequences) +
                (r.num_sequences == 1 ? " sequence" : " sequences") +
                ", the first '" + r.first_key + "'";
    try {
      CompileInfoForRequest(nnet, r.request, opts, optimize_opts, &e.info);
    } catch (const UserError &err) {
      throw UserError("The request of example '" + r.first_key + "' (as " +
                          program + " builds it): " + err.what(),
                      err.where());
    }
  }
}

}  // namespace nnet3
