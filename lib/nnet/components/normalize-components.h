// Normalization components (Kaldi's nnet-normalize-component.h):
//
// NormalizeComponent scales each block of block-dim values of a row so that
// its RMS is target-rms (no parameters, no stats); with add-log-stddev it
// appends one output per block, the log of the block's scaled RMS.
//
// BatchNormComponent normalizes each of block-dim columns (the dim columns
// seen as dim/block-dim blocks stacked as rows) to zero mean and RMS
// target-rms. In training mode it uses the minibatch's mean and variance
// and returns them in a memo for Backprop and StoreStats, which
// accumulates them; in test mode it uses the accumulated stats:
//   y = (x - mean) * target_rms / sqrt(var + epsilon).
//
//   auto bn = Component::NewComponentOfType("BatchNormComponent");
//   bn->InitFromConfig(&cfl);                 // dim=256 [block-dim=..]
//   ... train: Propagate, StoreStats(in, out, memo), Backprop ...
//   static_cast<BatchNormComponent*>(bn.get())->SetTestMode(true);
//
// The stats are held as count, mean and variance (Kaldi keeps count, sum
// and sum of squares and writes mean and variance), so that a model read
// and re-written gives the same bytes.
#ifndef NNET3_NNET_NORMALIZE_COMPONENTS_H_
#define NNET3_NNET_NORMALIZE_COMPONENTS_H_

#include <memory>
#include <string>

#include "matrix/vector.h"
#include "nnet/component-itf.h"

namespace nnet3 {

class NormalizeComponent : public Component {
 public:
  // 2^-66: the floor on the mean square (its square root is exact).
  static constexpr float kSquaredNormFloor = 1.3552527156068805425e-20f;

  std::string Type() const override { return "NormalizeComponent"; }
  int32_t InputDim() const override { return input_dim_; }
  int32_t OutputDim() const override {
    return input_dim_ + (add_log_stddev_ ? input_dim_ / block_dim_ : 0);
  }
  int32_t Properties() const override;
  // dim or input-dim (required), block-dim, target-rms, add-log-stddev.
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

 private:
  void NormalizeRows(const MatrixView &in, MatrixView *out) const;
  void DiffNormalizeRows(const MatrixView &in_value,
                         const MatrixView &out_deriv, bool in_place,
                         MatrixView *in_deriv) const;

  int32_t input_dim_ = 0;
  int32_t block_dim_ = 0;
  float target_rms_ = 1.0f;
  bool add_log_stddev_ = false;
};

class BatchNormComponent : public Component {
 public:
  std::string Type() const override { return "BatchNormComponent"; }
  int32_t InputDim() const override { return dim_; }
  int32_t OutputDim() const override { return dim_; }
  int32_t Properties() const override;
  // dim (required), block-dim, epsilon, target-rms, test-mode.
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  std::string Info() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // Test mode only: kFuseRectifyInput (y = max(x, 0) * scale + offset, one
  // pass).
  bool SupportsPropagateFusion(int32_t fusion) const override;
  void *PropagateFused(int32_t fusion,
                       const ComponentPrecomputedIndexes *indexes,
                       const MatrixView &in, MatrixView *out) const override;
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  // Accumulates the memo's minibatch mean and variance (training mode only).
  void StoreStats(const MatrixView &in_value, const MatrixView &out_value,
                  void *memo) override;
  void ZeroStats() override;  // a no-op in test mode, as Kaldi
  void DeleteMemo(void *memo) const override;
  // Act on the stats (Scale(0) zeroes them).
  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;

  // Test mode normalizes with the accumulated stats (nnet3-copy
  // --batchnorm-test-mode). With no stats yet it warns and uses mean 0,
  // variance 1.
  void SetTestMode(bool test_mode);
  bool TestMode() const { return test_mode_; }
  double Count() const { return count_; }
  const Vector &Mean() const { return mean_; }
  const Vector &Var() const { return var_; }
  float Epsilon() const { return epsilon_; }
  float TargetRms() const { return target_rms_; }
  // In test mode, y = x * TestScale() + TestOffset() per block column (Kaldi's
  // Scale() and Offset(), rounded as Kaldi derives them); empty otherwise.
  const Vector &TestScale() const { return scale_; }
  const Vector &TestOffset() const { return offset_; }

 private:
  struct Memo;
  // Recomputes scale_ and offset_ for test mode from the stats.
  void ComputeDerived();
  void Check() const;

  int32_t dim_ = 0;
  int32_t block_dim_ = 0;
  float epsilon_ = 1.0e-3f;
  float target_rms_ = 1.0f;
  bool test_mode_ = false;
  double count_ = 0.0;
  Vector mean_;  // dim block_dim_; zeros when count_ == 0
  Vector var_;
  // Test mode: y = x * scale_ + offset_ (per block column).
  Vector scale_;
  Vector offset_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_NORMALIZE_COMPONENTS_H_
