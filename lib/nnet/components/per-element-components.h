// The trainable per-element components of Kaldi's nnet-simple-component.h:
// PerElementScaleComponent (y = x .* s), PerElementOffsetComponent
// (y = x + o), ScaleAndOffsetComponent (y = x .* s + o) and
// ConstantFunctionComponent (y = c, whatever x). All are simple,
// updatable components created through the "simple" group factory
// (NewSimpleComponentOfType); the fixed ones are in simple-components.h.
//
//   auto c = Component::NewComponentOfType("ScaleAndOffsetComponent");
//   c->InitFromConfig(&cfl);              // "dim=512 block-dim=64"
//   c->Backprop(..., to_update, &in_deriv);   // to_update may be null
//
// Updates happen inside Backprop when to_update is non-null:
// to_update->params += lr * (gradient), where the gradient is
// preconditioned by OnlineNaturalGradient (natural-gradient-online.h), as
// Kaldi does, when use-natural-gradient is set and to_update is not a
// gradient (is_gradient_); a gradient component (SetAsGradient: lr = 1)
// accumulates the plain gradient. The update is computed with the
// parameters of `this` and applied after in_deriv, so that in_deriv and the
// update both see the parameters of the forward pass even when `this` is
// `to_update`. Keys, defaults, properties and tokens follow Kaldi
// (reference 3.2, 3.3, 4.3).
#ifndef NNET3_NNET_PER_ELEMENT_COMPONENTS_H_
#define NNET3_NNET_PER_ELEMENT_COMPONENTS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/component-itf.h"
#include "nnet/natural-gradient-online.h"

namespace nnet3 {

// y = x .* scales (per column). Keys: the common updatable ones; dim or
// vector=<rxfilename>; param-mean=1.0, param-stddev=0.0 (scales = randn *
// param-stddev + param-mean). No natural gradient (Kaldi has a separate
// NaturalGradientPerElementScaleComponent for that).
class PerElementScaleComponent : public UpdatableComponent {
 public:
  PerElementScaleComponent() = default;
  const Vector &Scales() const { return scales_; }
  std::string Type() const override { return "PerElementScaleComponent"; }
  void InitFromConfig(ConfigLine *cfl) override;
  int32_t InputDim() const override { return scales_.Dim(); }
  int32_t OutputDim() const override { return scales_.Dim(); }
  int32_t Properties() const override {
    return kSimpleComponent | kUpdatableComponent | kBackpropNeedsInput |
           kPropagateInPlace | kBackpropInPlace;
  }
  std::unique_ptr<Component> Copy() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;

  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  float DotProduct(const UpdatableComponent &other) const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override { return scales_.Dim(); }
  void Vectorize(VectorView *params) const override;
  void UnVectorize(const VectorView &params) override;

 protected:  // NaturalGradientPerElementScaleComponent updates them
  Vector scales_;
};

// y = x + offsets, the offsets (block-dim of them) repeated every block-dim
// columns. Keys: common updatable ones; vector=<rxfilename> (then dim, if
// given, must be a multiple of its size) or dim [+ block-dim=dim,
// param-mean=0, param-stddev=0]; use-natural-gradient=true (rank 20,
// update period 4, not configurable, as in Kaldi).
class PerElementOffsetComponent : public UpdatableComponent {
 public:
  PerElementOffsetComponent();
  const Vector &Offsets() const { return offsets_; }
  std::string Type() const override { return "PerElementOffsetComponent"; }
  void InitFromConfig(ConfigLine *cfl) override;
  int32_t InputDim() const override { return dim_; }
  int32_t OutputDim() const override { return dim_; }
  int32_t Properties() const override {
    return kSimpleComponent | kUpdatableComponent | kBackpropInPlace |
           kPropagateInPlace | (dim_ != offsets_.Dim() ? kOutputContiguous : 0);
  }
  std::unique_ptr<Component> Copy() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;

  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  float DotProduct(const UpdatableComponent &other) const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override { return offsets_.Dim(); }
  void Vectorize(VectorView *params) const override;
  void UnVectorize(const VectorView &params) override;
  void FreezeNaturalGradient(bool freeze) override {
    preconditioner_.Freeze(freeze);
  }

 private:
  Vector offsets_;  // block-dim of them
  int32_t dim_ = 0;
  bool use_natural_gradient_ = true;
  OnlineNaturalGradient preconditioner_;
};

// y = x .* s + offsets per block of block-dim columns, where s is `scales`
// with magnitudes floored at 1e-4 (so that Backprop can recover x from y).
// Keys: common updatable ones; dim (required); block-dim=dim; rank=20;
// use-natural-gradient=true. Initialized to scales 1, offsets 0. Backprop
// needs only the output: x = (y - offsets) ./ s.
class ScaleAndOffsetComponent : public UpdatableComponent {
 public:
  ScaleAndOffsetComponent() = default;
  const Vector &Scales() const { return scales_; }
  const Vector &Offsets() const { return offsets_; }
  std::string Type() const override { return "ScaleAndOffsetComponent"; }
  void InitFromConfig(ConfigLine *cfl) override;
  int32_t InputDim() const override { return dim_; }
  int32_t OutputDim() const override { return dim_; }
  int32_t Properties() const override {
    return kSimpleComponent | kUpdatableComponent | kBackpropInPlace |
           kPropagateInPlace | kBackpropNeedsOutput |
           (dim_ != scales_.Dim() ? kInputContiguous | kOutputContiguous : 0);
  }
  std::unique_ptr<Component> Copy() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;

  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  float DotProduct(const UpdatableComponent &other) const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override { return 2 * scales_.Dim(); }
  void Vectorize(VectorView *params) const override;
  void UnVectorize(const VectorView &params) override;
  void FreezeNaturalGradient(bool freeze) override {
    scale_preconditioner_.Freeze(freeze);
    offset_preconditioner_.Freeze(freeze);
  }

 private:
  // Kaldi's EnsureNonzero(scales_, 1e-4): magnitudes below 1e-4 become
  // 1e-4, keeping the sign (0 counts as positive).
  Vector NonzeroScales() const;
  // The parameter changes lr * (preconditioned) gradient, from the
  // block-wide rows of out_value / out_deriv and the forward parameters
  // (s = nonzero scales, offsets) of the component that propagated.
  void ComputeDeltas(const MatrixView &out_value, const MatrixView &out_deriv,
                     const VectorView &s, const VectorView &offsets,
                     Vector *scale_delta, Vector *offset_delta);

  int32_t dim_ = 0;
  Vector scales_;   // block-dim of them
  Vector offsets_;  // block-dim of them
  bool use_natural_gradient_ = true;
  OnlineNaturalGradient scale_preconditioner_;
  OnlineNaturalGradient offset_preconditioner_;
};

// y = output in every row, whatever the input. Keys: common updatable
// ones; input-dim, output-dim (required); is-updatable=true;
// use-natural-gradient=true; output-mean=0, output-stddev=0 (output =
// randn * output-stddev + output-mean). Backprop adds nothing to in_deriv
// (the derivative is zero; BA).
class ConstantFunctionComponent : public UpdatableComponent {
 public:
  ConstantFunctionComponent() = default;
  const Vector &Output() const { return output_; }
  bool IsUpdatable() const { return is_updatable_; }
  std::string Type() const override { return "ConstantFunctionComponent"; }
  void InitFromConfig(ConfigLine *cfl) override;
  int32_t InputDim() const override { return input_dim_; }
  int32_t OutputDim() const override { return output_.Dim(); }
  int32_t Properties() const override {
    return kSimpleComponent | (is_updatable_ ? kUpdatableComponent : 0) |
           (InputDim() == OutputDim() ? kPropagateInPlace : 0) | kBackpropAdds;
  }
  std::unique_ptr<Component> Copy() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;

  // Scale and Add do nothing unless is-updatable (as in Kaldi);
  // NumParameters is 0 then, and Vectorize/UnVectorize do nothing.
  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  float DotProduct(const UpdatableComponent &other) const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override {
    return is_updatable_ ? output_.Dim() : 0;
  }
  void Vectorize(VectorView *params) const override;
  void UnVectorize(const VectorView &params) override;
  void FreezeNaturalGradient(bool freeze) override {
    preconditioner_.Freeze(freeze);
  }

 private:
  int32_t input_dim_ = -1;
  Vector output_;
  bool is_updatable_ = true;
  bool use_natural_gradient_ = true;
  OnlineNaturalGradient preconditioner_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_PER_ELEMENT_COMPONENTS_H_
