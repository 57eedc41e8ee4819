// Pooling over time and over the feature vector (Kaldi's
// nnet-general-component.h and nnet-combined-component.h):
//
// StatisticsExtractionComponent (not simple): for input-dim D, the output at
// t (for the period of output-period frames containing t, starting at a
// multiple of it) is [count, sum x, sum x²] over the input frames
// t_start, t_start + input-period, ... < t_start + output-period that
// exist: output-dim 1 + D (+ D with include-variance=true). Its derivative
// flows back through the sums (the count is constant).
//
//   type=StatisticsExtractionComponent input-dim=512 [input-period=1
//        output-period=1 include-variance=true]
//
// StatisticsPoolingComponent (not simple): pools those stats over the
// window [t - left-context, t + right-context] (every input-period frames;
// outputs only at multiples of input-period; computable if any input in
// the window exists) and outputs [num-log-count-features copies of
// log(count)] [mean = sum x / count] [stddev = sqrt(max(sum x² / count -
// mean², variance-floor)) if output-stddevs]: output-dim = input-dim +
// num-log-count-features - 1. As in Kaldi, the backprop ignores the floor
// and passes no derivative to the count (or through log-count).
//
//   type=StatisticsPoolingComponent input-dim=1025 [input-period=1
//        left-context=-1 right-context=-1 (at least one > 0)
//        num-log-count-features=0 output-stddevs=false
//        variance-floor=1e-10]
//
// MaxpoolingComponent (simple): the input row is a 3-D tensor x (slowest) /
// y / z (fastest) of input-{x,y,z}-dim; the output is the max over each
// pool-{x,y,z}-size box, the boxes pool-{x,y,z}-step apart, in the same
// x/y/z order. Its derivative goes to every input that equals the max.
//
//   type=MaxpoolingComponent input-x-dim=.. input-y-dim=.. input-z-dim=..
//        pool-x-size=.. pool-y-size=.. pool-z-size=.. pool-x-step=..
//        pool-y-step=.. pool-z-step=..        (all required)
//
// Keys, defaults, properties and tokens are Kaldi's (reference 3.3, 4.3;
// StatisticsExtractionComponent keeps Kaldi's <IncludeVarinance> spelling).
#ifndef NNET3_NNET_COMPONENTS_POOLING_COMPONENTS_H_
#define NNET3_NNET_COMPONENTS_POOLING_COMPONENTS_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "matrix/device-array.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/component-itf.h"

namespace nnet3 {

// <StatisticsExtractionComponentPrecomputedIndexes> <ForwardIndexes> pairs
// <Counts> vec <BackwardIndexes> ints </...>: output row i sums input rows
// [first, second) of forward pair i; input row j belongs to output row
// backward[j] (empty when no backprop was asked for).
class StatisticsExtractionComponentPrecomputedIndexes
    : public ComponentPrecomputedIndexes {
 public:
  std::unique_ptr<ComponentPrecomputedIndexes> Copy() const override;
  void Write(std::ostream &os, bool binary) const override;
  void Read(std::istream &is, bool binary) override;
  std::string Type() const override {
    return "StatisticsExtractionComponentPrecomputedIndexes";
  }
  // Sets the device arrays from the host vectors.
  void Set(const std::vector<std::pair<int32_t, int32_t>> &forward,
           const std::vector<float> &counts_host,
           const std::vector<int32_t> &backward);

  std::vector<std::pair<int32_t, int32_t>> forward_pairs;  // host copy
  IndexVector forward_indexes;                             // flattened ranges
  Vector counts;
  std::vector<int32_t> backward_host;
  IndexVector backward_indexes;
};

class StatisticsExtractionComponent : public Component {
 public:
  std::string Type() const override { return "StatisticsExtractionComponent"; }
  int32_t InputDim() const override { return input_dim_; }
  int32_t OutputDim() const override {
    return 1 + input_dim_ + (include_variance_ ? input_dim_ : 0);
  }
  int32_t Properties() const override {
    return kPropagateAdds | kReordersIndexes |
           (include_variance_ ? kBackpropNeedsInput : 0);
  }
  // input-dim (required), input-period=1, output-period=1 (a multiple of
  // input-period), include-variance=true.
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // ∂f/∂x(t) = ∂f/∂sum + 2 x(t) ∂f/∂sumsq of the output row t belongs to.
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
  // Sorts both lists by n, x, t.
  void ReorderIndexes(std::vector<Index> *input_indexes,
                      std::vector<Index> *output_indexes) const override;
  std::unique_ptr<ComponentPrecomputedIndexes> PrecomputeIndexes(
      const MiscComputationInfo &misc_info,
      const std::vector<Index> &input_indexes,
      const std::vector<Index> &output_indexes,
      bool need_backprop) const override;

 private:
  // The first time of the output period containing t.
  int32_t PeriodStart(int32_t t) const;

  int32_t input_dim_ = 0;
  int32_t input_period_ = 1;
  int32_t output_period_ = 1;
  bool include_variance_ = true;
};

// <StatisticsPoolingComponentPrecomputedIndexes> <ForwardIndexes> pairs
// <BackwardIndexes> pairs </...>: output row i pools input rows [first,
// second); input row j is pooled by output rows [first, second) of
// backward pair j.
class StatisticsPoolingComponentPrecomputedIndexes
    : public ComponentPrecomputedIndexes {
 public:
  std::unique_ptr<ComponentPrecomputedIndexes> Copy() const override;
  void Write(std::ostream &os, bool binary) const override;
  void Read(std::istream &is, bool binary) override;
  std::string Type() const override {
    return "StatisticsPoolingComponentPrecomputedIndexes";
  }
  void Set(const std::vector<std::pair<int32_t, int32_t>> &forward,
           const std::vector<std::pair<int32_t, int32_t>> &backward);

  std::vector<std::pair<int32_t, int32_t>> forward_pairs, backward_pairs;
  IndexVector forward_indexes, backward_indexes;  // flattened ranges
};

class StatisticsPoolingComponent : public Component {
 public:
  std::string Type() const override { return "StatisticsPoolingComponent"; }
  int32_t InputDim() const override { return input_dim_; }
  int32_t OutputDim() const override {
    return input_dim_ + num_log_count_features_ - 1;
  }
  int32_t Properties() const override {
    return kReordersIndexes | kBackpropAdds |
           (output_stddevs_ || num_log_count_features_ > 0
                ? kBackpropNeedsOutput
                : 0) |
           (num_log_count_features_ == 0 ? kBackpropNeedsInput : 0);
  }
  // input-dim (required), input-period=1, left-context, right-context (>=
  // 0, multiples of input-period, not both 0), num-log-count-features=0,
  // output-stddevs=false (then input-dim must be odd), variance-floor=1e-10.
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // Through mean = s/c: ∂f/∂s += ∂f/∂mean / c; through stddev σ =
  // sqrt(q/c - mean²): ∂f/∂q += ∂f/∂σ / (2σc), ∂f/∂mean -= ∂f/∂σ mean / σ;
  // each input row gets the sum over the output rows that pool it.
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
  void ReorderIndexes(std::vector<Index> *input_indexes,
                      std::vector<Index> *output_indexes) const override;
  std::unique_ptr<ComponentPrecomputedIndexes> PrecomputeIndexes(
      const MiscComputationInfo &misc_info,
      const std::vector<Index> &input_indexes,
      const std::vector<Index> &output_indexes,
      bool need_backprop) const override;

  int32_t LeftContext() const { return left_context_; }
  int32_t RightContext() const { return right_context_; }

 private:
  // "" if the settings are consistent, else which key is wrong and why.
  std::string Problem() const;
  // The counts (column 0 of the input) summed over each output's window.
  Vector PooledCounts(const StatisticsPoolingComponentPrecomputedIndexes &p,
                      const MatrixView &in) const;

  int32_t input_dim_ = 0;
  int32_t input_period_ = 1;
  int32_t left_context_ = -1;
  int32_t right_context_ = -1;
  int32_t num_log_count_features_ = 0;
  bool output_stddevs_ = false;
  float variance_floor_ = 1.0e-10f;
};

class MaxpoolingComponent : public Component {
 public:
  std::string Type() const override { return "MaxpoolingComponent"; }
  int32_t InputDim() const override {
    return input_x_dim_ * input_y_dim_ * input_z_dim_;
  }
  int32_t OutputDim() const override;
  int32_t Properties() const override {
    return kSimpleComponent | kBackpropNeedsInput | kBackpropNeedsOutput |
           kBackpropAdds;
  }
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // ∂f/∂x += ∂f/∂y of every pool whose max equals x.
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;

 private:
  // "" if the sizes make sense, else which key is wrong and why.
  std::string Problem() const;
  // Sets the patch column map: for each position q in the pool box, the
  // input column of that position in every pool (q varies slowest), and
  // its reverse maps.
  void ComputeColumnMaps();

  int32_t input_x_dim_ = 0, input_y_dim_ = 0, input_z_dim_ = 0;
  int32_t pool_x_size_ = 0, pool_y_size_ = 0, pool_z_size_ = 0;
  int32_t pool_x_step_ = 0, pool_y_step_ = 0, pool_z_step_ = 0;
  IndexVector patch_columns_;
  std::vector<IndexVector> backward_columns_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_COMPONENTS_POOLING_COMPONENTS_H_
