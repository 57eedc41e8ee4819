// RestrictedAttentionComponent (Kaldi's nnet-attention-component.h):
// multi-head self-attention over a window of frames around each output
// frame. It has no parameters: the keys, values and queries come from the
// previous (affine) layer. Per head the input row is [key | value | query]
// with the query [key-dim | context-dim] wide (context-dim = num-left-inputs
// + 1 + num-right-inputs); the output row is the attention-weighted sum of
// the values at t + k * time-stride, k = -num-left-inputs ..
// num-right-inputs, followed, with output-context=true, by the weights
// (attention.h has the formulas).
//
//   type=RestrictedAttentionComponent key-dim=40 value-dim=60
//       num-left-inputs=5 num-right-inputs=2 [num-heads=1 time-stride=1
//       num-left-inputs-required=num-left-inputs
//       num-right-inputs-required=num-right-inputs output-context=true
//       key-scale=1/sqrt(key-dim)]
//
// An output needs only the "required" inputs; the other positions of its
// window that are not available are zero (the component reorders its
// Indexes onto a regular (t, (n, x)) grid padded with blanks, which the
// compiler fills with zero rows). It stores statistics of the attention
// weights (their entropy per head, their mean per head and position) for
// nnet3-info. Properties RI BNI PA BA ST M; input dim = num-heads *
// (2 key-dim + value-dim + context-dim), output dim = num-heads *
// (value-dim [+ context-dim]).
#ifndef NNET3_NNET_ATTENTION_COMPONENTS_H_
#define NNET3_NNET_ATTENTION_COMPONENTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "matrix/matrix.h"
#include "nnet/component-itf.h"

namespace nnet3 {

// The regular grid of the component's input and output rows: num_images
// (n, x) pairs per t, t running over start, start + step, ... (num values),
// t slowest. The fields and format of Kaldi's ConvolutionComputationIo:
// <ConvCompIo> num_images start_t_in t_step_in num_t_in start_t_out
// t_step_out num_t_out reorder_t_in </ConvCompIo> (reorder_t_in is always
// 1 here).
struct AttentionComputationIo {
  int32_t num_images = 0;
  int32_t start_t_in = 0, t_step_in = 0, num_t_in = 0;
  int32_t start_t_out = 0, t_step_out = 0, num_t_out = 0;
  int32_t reorder_t_in = 1;

  void Write(std::ostream &os, bool binary) const;
  void Read(std::istream &is, bool binary);
};

// <RestrictedAttentionComponentPrecomputedIndexes> <Io> io
// </RestrictedAttentionComponentPrecomputedIndexes>.
class RestrictedAttentionComponentPrecomputedIndexes
    : public ComponentPrecomputedIndexes {
 public:
  std::unique_ptr<ComponentPrecomputedIndexes> Copy() const override;
  void Write(std::ostream &os, bool binary) const override;
  void Read(std::istream &is, bool binary) override;
  std::string Type() const override {
    return "RestrictedAttentionComponentPrecomputedIndexes";
  }

  AttentionComputationIo io;
};

class RestrictedAttentionComponent : public Component {
 public:
  std::string Type() const override { return "RestrictedAttentionComponent"; }
  int32_t InputDim() const override {
    return num_heads_ * (2 * key_dim_ + value_dim_ + context_dim_);
  }
  int32_t OutputDim() const override {
    return num_heads_ * (value_dim_ + (output_context_ ? context_dim_ : 0));
  }
  int32_t Properties() const override {
    return kReordersIndexes | kBackpropNeedsInput | kPropagateAdds |
           kBackpropAdds | kStoresStats | kUsesMemo;
  }
  // Keys and defaults in the file comment; key-dim, value-dim,
  // num-left-inputs and num-right-inputs are required.
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;

  // The memo holds the attention weights (output rows x num-heads *
  // context-dim).
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // Adds to in_deriv (attention.h gives the derivatives).
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  void DeleteMemo(void *memo) const override;
  void StoreStats(const MatrixView &in_value, const MatrixView &out_value,
                  void *memo) override;
  void ZeroStats() override;
  void ResetGenerator(uint64_t seed) override { stats_rng_.Seed(seed); }
  void Scale(float scale) override;  // the stats
  void Add(float alpha, const Component &other) override;

  // The window t - stride * num-left-inputs .. t + stride *
  // num-right-inputs (same n and x).
  void GetInputIndexes(const MiscComputationInfo &misc_info,
                       const Index &output_index,
                       std::vector<Index> *desired_indexes) const override;
  // Computable when the required part of the window is available; the
  // used inputs are the available ones.
  bool IsComputable(const MiscComputationInfo &misc_info,
                    const Index &output_index, const IndexSet &input_index_set,
                    std::vector<Index> *used_inputs) const override;
  // Puts the Indexes on the grid (t slowest), padding with blanks.
  void ReorderIndexes(std::vector<Index> *input_indexes,
                      std::vector<Index> *output_indexes) const override;
  std::unique_ptr<ComponentPrecomputedIndexes> PrecomputeIndexes(
      const MiscComputationInfo &misc_info,
      const std::vector<Index> &input_indexes,
      const std::vector<Index> &output_indexes,
      bool need_backprop) const override;

  int32_t NumHeads() const { return num_heads_; }
  int32_t KeyDim() const { return key_dim_; }
  int32_t ValueDim() const { return value_dim_; }
  int32_t ContextDim() const { return context_dim_; }
  int32_t TimeStride() const { return time_stride_; }
  int32_t NumLeftInputs() const { return num_left_inputs_; }
  int32_t NumRightInputs() const { return num_right_inputs_; }
  int32_t NumLeftInputsRequired() const { return num_left_inputs_required_; }
  int32_t NumRightInputsRequired() const { return num_right_inputs_required_; }
  bool OutputContext() const { return output_context_; }
  float KeyScale() const { return key_scale_; }

 private:
  // The grid for these Indexes (Kaldi's GetComputationStructure): the t
  // step is the gcd of the input and output steps and the time stride; the
  // input covers the whole requested window of the first and last outputs.
  void GetComputationStructure(const std::vector<Index> &input_indexes,
                               const std::vector<Index> &output_indexes,
                               AttentionComputationIo *io) const;
  // The Indexes of the grid `io`, blanks where the originals have none.
  void GetIndexes(const std::vector<Index> &input_indexes,
                  const std::vector<Index> &output_indexes,
                  const AttentionComputationIo &io,
                  std::vector<Index> *new_input_indexes,
                  std::vector<Index> *new_output_indexes) const;
  void CheckIo(const AttentionComputationIo &io, int32_t in_rows,
               int32_t out_rows) const;
  // The derived values and the range checks (UserError naming the first
  // bad key; `where` says where the values came from).
  void Check(const std::string &where) const;

  int32_t num_heads_ = 1;
  int32_t key_dim_ = 0;
  int32_t value_dim_ = 0;
  int32_t num_left_inputs_ = 0;
  int32_t num_right_inputs_ = 0;
  int32_t time_stride_ = 1;
  int32_t context_dim_ = 1;  // num_left_inputs_ + 1 + num_right_inputs_
  int32_t num_left_inputs_required_ = 0;
  int32_t num_right_inputs_required_ = 0;
  bool output_context_ = true;
  float key_scale_ = 1.0f;

  double stats_count_ = 0.0;  // frames behind the stats
  // Sum of the entropies of the weights, per head (empty until the first
  // StoreStats).
  std::vector<double> entropy_stats_;
  // Sum of the weights, num-heads x context-dim (head slowest).
  std::vector<double> posterior_stats_;
  // As Kaldi, StoreStats skips about one minibatch in three.
  StatsGenerator stats_rng_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_ATTENTION_COMPONENTS_H_
