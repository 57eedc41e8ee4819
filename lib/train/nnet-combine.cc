#include "train/nnet-combine.h"

#include <cmath>
#include <limits>

#include "base/error.h"
#include "base/log.h"
#include "nnet/components/normalize-components.h"
#include "nnet/nnet-utils.h"
#include "train/nnet-diagnostics.h"
#include "util/kaldi-io.h"

namespace nnet3 {

void NnetCombineOptions::Register(OptionsRegistry *po) {
  po->Register("max-objective-evaluations", &max_objective_evaluations,
               "The maximum number of objective evaluations in order to "
               "figure out the best number of models to combine. It helps to "
               "speedup if the number of models provided to this binary is "
               "quite large (e.g. several hundred).");
  po->Register("batchnorm-test-mode", &batchnorm_test_mode,
               "If true, set test-mode to true on any BatchNormComponents "
               "while evaluating objectives.");
  po->Register("dropout-test-mode", &dropout_test_mode,
               "If true, set test-mode to true on any DropoutComponents and "
               "DropoutMaskComponents while evaluating objectives.");
}

namespace {

// Sum over the network's outputs of the objective and the weight.
void TotalObjective(const Nnet &nnet, const NnetComputeProb &prob,
                    double *tot_objf, double *tot_weight) {
  *tot_objf = 0.0;
  *tot_weight = 0.0;
  for (int32_t node = 0; node < nnet.NumNodes(); node++) {
    if (!nnet.IsOutputNode(node)) continue;
    const SimpleObjectiveInfo *info = prob.GetObjective(nnet.GetNodeName(node));
    if (info == nullptr) continue;
    *tot_objf += info->tot_objective;
    *tot_weight += info->tot_weight;
  }
}

}  // namespace

double ComputeCombineObjective(bool batchnorm_test_mode, bool dropout_test_mode,
                               const std::vector<NnetExample> &egs,
                               const Nnet &nnet) {
  Nnet copy(nnet);
  if (batchnorm_test_mode) SetBatchnormTestMode(true, &copy);
  if (dropout_test_mode) SetDropoutTestMode(true, &copy);
  NnetComputeProbOptions opts;
  opts.compute_accuracy = false;
  NnetComputeProb prob(opts, copy);
  for (const NnetExample &eg : egs) prob.Compute(eg);
  double tot_objf = 0.0, tot_weight = 0.0;
  TotalObjective(copy, prob, &tot_objf, &tot_weight);
  if (!(tot_weight > 0.0))
    NNET3_ERR << "The combination egs have no supervision weight for any "
                 "output of the network";
  if (!std::isfinite(tot_objf)) return -std::numeric_limits<double>::infinity();
  return tot_objf / tot_weight;
}

bool HasBatchnorm(const Nnet &nnet) {
  for (int32_t c = 0; c < nnet.NumComponents(); c++)
    if (dynamic_cast<const BatchNormComponent *>(nnet.GetComponent(c)) !=
        nullptr)
      return true;
  return false;
}

void RecomputeStats(const std::vector<NnetExample> &egs, Nnet *nnet) {
  NNET3_LOG << "Recomputing stats on nnet (affects batch-norm)";
  ZeroComponentStats(nnet);
  NnetComputeProbOptions opts;
  opts.store_component_stats = true;
  NnetComputeProb prob(opts, nnet);
  for (const NnetExample &eg : egs) prob.Compute(eg);
  prob.PrintTotalStats();
  NNET3_LOG << "Done recomputing stats.";
}

int32_t CombineNnets(const NnetCombineOptions &opts,
                     const std::vector<std::string> &model_rxfilenames,
                     const std::vector<NnetExample> &egs, Nnet *combined) {
  NNET3_ASSERT(!model_rxfilenames.empty());
  if (opts.max_objective_evaluations <= 0)
    NNET3_ERR << "--max-objective-evaluations="
              << opts.max_objective_evaluations << " must be > 0";
  if (egs.empty()) NNET3_ERR << "No combination examples were given";
  Nnet nnet;
  ReadKaldiObject(model_rxfilenames[0], &nnet);
  Nnet moving_average(nnet);
  *combined = nnet;
  const double init_objf = ComputeCombineObjective(
      opts.batchnorm_test_mode, opts.dropout_test_mode, egs, moving_average);
  double best_objf = init_objf;
  int32_t best_num = 1;
  NNET3_LOG << "objective function using the last model is " << init_objf;
  const int32_t num_nnets = static_cast<int32_t>(model_rxfilenames.size());
  const int32_t num_to_add = (num_nnets + opts.max_objective_evaluations - 1) /
                             opts.max_objective_evaluations;
  for (int32_t n = 1; n < num_nnets; n++) {
    ReadKaldiObject(model_rxfilenames[n], &nnet);
    if (NumParameters(nnet) != NumParameters(moving_average))
      NNET3_ERR << "Model '" << model_rxfilenames[n] << "' has "
                << NumParameters(nnet) << " parameters but '"
                << model_rxfilenames[0] << "' has "
                << NumParameters(moving_average)
                << "; only models of the same structure can be combined";
    ScaleNnet(static_cast<float>(n) / (n + 1), &moving_average);
    AddNnet(nnet, 1.0f / (n + 1), &moving_average);
    if ((n - 1) % num_to_add != num_to_add - 1 && n != num_nnets - 1) continue;
    const double objf = ComputeCombineObjective(
        opts.batchnorm_test_mode, opts.dropout_test_mode, egs, moving_average);
    NNET3_LOG << "Combining last " << n + 1 << " models, objective function is "
              << objf;
    if (objf > best_objf) {
      best_objf = objf;
      *combined = moving_average;
      best_num = n + 1;
    }
  }
  NNET3_LOG << "Combining " << best_num
            << " nnets, objective function changed from " << init_objf << " to "
            << best_objf;
  if (HasBatchnorm(*combined)) RecomputeStats(egs, combined);
  return best_num;
}

}  // namespace nnet3
