// Dropout (random components, reference 3.3):
//
// DropoutComponent (simple): in training, out = in .* mask with mask in
// {0, 1} drawn per element (or per row with dropout-per-frame), zero with
// probability dropout-proportion p and NOT rescaled by 1/(1-p); in test
// mode out = (1-p) in. Backprop recovers the mask from the values, as
// Kaldi: in_deriv = out_deriv .* out / in (out_deriv where in == 0).
//
// GeneralDropoutComponent (not simple): one mask row of block-dim values
// per (n, floor(t / time-period)) (per n when time-period is 0), repeated
// over the dim / block-dim blocks of a row; the mask values are 0 or
// 1/(1-p), or 1 + 4p(u - 1/2) with continuous=true. With
// specaugment-max-proportion > 0 the mask instead zeroes up to that
// proportion of the block's values in up to specaugment-max-regions
// contiguous bands (frequency masking). The mask is the memo. The row of
// the mask for each row of the matrix comes from the precomputed indexes;
// without them (nullptr) every row gets its own mask row.
//
//   auto d = Component::NewComponentOfType("DropoutComponent");
//   d->InitFromConfig(&cfl);                 // dim=.. dropout-proportion=..
//   static_cast<RandomComponent*>(d.get())->ResetGenerator(seed);
//
// Random draws use RandomComponent::NextSeed(), so the masks depend only on
// the ResetGenerator seed and the number of propagations since.
#ifndef NNET3_NNET_DROPOUT_COMPONENTS_H_
#define NNET3_NNET_DROPOUT_COMPONENTS_H_

#include <memory>
#include <string>
#include <vector>

#include "matrix/device-array.h"
#include "matrix/matrix.h"
#include "nnet/component-itf.h"

namespace nnet3 {

class DropoutComponent : public RandomComponent {
 public:
  std::string Type() const override { return "DropoutComponent"; }
  int32_t InputDim() const override { return dim_; }
  int32_t OutputDim() const override { return dim_; }
  int32_t Properties() const override {
    return kSimpleComponent | kBackpropInPlace | kBackpropNeedsInput |
           kBackpropNeedsOutput | kRandomComponent;
  }
  // dim and dropout-proportion (required; p in [0, 1]), dropout-per-frame,
  // test-mode.
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

  // For the set-dropout-proportion edit and nnet3-train schedules.
  void SetDropoutProportion(float p);
  float DropoutProportion() const { return dropout_proportion_; }

 private:
  int32_t dim_ = 0;
  float dropout_proportion_ = 0.0f;
  bool dropout_per_frame_ = false;
};

// Which mask row each (reshaped) row of the matrix uses: Kaldi's
// GeneralDropoutComponentPrecomputedIndexes, serialized as
// <GeneralDropoutComponentPrecomputedIndexes> <NumMaskRows> i <Indexes>
// intvec </GeneralDropoutComponentPrecomputedIndexes>.
class GeneralDropoutComponentPrecomputedIndexes
    : public ComponentPrecomputedIndexes {
 public:
  std::unique_ptr<ComponentPrecomputedIndexes> Copy() const override;
  void Write(std::ostream &os, bool binary) const override;
  void Read(std::istream &is, bool binary) override;
  std::string Type() const override {
    return "GeneralDropoutComponentPrecomputedIndexes";
  }

  // Rows of the mask matrix (Kaldi allocates num-distinct * dim/block-dim
  // rows; only the first num-distinct are used).
  int32_t num_mask_rows = 0;
  // One entry per row of the matrix reshaped to block-dim columns.
  IndexVector indexes;
};

class GeneralDropoutComponent : public RandomComponent {
 public:
  std::string Type() const override { return "GeneralDropoutComponent"; }
  int32_t InputDim() const override { return dim_; }
  int32_t OutputDim() const override { return dim_; }
  int32_t Properties() const override {
    return kRandomComponent | kPropagateInPlace | kBackpropInPlace | kUsesMemo |
           (block_dim_ != dim_ ? kInputContiguous | kOutputContiguous : 0);
  }
  // dim (required), block-dim, time-period, dropout-proportion,
  // specaugment-max-proportion, specaugment-max-regions, continuous,
  // test-mode.
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
  void DeleteMemo(void *memo) const override;
  // Input and output Indexes are identical (the inherited GetInputIndexes
  // and IsComputable); this maps each to its mask row.
  std::unique_ptr<ComponentPrecomputedIndexes> PrecomputeIndexes(
      const MiscComputationInfo &misc_info,
      const std::vector<Index> &input_indexes,
      const std::vector<Index> &output_indexes,
      bool need_backprop) const override;

  void SetDropoutProportion(float p);
  float DropoutProportion() const { return dropout_proportion_; }

 private:
  // Whether Propagate changes anything (training mode, p or specaugment).
  bool Active() const;
  // A num_rows x block_dim_ mask (the memo).
  Matrix *MakeMask(int32_t num_rows, Device &device) const;
  void MakeSpecAugmentMask(Matrix *mask) const;
  // this *= the mask row of each reshaped row.
  void ApplyMask(const ComponentPrecomputedIndexes *indexes, const Matrix &mask,
                 MatrixView *m) const;

  int32_t dim_ = 0;
  int32_t block_dim_ = 0;
  int32_t time_period_ = 0;
  float dropout_proportion_ = 0.5f;
  float specaugment_max_proportion_ = 0.0f;
  int32_t specaugment_max_regions_ = 1;
  bool continuous_ = false;
};

}  // namespace nnet3

#endif  // NNET3_NNET_DROPOUT_COMPONENTS_H_
