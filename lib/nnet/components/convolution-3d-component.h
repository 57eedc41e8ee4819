// ConvolutionComponent: Kaldi's older 3-D convolution
// (nnet-combined-component.h), a simple component. The input row
// is a tensor of input-{x,y,z}-dim in input-vectorization-order "zyx" (z
// fastest) or "yzx" (y fastest); filters of filt-x-dim x filt-y-dim x
// input-z-dim move filt-{x,y}-step apart; the output row is, for each patch
// (x step slowest), num-filters values. Its Propagate adds to the output
// (kPropagateAdds).
//
//   type=ConvolutionComponent input-x-dim=.. input-y-dim=.. input-z-dim=..
//        filt-x-dim=.. filt-y-dim=.. filt-x-step=.. filt-y-step=..
//        num-filters=.. [input-vectorization-order=zyx
//        param-stddev=1/sqrt(filter-dim) bias-stddev=1 | matrix=<file>
//        (num-filters x (filter-dim+1), the last column the bias)]
//
// Keys, defaults, properties and tokens are Kaldi's (reference 3.3, 4.3).
// The patches are gathered with one CopyCols and multiplied in one GEMM
// (the patches seen as (rows * #patches) x filter-dim).
#ifndef NNET3_NNET_COMPONENTS_CONVOLUTION_3D_COMPONENT_H_
#define NNET3_NNET_COMPONENTS_CONVOLUTION_3D_COMPONENT_H_

#include <memory>
#include <string>
#include <vector>

#include "matrix/device-array.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/component-itf.h"

namespace nnet3 {

class ConvolutionComponent : public UpdatableComponent {
 public:
  std::string Type() const override { return "ConvolutionComponent"; }
  int32_t Properties() const override {
    return kSimpleComponent | kUpdatableComponent | kBackpropNeedsInput |
           kBackpropAdds | kPropagateAdds;
  }
  int32_t InputDim() const override {
    return input_x_dim_ * input_y_dim_ * input_z_dim_;
  }
  int32_t OutputDim() const override {
    return NumPatches() * filter_params_.NumRows();
  }
  void InitFromConfig(ConfigLine *cfl) override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // For patch p with input columns P_p: ∂f/∂x[P_p] += ∂f/∂y_p W;
  // ∂f/∂W = sum_p ∂f/∂y_pᵀ x[P_p]; ∂f/∂b = sum_p ∂f/∂y_p.
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
  float DotProduct(const UpdatableComponent &other) const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override;
  void Vectorize(VectorView *params) const override;
  void UnVectorize(const VectorView &params) override;

 private:
  enum Vectorization { kYzx = 0, kZyx = 1 };  // Kaldi's values
  int32_t NumPatches() const;
  // "" if the geometry makes sense, else which key is wrong and why.
  std::string Problem() const;
  // The patch column map (patch p's filter-dim input columns) and its
  // reverse maps.
  void ComputeColumnMaps();
  // The patches of `in`: rows x (#patches * filter-dim), contiguous.
  Matrix Patches(const MatrixView &in) const;

  int32_t input_x_dim_ = 0, input_y_dim_ = 0, input_z_dim_ = 0;
  int32_t filt_x_dim_ = 0, filt_y_dim_ = 0;
  int32_t filt_x_step_ = 0, filt_y_step_ = 0;
  Vectorization input_vectorization_ = kZyx;
  Matrix filter_params_;  // num-filters x filter-dim
  Vector bias_params_;
  IndexVector patch_columns_;
  std::vector<IndexVector> backward_columns_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_COMPONENTS_CONVOLUTION_3D_COMPONENT_H_
