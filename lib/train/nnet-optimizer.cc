#include "train/nnet-optimizer.h"

#include <cmath>

#include "base/error.h"
#include "base/options.h"
#include "nnet/component-itf.h"

namespace nnet3 {

void OptimizerOptions::Register(OptionsRegistry *opts) {
  opts->Register("optimizer", &optimizer,
                 "How each minibatch's gradient becomes a parameter change: "
                 "'sgd' (Kaldi's SGD, with --momentum) or 'adam' (Adam with "
                 "bias correction; each component's learning rate is its step "
                 "size; not in Kaldi). Natural gradient and max-change apply "
                 "to both.");
  opts->Register("adam-beta1", &adam_beta1,
                 "Adam: decay of the first-moment (mean) estimate.");
  opts->Register("adam-beta2", &adam_beta2,
                 "Adam: decay of the second-moment estimate.");
  opts->Register("adam-epsilon", &adam_epsilon,
                 "Adam: added to the square root of the second moment.");
  opts->Register("adam-weight-decay", &adam_weight_decay,
                 "Adam: decoupled weight decay (AdamW): every step also "
                 "subtracts learning-rate * this * parameters; 0: plain Adam.");
}

void OptimizerOptions::Check() const {
  if (optimizer != "sgd" && optimizer != "adam")
    NNET3_ERR << "--optimizer must be 'sgd' or 'adam', got '" << optimizer
              << "'";
  if (!(adam_beta1 >= 0.0f && adam_beta1 < 1.0f))
    NNET3_ERR << "--adam-beta1 must be in [0, 1), got " << adam_beta1;
  if (!(adam_beta2 >= 0.0f && adam_beta2 < 1.0f))
    NNET3_ERR << "--adam-beta2 must be in [0, 1), got " << adam_beta2;
  if (!(adam_epsilon > 0.0f))
    NNET3_ERR << "--adam-epsilon must be > 0, got " << adam_epsilon;
  if (!(adam_weight_decay >= 0.0f))
    NNET3_ERR << "--adam-weight-decay must be >= 0, got " << adam_weight_decay;
}

namespace {

const UpdatableComponent &Updatable(const Nnet &nnet, int32_t c) {
  const auto *uc =
      dynamic_cast<const UpdatableComponent *>(nnet.GetComponent(c));
  NNET3_ASSERT(uc != nullptr);
  return *uc;
}

}  // namespace

AdamOptimizer::AdamOptimizer(const OptimizerOptions &opts, const Nnet &nnet)
    : opts_(opts) {
  opts_.Check();
  for (int32_t c = 0; c < nnet.NumComponents(); ++c) {
    if (!(nnet.GetComponent(c)->Properties() & kUpdatableComponent)) continue;
    components_.push_back(c);
    const int32_t dim = Updatable(nnet, c).NumParameters();
    m_.emplace_back(dim);
    v_.emplace_back(dim);
  }
}

void AdamOptimizer::ComputeStep(const Nnet &nnet, Nnet *delta) {
  ++num_steps_;
  const double b1 = opts_.adam_beta1, b2 = opts_.adam_beta2;
  const float correction1 = static_cast<float>(1.0 - std::pow(b1, num_steps_));
  const float correction2 = static_cast<float>(1.0 - std::pow(b2, num_steps_));
  for (size_t i = 0; i < components_.size(); ++i) {
    const int32_t c = components_[i];
    auto *d = dynamic_cast<UpdatableComponent *>(delta->GetComponent(c));
    NNET3_ASSERT(d != nullptr && d->NumParameters() == m_[i].Dim());
    const float lr = d->LearningRate();
    if (lr == 0.0f) continue;
    grad_.Resize(m_[i].Dim(), ResizeType::kUndefined);
    d->Vectorize(&grad_);
    grad_.Scale(1.0f / lr);  // g
    m_[i].Scale(opts_.adam_beta1);
    m_[i].AddVec(1.0f - opts_.adam_beta1, grad_);
    grad_.MulElements(grad_);  // g²
    v_[i].Scale(opts_.adam_beta2);
    v_[i].AddVec(1.0f - opts_.adam_beta2, grad_);
    // grad_ becomes the step: lr · m̂ / (sqrt(v̂) + ε).
    scratch_ = v_[i];
    scratch_.Scale(1.0f / correction2);
    scratch_.ApplyFunc(Func::kSqrt);
    scratch_.Add(opts_.adam_epsilon);
    grad_.CopyFromVec(m_[i]);
    grad_.DivElements(scratch_);
    grad_.Scale(lr / correction1);
    if (opts_.adam_weight_decay != 0.0f) {
      params_.Resize(m_[i].Dim(), ResizeType::kUndefined);
      Updatable(nnet, c).Vectorize(&params_);
      grad_.AddVec(-lr * opts_.adam_weight_decay, params_);
    }
    d->UnVectorize(grad_);
  }
}

}  // namespace nnet3
