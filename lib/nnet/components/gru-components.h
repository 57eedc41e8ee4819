// The fused parts of Kaldi's fast GRU layers (gru.py: fast-gru-layer,
// fast-pgru-layer, fast-opgru-layer). Outside the component, affine
// components compute the gates z_t, r_t (or o_t) and hpart_t = U^h x_t;
// the component computes the candidate h_t and the new state c_t. Both
// output (h_t, c_t); h_t is an output only so that Backprop can read it
// (kBackpropNeedsOutput) instead of recomputing it.
//
// GruNonlinearityComponent (C = cell-dim, R = recurrent-dim, default C):
//   input  (z_t, r_t, hpart_t, c_{t-1}, s_{t-1})  dims (C, R, C, C, R);
//          for R == C (no projection) s_{t-1} is c_{t-1}: (C, C, C, C)
//   h_t = tanh(hpart_t + (s_{t-1}∘r_t) W^hᵀ)     W^h is C x R
//   c_t = (1 - z_t)∘h_t + z_t∘c_{t-1}
//   type=GruNonlinearityComponent cell-dim=C [recurrent-dim=C
//        param-stddev=1/sqrt(C) self-repair-threshold=0.2
//        self-repair-scale=1e-5 alpha=4 rank-in=20 rank-out=80
//        update-period=4] + the updatable keys
//
// OutputGruNonlinearityComponent (the output-gated GRU, "OGRU"):
//   input  (z_t, hpart_t, c_{t-1})  dims (C, C, C)
//   h_t = tanh(hpart_t + w^h∘c_{t-1})            w^h is a C-vector
//   c_t = (1 - z_t)∘h_t + z_t∘c_{t-1}
//   type=OutputGruNonlinearityComponent cell-dim=C [param-mean=0
//        param-stddev=1 self-repair-threshold=0.2 self-repair-scale=1e-5
//        alpha=4 rank=8 update-period=10] + the updatable keys
//
// Both are trained with natural gradient unless used as a gradient, keep
// value / derivative averages of the tanh (<ValueAvg>, <DerivAvg>, <Count>,
// <SelfRepairTotal>), and apply self-repair to the tanh input derivative
// (-self-repair-scale · h_t on units whose derivative average is below the
// threshold) when there is a component to update. Deviation from Kaldi:
// Kaldi does the stats and the self-repair on a random half of the
// minibatches with twice the scale; here they run on every minibatch with
// the plain scale (the same expected effect, deterministic).
#ifndef NNET3_NNET_COMPONENTS_GRU_COMPONENTS_H_
#define NNET3_NNET_COMPONENTS_GRU_COMPONENTS_H_

#include <memory>
#include <string>

#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/component-itf.h"
#include "nnet/natural-gradient-online.h"

namespace nnet3 {

// The tanh statistics and self-repair shared by the two GRU components.
struct GruTanhStats {
  Vector value_avg, deriv_avg;  // cell-dim each (raw sums while count is 0)
  double self_repair_total = 0.0;
  double count = 0.0;
  float self_repair_threshold = 0.2f;
  float self_repair_scale = 1.0e-05f;

  void Init(int32_t cell_dim);
  // Adds the stats of h_t and applies self-repair to h_t_deriv (the
  // derivative w.r.t. the tanh input).
  void AccumulateAndRepair(const MatrixView &h_t, MatrixView *h_t_deriv);
  void Scale(float scale);
  void Add(float alpha, const GruTanhStats &other);
  void Zero();
  // <ValueAvg> .. <SelfRepairScale>, and ", self-repair-threshold=.." etc.
  void Write(std::ostream &os, bool binary) const;
  void Read(std::istream &is, bool binary, const std::string &type,
            int32_t cell_dim);
  void AppendInfo(std::ostream &os, int32_t cell_dim) const;
};

class GruNonlinearityComponent : public UpdatableComponent {
 public:
  GruNonlinearityComponent() = default;

  std::string Type() const override { return "GruNonlinearityComponent"; }
  int32_t Properties() const override {
    return kSimpleComponent | kUpdatableComponent | kBackpropNeedsInput |
           kBackpropNeedsOutput | kBackpropAdds;
  }
  int32_t InputDim() const override {
    return recurrent_dim_ == cell_dim_ ? 4 * cell_dim_
                                       : 3 * cell_dim_ + 2 * recurrent_dim_;
  }
  int32_t OutputDim() const override { return 2 * cell_dim_; }
  int32_t CellDim() const { return cell_dim_; }
  int32_t RecurrentDim() const { return recurrent_dim_; }
  void InitFromConfig(ConfigLine *cfl) override;

  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // With d = ∂f/∂c_t and a = ∂f/∂(tanh input) = (∂f/∂h_t + d∘(1-z))∘(1-h²):
  // ∂z += d∘(c_{t-1} - h), ∂c_{t-1} += d∘z, ∂hpart += a,
  // ∂r += (a W^h)∘s_{t-1}, ∂s_{t-1} += (a W^h)∘r, ∂W^h = aᵀ (s∘r).
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;

  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::unique_ptr<Component> Copy() const override;
  std::string Info() const override;

  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  void ZeroStats() override { stats_.Zero(); }
  float DotProduct(const UpdatableComponent &other) const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override { return cell_dim_ * recurrent_dim_; }
  void Vectorize(VectorView *params) const override;  // W^h row by row
  void UnVectorize(const VectorView &params) override;
  void FreezeNaturalGradient(bool freeze) override;

  const Matrix &WeightH() const { return w_h_; }
  const GruTanhStats &Stats() const { return stats_; }

 private:
  void UpdateParameters(const MatrixView &sdotr, const MatrixView &h_t_deriv);

  int32_t cell_dim_ = 0, recurrent_dim_ = 0;
  Matrix w_h_;  // C x R
  GruTanhStats stats_;
  OnlineNaturalGradient preconditioner_in_, preconditioner_out_;
};

class OutputGruNonlinearityComponent : public UpdatableComponent {
 public:
  OutputGruNonlinearityComponent() = default;

  std::string Type() const override { return "OutputGruNonlinearityComponent"; }
  int32_t Properties() const override {
    return kSimpleComponent | kUpdatableComponent | kBackpropNeedsInput |
           kBackpropNeedsOutput | kBackpropAdds;
  }
  int32_t InputDim() const override { return 3 * cell_dim_; }
  int32_t OutputDim() const override { return 2 * cell_dim_; }
  int32_t CellDim() const { return cell_dim_; }
  void InitFromConfig(ConfigLine *cfl) override;

  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // With d = ∂f/∂c_t and a = (∂f/∂h_t + d∘(1-z))∘(1-h²): ∂z += d∘(c_{t-1}-h),
  // ∂hpart += a, ∂c_{t-1} += d∘z + a∘w^h, ∂w^h = Σ_rows a∘c_{t-1}.
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;

  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::unique_ptr<Component> Copy() const override;
  std::string Info() const override;

  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  void ZeroStats() override { stats_.Zero(); }
  float DotProduct(const UpdatableComponent &other) const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override { return cell_dim_; }
  void Vectorize(VectorView *params) const override;
  void UnVectorize(const VectorView &params) override;
  void FreezeNaturalGradient(bool freeze) override;

  const Vector &WeightH() const { return w_h_; }
  const GruTanhStats &Stats() const { return stats_; }

 private:
  void UpdateParameters(const MatrixView &c_t1, const MatrixView &h_t_deriv);

  int32_t cell_dim_ = 0;
  Vector w_h_;  // C
  GruTanhStats stats_;
  OnlineNaturalGradient preconditioner_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_COMPONENTS_GRU_COMPONENTS_H_
