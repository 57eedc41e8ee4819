// Block-diagonal affine layers with tied blocks (Kaldi's
// nnet-simple-component.h): RepeatedAffineComponent applies the same
// (output-dim / num-repeats) x (input-dim / num-repeats) affine transform to
// each of the num-repeats consecutive column blocks of the input, i.e.
// y = x Wᵀ + b with the rows of x and y reshaped into num-repeats blocks.
// NaturalGradientRepeatedAffineComponent is the same with its parameter
// change [∂W | ∂b] (block-out x (block-in + 1)) preconditioned row-wise by
// online natural gradient (rank min(40, block-in / 2), at least 1, update
// period 4), as Kaldi does.
//
//   type=RepeatedAffineComponent input-dim=100 output-dim=50 num-repeats=10
//       [param-stddev=1/sqrt(input-dim/num-repeats) bias-mean=0
//        bias-stddev=0 learning-rate=... max-change=...]
//
// Properties S U BNI BA IC OC (the reshape wants contiguous rows; padded
// matrices are copied through a contiguous temporary). Model tokens:
// [prefix] <LearningRate> f <NumRepeats> i <LinearParams> mat <BiasParams>
// vec </Type>.
#ifndef NNET3_NNET_REPEATED_AFFINE_COMPONENTS_H_
#define NNET3_NNET_REPEATED_AFFINE_COMPONENTS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/component-itf.h"
#include "nnet/natural-gradient-online.h"

namespace nnet3 {

class RepeatedAffineComponent : public UpdatableComponent {
 public:
  std::string Type() const override { return "RepeatedAffineComponent"; }
  int32_t InputDim() const override {
    return linear_params_.NumCols() * num_repeats_;
  }
  int32_t OutputDim() const override {
    return linear_params_.NumRows() * num_repeats_;
  }
  int32_t Properties() const override {
    return kSimpleComponent | kUpdatableComponent | kBackpropNeedsInput |
           kBackpropAdds | kInputContiguous | kOutputContiguous;
  }
  // The common updatable keys; input-dim, output-dim, num-repeats
  // (required, > 0; num-repeats divides both dims); param-stddev =
  // 1/sqrt(input-dim/num-repeats), bias-mean = 0, bias-stddev = 0.
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // Per block: ∂f/∂x = ∂f/∂y W (added), ∂f/∂W = Σ (∂f/∂y)ᵀ x, ∂f/∂b = Σ ∂f/∂y
  // over rows and blocks.
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;

  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  float DotProduct(const UpdatableComponent &other) const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  // One block's parameters (not multiplied by num-repeats).
  int32_t NumParameters() const override;
  void Vectorize(VectorView *params) const override;
  void UnVectorize(const VectorView &params) override;

  const Matrix &LinearParams() const { return linear_params_; }
  const Vector &BiasParams() const { return bias_params_; }
  int32_t NumRepeats() const { return num_repeats_; }

 protected:
  // Called after the parameters are set (init and read).
  virtual void SetNaturalGradientConfigs() {}
  // The parameter update from the reshaped (rows * num-repeats rows) input
  // and output derivative: plain SGD here.
  virtual void Update(const MatrixView &in_blocks,
                      const MatrixView &out_deriv_blocks);

  Matrix linear_params_;  // block-out x block-in
  Vector bias_params_;    // block-out
  int32_t num_repeats_ = 1;
};

class NaturalGradientRepeatedAffineComponent : public RepeatedAffineComponent {
 public:
  std::string Type() const override {
    return "NaturalGradientRepeatedAffineComponent";
  }
  std::unique_ptr<Component> Copy() const override;
  void FreezeNaturalGradient(bool freeze) override {
    preconditioner_in_.Freeze(freeze);
  }

 protected:
  void SetNaturalGradientConfigs() override;
  // [∂W | ∂b] preconditioned (unless accumulating a gradient), times lr.
  void Update(const MatrixView &in_blocks,
              const MatrixView &out_deriv_blocks) override;

 private:
  OnlineNaturalGradient preconditioner_in_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_REPEATED_AFFINE_COMPONENTS_H_
