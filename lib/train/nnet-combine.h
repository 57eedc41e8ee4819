// Model combination at the end of training, as Kaldi's nnet3-combine does:
// of the last N models (given freshest first), take the running average of
// the first n for the n that maximizes the objective on held-out egs, then
// recompute the batch-norm stats of the result on those egs.
//
//   NnetCombineOptions opts;  opts.Register(&po);   // --max-objective-...
//   std::vector<NnetExample> egs = ...;              // merged minibatches
//   Nnet combined;
//   CombineNnets(opts, {"10.raw", "9.raw", "8.raw"}, egs, &combined);
//
// The algorithm (Kaldi's): the objective of the first model alone is the
// starting point; the models are added one at a time to a moving average
// (avg_n = (n-1)/n avg_{n-1} + 1/n model_n), and the objective of the
// average is evaluated after every k-th model, k = ceil(N /
// max_objective_evaluations), and after the last; the best average (ties
// keep the fewer models) is the result. Objectives are the total objective
// over every output divided by the total weight, evaluated with batch-norm
// and/or dropout in test mode (on a copy) if the options say so; an
// infinite or NaN objective counts as -inf. Log lines, as Kaldi's (scripts
// parse the last one):
//   objective function using the last model is X
//   Combining last n models, objective function is Y
//   Combining N nnets, objective function changed from X to Y
// If the network has batch-norm components, their stats are then zeroed and
// recomputed by a forward pass over the egs in training mode.
#ifndef NNET3_TRAIN_NNET_COMBINE_H_
#define NNET3_TRAIN_NNET_COMBINE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/options.h"
#include "nnet/nnet.h"
#include "train/nnet-example.h"

namespace nnet3 {

struct NnetCombineOptions {
  int32_t max_objective_evaluations = 30;
  bool batchnorm_test_mode = false;
  bool dropout_test_mode = true;

  void Register(OptionsRegistry *po);
};

// The total objective over all outputs divided by the total weight of `nnet`
// on `egs` (-inf if not finite), with the test modes applied to a copy.
// UserError if the egs have no weight.
double ComputeCombineObjective(bool batchnorm_test_mode, bool dropout_test_mode,
                               const std::vector<NnetExample> &egs,
                               const Nnet &nnet);

// Whether any component is a BatchNormComponent.
bool HasBatchnorm(const Nnet &nnet);

// Zeroes the component stats of *nnet and accumulates them again with a
// forward pass over `egs` (batch-norm in whatever mode *nnet has it); logs
// the objectives on the way, as Kaldi's RecomputeStats.
void RecomputeStats(const std::vector<NnetExample> &egs, Nnet *nnet);

// See the file comment. model_rxfilenames has at least one model, freshest
// first; they are read one at a time and must have the same structure.
// Returns the number of models in the chosen average.
int32_t CombineNnets(const NnetCombineOptions &opts,
                     const std::vector<std::string> &model_rxfilenames,
                     const std::vector<NnetExample> &egs, Nnet *combined);

}  // namespace nnet3

#endif  // NNET3_TRAIN_NNET_COMBINE_H_
