// Time-height convolution (Kaldi's nnet-convolutional-component.h):
//
// TimeHeightConvolutionComponent (not simple): 2-D convolution over time
// (the t of the Index) and height (the input row holds height-in x
// num-filters-in values, filter fastest); the model, the zero padding and
// the required time offsets are described in nnet/convolution-model.h, the
// way it runs in nnet/convolution-computation.h. Output row: height-out x
// num-filters-out. Parameters: filters num-filters-out x (#offsets x
// num-filters-in) and a bias per output filter.
//
//   type=TimeHeightConvolutionComponent num-filters-in=1 num-filters-out=32
//        height-in=28 height-out=28 time-offsets=-1,0,1
//        height-offsets=-1,0,1 [offsets="t,h;t,h;..." instead of the two
//        lists] [required-time-offsets=<all time offsets>
//        height-subsample-out=1 max-memory-mb=200
//        param-stddev=1/sqrt(num-filters-in*#offsets) bias-stddev=0
//        init-unit=false use-natural-gradient=true
//        rank-in=min(80,(#params-cols+2)/2) rank-out=min(80,(filters-out+1)/2)
//        alpha-in=4 alpha-out=4 num-minibatches-history=4 learning-rate...]
//
// The older 3-D ConvolutionComponent is in convolution-3d-component.h.
//
// Keys, defaults, properties and tokens are Kaldi's (reference 3.3, 4.3).
#ifndef NNET3_NNET_COMPONENTS_CONVOLUTION_COMPONENTS_H_
#define NNET3_NNET_COMPONENTS_CONVOLUTION_COMPONENTS_H_

#include <memory>
#include <string>
#include <vector>

#include "matrix/device-array.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/component-itf.h"
#include "nnet/convolution-computation.h"
#include "nnet/convolution-model.h"
#include "nnet/natural-gradient-online.h"

namespace nnet3 {

// <TimeHeightConvolutionComponentPrecomputedIndexes> <Computation>
// <ConvComputation>...</ConvComputation>
// </TimeHeightConvolutionComponentPrecomputedIndexes>.
class TimeHeightConvolutionComponentPrecomputedIndexes
    : public ComponentPrecomputedIndexes {
 public:
  std::unique_ptr<ComponentPrecomputedIndexes> Copy() const override;
  void Write(std::ostream &os, bool binary) const override;
  void Read(std::istream &is, bool binary) override;
  std::string Type() const override {
    return "TimeHeightConvolutionComponentPrecomputedIndexes";
  }

  ConvolutionComputation computation;
};

class TimeHeightConvolutionComponent : public UpdatableComponent {
 public:
  std::string Type() const override { return "TimeHeightConvolutionComponent"; }
  int32_t Properties() const override {
    return kUpdatableComponent | kReordersIndexes | kBackpropAdds |
           kBackpropNeedsInput | kInputContiguous | kOutputContiguous;
  }
  int32_t InputDim() const override { return model_.InputDim(); }
  int32_t OutputDim() const override { return model_.OutputDim(); }
  void InitFromConfig(ConfigLine *cfl) override;

  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // ∂f/∂x(t + dt, h·s + dh) += W_(dt,dh)ᵀ ∂f/∂y(t, h); ∂f/∂W_(dt,dh) =
  // sum ∂f/∂y(t, h) x(t + dt, h·s + dh)ᵀ; ∂f/∂b = sum ∂f/∂y(t, h).
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;

  // Inputs at every time offset; computable when the required ones exist
  // (the others are used if present, else zero).
  void GetInputIndexes(const MiscComputationInfo &misc_info,
                       const Index &output_index,
                       std::vector<Index> *desired_indexes) const override;
  bool IsComputable(const MiscComputationInfo &misc_info,
                    const Index &output_index, const IndexSet &input_index_set,
                    std::vector<Index> *used_inputs) const override;
  void ReorderIndexes(std::vector<Index> *input_indexes,
                      std::vector<Index> *output_indexes) const override;
  std::unique_ptr<ComponentPrecomputedIndexes> PrecomputeIndexes(
      const MiscComputationInfo &misc_info,
      const std::vector<Index> &input_indexes,
      const std::vector<Index> &output_indexes,
      bool need_backprop) const override;

  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::unique_ptr<Component> Copy() const override;
  // UpdatableComponent::Info() + ' ' + the model's Info() + filter and bias
  // stats, num-params, max-memory-mb, natural-gradient settings (Kaldi's).
  std::string Info() const override;

  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  float DotProduct(const UpdatableComponent &other) const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override;
  void Vectorize(VectorView *params) const override;
  void UnVectorize(const VectorView &params) override;
  void FreezeNaturalGradient(bool freeze) override;

  const ConvolutionModel &Model() const { return model_; }
  const Matrix &LinearParams() const { return linear_params_; }
  const Vector &BiasParams() const { return bias_params_; }
  void ScaleLinearParams(float scale) { linear_params_.Scale(scale); }

 private:
  // Sets model_.offsets and required_time_offsets from the config line.
  void ReadOffsetsFromConfig(ConfigLine *cfl);
  // param-stddev, bias-stddev, init-unit (after the model is set).
  void InitParamsFromConfig(ConfigLine *cfl);
  // use-natural-gradient, rank-in, rank-out, alpha-in, alpha-out,
  // num-minibatches-history.
  void InitNaturalGradientFromConfig(ConfigLine *cfl);
  void SetPreconditioners(int32_t rank_in, int32_t rank_out, float alpha_in,
                          float alpha_out, float history);
  void UpdateSimple(const ConvolutionComputation &cc,
                    const MatrixView &in_value, const MatrixView &out_deriv);
  void UpdateNaturalGradient(const ConvolutionComputation &cc,
                             const MatrixView &in_value,
                             const MatrixView &out_deriv);
  // out_deriv seen as (rows * height-out) x num-filters-out.
  MatrixView PerFilter(const MatrixView &m) const;

  ConvolutionModel model_;
  Matrix linear_params_;
  Vector bias_params_;
  float max_memory_mb_ = 200.0f;
  bool use_natural_gradient_ = true;
  OnlineNaturalGradient preconditioner_in_, preconditioner_out_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_COMPONENTS_CONVOLUTION_COMPONENTS_H_
