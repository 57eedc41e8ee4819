// The fixed (non-trainable) simple components of Kaldi's
// nnet-simple-component.h: ElementwiseProductComponent, SumGroupComponent,
// SumBlockComponent, PnormComponent, PermuteComponent, FixedScaleComponent
// and FixedBiasComponent. The trainable per-element ones are in
// per-element-components.h; both are created through the "simple" group
// factory (NewSimpleComponentOfType, component-registry.h).
//
//   std::unique_ptr<Component> c =
//       Component::NewComponentOfType("SumBlockComponent");
//   c->InitFromConfig(&cfl);   // "input-dim=400 output-dim=100 scale=0.25"
//
// Each class keeps Kaldi's config keys and defaults, properties and model
// file tokens (reference sections 3.2, 3.3, 4.3); config errors are
// UserErrors naming the key and value. All of them are simple components
// (row i of the output depends only on row i of the input).
#ifndef NNET3_NNET_SIMPLE_COMPONENTS_H_
#define NNET3_NNET_SIMPLE_COMPONENTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "matrix/device-array.h"
#include "matrix/vector.h"
#include "nnet/component-itf.h"

namespace nnet3 {

// out = the elementwise product of the input-dim/output-dim slices of the
// input (each output-dim wide). Keys: input-dim, output-dim (required;
// input-dim a multiple of output-dim and larger than it).
class ElementwiseProductComponent : public Component {
 public:
  ElementwiseProductComponent() = default;
  void Init(int32_t input_dim, int32_t output_dim);
  std::string Type() const override { return "ElementwiseProductComponent"; }
  void InitFromConfig(ConfigLine *cfl) override;
  int32_t InputDim() const override { return input_dim_; }
  int32_t OutputDim() const override { return output_dim_; }
  int32_t Properties() const override {
    return kSimpleComponent | kBackpropNeedsInput;
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

 private:
  int32_t input_dim_ = 0;
  int32_t output_dim_ = 0;
};

// out_j = sum of the inputs in group j; the groups are consecutive, of the
// given sizes. Keys: sizes=a,b,... or input-dim + output-dim (equal groups).
class SumGroupComponent : public Component {
 public:
  SumGroupComponent() = default;
  void Init(const std::vector<int32_t> &sizes);
  std::vector<int32_t> Sizes() const { return sizes_; }
  std::string Type() const override { return "SumGroupComponent"; }
  void InitFromConfig(ConfigLine *cfl) override;
  int32_t InputDim() const override { return input_dim_; }
  int32_t OutputDim() const override {
    return static_cast<int32_t>(sizes_.size());
  }
  int32_t Properties() const override { return kSimpleComponent; }
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

 private:
  std::vector<int32_t> sizes_;
  int32_t input_dim_ = 0;
  IndexVector ranges_;         // [begin, end) input columns per output
  IndexVector reverse_index_;  // output column of each input column
};

// out = scale * (sum of the input-dim/output-dim consecutive blocks of the
// input, each output-dim wide), i.e. out_j = scale * sum_k in_{k*out+j}.
// Keys: input-dim, output-dim (required; output-dim divides input-dim),
// scale=1.0. Propagate and Backprop add to their outputs (PA, BA).
class SumBlockComponent : public Component {
 public:
  SumBlockComponent() = default;
  std::string Type() const override { return "SumBlockComponent"; }
  void InitFromConfig(ConfigLine *cfl) override;
  int32_t InputDim() const override { return input_dim_; }
  int32_t OutputDim() const override { return output_dim_; }
  int32_t Properties() const override {
    return kSimpleComponent | kPropagateAdds | kBackpropAdds;
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

 private:
  int32_t input_dim_ = 0;
  int32_t output_dim_ = 0;
  float scale_ = 1.0f;
};

// out_j = 2-norm of the j-th group of input-dim/output-dim consecutive
// inputs. Keys: input-dim, output-dim (required; output-dim divides
// input-dim).
class PnormComponent : public Component {
 public:
  PnormComponent() = default;
  void Init(int32_t input_dim, int32_t output_dim);
  std::string Type() const override { return "PnormComponent"; }
  void InitFromConfig(ConfigLine *cfl) override;
  int32_t InputDim() const override { return input_dim_; }
  int32_t OutputDim() const override { return output_dim_; }
  int32_t Properties() const override {
    return kSimpleComponent | kBackpropNeedsInput | kBackpropNeedsOutput;
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

 private:
  int32_t input_dim_ = 0;
  int32_t output_dim_ = 0;
};

// out column i = in column column_map[i]; column_map is a permutation of
// 0..dim-1. Key: column-map=a,b,... (required).
class PermuteComponent : public Component {
 public:
  PermuteComponent() = default;
  void Init(const std::vector<int32_t> &column_map);
  std::string Type() const override { return "PermuteComponent"; }
  void InitFromConfig(ConfigLine *cfl) override;
  int32_t InputDim() const override {
    return static_cast<int32_t>(column_map_.size());
  }
  int32_t OutputDim() const override { return InputDim(); }
  int32_t Properties() const override { return kSimpleComponent; }
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

 private:
  std::vector<int32_t> column_map_;
  IndexVector forward_;  // column_map_ on the device
  IndexVector reverse_;  // its inverse
};

// out = in .* scales (per column). Keys: scales=<rxfilename of a vector>,
// or dim [+ scale]: all scales equal `scale` if given, else random N(0,1)
// (Kaldi's testing initialization).
class FixedScaleComponent : public Component {
 public:
  FixedScaleComponent() = default;
  void Init(const VectorView &scales);
  const Vector &Scales() const { return scales_; }
  std::string Type() const override { return "FixedScaleComponent"; }
  void InitFromConfig(ConfigLine *cfl) override;
  int32_t InputDim() const override { return scales_.Dim(); }
  int32_t OutputDim() const override { return scales_.Dim(); }
  int32_t Properties() const override {
    return kSimpleComponent | kPropagateInPlace | kBackpropInPlace;
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

 private:
  Vector scales_;
};

// out = in + bias (added to every row). Keys: bias=<rxfilename of a
// vector>, or dim (random N(0,1) bias, Kaldi's testing initialization).
class FixedBiasComponent : public Component {
 public:
  FixedBiasComponent() = default;
  void Init(const VectorView &bias);
  const Vector &Bias() const { return bias_; }
  std::string Type() const override { return "FixedBiasComponent"; }
  void InitFromConfig(ConfigLine *cfl) override;
  int32_t InputDim() const override { return bias_.Dim(); }
  int32_t OutputDim() const override { return bias_.Dim(); }
  int32_t Properties() const override {
    return kSimpleComponent | kPropagateInPlace | kBackpropInPlace;
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

 private:
  Vector bias_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_SIMPLE_COMPONENTS_H_
