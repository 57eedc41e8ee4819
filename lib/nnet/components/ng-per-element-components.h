// NaturalGradientPerElementScaleComponent (Kaldi's nnet-simple-component.h):
// PerElementScaleComponent (y = x .* scales) whose update is preconditioned
// by online natural gradient: the per-frame gradients x .* ∂f/∂y (one row
// per frame) are preconditioned before being summed into the scales.
//
//   type=NaturalGradientPerElementScaleComponent dim=512 [param-mean=1
//       param-stddev=0 rank=8 update-period=10 num-samples-history=2000
//       alpha=4 learning-rate=... max-change=...]
//   type=NaturalGradientPerElementScaleComponent scales=exp/scales.vec
//
// Model tokens: [prefix] <LearningRate> f <Params> vec <IsGradient> b
// <Rank> i <UpdatePeriod> i <NumSamplesHistory> f <Alpha> f
// </NaturalGradientPerElementScaleComponent> (reading also skips the old
// <MaxChangePerMinibatch> f). Properties as PerElementScaleComponent.
// When accumulating a gradient (SetAsGradient) the plain gradient is used;
// Kaldi preconditions even then, which only matters to derivative tests.
#ifndef NNET3_NNET_NG_PER_ELEMENT_COMPONENTS_H_
#define NNET3_NNET_NG_PER_ELEMENT_COMPONENTS_H_

#include <memory>
#include <string>

#include "nnet/components/per-element-components.h"
#include "nnet/natural-gradient-online.h"

namespace nnet3 {

class NaturalGradientPerElementScaleComponent
    : public PerElementScaleComponent {
 public:
  NaturalGradientPerElementScaleComponent();
  std::string Type() const override {
    return "NaturalGradientPerElementScaleComponent";
  }
  // The common updatable keys; rank=8, update-period=10,
  // num-samples-history=2000, alpha=4; then scales=<rxfilename> (nothing
  // else) or dim [+ param-mean=1, param-stddev=0].
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  // PerElementScaleComponent::Info() + rank, update-period,
  // num-samples-history, alpha.
  std::string Info() const override;
  // ∂f/∂x = ∂f/∂y .* scales; ∂f/∂scales = Σ_rows x .* ∂f/∂y, the rows
  // preconditioned first.
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  void FreezeNaturalGradient(bool freeze) override {
    preconditioner_.Freeze(freeze);
  }

 private:
  OnlineNaturalGradient preconditioner_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_NG_PER_ELEMENT_COMPONENTS_H_
