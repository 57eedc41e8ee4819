// Keeping a training step that goes non-finite (inf or NaN in the
// objective or in the parameter change) from damaging the model.
//
// During a step the forward pass stores component stats (activation sums,
// batch-norm statistics) straight into the model, and the backward pass
// accumulates the change into the delta network. NnetTrainer therefore
// saves the stats first and, when the objective or the change turns out
// not to be finite, puts them back, applies nothing and says why:
//
//   NonFiniteGuard guard;
//   guard.SaveStats(*nnet);                   // before the step
//   ... forward, objective, backward ...
//   if (!finite) {
//     guard.RestoreStats(nnet);               // the model as it was
//     NNET3_WARN << "..." << ExplainNonFiniteStep(*nnet, eg, computation,
//                                                  opts, delta_nnet);
//   }
//
// Only components that store stats (kStoresStats) are saved, so a step
// costs a copy of a few dimension-sized vectors, not of the parameters
// (which change only when the update is applied, after the check).
#ifndef NNET3_TRAIN_NON_FINITE_GUARD_H_
#define NNET3_TRAIN_NON_FINITE_GUARD_H_

#include <memory>
#include <string>
#include <vector>

#include "compile/nnet-computation.h"
#include "compute/nnet-computer.h"
#include "nnet/component-itf.h"
#include "nnet/nnet.h"
#include "train/nnet-example.h"

namespace nnet3 {

class NonFiniteGuard {
 public:
  // Copies every component of `nnet` that stores stats.
  void SaveStats(const Nnet &nnet);
  // Puts the saved components back into `nnet` (the one given to SaveStats).
  void RestoreStats(Nnet *nnet);

 private:
  std::vector<std::unique_ptr<Component>> saved_;  // null: not saved
};

// Where a non-finite step started, for the warning: the first input of the
// minibatch that holds inf or NaN; else the first component whose output
// does, found by running the forward pass again on a copy of the model with
// NnetComputeOptions::check_finite ("component 'affine2' (AffineComponent)
// is the first whose output is not finite"); else the component nearest
// the output whose parameter change is not finite (the backward pass).
std::string ExplainNonFiniteStep(const Nnet &nnet, const NnetExample &eg,
                                 const NnetComputation &computation,
                                 const NnetComputeOptions &options,
                                 const Nnet &delta_nnet);

}  // namespace nnet3

#endif  // NNET3_TRAIN_NON_FINITE_GUARD_H_
