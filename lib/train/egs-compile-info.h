// nnet3-compile-info with egs: the distinct computation requests that
// nnet3-train (or nnet3-compute-prob) compiles for the minibatches of an
// egs archive, each compiled and optimized for showing (compile-info.h).
//
//   EgsRequestOptions egs_opts = GetEgsRequestOptions(opts, po);
//   EgsRequestCollector collector(nnet, egs_opts);
//   for (; !reader.Done(); reader.Next())
//     collector.Add(reader.Key(), reader.Value());
//   std::vector<CompileInfoEntry> entries;
//   CompileEgsRequests(nnet, collector, opts, optimize_opts, &entries);
//
// Requests are built by the trainer's own function (GetTrainingRequest,
// nnet-training.h) or compute-prob's (GetComputeProbRequest), so each one
// is the very key the trainer's computation cache uses, and deduplicated
// with the cache's equality; they keep the order in which they first
// appear. Only the first max_requests are compiled.
#ifndef NNET3_TRAIN_EGS_COMPILE_INFO_H_
#define NNET3_TRAIN_EGS_COMPILE_INFO_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "compile/compile-info.h"
#include "compile/computation-request.h"
#include "nnet/nnet.h"
#include "optimize/nnet-optimize-options.h"
#include "train/nnet-example.h"

namespace nnet3 {

class OptionsRegistry;

struct EgsRequestOptions {
  bool for_compute_prob = false;      // else as nnet3-train
  bool store_component_stats = true;  // nnet3-train --store-component-stats
  int32_t max_requests = 10;
};

// From nnet3-compile-info's options after po.Read(): --for-compute-prob,
// --max-requests, and --store-component-stats if given (else nnet3-train's
// default, true; nnet3-compute-prob never stores stats: giving it true
// with --for-compute-prob is a UserError). UserError naming the option if
// one that describes a request without egs (--frames, --num-sequences,
// --output-range, --extra-left-context, --extra-right-context,
// --need-model-derivative, --input-deriv, --output-deriv) was given.
EgsRequestOptions GetEgsRequestOptions(const CompileInfoOptions &opts,
                                       const OptionsRegistry &po);

// UserError if --for-compute-prob or --max-requests was given without egs.
void CheckNoEgsOptions(const OptionsRegistry &po);

class EgsRequestCollector {
 public:
  struct Request {
    ComputationRequest request;
    std::string first_key;      // of the first minibatch with this request
    int32_t num_sequences = 0;  // of that minibatch
    int64_t num_minibatches = 0;
  };

  // `nnet` must outlive the collector.
  EgsRequestCollector(const Nnet &nnet, const EgsRequestOptions &opts);
  // UserError (naming `key`) for an eg that does not fit the network.
  void Add(const std::string &key, const NnetExample &eg);

  const std::vector<Request> &Requests() const { return requests_; }
  int64_t NumMinibatches() const { return num_minibatches_; }
  const EgsRequestOptions &Options() const { return opts_; }

 private:
  const Nnet &nnet_;
  EgsRequestOptions opts_;
  std::vector<Request> requests_;
  std::unordered_multimap<size_t, size_t> by_hash_;  // hash -> index
  int64_t num_minibatches_ = 0;
};

// Compiles (CompileInfoForRequest) the first max_requests requests, each
// with a heading: "Request 1 of 3 (as nnet3-train compiles it): 45
// minibatches of 128 sequences, the first 'merged-0-128'". UserError if
// no egs were read. Logs how many requests are not shown.
void CompileEgsRequests(const Nnet &nnet, const EgsRequestCollector &collector,
                        const CompileInfoOptions &opts,
                        const NnetOptimizeOptions &optimize_opts,
                        std::vector<CompileInfoEntry> *entries);

}  // namespace nnet3

#endif  // NNET3_TRAIN_EGS_COMPILE_INFO_H_
