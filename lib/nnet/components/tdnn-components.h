// TdnnComponent: a TDNN layer that splices its own input (Kaldi's
// TdnnComponent, nnet-tdnn-component.cc). The output at time t is
//
//   y(t) = b + sum_i W_i x(t + time_offsets[i])
//
// with W = [W_0 W_1 ...] output-dim x (input-dim * #offsets) and b the bias
// (absent with use-bias=false, when the component is linear and its
// Propagate adds to its output: kPropagateAdds). An output exists only where
// the input exists at every offset. The component is not simple: it
// reorders its Indexes onto a regular (time, image) grid (blanks where the
// grid has holes; with time subsampling R, the input t values in blocks of
// R, see convolution-io.h), so that for each offset the input rows it needs
// form one strided sub-matrix of the input, and the layer is #offsets
// GEMMs with no copying. Its precomputed indexes are that stride and the
// offsets' first rows (TdnnComponentPrecomputedIndexes).
//
//   type=TdnnComponent input-dim=40 output-dim=512 time-offsets=-1,0,1
//       [use-bias=true orthonormal-constraint=0 param-stddev=
//        1/sqrt(input-dim*#offsets) bias-stddev=1 bias-mean=0
//        use-natural-gradient=true rank-in=min(20,(in*#off+1)/2)
//        rank-out=min(80,(out+1)/2) alpha-in=4 alpha-out=4
//        num-samples-history=2000 learning-rate... max-change...]
//
// orthonormal-constraint is not applied here: the trainer calls
// ConstrainOrthonormal (every 4th minibatch on average) for components whose
// constraint is non-zero; a negative value (TDNN-F's "floating" -1) lets the
// scale float. The natural-gradient update period is fixed at 4, as in
// Kaldi. Tokens (reference 4.3): <TdnnComponent> [common prefix]
// <LearningRate> f <TimeOffsets> ints <LinearParams> mat <BiasParams> vec
// <OrthonormalConstraint> f <UseNaturalGradient> b <NumSamplesHistory> f
// <AlphaInOut> f f <RankInOut> i i </TdnnComponent>.
#ifndef NNET3_NNET_COMPONENTS_TDNN_COMPONENTS_H_
#define NNET3_NNET_COMPONENTS_TDNN_COMPONENTS_H_

#include <memory>
#include <string>
#include <vector>

#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/component-itf.h"
#include "nnet/natural-gradient-online.h"

namespace nnet3 {

// <TdnnComponentPrecomputedIndexes> <RowStride> i <RowOffsets> ints
// </TdnnComponentPrecomputedIndexes>: offset i reads input rows
// row_offsets[i] + k * row_stride for output rows k.
class TdnnComponentPrecomputedIndexes : public ComponentPrecomputedIndexes {
 public:
  std::unique_ptr<ComponentPrecomputedIndexes> Copy() const override;
  void Write(std::ostream &os, bool binary) const override;
  void Read(std::istream &is, bool binary) override;
  std::string Type() const override {
    return "TdnnComponentPrecomputedIndexes";
  }

  int32_t row_stride = 1;
  std::vector<int32_t> row_offsets;
};

class TdnnComponent : public UpdatableComponent {
 public:
  TdnnComponent() = default;

  std::string Type() const override { return "TdnnComponent"; }
  int32_t Properties() const override {
    return kUpdatableComponent | kReordersIndexes | kBackpropAdds |
           kBackpropNeedsInput | (bias_params_.Dim() == 0 ? kPropagateAdds : 0);
  }
  int32_t InputDim() const override {
    return time_offsets_.empty()
               ? 0
               : linear_params_.NumCols() /
                     static_cast<int32_t>(time_offsets_.size());
  }
  int32_t OutputDim() const override { return linear_params_.NumRows(); }
  void InitFromConfig(ConfigLine *cfl) override;

  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // kFuseAssignOutput: the first offset's product with beta = 0.
  bool SupportsPropagateFusion(int32_t fusion) const override;
  void *PropagateFused(int32_t fusion,
                       const ComponentPrecomputedIndexes *indexes,
                       const MatrixView &in, MatrixView *out) const override;
  // ∂f/∂x(t + o_i) += ∂f/∂y(t) W_i; ∂f/∂W_i = sum_t ∂f/∂y(t)ᵀ x(t + o_i);
  // ∂f/∂b = sum_t ∂f/∂y(t).
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;

  // Input (n, t + o, x) for every offset o; computable only if all exist.
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
  // Kaldi's: UpdatableComponent::Info() [, orthonormal-constraint=c],
  // time-offsets=a,b,c, linear-params stats with row and column norms,
  // has-bias=false or bias stats, the natural-gradient settings.
  std::string Info() const override;

  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  float DotProduct(const UpdatableComponent &other) const override;
  bool ParamsAreFinite() const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override;
  // The linear parameters row by row, then the bias (if any).
  void Vectorize(VectorView *params) const override;
  void UnVectorize(const VectorView &params) override;
  void FreezeNaturalGradient(bool freeze) override;

  const std::vector<int32_t> &TimeOffsets() const { return time_offsets_; }
  const Matrix &LinearParams() const { return linear_params_; }
  // Empty when use-bias=false.
  const Vector &BiasParams() const { return bias_params_; }
  // Replaces the parameters (same shape; `bias` may be empty only if the
  // component has no bias, or of output-dim to give it one).
  void SetParams(const VectorView &bias, const MatrixView &linear);
  float OrthonormalConstraint() const { return orthonormal_constraint_; }
  bool UseNaturalGradient() const { return use_natural_gradient_; }

 private:
  // The bias (if any), then the products of the offsets; the first product
  // adds to `out` only when `add_to_out` (or after the bias).
  void PropagateProducts(const ComponentPrecomputedIndexes *indexes,
                         const MatrixView &in, bool add_to_out,
                         MatrixView *out) const;
  // Throws UserError for an inconsistent model (after Read).
  void Check() const;
  // The natural-gradient keys (use-natural-gradient, rank-in, rank-out,
  // alpha-in, alpha-out, num-samples-history) and their defaults.
  void InitNaturalGradientFromConfig(ConfigLine *cfl, int32_t spliced_dim,
                                     int32_t output_dim);
  void SetPreconditioners(int32_t rank_in, int32_t rank_out, float alpha_in,
                          float alpha_out, float num_samples_history);
  void UpdateSimple(const TdnnComponentPrecomputedIndexes &indexes,
                    const MatrixView &in_value, const MatrixView &out_deriv);
  void UpdateNaturalGradient(const TdnnComponentPrecomputedIndexes &indexes,
                             const MatrixView &in_value,
                             const MatrixView &out_deriv);

  std::vector<int32_t> time_offsets_;
  Matrix linear_params_;
  Vector bias_params_;
  float orthonormal_constraint_ = 0.0f;
  bool use_natural_gradient_ = true;
  OnlineNaturalGradient preconditioner_in_, preconditioner_out_;
};

// The sub-matrix of `m` with rows row_offset + k * row_stride, k = 0 ..
// num_rows-1 (a strided view; no copy).
MatrixView StridedRows(const MatrixView &m, int32_t row_offset,
                       int32_t row_stride, int32_t num_rows);

}  // namespace nnet3

#endif  // NNET3_NNET_COMPONENTS_TDNN_COMPONENTS_H_
