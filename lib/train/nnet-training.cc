#include "train/nnet-training.h"

#include <cmath>
#include <sstream>
#include <utility>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "nnet/component-itf.h"
#include "nnet/nnet-utils.h"
#include "train/example-computation.h"
#include "train/nnet-optimizer.h"
#include "train/nnet-training-utils.h"

namespace nnet3 {

void NnetTrainerOptions::Register(OptionsRegistry *opts) {
  opts->Register("store-component-stats", &store_component_stats,
                 "If true, store activations and derivatives for nonlinear "
                 "components during training.");
  opts->Register("zero-component-stats", &zero_component_stats,
                 "If both this and --store-component-stats are true, then "
                 "the component stats are zeroed before training.");
  opts->Register("print-interval", &print_interval,
                 "Interval (measured in minibatches) after which we print "
                 "out objective function during training");
  opts->Register("max-param-change", &max_param_change,
                 "The maximum change in parameters allowed per minibatch, "
                 "measured in Euclidean norm over the entire model (change "
                 "will be clipped to this value)");
  opts->Register("momentum", &momentum,
                 "Momentum constant to apply during training (help stabilize "
                 "update).  e.g. 0.9.  Note: we automatically multiply the "
                 "learning rate by (1-momenum) so that the 'effective' "
                 "learning rate is the same as before (because momentum "
                 "would normally increase the effective learning rate by "
                 "1/(1-momentum))");
  opts->Register("l2-regularize-factor", &l2_regularize_factor,
                 "Factor that affects the strength of l2 regularization on "
                 "model parameters.  The primary way to specify this type of "
                 "l2 regularization is via the 'l2-regularize' configuration "
                 "value at the config-file level.  --l2-regularize-factor "
                 "will be multiplied by the component-level l2-regularize "
                 "values and can be used to correct for effects related to "
                 "parallelization by model averaging.");
  opts->Register("batchnorm-stats-scale", &batchnorm_stats_scale,
                 "Factor by which we scale down the accumulated stats of "
                 "batchnorm layers after processing each minibatch.  Ensure "
                 "that the final model we write out has batchnorm stats that "
                 "are fairly fresh.");
  opts->Register("backstitch-training-scale", &backstitch_training_scale,
                 "backstitch training factor. if 0 then in the normal "
                 "training mode. It is referred as '\\alpha' in our "
                 "publications.");
  opts->Register("backstitch-training-interval", &backstitch_training_interval,
                 "do backstitch training with the specified interval of "
                 "minibatches. It is referred as 'n' in our publications.");
  opts->Register("read-cache", &read_cache,
                 "The location from which to read the cached computation "
                 "(a missing file is only a warning).");
  opts->Register("write-cache", &write_cache,
                 "The location to which to write the cached computation.");
  opts->Register("binary-write-cache", &binary_write_cache,
                 "Write computation cache in binary mode");
  optimizer_config.Register(opts);  // --optimizer, --adam-*
  compiler_config.Register(opts);   // --compiler.*, --optimization.*
  OptionsRegistry compute_opts("computation", opts);
  compute_config.Register(&compute_opts);
}

void NnetTrainerOptions::Check() const {
  if (momentum < 0.0f || momentum >= 1.0f)
    NNET3_ERR << "--momentum must be in [0, 1), got " << momentum;
  if (max_param_change < 0.0f)
    NNET3_ERR << "--max-param-change must be >= 0, got " << max_param_change;
  if (print_interval <= 0)
    NNET3_ERR << "--print-interval must be positive, got " << print_interval;
  if (backstitch_training_interval <= 0)
    NNET3_ERR << "--backstitch-training-interval must be positive, got "
              << backstitch_training_interval;
  if (backstitch_training_scale < 0.0f)
    NNET3_ERR << "--backstitch-training-scale must be >= 0, got "
              << backstitch_training_scale;
  if (backstitch_training_scale > 0.0f && momentum != 0.0f)
    NNET3_ERR << "Backstitch training (--backstitch-training-scale="
              << backstitch_training_scale << ") is incompatible with "
              << "momentum (--momentum=" << momentum << "); use one of them";
  optimizer_config.Check();
  if (optimizer_config.IsAdam() && momentum != 0.0f)
    NNET3_ERR << "--optimizer=adam keeps its own moment estimates: use "
              << "--adam-beta1 instead of --momentum=" << momentum;
  if (optimizer_config.IsAdam() && backstitch_training_scale != 0.0f)
    NNET3_ERR << "--optimizer=adam cannot be combined with backstitch "
              << "training (--backstitch-training-scale="
              << backstitch_training_scale << ")";
  if (batchnorm_stats_scale < 0.0f || batchnorm_stats_scale > 1.0f)
    NNET3_ERR << "--batchnorm-stats-scale must be in [0, 1], got "
              << batchnorm_stats_scale;
}

NnetTrainer::NnetTrainer(const NnetTrainerOptions &config, Nnet *nnet,
                         uint32_t srand_seed)
    : config_(config),
      nnet_(nnet),
      delta_nnet_(std::make_unique<Nnet>(*nnet)),
      compiler_(*nnet, config.compiler_config),
      rng_(srand_seed),
      srand_seed_(rng_.Int(0, 100000)) {
  config_.Check();
  if (config_.optimizer_config.IsAdam())
    adam_ = std::make_unique<AdamOptimizer>(config_.optimizer_config, *nnet);
  if (config_.debug_computation) config_.compute_config.debug = true;
  if (config_.zero_component_stats) ZeroComponentStats(nnet_);
  compiler_.ReadCacheFile(config_.read_cache);
  // delta = the network with every parameter (and stat) zeroed; learning
  // rates, max-change and natural-gradient state stay, so the backward pass
  // accumulates lr·(preconditioned) gradient into it.
  ScaleNnet(0.0f, delta_nnet_.get());
}

void GetTrainingRequest(const Nnet &nnet, const NnetExample &eg,
                        const NnetTrainerOptions &config,
                        ComputationRequest *request) {
  CheckExampleInputDims(nnet, eg);
  GetComputationRequest(nnet, eg, /*need_model_derivative=*/true,
                        config.store_component_stats, request);
}

void NnetTrainer::Train(const NnetExample &eg) {
  ComputationRequest request;
  GetTrainingRequest(*nnet_, eg, config_, &request);
  std::shared_ptr<const NnetComputation> computation =
      compiler_.Compile(request);
  // One seed per minibatch for the dropout masks (both backstitch passes
  // see the same masks).
  const uint64_t seed = rng_.NextSeed();
  const int32_t interval = config_.backstitch_training_interval;
  if (config_.backstitch_training_scale > 0.0f &&
      num_minibatches_processed_ % interval == srand_seed_ % interval) {
    FreezeNaturalGradient(true, delta_nnet_.get());
    nnet_->ResetGenerators(seed);
    const bool applied = TrainInternalBackstitch(eg, *computation, true);
    FreezeNaturalGradient(false, delta_nnet_.get());
    if (applied) {
      nnet_->ResetGenerators(seed);
      TrainInternalBackstitch(eg, *computation, false);
    }
  } else {
    nnet_->ResetGenerators(seed);
    TrainInternal(eg, *computation);
  }
  if (num_minibatches_processed_ == 0) {
    for (int32_t c = 0; c < nnet_->NumComponents(); ++c) {
      nnet_->GetComponent(c)->ConsolidateMemory();
      delta_nnet_->GetComponent(c)->ConsolidateMemory();
    }
  }
  num_minibatches_processed_++;
}

void NnetTrainer::ForwardBackward(const NnetExample &eg,
                                  const NnetComputation &computation,
                                  const std::string &suffix,
                                  std::vector<ObjectiveRecord> *objfs) {
  guard_.SaveStats(*nnet_);
  objfs->clear();
  // Stats go into nnet_ (the first argument), updates into delta_nnet_.
  NnetComputer computer(config_.compute_config, computation, nnet_,
                        delta_nnet_.get());
  RunExampleComputation(
      *nnet_, computation, eg,
      [&](const NnetIo &io, const MatrixView &output, Matrix *deriv) {
        const int32_t node = nnet_->GetNodeIndex(io.name);
        double tot_weight = 0.0, tot_objf = 0.0;
        ComputeObjectiveFromOutput(io.features,
                                   nnet_->GetNode(node).objective_type, io.name,
                                   output, &tot_weight, &tot_objf, deriv);
        objfs->push_back({io.name + suffix, tot_weight, tot_objf});
      },
      &computer);
}

std::string NnetTrainer::NonFiniteObjective(
    const std::vector<ObjectiveRecord> &objfs) {
  for (const ObjectiveRecord &r : objfs) {
    if (std::isfinite(r.objf) && std::isfinite(r.weight)) continue;
    std::ostringstream os;
    os << "the objective for '" << r.name << "' is " << r.objf;
    return os.str();
  }
  return "";
}

void NnetTrainer::RecordObjectives(const std::vector<ObjectiveRecord> &objfs) {
  for (const ObjectiveRecord &r : objfs)
    objf_info_[r.name].UpdateStats(r.name, config_.print_interval,
                                   num_minibatches_processed_, r.weight, r.objf,
                                   0.0, report_);
}

void NnetTrainer::SkipNonFiniteStep(const NnetExample &eg,
                                    const NnetComputation &computation,
                                    const std::string &what) {
  guard_.RestoreStats(nnet_);
  // Explained before the change is dropped: the explanation may name the
  // component whose change is not finite.
  const std::string where = ExplainNonFiniteStep(
      *nnet_, eg, computation, config_.compute_config, *delta_nnet_);
  ScaleNnet(0.0f, delta_nnet_.get());
  num_non_finite_steps_++;
  NNET3_WARN << "Minibatch " << num_minibatches_processed_ << ": " << what
             << "; not applying this step, the model is unchanged: " << where;
}

void NnetTrainer::TrainInternal(const NnetExample &eg,
                                const NnetComputation &computation) {
  std::vector<ObjectiveRecord> objfs;
  ForwardBackward(eg, computation, "", &objfs);
  std::string non_finite = NonFiniteObjective(objfs);
  if (!non_finite.empty())
    return SkipNonFiniteStep(eg, computation, non_finite);
  if (!TryUpdate(GetNumNvalues(eg)))
    return SkipNonFiniteStep(eg, computation,
                             "the parameter change is not finite");
  RecordObjectives(objfs);
}

bool NnetTrainer::UpdateAfterBackward(int32_t num_sequences) {
  if (TryUpdate(num_sequences)) return true;
  ScaleNnet(0.0f, delta_nnet_.get());
  num_non_finite_steps_++;
  NNET3_WARN << "The parameter change is not finite; not applying this "
                "step, the model is unchanged";
  return false;
}

bool NnetTrainer::TryUpdate(int32_t num_sequences) {
  ApplyL2Regularization(*nnet_, num_sequences * config_.l2_regularize_factor,
                        delta_nnet_.get());
  // Adam's moments must not take in inf or NaN: check the change first.
  if (adam_) {
    if (!std::isfinite(DotProduct(*delta_nnet_, *delta_nnet_))) return false;
    adam_->ComputeStep(*nnet_, delta_nnet_.get());
  }
  // The update, then delta *= momentum, in one pass over each component's
  // parameters; a change that is not finite applies nothing and leaves the
  // delta for SkipNonFiniteStep to explain.
  if (!UpdateNnetWithMaxChangeAndScaleDelta(
          delta_nnet_.get(), config_.max_param_change, 1.0f,
          1.0f - config_.momentum, config_.momentum, nnet_,
          &num_max_change_per_component_applied_,
          &num_max_change_global_applied_))
    return false;
  // Keeps the batch-norm stats fresh for test mode.
  ScaleBatchnormStats(config_.batchnorm_stats_scale, nnet_);
  ConstrainOrthonormal(&rng_, nnet_);
  return true;
}

bool NnetTrainer::TrainInternalBackstitch(const NnetExample &eg,
                                          const NnetComputation &computation,
                                          bool is_backstitch_step1) {
  std::vector<ObjectiveRecord> objfs;
  ForwardBackward(eg, computation, is_backstitch_step1 ? "" : "_backstitch",
                  &objfs);
  std::string non_finite = NonFiniteObjective(objfs);
  if (!non_finite.empty()) {
    SkipNonFiniteStep(eg, computation, non_finite);
    return false;
  }
  const float alpha = config_.backstitch_training_scale;
  float max_change_scale, scale_adding;
  if (is_backstitch_step1) {
    // A step back: nnet −= α·delta, with max-change scaled by α.
    max_change_scale = alpha;
    scale_adding = -alpha;
  } else {
    max_change_scale = 1.0f + alpha;
    scale_adding = 1.0f + alpha;
    // L2 on the second pass only, pre-divided by the scale it gets.
    ApplyL2Regularization(
        *nnet_,
        1.0f / scale_adding * GetNumNvalues(eg) * config_.l2_regularize_factor,
        delta_nnet_.get());
  }
  if (!UpdateNnetWithMaxChange(*delta_nnet_, config_.max_param_change,
                               max_change_scale, scale_adding, nnet_,
                               &num_max_change_per_component_applied_,
                               &num_max_change_global_applied_)) {
    SkipNonFiniteStep(eg, computation, "the parameter change is not finite");
    return false;
  }
  RecordObjectives(objfs);
  if (is_backstitch_step1)
    ConstrainOrthonormal(&rng_, nnet_);
  else
    ScaleBatchnormStats(config_.batchnorm_stats_scale, nnet_);
  ScaleNnet(0.0f, delta_nnet_.get());
  return true;
}

bool NnetTrainer::PrintTotalStats() const {
  bool ans = false;
  for (const auto &name_and_info : objf_info_)  // sorted by name
    if (name_and_info.second.PrintTotalStats(name_and_info.first, report_))
      ans = true;
  PrintMaxChangeStats();
  if (num_non_finite_steps_ > 0)
    NNET3_WARN << "Skipped " << num_non_finite_steps_ << " of "
               << num_minibatches_processed_
               << " minibatches whose objective or parameter change was not "
                  "finite (see the warnings above)";
  return ans;
}

void NnetTrainer::PrintMaxChangeStats() const {
  // Backstitch makes two updates on one minibatch in `interval`.
  const double updates_per_minibatch =
      config_.backstitch_training_scale == 0.0f
          ? 1.0
          : 1.0 + 1.0 / config_.backstitch_training_interval;
  const double denominator = num_minibatches_processed_ * updates_per_minibatch;
  size_t i = 0;
  for (int32_t c = 0; c < delta_nnet_->NumComponents(); ++c) {
    if (!(delta_nnet_->GetComponent(c)->Properties() & kUpdatableComponent))
      continue;
    const int32_t count = i < num_max_change_per_component_applied_.size()
                              ? num_max_change_per_component_applied_[i]
                              : 0;
    ++i;
    if (count == 0) continue;
    std::ostringstream os;
    os << "For " << delta_nnet_->GetComponentName(c)
       << ", per-component max-change was enforced "
       << 100.0 * count / denominator << " % of the time.";
    NNET3_REPORT(report_, os.str());
  }
  if (num_max_change_global_applied_ > 0) {
    std::ostringstream os;
    os << "The global max-change was enforced "
       << 100.0 * num_max_change_global_applied_ / denominator
       << " % of the time.";
    NNET3_REPORT(report_, os.str());
  }
}

}  // namespace nnet3
