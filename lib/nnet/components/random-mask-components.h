// Two random, non-simple components of Kaldi's nnet-general-component.h:
//
// DropoutMaskComponent needs no input and outputs a dropout mask for every
// requested Index: each value is 0 with probability dropout-proportion p and
// 1 otherwise (test mode: 1 - p), or 1 + 4p(u - 1/2) for uniform u with
// continuous=true (test mode: 1). With 2 or 3 columns (the per-frame dropout
// of Kaldi's LSTM layers) columns 0 and 1 come from one uniform u per row,
// [u > p] and [u < 1 - p], so that they are never both zero when p <= 1/2.
//
// SpecAugmentTimeMaskComponent (the time half of SpecAugment) multiplies
// whole rows by a 0/1 mask: along each sequence (the rows of one n, in t
// order) it alternates zeroed runs of 1..time-mask-max-frames frames with
// kept runs of 1..floor(time-mask-max-frames (1 - z) / z) frames, starting
// with a zeroed run with probability z (zeroed-proportion). Test mode (or
// z = 0) is the identity. The mask is the memo.
//
//   type=DropoutMaskComponent output-dim=2 [dropout-proportion=0.5
//       continuous=false]
//   type=SpecAugmentTimeMaskComponent dim=40 [zeroed-proportion=0.25
//       time-mask-max-frames=10]
//
// Random draws use the counter-based generator (device/backend.h) seeded by
// RandomComponent::NextSeed(), as dropout does: the device fills
// SetRandUniform for DropoutMask; for the run lengths, which are sequential,
// the same RandomBits/UniformFromBits functions on the host (index data
// only; the mask goes to the device in one copy).
#ifndef NNET3_NNET_RANDOM_MASK_COMPONENTS_H_
#define NNET3_NNET_RANDOM_MASK_COMPONENTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "matrix/vector.h"
#include "nnet/component-itf.h"

namespace nnet3 {

class DropoutMaskComponent : public RandomComponent {
 public:
  std::string Type() const override { return "DropoutMaskComponent"; }
  // The input dim is a don't-care (no input is read).
  int32_t InputDim() const override { return output_dim_; }
  int32_t OutputDim() const override { return output_dim_; }
  int32_t Properties() const override { return kRandomComponent; }
  // output-dim (required, > 0); dropout-proportion=0.5 (in [0, 1]);
  // continuous=false; test-mode=false.
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // Nothing to propagate back to: in_deriv (normally empty) is zero.
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

  // For the set-dropout-proportion edit; UserError outside [0, 1].
  void SetDropoutProportion(float p);
  float DropoutProportion() const { return dropout_proportion_; }
  bool Continuous() const { return continuous_; }

 private:
  int32_t output_dim_ = 0;
  float dropout_proportion_ = 0.5f;
  bool continuous_ = false;
};

// The rows of each sequence in t order (one list per distinct n, in
// increasing n): <SpecAugmentTimeMaskComponentPrecomputedIndexes> <Indexes>
// int32 (number of lists) intvec...
// </SpecAugmentTimeMaskComponentPrecomputedIndexes>.
class SpecAugmentTimeMaskComponentPrecomputedIndexes
    : public ComponentPrecomputedIndexes {
 public:
  std::unique_ptr<ComponentPrecomputedIndexes> Copy() const override;
  void Write(std::ostream &os, bool binary) const override;
  void Read(std::istream &is, bool binary) override;
  std::string Type() const override {
    return "SpecAugmentTimeMaskComponentPrecomputedIndexes";
  }

  std::vector<std::vector<int32_t>> indexes;
  int32_t tot_size = 0;  // total number of rows (derived)
};

class SpecAugmentTimeMaskComponent : public RandomComponent {
 public:
  std::string Type() const override { return "SpecAugmentTimeMaskComponent"; }
  int32_t InputDim() const override { return dim_; }
  int32_t OutputDim() const override { return dim_; }
  int32_t Properties() const override {
    return kRandomComponent | kPropagateInPlace | kBackpropInPlace | kUsesMemo;
  }
  // dim (required, > 0); zeroed-proportion=0.25 (in [0, 1), and leaving
  // kept runs of at least one frame); time-mask-max-frames=10 (> 1).
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;
  // out = in with the masked rows zeroed. Without precomputed indexes all
  // rows form one sequence, in order.
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // in_deriv = out_deriv with the same rows zeroed.
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  void DeleteMemo(void *memo) const override;
  // Input and output Indexes are identical (the inherited GetInputIndexes
  // and IsComputable); this groups the rows by sequence.
  std::unique_ptr<ComponentPrecomputedIndexes> PrecomputeIndexes(
      const MiscComputationInfo &misc_info,
      const std::vector<Index> &input_indexes,
      const std::vector<Index> &output_indexes,
      bool need_backprop) const override;

 private:
  bool Active() const { return !test_mode_ && zeroed_proportion_ != 0.0f; }
  // The 0/1 row mask (the memo) for `num_rows` rows.
  Vector *MakeMask(const ComponentPrecomputedIndexes *indexes, int32_t num_rows,
                   Device &device) const;

  int32_t dim_ = 0;
  float zeroed_proportion_ = 0.25f;
  int32_t time_mask_max_frames_ = 10;
};

}  // namespace nnet3

#endif  // NNET3_NNET_RANDOM_MASK_COMPONENTS_H_
