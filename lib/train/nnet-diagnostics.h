// NnetComputeProb: the objective and accuracy of a network on egs, without
// training (Kaldi's nnet3-compute-prob; reference 7.2); optionally the
// gradient too (nnet3-show-progress).
//
//   NnetComputeProbOptions opts;  opts.Register(&po);
//   NnetComputeProb prob(opts, nnet);
//   for (; !reader.Done(); reader.Next()) prob.Compute(reader.Value());
//   bool ok = prob.PrintTotalStats();   // false: no weight seen
//
// PrintTotalStats reports, per output (sorted by name):
//   Overall log-likelihood for 'output' is -1.23 per frame, over 512 frames.
// ("objective" instead of "log-likelihood" for quadratic outputs), then, with
// --compute-accuracy:
//   Overall accuracy for 'output' is 0.61 per frame, over 512 frames.
// and with --compute-per-dim-accuracy the per-class accuracies ("-1" for
// classes never seen). Objectives and accuracy are defined in
// objective-function.h. With compute_deriv, GetDeriv() holds the gradient
// of the total objective w.r.t. the parameters (a copy of the network set
// as a gradient: lr 1, plain updates), plus component stats if
// store_component_stats.
#ifndef NNET3_TRAIN_NNET_DIAGNOSTICS_H_
#define NNET3_TRAIN_NNET_DIAGNOSTICS_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compute/nnet-computer.h"
#include "nnet/nnet.h"
#include "train/nnet-example.h"
#include "train/objective-function.h"
#include "train/training-compiler.h"

namespace nnet3 {

class OptionsRegistry;

struct NnetComputeProbOptions {
  bool debug_computation = false;
  bool compute_deriv = false;  // not registered
  bool compute_accuracy = true;
  bool store_component_stats = false;  // not registered
  bool compute_per_dim_accuracy = false;
  TrainingCompilerOptions compiler_config;  // --compiler.*, --optimization.*
  NnetComputeOptions compute_config;        // --computation.*

  void Register(OptionsRegistry *opts);
};

struct SimpleObjectiveInfo {
  double tot_weight = 0.0;
  double tot_objective = 0.0;
};

struct PerDimObjectiveInfo : SimpleObjectiveInfo {
  std::vector<double> tot_weight_vec;     // per class, if per-dim
  std::vector<double> tot_objective_vec;  // (correct weight per class)
};

// The request NnetComputeProb::Compute compiles for one minibatch `eg`
// (after checking the eg's input dimensions): need_model_derivative =
// compute_deriv, store_component_stats as configured. UserError for an eg
// that does not fit the network.
void GetComputeProbRequest(const Nnet &nnet, const NnetExample &eg,
                           const NnetComputeProbOptions &config,
                           ComputationRequest *request);

class NnetComputeProb {
 public:
  // `nnet` must outlive this object. UserError if store_component_stats is
  // set without compute_deriv (the stats would have nowhere to go).
  NnetComputeProb(const NnetComputeProbOptions &config, const Nnet &nnet);
  // Kaldi's second constructor, for recomputing batch-norm stats: needs
  // store_component_stats without compute_deriv (UserError otherwise); the
  // component stats go into *nnet itself, which must outlive this object.
  NnetComputeProb(const NnetComputeProbOptions &config, Nnet *nnet);
  NnetComputeProb(const NnetComputeProb &) = delete;
  NnetComputeProb &operator=(const NnetComputeProb &) = delete;

  // Accumulates the objectives (and the gradient) of one minibatch.
  // UserError for an eg that does not fit the network.
  void Compute(const NnetExample &eg);
  // See the file comment; returns whether any output had weight.
  bool PrintTotalStats() const;
  // Null if no eg had this output.
  const SimpleObjectiveInfo *GetObjective(const std::string &name) const;
  const PerDimObjectiveInfo *GetAccuracy(const std::string &name) const;
  // The gradient network; UserError unless compute_deriv.
  const Nnet &GetDeriv() const;
  // Zeroes the totals and the gradient.
  void Reset();
  void SetReportSink(ReportSink sink) { report_ = std::move(sink); }
  // For --read-cache / --write-cache.
  TrainingCompiler *GetCompiler() { return &compiler_; }

 private:
  NnetComputeProbOptions config_;
  const Nnet &nnet_;
  std::unique_ptr<Nnet> deriv_nnet_;  // only with compute_deriv
  Nnet *stats_nnet_ = nullptr;        // only with the second constructor
  TrainingCompiler compiler_;
  int32_t num_minibatches_processed_ = 0;
  std::map<std::string, SimpleObjectiveInfo> objf_info_;
  std::map<std::string, PerDimObjectiveInfo> accuracy_info_;
  ReportSink report_;  // empty: NNET3_LOG
};

}  // namespace nnet3

#endif  // NNET3_TRAIN_NNET_DIAGNOSTICS_H_
