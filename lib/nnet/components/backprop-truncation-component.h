// BackpropTruncationComponent: the identity (times `scale`) in the forward
// pass, which limits the derivatives flowing back through an LSTM or GRU
// recurrence (Kaldi's xconfig layers put one on every recurrent
// connection):
//  - clipping: each row of the derivative is scaled down to a 2-norm of at
//    most clipping-threshold (0: no clipping);
//  - zeroing: at frames where the recurrence crosses a multiple of
//    zeroing-interval (shifted by the sequence index n, so that sequences
//    do not all zero at the same frames), a derivative row whose norm
//    exceeds zeroing-threshold is set to zero.
//
//   type=BackpropTruncationComponent dim=D [scale=1.0 clipping-threshold=30
//        zeroing-threshold=15 zeroing-interval=20 recurrence-interval=1]
//
// Not a simple component (the zeroing depends on t and n): the frames to
// zero are found once per computation by PrecomputeIndexes, as a vector
// with -1 at the candidate rows (BackpropTruncationComponentPrecomputedIndexes,
// Kaldi's <Zeroing> / <ZeroingSum> format). Stats (written in the model):
// rows processed and clipped, zeroing candidates and rows zeroed.
// Properties: kPropagateInPlace | kBackpropInPlace, as Kaldi.
#ifndef NNET3_NNET_COMPONENTS_BACKPROP_TRUNCATION_COMPONENT_H_
#define NNET3_NNET_COMPONENTS_BACKPROP_TRUNCATION_COMPONENT_H_

#include <memory>
#include <string>
#include <vector>

#include "matrix/vector.h"
#include "nnet/component-itf.h"

namespace nnet3 {

class BackpropTruncationComponentPrecomputedIndexes
    : public ComponentPrecomputedIndexes {
 public:
  std::unique_ptr<ComponentPrecomputedIndexes> Copy() const override;
  void Write(std::ostream &os, bool binary) const override;
  void Read(std::istream &is, bool binary) override;
  std::string Type() const override {
    return "BackpropTruncationComponentPrecomputedIndexes";
  }

  // One entry per output row: -1 where the row may be zeroed, else 0.
  Vector zeroing;
  // The number of -1 entries.
  float zeroing_sum = 0.0f;
};

class BackpropTruncationComponent : public Component {
 public:
  std::string Type() const override { return "BackpropTruncationComponent"; }
  int32_t InputDim() const override { return dim_; }
  int32_t OutputDim() const override { return dim_; }
  int32_t Properties() const override {
    return kPropagateInPlace | kBackpropInPlace;
  }
  void InitFromConfig(ConfigLine *cfl) override;

  // out = scale · in.
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // in_deriv = scale · out_deriv, each row then clipped and (at the
  // precomputed rows) zeroed as described above. `to_update` (if given)
  // receives the counts.
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  // Row i may be zeroed when floor((t - n) / zeroing-interval) differs from
  // floor((t - recurrence-interval - n) / zeroing-interval).
  std::unique_ptr<ComponentPrecomputedIndexes> PrecomputeIndexes(
      const MiscComputationInfo &misc_info,
      const std::vector<Index> &input_indexes,
      const std::vector<Index> &output_indexes,
      bool need_backprop) const override;

  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::unique_ptr<Component> Copy() const override;
  std::string Info() const override;
  // Act on the counts.
  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  void ZeroStats() override;

  double NumClipped() const { return num_clipped_; }
  double NumZeroed() const { return num_zeroed_; }
  double Count() const { return count_; }
  double CountZeroingBoundaries() const { return count_zeroing_boundaries_; }

 private:
  int32_t dim_ = 0;
  float scale_ = 1.0f;
  float clipping_threshold_ = 30.0f;
  float zeroing_threshold_ = 15.0f;
  int32_t zeroing_interval_ = 20;
  int32_t recurrence_interval_ = 1;
  double num_clipped_ = 0.0, num_zeroed_ = 0.0, count_ = 0.0,
         count_zeroing_boundaries_ = 0.0;
};

}  // namespace nnet3

#endif  // NNET3_NNET_COMPONENTS_BACKPROP_TRUNCATION_COMPONENT_H_
