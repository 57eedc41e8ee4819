// LstmNonlinearityComponent: the fused cell of Kaldi's "fast" LSTM layers
// (fast-lstm-layer, fast-lstmp-layer). Outside it, one affine component
// computes the four gate inputs from x_t and the recurrent r_{t-1}; this
// component does the rest of the cell with diagonal "peephole" weights:
//
//   input  (rows x 5C): i_part, f_part, c_part, o_part, c_{t-1}
//          [+ 3 columns of dropout masks for i, f, o when use-dropout=true]
//   output (rows x 2C): c_t, m_t
//   i = σ(i_part + w_ic∘c_{t-1})        f = σ(f_part + w_fc∘c_{t-1})
//   c_t = f∘c_{t-1} + i∘tanh(c_part)    o = σ(o_part + w_oc∘c_t)
//   m_t = o∘tanh(c_t)
//
//   type=LstmNonlinearityComponent cell-dim=C [param-stddev=1.0
//        tanh-self-repair-threshold=0.2 sigmoid-self-repair-threshold=0.05
//        self-repair-scale=1e-5 use-dropout=false] + the updatable keys
//
// The parameters are the 3 x C peepholes (w_ic, w_fc, w_oc), initialized
// randn · param-stddev and trained with natural gradient (rank 20, update
// period 2, 1000 samples of history, fixed as in Kaldi). The maths is the
// Backend's fused LstmNonlinearity / DiffLstmNonlinearity primitives.
//
// Statistics (Kaldi's, accumulated in Backprop when there is a component to
// update): the averages of the values and derivatives of the five
// nonlinearities i, f, tanh(c_part), o, tanh(c_t) (<ValueAvg>, <DerivAvg>,
// 5 x C), the proportion of repaired units of each (<SelfRepairProb>) and
// the frame count. Self-repair: a unit whose derivative average is below
// its threshold gets a small extra input derivative pushing it back into
// its linear range (device/backend.h). Model format: Kaldi's tokens
// (<Params> <ValueAvg> <DerivAvg> <SelfRepairConfig> <SelfRepairProb>
// [<UseDropout>] <Count>).
#ifndef NNET3_NNET_COMPONENTS_LSTM_COMPONENTS_H_
#define NNET3_NNET_COMPONENTS_LSTM_COMPONENTS_H_

#include <memory>
#include <string>

#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/component-itf.h"
#include "nnet/natural-gradient-online.h"

namespace nnet3 {

class LstmNonlinearityComponent : public UpdatableComponent {
 public:
  LstmNonlinearityComponent() = default;

  std::string Type() const override { return "LstmNonlinearityComponent"; }
  int32_t Properties() const override {
    return kSimpleComponent | kUpdatableComponent | kBackpropNeedsInput;
  }
  int32_t InputDim() const override {
    return 5 * CellDim() + (use_dropout_ ? 3 : 0);
  }
  int32_t OutputDim() const override { return 2 * CellDim(); }
  int32_t CellDim() const { return params_.NumCols(); }
  bool UseDropout() const { return use_dropout_; }
  void InitFromConfig(ConfigLine *cfl) override;

  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // Backprop of the cell (formulas in device/backend.h); with a
  // `to_update`, also its peephole update and stats.
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;

  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::unique_ptr<Component> Copy() const override;
  // UpdatableComponent::Info() + cell-dim, use-dropout, the peephole rms
  // values and, per nonlinearity, the self-repair settings and stats.
  std::string Info() const override;

  // Parameters and stats together, as in Kaldi.
  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  void ZeroStats() override;
  float DotProduct(const UpdatableComponent &other) const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override { return 3 * CellDim(); }
  void Vectorize(VectorView *params) const override;  // row by row
  void UnVectorize(const VectorView &params) override;
  void FreezeNaturalGradient(bool freeze) override;

  const Matrix &Params() const { return params_; }
  double Count() const { return count_; }
  // 5 x C averages (rows: i, f, tanh(c_part), o, tanh(c_t)).
  MatrixView ValueAvg() const { return value_avg_.AsMatrix(5, CellDim()); }
  MatrixView DerivAvg() const { return deriv_avg_.AsMatrix(5, CellDim()); }
  const Vector &SelfRepairProb() const { return self_repair_prob_; }

 private:
  void Init(int32_t cell_dim, bool use_dropout, float param_stddev,
            float tanh_threshold, float sigmoid_threshold,
            float self_repair_scale);
  void InitNaturalGradient();
  // Folds one minibatch of stats (sums over `rows` frames) into the
  // averages.
  void AccumulateStats(int32_t rows, const MatrixView &value_sum,
                       const MatrixView &deriv_sum,
                       const MatrixView &self_repair_sum);

  Matrix params_;  // 3 x C: w_ic, w_fc, w_oc
  bool use_dropout_ = false;
  Vector value_avg_, deriv_avg_;  // 5C each (5 x C, row by row)
  // 10: the five self-repair thresholds, then the five scales.
  Vector self_repair_config_;
  Vector self_repair_prob_;  // 5
  double count_ = 0.0;
  OnlineNaturalGradient preconditioner_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_COMPONENTS_LSTM_COMPONENTS_H_
