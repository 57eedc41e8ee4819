// Affine layers, y = x Wᵀ + b with W output-dim x input-dim (Kaldi's
// layout): AffineComponent (plain SGD update), NaturalGradientAffineComponent
// (the update preconditioned on both sides by online natural gradient) and
// FixedAffineComponent (not trained, e.g. an LDA transform). LinearComponent
// and BlockAffineComponent are in linear-components.h.
//
//   type=NaturalGradientAffineComponent input-dim=40 output-dim=512
//       [learning-rate=0.001 max-change=0.75 param-stddev=... bias-stddev=1
//        bias-mean=0 rank-in=20 rank-out=80 update-period=4 alpha=4
//        num-samples-history=2000 orthonormal-constraint=0]
//   type=AffineComponent matrix=exp/lda.mat     (output x (input+1), the
//                                                last column is the bias)
//
// Config keys, defaults, initialization, properties and the model-file token
// sequences are Kaldi's (reference 3.3, 4.3). Propagate is one GEMM plus a
// bias broadcast; Backprop adds to in_deriv (kBackpropAdds). Parameters live
// on the device that was active when the component was created or read.
#ifndef NNET3_NNET_AFFINE_COMPONENTS_H_
#define NNET3_NNET_AFFINE_COMPONENTS_H_

#include <memory>
#include <string>

#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/component-itf.h"
#include "nnet/natural-gradient-online.h"

namespace nnet3 {

class AffineComponent : public UpdatableComponent {
 public:
  AffineComponent() = default;
  // A component with the given parameters (copied) and learning rate.
  AffineComponent(const MatrixView &linear_params,
                  const VectorView &bias_params, float learning_rate);

  std::string Type() const override { return "AffineComponent"; }
  int32_t Properties() const override {
    return kSimpleComponent | kUpdatableComponent | kBackpropNeedsInput |
           kBackpropAdds;
  }
  int32_t InputDim() const override { return linear_params_.NumCols(); }
  int32_t OutputDim() const override { return linear_params_.NumRows(); }
  // input-dim, output-dim, param-stddev=1/sqrt(input-dim), bias-stddev=1,
  // or matrix=<rxfilename>; orthonormal-constraint=0; learning-rate keys.
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
  // UpdatableComponent::Info() + [orthonormal-constraint] + linear-params
  // rms, row and column norms + bias mean and stddev.
  std::string Info() const override;

  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  // One pass over the parameters (MatrixView::AddMatAndScaleSrc).
  void AddAndScaleSource(float alpha, Component *src, float src_scale) override;
  float DotProduct(const UpdatableComponent &other) const override;
  bool ParamsAreFinite() const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override;
  // The linear parameters row by row, then the bias.
  void Vectorize(VectorView *params) const override;
  void UnVectorize(const VectorView &params) override;

  const Matrix &LinearParams() const { return linear_params_; }
  const Vector &BiasParams() const { return bias_params_; }
  // Replaces the parameters (copies; the dims may change).
  void SetParams(const VectorView &bias, const MatrixView &linear);
  float OrthonormalConstraint() const { return orthonormal_constraint_; }
  void SetOrthonormalConstraint(float c) { orthonormal_constraint_ = c; }

 protected:
  // The parameter keys shared with NaturalGradientAffineComponent: matrix=
  // (with optional matching input-dim/output-dim), or input-dim, output-dim,
  // param-stddev, bias-stddev and, if allow_bias_mean, bias-mean.
  void InitParamsFromConfig(ConfigLine *cfl, bool allow_bias_mean);
  // W += lr out_derivᵀ in, b += lr (column sums of out_deriv).
  void UpdateSimple(const MatrixView &in_value, const MatrixView &out_deriv);
  // The non-gradient update (to_update is not a gradient); plain SGD here,
  // natural gradient in NaturalGradientAffineComponent.
  virtual void Update(const std::string &debug_info, const MatrixView &in_value,
                      const MatrixView &out_deriv);
  // "<LinearParams> mat <BiasParams> vec" after ReadUpdatableCommon returned
  // `token` ("" or the token read in place of <LearningRate>).
  void ReadParams(std::istream &is, bool binary, const std::string &token);

  Matrix linear_params_;
  Vector bias_params_;
  float orthonormal_constraint_ = 0.0f;
};

// AffineComponent whose update multiplies the input (with a 1 appended, for
// the bias) and the output derivative by online natural-gradient
// preconditioners (reference 10.5) and scales the learning rate by the two
// returned scales. When it holds a gradient (SetAsGradient) the update is
// the plain one.
class NaturalGradientAffineComponent : public AffineComponent {
 public:
  NaturalGradientAffineComponent() = default;
  // The given parameters (copied), learning rate 0.001 and Kaldi's defaults
  // for a component made from parameters: rank-in 20, rank-out 80,
  // update-period 4, num-samples-history 2000, alpha 4.
  NaturalGradientAffineComponent(const MatrixView &linear_params,
                                 const VectorView &bias_params);

  std::string Type() const override { return "NaturalGradientAffineComponent"; }
  // AffineComponent's keys plus bias-mean=0 and the natural-gradient keys
  // num-samples-history=2000, alpha=4, rank-in=min(20,(in+1)/2),
  // rank-out=min(80,(out+1)/2), update-period=4. is-gradient is false.
  void InitFromConfig(ConfigLine *cfl) override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::unique_ptr<Component> Copy() const override;
  // AffineComponent::Info() + rank-in, rank-out, num-samples-history,
  // update-period, alpha.
  std::string Info() const override;
  void FreezeNaturalGradient(bool freeze) override;

  const OnlineNaturalGradient &PreconditionerIn() const {
    return preconditioner_in_;
  }
  const OnlineNaturalGradient &PreconditionerOut() const {
    return preconditioner_out_;
  }

 protected:
  void Update(const std::string &debug_info, const MatrixView &in_value,
              const MatrixView &out_deriv) override;

 private:
  // <RankIn> .. <Alpha> (with the optional <OrthonormalConstraint>); sets
  // the preconditioners.
  void ReadNaturalGradientSettings(std::istream &is, bool binary);
  // The fields older Kaldi versions wrote after <Alpha>, then the closing
  // token.
  void ReadLegacyFieldsAndEnd(std::istream &is, bool binary);

  OnlineNaturalGradient preconditioner_in_, preconditioner_out_;
};

// An affine transform that is not trained: `matrix=<rxfilename>` (output x
// (input+1), the last column the bias; no other key allowed with it), or
// input-dim and output-dim for a random one (tests). Properties S BA.
class FixedAffineComponent : public Component {
 public:
  FixedAffineComponent() = default;
  // The parameters of an AffineComponent (nnet3-copy's
  // convert-to-fixed-affine edit).
  explicit FixedAffineComponent(const AffineComponent &c);

  std::string Type() const override { return "FixedAffineComponent"; }
  int32_t Properties() const override {
    return kSimpleComponent | kBackpropAdds;
  }
  int32_t InputDim() const override { return linear_params_.NumCols(); }
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
  // Component::Info() + linear-params-rms + bias mean and stddev.
  std::string Info() const override;

  const Matrix &LinearParams() const { return linear_params_; }
  const Vector &BiasParams() const { return bias_params_; }
  void SetParams(const VectorView &bias, const MatrixView &linear);

 private:
  // W and b from an output x (input+1) matrix.
  void InitFromMatrix(const MatrixView &mat);

  Matrix linear_params_;
  Vector bias_params_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_AFFINE_COMPONENTS_H_
