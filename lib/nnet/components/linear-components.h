// The other linear layers (the affine ones are in affine-components.h):
//  - LinearComponent: y += x Wᵀ, no bias (W output-dim x input-dim), trained
//    with online natural gradient unless use-natural-gradient=false. Its
//    Propagate *adds* to the output (kPropagateAdds), so the compiler can sum
//    several inputs into one matrix.
//  - BlockAffineComponent: a block-diagonal affine transform, num-blocks
//    independent affine maps from input-dim/num-blocks to
//    output-dim/num-blocks columns; plain SGD update.
//
//   type=LinearComponent input-dim=40 output-dim=256 [param-stddev=
//        1/sqrt(input-dim) | matrix=<rxfilename>] [rank-in rank-out alpha
//        num-samples-history update-period use-natural-gradient=true
//        orthonormal-constraint=0]
//   type=BlockAffineComponent input-dim=40 output-dim=20 num-blocks=4
//        [param-stddev=1/sqrt(input-dim/num-blocks) bias-stddev=1 bias-mean=0]
//
// Keys, defaults, properties and tokens are Kaldi's (reference 3.3, 4.3).
#ifndef NNET3_NNET_LINEAR_COMPONENTS_H_
#define NNET3_NNET_LINEAR_COMPONENTS_H_

#include <memory>
#include <string>

#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/component-itf.h"
#include "nnet/natural-gradient-online.h"

namespace nnet3 {

class RepeatedAffineComponent;

class LinearComponent : public UpdatableComponent {
 public:
  LinearComponent() = default;
  // The given parameters (copied), learning rate 0.001, natural gradient on
  // with Kaldi's defaults for a component made from parameters: rank-in
  // 40, rank-out 80, update-period 4, num-samples-history 2000, alpha 4.
  explicit LinearComponent(const MatrixView &params);

  std::string Type() const override { return "LinearComponent"; }
  int32_t Properties() const override {
    return kSimpleComponent | kUpdatableComponent | kBackpropNeedsInput |
           kPropagateAdds | kBackpropAdds;
  }
  int32_t InputDim() const override { return params_.NumCols(); }
  int32_t OutputDim() const override { return params_.NumRows(); }
  void InitFromConfig(ConfigLine *cfl) override;

  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // kFuseAssignOutput: the product with beta = 0.
  bool SupportsPropagateFusion(int32_t fusion) const override;
  void *PropagateFused(int32_t fusion,
                       const ComponentPrecomputedIndexes *indexes,
                       const MatrixView &in, MatrixView *out) const override;
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;

  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::unique_ptr<Component> Copy() const override;
  // UpdatableComponent::Info() + params rms, row and column norms +
  // [orthonormal-constraint] + the natural-gradient settings.
  std::string Info() const override;

  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  float DotProduct(const UpdatableComponent &other) const override;
  bool ParamsAreFinite() const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override;
  void Vectorize(VectorView *params) const override;  // row by row
  void UnVectorize(const VectorView &params) override;
  void FreezeNaturalGradient(bool freeze) override;

  const Matrix &Params() const { return params_; }
  const Matrix &LinearParams() const { return params_; }
  void SetParams(const MatrixView &params);
  float OrthonormalConstraint() const { return orthonormal_constraint_; }
  void SetOrthonormalConstraint(float c) { orthonormal_constraint_ = c; }
  bool UseNaturalGradient() const { return use_natural_gradient_; }

 private:
  Matrix params_;
  float orthonormal_constraint_ = 0.0f;
  bool use_natural_gradient_ = true;
  OnlineNaturalGradient preconditioner_in_, preconditioner_out_;
};

class BlockAffineComponent : public UpdatableComponent {
 public:
  BlockAffineComponent() = default;
  // Kaldi's conversion (nnet3-am-copy --convert-repeated-to-block): the
  // same function as `rac`, its one block repeated num-repeats times; the
  // learning rate and its companions are kept.
  explicit BlockAffineComponent(const RepeatedAffineComponent &rac);

  std::string Type() const override { return "BlockAffineComponent"; }
  int32_t Properties() const override {
    return kSimpleComponent | kUpdatableComponent | kBackpropNeedsInput |
           kBackpropAdds;
  }
  int32_t InputDim() const override {
    return linear_params_.NumCols() * num_blocks_;
  }
  int32_t OutputDim() const override { return linear_params_.NumRows(); }
  void InitFromConfig(ConfigLine *cfl) override;

  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;

  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::unique_ptr<Component> Copy() const override;
  // UpdatableComponent::Info() + num-blocks + linear-params-rms + bias mean
  // and stddev.
  std::string Info() const override;

  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  float DotProduct(const UpdatableComponent &other) const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override;
  // The linear parameters row by row, then the bias.
  void Vectorize(VectorView *params) const override;
  void UnVectorize(const VectorView &params) override;

  int32_t NumBlocks() const { return num_blocks_; }
  // output-dim x (input-dim / num-blocks): rows [b·O/B, (b+1)·O/B) are
  // block b's weights.
  const Matrix &LinearParams() const { return linear_params_; }
  const Vector &BiasParams() const { return bias_params_; }
  void SetParams(const VectorView &bias, const MatrixView &linear);

 private:
  Matrix linear_params_;
  Vector bias_params_;
  int32_t num_blocks_ = 1;
};

}  // namespace nnet3

#endif  // NNET3_NNET_LINEAR_COMPONENTS_H_
