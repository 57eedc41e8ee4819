// Components whose forward pass is the identity and that only change the
// backward pass:
//
// NoOpComponent: in_deriv = backprop-scale * out_deriv.
//
// ClipGradientComponent: clips the derivative, per element to
// [-clipping-threshold, clipping-threshold], or (norm-based-clipping=true)
// by scaling each row whose 2-norm exceeds the threshold down to it;
// clipping-threshold=0 zeroes the derivative. In norm-based mode it counts
// the rows processed and clipped, and when the clipped proportion exceeds
// self-repair-clipped-proportion-threshold it adds Kaldi's self-repair term
// that shrinks the inputs towards self-repair-target (formula in the .cc).
//
//   auto c = Component::NewComponentOfType("ClipGradientComponent");
//   c->InitFromConfig(&cfl);  // dim=.. clipping-threshold=15 ...
//
// Defaults are Kaldi's code defaults (reference 3.3): clipping-threshold 15,
// norm-based-clipping false, self-repair-clipped-proportion-threshold 0.01,
// self-repair-target 0, self-repair-scale 1.
#ifndef NNET3_NNET_IDENTITY_COMPONENTS_H_
#define NNET3_NNET_IDENTITY_COMPONENTS_H_

#include <memory>
#include <string>

#include "nnet/component-itf.h"

namespace nnet3 {

class NoOpComponent : public Component {
 public:
  std::string Type() const override { return "NoOpComponent"; }
  int32_t InputDim() const override { return dim_; }
  int32_t OutputDim() const override { return dim_; }
  int32_t Properties() const override {
    return kSimpleComponent | kPropagateInPlace | kBackpropInPlace;
  }
  // dim (required), backprop-scale.
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;

 private:
  // The body of the old format (NoOp as a NonlinearComponent), read and
  // discarded.
  void ReadLegacyBody(std::istream &is, bool binary);

  int32_t dim_ = 0;
  float backprop_scale_ = 1.0f;
};

class ClipGradientComponent : public Component {
 public:
  std::string Type() const override { return "ClipGradientComponent"; }
  int32_t InputDim() const override { return dim_; }
  int32_t OutputDim() const override { return dim_; }
  int32_t Properties() const override {
    return kSimpleComponent | kPropagateInPlace | kBackpropInPlace |
           kBackpropNeedsInput;
  }
  // dim (required), clipping-threshold, norm-based-clipping,
  // self-repair-clipped-proportion-threshold, self-repair-target,
  // self-repair-scale.
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  // The counters (Kaldi: Scale(0) zeroes them, Add adds the clip counts).
  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  void ZeroStats() override;

  int32_t NumElementsClipped() const { return num_clipped_; }
  int32_t NumElementsProcessed() const { return count_; }
  int32_t NumSelfRepaired() const { return num_self_repaired_; }
  int32_t NumBackpropped() const { return num_backpropped_; }

 private:
  void RepairGradients(const std::string &debug_info,
                       const MatrixView &in_value, MatrixView *in_deriv,
                       ClipGradientComponent *to_update) const;

  int32_t dim_ = 0;
  float clipping_threshold_ = 15.0f;
  bool norm_based_clipping_ = false;
  float self_repair_clipped_proportion_threshold_ = 0.01f;
  float self_repair_target_ = 0.0f;
  float self_repair_scale_ = 1.0f;
  int32_t num_clipped_ = 0;  // rows clipped (norm-based mode)
  int32_t count_ = 0;        // rows processed (norm-based mode)
  int32_t num_self_repaired_ = 0;
  int32_t num_backpropped_ = 0;
};

}  // namespace nnet3

#endif  // NNET3_NNET_IDENTITY_COMPONENTS_H_
