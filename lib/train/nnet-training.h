// NnetTrainer: trains a network on minibatches (merged egs), one SGD step
// per minibatch, as Kaldi's nnet3-train does (reference 10).
//
//   NnetTrainerOptions opts;  opts.Register(&po);   // after po.Read(...):
//   NnetTrainer trainer(opts, &nnet, srand_seed);
//   for (; !reader.Done(); reader.Next()) trainer.Train(reader.Value());
//   bool ok = trainer.PrintTotalStats();            // false: no weight seen
//
// One step (Kaldi's TrainInternal, reference 10.2): compile the request of
// the eg (need_model_derivative, store_component_stats per option; cached),
// run forward, compute each output's objective and derivative
// (objective-function.h), run backward, which accumulates lr·gradient into
// delta_nnet (a copy of the network with every parameter zeroed, keeping
// learning rates, max-change and natural-gradient state); then
//   ApplyL2Regularization(nnet, num_sequences · l2_regularize_factor, delta)
//   nnet += (1 − momentum) · delta, limited by per-component max-change and
//           --max-param-change (the enforcements are counted)
//   ScaleBatchnormStats(batchnorm_stats_scale); ConstrainOrthonormal
//   delta *= momentum (or 0 if the update was not applied).
// Component stats are stored in the network itself. With
// --backstitch-training-scale=α > 0, every --backstitch-training-interval
// minibatches the step is done twice on the same eg and dropout masks:
// nnet −= α·delta (natural gradient frozen), then nnet += (1+α)·delta (with
// L2); objectives of the second pass are logged as '<output>_backstitch'.
// With --optimizer=adam (nnet-optimizer.h; not in Kaldi) the accumulated
// gradient becomes Adam's step right after the L2 term, and the step is then
// applied with max-change as above (no momentum, no backstitch).
//
// Determinism: all randomness (dropout masks, which minibatches get the
// orthonormal constraint and backstitch) comes from one RandomState seeded
// with `srand_seed`; the same seed, model and egs give the same model on the
// CPU.
#ifndef NNET3_TRAIN_NNET_TRAINING_H_
#define NNET3_TRAIN_NNET_TRAINING_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/random.h"
#include "compute/nnet-computer.h"
#include "nnet/nnet.h"
#include "train/nnet-example.h"
#include "train/nnet-optimizer.h"
#include "train/non-finite-guard.h"
#include "train/objective-function.h"
#include "train/training-compiler.h"

namespace nnet3 {

class OptionsRegistry;

struct NnetTrainerOptions {
  bool zero_component_stats = true;
  bool store_component_stats = true;
  int32_t print_interval = 100;
  bool debug_computation = false;  // not registered (as in Kaldi)
  float momentum = 0.0f;
  float l2_regularize_factor = 1.0f;
  float backstitch_training_scale = 0.0f;
  int32_t backstitch_training_interval = 1;
  float batchnorm_stats_scale = 0.8f;
  float max_param_change = 2.0f;
  // --read-cache (read by the constructor), --write-cache (WriteCache()).
  std::string read_cache, write_cache;
  bool binary_write_cache = true;
  OptimizerOptions optimizer_config;        // --optimizer, --adam-*
  TrainingCompilerOptions compiler_config;  // --compiler.*, --optimization.*
  NnetComputeOptions compute_config;        // --computation.*

  void Register(OptionsRegistry *opts);
  // UserError for out-of-range values (momentum < 0, backstitch with
  // momentum, ...), naming the option.
  void Check() const;
};

// The request NnetTrainer::Train compiles for one minibatch `eg` (after
// checking the eg's input dimensions): the eg's inputs and outputs,
// need_model_derivative, and store_component_stats as configured. UserError
// for an eg that does not fit the network. nnet3-compile-info shows what
// this compiles to.
void GetTrainingRequest(const Nnet &nnet, const NnetExample &eg,
                        const NnetTrainerOptions &config,
                        ComputationRequest *request);

class NnetTrainer {
 public:
  // `nnet` is trained in place and must outlive the trainer; its structure
  // must not change meanwhile. Zeroes its component stats if
  // zero_component_stats.
  NnetTrainer(const NnetTrainerOptions &config, Nnet *nnet,
              uint32_t srand_seed = 0);
  NnetTrainer(const NnetTrainer &) = delete;
  NnetTrainer &operator=(const NnetTrainer &) = delete;

  // One minibatch. UserError for an eg that does not fit the network (an
  // unknown io name, an input or output of the wrong dimension). A step
  // whose objective or parameter change holds inf or NaN is not applied:
  // the model (parameters and stats) stays as it was, a warning names the
  // input or the first component that went non-finite, and the objective
  // totals leave the step out. (With backstitch, a second pass that goes
  // non-finite leaves the first, backward half-step applied.)
  void Train(const NnetExample &eg);
  // Steps skipped because they were not finite.
  int32_t NumNonFiniteSteps() const { return num_non_finite_steps_; }

  // Reports the overall objective of each output (sorted by name) and the
  // max-change statistics; returns whether any output had weight.
  bool PrintTotalStats() const;
  // "For <component>, per-component max-change was enforced P % of the
  // time." for each component limited at least once, and "The global
  // max-change was enforced P % of the time." if it was.
  void PrintMaxChangeStats() const;

  // Where report lines go (NNET3_LOG if empty, the default).
  void SetReportSink(ReportSink sink) { report_ = std::move(sink); }

  int32_t NumMinibatchesProcessed() const { return num_minibatches_processed_; }
  const std::map<std::string, ObjectiveFunctionInfo> &ObjectiveInfo() const {
    return objf_info_;
  }
  const std::vector<int32_t> &NumMaxChangePerComponentApplied() const {
    return num_max_change_per_component_applied_;
  }
  int32_t NumMaxChangeGlobalApplied() const {
    return num_max_change_global_applied_;
  }
  // The momentum-carrying change (zero after each step without momentum).
  const Nnet &DeltaNnet() const { return *delta_nnet_; }
  const TrainingCompiler &GetCompiler() const { return compiler_; }
  // For callers that run their own forward and backward passes (the
  // builder's Net): the network the backward pass accumulates lr·gradient
  // into (NnetComputer's nnet_to_update), and the update that follows it in
  // Train (L2, the optimizer, nnet += delta with max-change, batch-norm
  // stats scaling, the orthonormal constraint, momentum).
  // UpdateAfterBackward returns false (warning, and dropping the change)
  // when the change is not finite: nothing is applied then.
  Nnet *DeltaNnetForBackward() { return delta_nnet_.get(); }
  bool UpdateAfterBackward(int32_t num_sequences);

  // Writes the computation cache to --write-cache, if set (Kaldi does this
  // in the trainer's destructor; here the program calls it).
  void WriteCache() {
    compiler_.WriteCacheFile(config_.write_cache, config_.binary_write_cache);
  }

 private:
  // One output's objective on one minibatch, recorded into objf_info_
  // only once the step is known to be finite.
  struct ObjectiveRecord {
    std::string name;
    double weight = 0.0, objf = 0.0;
  };
  void TrainInternal(const NnetExample &eg, const NnetComputation &computation);
  // UpdateAfterBackward's work; false (nothing applied, the change left as
  // it was) when the change is not finite.
  bool TryUpdate(int32_t num_sequences);
  // False when the step was skipped (not finite).
  bool TrainInternalBackstitch(const NnetExample &eg,
                               const NnetComputation &computation,
                               bool is_backstitch_step1);
  // Forward, objectives (under name + suffix, into *objfs), backward.
  void ForwardBackward(const NnetExample &eg,
                       const NnetComputation &computation,
                       const std::string &suffix,
                       std::vector<ObjectiveRecord> *objfs);
  // A step whose objective or parameter change is not finite: puts the
  // saved stats back, drops the change (and momentum), warns naming where
  // it started (train/non-finite-guard.h). `what` says what was not finite.
  void SkipNonFiniteStep(const NnetExample &eg,
                         const NnetComputation &computation,
                         const std::string &what);
  // "" if every objective is finite, else what was not.
  static std::string NonFiniteObjective(
      const std::vector<ObjectiveRecord> &objfs);
  void RecordObjectives(const std::vector<ObjectiveRecord> &objfs);

  NnetTrainerOptions config_;
  Nnet *nnet_;
  std::unique_ptr<Nnet> delta_nnet_;
  std::unique_ptr<AdamOptimizer> adam_;  // --optimizer=adam
  TrainingCompiler compiler_;
  RandomState rng_;
  int32_t srand_seed_;  // decides which minibatches get backstitch
  int32_t num_minibatches_processed_ = 0;
  std::map<std::string, ObjectiveFunctionInfo> objf_info_;
  std::vector<int32_t> num_max_change_per_component_applied_;
  int32_t num_max_change_global_applied_ = 0;
  ReportSink report_;  // empty: NNET3_LOG
  NonFiniteGuard guard_;
  int32_t num_non_finite_steps_ = 0;
};

}  // namespace nnet3

#endif  // NNET3_TRAIN_NNET_TRAINING_H_
