#include "train/nnet-diagnostics.h"

#include <memory>
#include <sstream>
#include <utility>

#include "base/error.h"
#include "base/options.h"
#include "nnet/nnet-utils.h"
#include "train/example-computation.h"

namespace nnet3 {

void NnetComputeProbOptions::Register(OptionsRegistry *opts) {
  opts->Register("debug-computation", &debug_computation,
                 "If true, turn on debug for the actual computation (very "
                 "verbose!)");
  opts->Register("compute-accuracy", &compute_accuracy,
                 "If true, compute accuracy values as well as objective "
                 "functions");
  opts->Register("compute-per-dim-accuracy", &compute_per_dim_accuracy,
                 "If true, compute accuracy values per-dim");
  compiler_config.Register(opts);  // --compiler.*, --optimization.*
  OptionsRegistry compute_opts("computation", opts);
  compute_config.Register(&compute_opts);
}

NnetComputeProb::NnetComputeProb(const NnetComputeProbOptions &config,
                                 const Nnet &nnet)
    : config_(config), nnet_(nnet), compiler_(nnet, config.compiler_config) {
  if (config_.debug_computation) config_.compute_config.debug = true;
  if (config_.compute_deriv) {
    deriv_nnet_ = std::make_unique<Nnet>(nnet);
    ScaleNnet(0.0f, deriv_nnet_.get());
    SetNnetAsGradient(deriv_nnet_.get());  // plain lr-1 updates
  } else if (config_.store_component_stats) {
    NNET3_ERR << "NnetComputeProb: store_component_stats needs compute_deriv "
                 "(the stats are stored in the derivative network)";
  }
}

NnetComputeProb::NnetComputeProb(const NnetComputeProbOptions &config,
                                 Nnet *nnet)
    : config_(config),
      nnet_(*nnet),
      stats_nnet_(nnet),
      compiler_(*nnet, config.compiler_config) {
  if (config_.debug_computation) config_.compute_config.debug = true;
  if (!config_.store_component_stats || config_.compute_deriv)
    NNET3_ERR << "NnetComputeProb: the constructor that stores component "
                 "stats in the network needs store_component_stats and no "
                 "compute_deriv";
}

void NnetComputeProb::Reset() {
  num_minibatches_processed_ = 0;
  objf_info_.clear();
  accuracy_info_.clear();
  if (deriv_nnet_ != nullptr) {
    ScaleNnet(0.0f, deriv_nnet_.get());
    SetNnetAsGradient(deriv_nnet_.get());
  }
}

void GetComputeProbRequest(const Nnet &nnet, const NnetExample &eg,
                           const NnetComputeProbOptions &config,
                           ComputationRequest *request) {
  CheckExampleInputDims(nnet, eg);
  GetComputationRequest(nnet, eg, config.compute_deriv,
                        config.store_component_stats, request);
}

void NnetComputeProb::Compute(const NnetExample &eg) {
  ComputationRequest request;
  GetComputeProbRequest(nnet_, eg, config_, &request);
  std::shared_ptr<const NnetComputation> computation =
      compiler_.Compile(request);
  // With stats_nnet_ the stats go into the network itself.
  std::unique_ptr<NnetComputer> computer =
      stats_nnet_ != nullptr
          ? std::make_unique<NnetComputer>(config_.compute_config, *computation,
                                           stats_nnet_, nullptr)
          : std::make_unique<NnetComputer>(config_.compute_config, *computation,
                                           nnet_, deriv_nnet_.get());
  RunExampleComputation(
      nnet_, *computation, eg,
      [&](const NnetIo &io, const MatrixView &output, Matrix *deriv) {
        const int32_t node = nnet_.GetNodeIndex(io.name);
        double tot_weight = 0.0, tot_objf = 0.0;
        ComputeObjectiveFromOutput(
            io.features, nnet_.GetNode(node).objective_type, io.name, output,
            &tot_weight, &tot_objf, config_.compute_deriv ? deriv : nullptr);
        SimpleObjectiveInfo &totals = objf_info_[io.name];
        totals.tot_weight += tot_weight;
        totals.tot_objective += tot_objf;
        if (!config_.compute_accuracy) return;
        PerDimObjectiveInfo &acc = accuracy_info_[io.name];
        const bool per_dim = config_.compute_per_dim_accuracy;
        double acc_weight = 0.0, acc_correct = 0.0;
        ComputeAccuracy(io.features, output, &acc_weight, &acc_correct,
                        per_dim ? &acc.tot_weight_vec : nullptr,
                        per_dim ? &acc.tot_objective_vec : nullptr);
        acc.tot_weight += acc_weight;
        acc.tot_objective += acc_correct;
      },
      computer.get());
  num_minibatches_processed_++;
}

bool NnetComputeProb::PrintTotalStats() const {
  bool ans = false;
  for (const auto &entry : objf_info_) {
    const std::string &name = entry.first;
    const SimpleObjectiveInfo &info = entry.second;
    const ObjectiveType type =
        nnet_.GetNode(nnet_.GetNodeIndex(name)).objective_type;
    std::ostringstream os;
    os << "Overall " << (type == kLinear ? "log-likelihood" : "objective")
       << " for '" << name << "' is " << info.tot_objective / info.tot_weight
       << " per frame, over " << info.tot_weight << " frames.";
    NNET3_REPORT(report_, os.str());
    if (info.tot_weight > 0) ans = true;
  }
  for (const auto &entry : accuracy_info_) {
    const std::string &name = entry.first;
    const PerDimObjectiveInfo &info = entry.second;
    std::ostringstream os;
    os << "Overall accuracy for '" << name << "' is "
       << info.tot_objective / info.tot_weight << " per frame, over "
       << info.tot_weight << " frames.";
    NNET3_REPORT(report_, os.str());
    if (info.tot_weight_vec.empty()) continue;
    std::ostringstream per_dim;
    per_dim << "Overall per-dim accuracy vector for '" << name << "' is [ ";
    for (size_t j = 0; j < info.tot_weight_vec.size(); ++j)
      per_dim << (info.tot_weight_vec[j] != 0.0
                      ? info.tot_objective_vec[j] / info.tot_weight_vec[j]
                      : -1.0)
              << ' ';
    per_dim << "] per frame, over " << info.tot_weight << " frames.";
    NNET3_REPORT(report_, per_dim.str());
  }
  return ans;
}

const SimpleObjectiveInfo *NnetComputeProb::GetObjective(
    const std::string &name) const {
  auto it = objf_info_.find(name);
  return it == objf_info_.end() ? nullptr : &it->second;
}

const PerDimObjectiveInfo *NnetComputeProb::GetAccuracy(
    const std::string &name) const {
  auto it = accuracy_info_.find(name);
  return it == accuracy_info_.end() ? nullptr : &it->second;
}

const Nnet &NnetComputeProb::GetDeriv() const {
  if (deriv_nnet_ == nullptr)
    NNET3_ERR << "NnetComputeProb::GetDeriv(): compute_deriv was not set";
  return *deriv_nnet_;
}

}  // namespace nnet3
