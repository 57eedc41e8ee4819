// The optimizer of a training step: how the gradient that a backward pass
// accumulated becomes the parameter change. Plain SGD with momentum (Kaldi's,
// reference 10.2) needs nothing here: the change is the accumulated
// lr·gradient itself. Adam (Kingma & Ba, with bias correction, and AdamW's
// optional decoupled weight decay) is our addition, not Kaldi's:
//
//   OptimizerOptions opts;  opts.Register(&po);   // --optimizer=adam, --adam-*
//   AdamOptimizer adam(opts, nnet);
//   // each step, after the backward pass filled delta (and L2 was added):
//   adam.ComputeStep(nnet, &delta);   // delta becomes Adam's step
//   // then nnet += delta with max-change, as for SGD
//
// For each updatable component c with learning rate lr_c > 0, the backward
// pass leaves delta_c = lr_c·g_c, g_c the gradient of the objective (which we
// maximize; with natural gradient on, g_c is already preconditioned). Adam
// keeps per-parameter moments and replaces delta_c by
//   m ← β1·m + (1−β1)·g,   v ← β2·v + (1−β2)·g²,   t ← t + 1
//   delta_c = lr_c · (m / (1 − β1^t)) / (sqrt(v / (1 − β2^t)) + ε)
//             − lr_c · weight_decay · θ_c
// so lr_c plays the role of Adam's step size; components with lr_c = 0 are
// left alone (their delta is zero). The moments live on the network's device
// and are computed through the Backend's vector operations only. They belong
// to one process: a new nnet3-train job starts them at zero, with bias
// correction from t = 1 again.
#ifndef NNET3_TRAIN_NNET_OPTIMIZER_H_
#define NNET3_TRAIN_NNET_OPTIMIZER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "matrix/vector.h"
#include "nnet/nnet.h"

namespace nnet3 {

class OptionsRegistry;

struct OptimizerOptions {
  std::string optimizer = "sgd";  // "sgd" (with --momentum) or "adam"
  float adam_beta1 = 0.9f;
  float adam_beta2 = 0.999f;
  float adam_epsilon = 1.0e-08f;
  float adam_weight_decay = 0.0f;  // decoupled (AdamW); 0: plain Adam

  void Register(OptionsRegistry *opts);
  // UserError naming the option for an unknown optimizer or a value out of
  // range (betas in [0, 1), epsilon > 0, weight decay >= 0).
  void Check() const;
  bool IsAdam() const { return optimizer == "adam"; }
};

class AdamOptimizer {
 public:
  // `nnet` gives the shapes: one pair of moment vectors per updatable
  // component, zero to start with.
  AdamOptimizer(const OptimizerOptions &opts, const Nnet &nnet);

  // Replaces the gradient in `delta` (see the top of this file) by Adam's
  // step. `nnet` holds the current parameters (for the weight decay); both
  // must have the structure given to the constructor.
  void ComputeStep(const Nnet &nnet, Nnet *delta);

  int32_t NumSteps() const { return num_steps_; }

 private:
  OptimizerOptions opts_;
  std::vector<int32_t> components_;  // the updatable components
  std::vector<Vector> m_, v_;        // first and second moments
  Vector grad_, scratch_, params_;   // work space (resized as needed)
  int32_t num_steps_ = 0;
};

}  // namespace nnet3

#endif  // NNET3_TRAIN_NNET_OPTIMIZER_H_
