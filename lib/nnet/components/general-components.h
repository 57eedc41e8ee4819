// Two of Kaldi's "general" (non-simple) components from
// nnet-general-component.h:
//
// DistributeComponent (input-dim = k * output-dim) spreads each input row
// over k output rows that differ in the x index: the output at (n, t, x)
// is block x mod k (columns [(x mod k) * output-dim, ...)) of the input at
// (n, t, floor(x / k)). Kaldi's generator uses it with
// ReplaceIndex(..., x, i) to sum the blocks after a shared transform.
//
// ConstantComponent outputs a (optionally trained) vector for every
// requested Index and needs no input at all.
//
//   type=DistributeComponent input-dim=60 output-dim=20
//   type=ConstantComponent output-dim=40 [is-updatable=true
//       use-natural-gradient=true output-mean=0 output-stddev=0
//       learning-rate=... max-change=...]
//
// Keys, defaults, properties and model tokens are Kaldi's (reference 3.3,
// 4.3). Both work through the device Backend only (row pointer lists for
// Distribute, row broadcasts and sums for Constant).
#ifndef NNET3_NNET_GENERAL_COMPONENTS_H_
#define NNET3_NNET_GENERAL_COMPONENTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "matrix/vector.h"
#include "nnet/component-itf.h"
#include "nnet/natural-gradient-online.h"

namespace nnet3 {

// For each output row, the input row it reads and the first column of the
// block: <DistributeComponentPrecomputedIndexes> <Pairs> pairvec
// </DistributeComponentPrecomputedIndexes>.
class DistributeComponentPrecomputedIndexes
    : public ComponentPrecomputedIndexes {
 public:
  std::unique_ptr<ComponentPrecomputedIndexes> Copy() const override;
  void Write(std::ostream &os, bool binary) const override;
  void Read(std::istream &is, bool binary) override;
  std::string Type() const override {
    return "DistributeComponentPrecomputedIndexes";
  }

  std::vector<std::pair<int32_t, int32_t>> pairs;
};

class DistributeComponent : public Component {
 public:
  std::string Type() const override { return "DistributeComponent"; }
  int32_t InputDim() const override { return input_dim_; }
  int32_t OutputDim() const override { return output_dim_; }
  int32_t Properties() const override { return 0; }
  // input-dim and output-dim (required, > 0; output-dim divides input-dim).
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  // out row i = block pairs[i].second of in row pairs[i].first.
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // The transpose of the copy: in_deriv's blocks = out_deriv's rows (blocks
  // no output reads are zero).
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  void GetInputIndexes(const MiscComputationInfo &misc_info,
                       const Index &output_index,
                       std::vector<Index> *desired_indexes) const override;
  bool IsComputable(const MiscComputationInfo &misc_info,
                    const Index &output_index, const IndexSet &input_index_set,
                    std::vector<Index> *used_inputs) const override;
  std::unique_ptr<ComponentPrecomputedIndexes> PrecomputeIndexes(
      const MiscComputationInfo &misc_info,
      const std::vector<Index> &input_indexes,
      const std::vector<Index> &output_indexes,
      bool need_backprop) const override;

 private:
  // The input Index an output Index reads, and its block number.
  Index InputIndexAndBlock(const Index &output_index, int32_t *block) const;
  // One device pointer per output row into `m` (the input or its derivative).
  RowPointers BlockPointers(const ComponentPrecomputedIndexes *indexes,
                            int32_t num_output_rows, const MatrixView &m) const;

  int32_t input_dim_ = 0;
  int32_t output_dim_ = 0;
};

class ConstantComponent : public UpdatableComponent {
 public:
  std::string Type() const override { return "ConstantComponent"; }
  // The input dim is a don't-care (no input is read); Kaldi reports the
  // output dim.
  int32_t InputDim() const override { return output_.Dim(); }
  int32_t OutputDim() const override { return output_.Dim(); }
  int32_t Properties() const override {
    return is_updatable_ ? kUpdatableComponent : 0;
  }
  // The common updatable keys; output-dim (required, > 0); is-updatable,
  // use-natural-gradient (true); output-mean, output-stddev (0): output =
  // randn * output-stddev + output-mean.
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;
  // Every output row = the output vector.
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // The output does not depend on the input: in_deriv (normally empty) is
  // zero. ∂f/∂output = column sums of out_deriv (preconditioned by natural
  // gradient unless a gradient is being accumulated).
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  // No input Indexes; always computable.
  void GetInputIndexes(const MiscComputationInfo &misc_info,
                       const Index &output_index,
                       std::vector<Index> *desired_indexes) const override;
  bool IsComputable(const MiscComputationInfo &misc_info,
                    const Index &output_index, const IndexSet &input_index_set,
                    std::vector<Index> *used_inputs) const override;

  // Scale and Add act only when is-updatable, as in Kaldi; NumParameters
  // and DotProduct are 0 then.
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

  const Vector &Output() const { return output_; }
  bool IsUpdatable() const { return is_updatable_; }

 private:
  Vector output_;
  bool is_updatable_ = true;
  bool use_natural_gradient_ = true;
  OnlineNaturalGradient preconditioner_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_GENERAL_COMPONENTS_H_
