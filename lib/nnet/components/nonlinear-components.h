// The elementwise / row-wise nonlinearities (Kaldi's NonlinearComponent
// family): SigmoidComponent, TanhComponent, RectifiedLinearComponent,
// SoftmaxComponent, LogSoftmaxComponent.
//
//   auto c = Component::NewComponentOfType("RectifiedLinearComponent");
//   c->InitFromConfig(&cfl);   // dim=512 [block-dim=..] [self-repair-scale=..]
//
// Activation statistics (reference 4.3), as Kaldi keeps them: StoreStats
// adds the output values and the derivative of the nonlinearity for
// sigmoid, tanh and ReLU (on the first minibatch, then on each later one
// with probability 1/2), the output values only for softmax (every
// minibatch), and nothing for log-softmax (its value stats stay empty).
// Backprop, when given a `to_update` component, adds the squared output
// derivatives to its stats (on the first minibatch, then with probability
// 3/4; sigmoid, tanh and ReLU only when in_deriv is wanted), and for
// sigmoid, tanh and ReLU applies Kaldi's "self-repair" (a small term added
// to in_deriv that pushes saturated / dead units back towards their active
// region; formulas at each RepairGradients in the .cc file). The random
// choice of minibatches comes from a per-component generator that
// ResetGenerator (Nnet::ResetGenerators, once per minibatch in training)
// reseeds, so a given --srand repeats exactly.
//
// Statistics are stored as per-dimension averages plus counts (the sums
// Kaldi keeps are average * count). Written files hold the averages, so a
// model read and re-written gives the same bytes. When a count is zero the
// vector holds the raw sum (zeros), as Kaldi writes it.
//
// Self-repair thresholds use Kaldi's convention: -1000 means "use the
// component default" (sigmoid lower 0.05, tanh lower 0.2, ReLU lower 0.05 /
// upper 0.95).
#ifndef NNET3_NNET_NONLINEAR_COMPONENTS_H_
#define NNET3_NNET_NONLINEAR_COMPONENTS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "matrix/vector.h"
#include "nnet/component-itf.h"

namespace nnet3 {

class NonlinearComponent : public Component {
 public:
  static constexpr float kUnsetThreshold = -1000.0f;

  int32_t InputDim() const override { return dim_; }
  int32_t OutputDim() const override { return dim_; }
  int32_t BlockDim() const { return block_dim_; }
  // dim (required), block-dim, self-repair-lower-threshold,
  // self-repair-upper-threshold, self-repair-scale.
  void InitFromConfig(ConfigLine *cfl) override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;
  // Act on the stats: sums (not averages) are scaled / added, as in Kaldi.
  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  void ZeroStats() override;
  void ResetGenerator(uint64_t seed) override { stats_rng_.Seed(seed); }

  // Statistics, for tests and diagnostics: per-dimension averages (empty
  // vector if never stored) and counts.
  double Count() const { return count_; }
  double OderivCount() const { return oderiv_count_; }
  const Vector &ValueAvg() const { return value_avg_; }
  const Vector &DerivAvg() const { return deriv_avg_; }
  // Mean of the squared output derivatives (OderivRms^2).
  const Vector &OderivMeanSquare() const { return oderiv_ms_; }
  double NumDimsSelfRepaired() const { return num_dims_self_repaired_; }
  double NumDimsProcessed() const { return num_dims_processed_; }
  float SelfRepairScale() const { return self_repair_scale_; }

 protected:
  // Adds a minibatch of outputs (and, if non-null, the derivative of the
  // nonlinearity at those outputs) to the stats.
  void StoreStatsInternal(const MatrixView &out_value, const MatrixView *deriv);
  // Adds the squared output derivatives to the stats (Kaldi's
  // StoreBackpropStats): on the first call, then with probability 3/4.
  void StoreBackpropStats(const MatrixView &out_deriv);
  // Self-repair is active: a positive scale and stats of the derivative.
  bool SelfRepairActive() const;
  // Kaldi's asserts on the self-repair settings, as UserErrors.
  void CheckSelfRepairSettings(bool upper_allowed) const;
  // `threshold`, or `default_value` when it is kUnsetThreshold (-1000).
  static float ThresholdOr(float threshold, float default_value);
  // The dimensions to repair for Sigmoid/Tanh: 1 where deriv-avg < lower,
  // else 0.
  Vector DerivAvgBelow(float lower) const;
  // Adds indicator.Sum() to to_update's repaired-dims counter.
  static void CountRepaired(const VectorView &indicator,
                            NonlinearComponent *to_update);
  void CopyStatsFrom(const NonlinearComponent &other);

  int32_t dim_ = -1;
  int32_t block_dim_ = -1;
  Vector value_avg_;  // averages when count_ != 0, else raw sums
  Vector deriv_avg_;
  double count_ = 0.0;
  Vector oderiv_ms_;  // mean of squared output derivatives
  double oderiv_count_ = 0.0;
  double num_dims_self_repaired_ = 0.0;
  double num_dims_processed_ = 0.0;
  float self_repair_lower_threshold_ = kUnsetThreshold;
  float self_repair_upper_threshold_ = kUnsetThreshold;
  float self_repair_scale_ = 0.0f;
  StatsGenerator stats_rng_;  // which minibatches store stats
};

// Sigmoid and tanh: an elementwise squashing function y = f(x) whose
// derivative is a function of y, with Kaldi's self-repair of saturated
// units. The two differ only in f, f' and the repair term, which the
// functions of the .cc file choose by `kind`.
class SquashingComponent : public NonlinearComponent {
 public:
  int32_t Properties() const override {
    return kSimpleComponent | kBackpropNeedsOutput | kPropagateInPlace |
           kStoresStats;
  }
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // in_deriv = out_deriv * f'(x) (from y), plus the self-repair term.
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  // The outputs and f'(x) (about every other minibatch, always the first).
  void StoreStats(const MatrixView &in_value, const MatrixView &out_value,
                  void *memo) override;

 protected:
  explicit SquashingComponent(Func kind) : kind_(kind) {}

 private:
  void RepairGradients(const MatrixView &out_value, MatrixView *in_deriv,
                       SquashingComponent *to_update) const;
  Func kind_;  // Func::kSigmoid or Func::kTanh
};

class SigmoidComponent : public SquashingComponent {
 public:
  SigmoidComponent() : SquashingComponent(Func::kSigmoid) {}
  std::string Type() const override { return "SigmoidComponent"; }
  std::unique_ptr<Component> Copy() const override;
};

class TanhComponent : public SquashingComponent {
 public:
  TanhComponent() : SquashingComponent(Func::kTanh) {}
  std::string Type() const override { return "TanhComponent"; }
  std::unique_ptr<Component> Copy() const override;
};

class RectifiedLinearComponent : public NonlinearComponent {
 public:
  std::string Type() const override { return "RectifiedLinearComponent"; }
  int32_t Properties() const override {
    return kSimpleComponent | kBackpropNeedsOutput | kPropagateInPlace |
           kStoresStats | (block_dim_ != dim_ ? kInputContiguous : 0);
  }
  std::unique_ptr<Component> Copy() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  void StoreStats(const MatrixView &in_value, const MatrixView &out_value,
                  void *memo) override;

 private:
  void RepairGradients(MatrixView *in_deriv,
                       RectifiedLinearComponent *to_update) const;
};

class SoftmaxComponent : public NonlinearComponent {
 public:
  std::string Type() const override { return "SoftmaxComponent"; }
  int32_t Properties() const override {
    return kSimpleComponent | kBackpropNeedsOutput | kPropagateInPlace |
           kBackpropInPlace | kStoresStats;
  }
  std::unique_ptr<Component> Copy() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  void StoreStats(const MatrixView &in_value, const MatrixView &out_value,
                  void *memo) override;
};

class LogSoftmaxComponent : public NonlinearComponent {
 public:
  std::string Type() const override { return "LogSoftmaxComponent"; }
  int32_t Properties() const override {
    return kSimpleComponent | kBackpropNeedsOutput | kStoresStats;
  }
  std::unique_ptr<Component> Copy() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  // No StoreStats: as Kaldi, log-softmax keeps backprop stats only.
};

}  // namespace nnet3

#endif  // NNET3_NNET_NONLINEAR_COMPONENTS_H_
