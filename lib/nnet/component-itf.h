// The Component interface: the layers of a network (affine transforms,
// nonlinearities, normalization, ...), glued together by descriptors.
//
// A component maps an input matrix to an output matrix. A *simple* component
// (kSimpleComponent) maps row i of the input to row i of the output, with the
// same Indexes; a non-simple one may change rows and uses
// GetInputIndexes / IsComputable / ReorderIndexes / PrecomputeIndexes, which
// the compiler calls without knowing the component's type.
//
//   std::unique_ptr<Component> c = Component::NewComponentOfType(
//       "RectifiedLinearComponent");           // nullptr if unknown
//   c->InitFromConfig(&config_line);           // Kaldi's keys and defaults
//   void *memo = c->Propagate(nullptr, in, &out);
//   c->Backprop("relu1", nullptr, in, out, out_deriv, memo, to_update,
//               &in_deriv);                    // to_update may be null
//   c->DeleteMemo(memo);
//   c->Write(os, binary);  Component::ReadNew(is, binary);
//
// Properties() tells the compiler and optimizer what they may assume
// (reference 3.2): kPropagateInPlace means `in` and `out` may be the same
// matrix; kPropagateAdds means Propagate adds to `out` rather than setting
// it; kBackpropAdds the same for `in_deriv`; kBackpropNeedsInput/Output say
// which of in_value/out_value Backprop reads (the others may be empty
// views); kStoresStats means StoreStats does something; kUsesMemo means
// Propagate returns a memo that Backprop needs; kRandomComponent means the
// component derives from RandomComponent.
#ifndef NNET3_NNET_COMPONENT_ITF_H_
#define NNET3_NNET_COMPONENT_ITF_H_

#include <cstdint>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/nnet-common.h"
#include "util/config-line.h"

namespace nnet3 {

enum ComponentProperties {
  kSimpleComponent = 0x001,
  kUpdatableComponent = 0x002,
  kPropagateInPlace = 0x004,
  kPropagateAdds = 0x008,
  kReordersIndexes = 0x010,
  kBackpropAdds = 0x020,
  kBackpropNeedsInput = 0x040,
  kBackpropNeedsOutput = 0x080,
  kBackpropInPlace = 0x100,
  kStoresStats = 0x200,
  kInputContiguous = 0x400,
  kOutputContiguous = 0x800,
  kUsesMemo = 0x1000,
  kRandomComponent = 0x2000,
};

// Fused forms of Propagate (bit flags), which the optimizer's fusion passes
// (optimize/fuse-memory-passes.h) ask for in inference computations, and
// the executor then runs with PropagateFused:
//   kFuseAssignOutput: `out`'s old contents are ignored; a kPropagateAdds
//     component sets `out` (its first product with beta = 0) instead of
//     adding to zeros written just before;
//   kFuseRectifyInput: `in` is read as max(in, 0), the ReLU before the
//     component removed.
enum PropagateFusion {
  kFuseAssignOutput = 0x1,
  kFuseRectifyInput = 0x2,
};

// Data a non-simple component computes once per compiled computation (from
// the input and output Indexes) and uses in every Propagate/Backprop.
// Serialized inside computations and caches with a <TypeName> tag.
class ComponentPrecomputedIndexes {
 public:
  virtual ~ComponentPrecomputedIndexes() = default;
  virtual std::unique_ptr<ComponentPrecomputedIndexes> Copy() const = 0;
  virtual void Write(std::ostream &os, bool binary) const = 0;
  virtual void Read(std::istream &is, bool binary) = 0;
  virtual std::string Type() const = 0;
  // Reads "<TypeName>" then the body; throws UserError for unknown types.
  static std::unique_ptr<ComponentPrecomputedIndexes> ReadNew(std::istream &is,
                                                              bool binary);
  static std::unique_ptr<ComponentPrecomputedIndexes> NewOfType(
      const std::string &type);
};

// Information about the computation that some non-simple components need;
// empty today, kept so that adding fields does not change signatures.
struct MiscComputationInfo {};

// "Is this Index available at the component's input?" (the compiler's view).
class IndexSet {
 public:
  virtual ~IndexSet() = default;
  virtual bool operator()(const Index &index) const = 0;
};

class Component {
 public:
  virtual ~Component() = default;

  // Computes `out` from `in`. For kPropagateInPlace components `in` and
  // `out` may be the same matrix. Returns a memo for Backprop (kUsesMemo)
  // or nullptr. `indexes` is null for simple components.
  virtual void *Propagate(const ComponentPrecomputedIndexes *indexes,
                          const MatrixView &in, MatrixView *out) const = 0;
  // True if PropagateFused supports every PropagateFusion flag in `fusion`
  // in this component's present state (a batch norm only in test mode).
  virtual bool SupportsPropagateFusion(int32_t fusion) const {
    (void)fusion;
    return false;
  }
  // As Propagate, with the fused forms in `fusion` (which
  // SupportsPropagateFusion accepted); the results equal the unfused
  // commands' up to float rounding. Never returns a memo.
  virtual void *PropagateFused(int32_t fusion,
                               const ComponentPrecomputedIndexes *indexes,
                               const MatrixView &in, MatrixView *out) const;
  // Computes in_deriv (if non-null) from out_deriv and, if `to_update` is
  // non-null, updates the parameters (or stats) of `to_update` (which may be
  // this component or another of the same type). `debug_info` names the
  // node for messages. in_value / out_value are empty views unless
  // kBackpropNeedsInput / kBackpropNeedsOutput.
  virtual void Backprop(const std::string &debug_info,
                        const ComponentPrecomputedIndexes *indexes,
                        const MatrixView &in_value, const MatrixView &out_value,
                        const MatrixView &out_deriv, void *memo,
                        Component *to_update, MatrixView *in_deriv) const = 0;
  // Accumulates activation statistics (kStoresStats). in_value may be empty
  // if the propagate was in place.
  virtual void StoreStats(const MatrixView &in_value,
                          const MatrixView &out_value, void *memo) {
    (void)in_value;
    (void)out_value;
    (void)memo;
  }
  virtual void ZeroStats() {}
  // Reseeds the component's random draws (dropout masks; the minibatches
  // on which nonlinearities store stats). Nnet::ResetGenerators calls it
  // for every component.
  virtual void ResetGenerator(uint64_t seed) { (void)seed; }
  virtual void DeleteMemo(void *memo) const;

  // ---- for non-simple components (defaults are the simple behaviour) ----
  // The input Indexes needed to compute `output_index`.
  virtual void GetInputIndexes(const MiscComputationInfo &misc_info,
                               const Index &output_index,
                               std::vector<Index> *desired_indexes) const;
  // Whether output_index is computable given the available inputs; if so
  // and used_inputs is non-null, sets it to the inputs actually used.
  virtual bool IsComputable(const MiscComputationInfo &misc_info,
                            const Index &output_index,
                            const IndexSet &input_index_set,
                            std::vector<Index> *used_inputs) const;
  // May reorder (and pad with blanks having t == kNoTime) the input and
  // output Indexes of a step (kReordersIndexes).
  virtual void ReorderIndexes(std::vector<Index> *input_indexes,
                              std::vector<Index> *output_indexes) const {
    (void)input_indexes;
    (void)output_indexes;
  }
  // Null for simple components.
  virtual std::unique_ptr<ComponentPrecomputedIndexes> PrecomputeIndexes(
      const MiscComputationInfo &misc_info,
      const std::vector<Index> &input_indexes,
      const std::vector<Index> &output_indexes, bool need_backprop) const;

  // ---- identity, configuration and I/O ----
  virtual std::string Type() const = 0;  // e.g. "AffineComponent"
  // Reads Kaldi's config keys (reference 3.3); throws UserError naming the
  // key for bad or missing values. Unused keys are checked by the caller.
  virtual void InitFromConfig(ConfigLine *cfl) = 0;
  virtual int32_t InputDim() const = 0;
  virtual int32_t OutputDim() const = 0;
  virtual int32_t Properties() const = 0;
  virtual std::unique_ptr<Component> Copy() const = 0;
  // Read/Write include the opening <TypeName> and closing </TypeName>.
  virtual void Read(std::istream &is, bool binary) = 0;
  virtual void Write(std::ostream &os, bool binary) const = 0;
  // Reads "<TypeName>" and dispatches; throws UserError for unknown types.
  static std::unique_ptr<Component> ReadNew(std::istream &is, bool binary);
  // nullptr when `type` is not a registered component type.
  static std::unique_ptr<Component> NewComponentOfType(const std::string &type);
  // The text after "type=" in nnet3-info: "Type, input-dim=.., ...".
  virtual std::string Info() const;

  // this = scale * this, this += alpha * other. For updatable components
  // these act on the parameters, for nonlinear ones on the stats.
  virtual void Scale(float scale) { (void)scale; }
  virtual void Add(float alpha, const Component &other) {
    (void)alpha;
    (void)other;
  }
  // this += alpha * *src, then src->Scale(src_scale): the training step
  // nnet += alpha delta followed by delta *= momentum. Components with
  // large parameters override it to do both in one pass over the memory.
  virtual void AddAndScaleSource(float alpha, Component *src, float src_scale) {
    Add(alpha, *src);
    src->Scale(src_scale);
  }
  virtual void ConsolidateMemory() {}
};

// Kaldi's random choice of the minibatches on which some components store
// statistics (its "RandInt(0, n - 1) == 0"): a seeded generator that the
// component reseeds in its ResetGenerator, so that --srand repeats.
class StatsGenerator {
 public:
  void Seed(uint64_t seed) { state_ = seed; }
  // True with probability 1 / n.
  bool OneIn(int32_t n);

 private:
  uint64_t state_ = 0;
};

// Components that draw random numbers (dropout). Random draws come from a
// counter-based device generator seeded by `seed_`, so that two runs with
// the same ResetGenerator seed are identical.
class RandomComponent : public Component {
 public:
  virtual void SetTestMode(bool test_mode) { test_mode_ = test_mode; }
  bool TestMode() const { return test_mode_; }
  void ResetGenerator(uint64_t seed) override { seed_ = seed; }

 protected:
  // A fresh seed for each random fill (Propagate is const).
  uint64_t NextSeed() const;
  bool test_mode_ = false;
  mutable uint64_t seed_ = 0;
};

// Components with trainable parameters: learning rate, factor, max-change,
// L2, and the vector view of the parameters used by the trainer.
class UpdatableComponent : public Component {
 public:
  // sum of elementwise products of the parameters.
  virtual float DotProduct(const UpdatableComponent &other) const = 0;
  // Whether every parameter is finite (no inf or NaN), which the trainer
  // asks of every step's change when no max-change needs its norm. The
  // default tests the sum of squares (DotProduct with itself, which is
  // also inf when the norm passes the float range); components with large
  // parameter matrices test a plain sum in double, at half the cost.
  virtual bool ParamsAreFinite() const;
  // this += stddev * N(0,1) noise, for derivative tests.
  virtual void PerturbParams(float stddev, uint64_t seed) = 0;
  virtual int32_t NumParameters() const = 0;
  // Copies all parameters into / out of `params` (dim NumParameters()).
  virtual void Vectorize(VectorView *params) const = 0;
  virtual void UnVectorize(const VectorView &params) = 0;
  // Natural-gradient components stop updating their Fisher estimate.
  virtual void FreezeNaturalGradient(bool freeze) { (void)freeze; }

  // Sets lr * learning-rate-factor.
  virtual void SetUnderlyingLearningRate(float lrate) {
    learning_rate_ = lrate * learning_rate_factor_;
  }
  virtual void SetActualLearningRate(float lrate) { learning_rate_ = lrate; }
  // Makes this component hold a gradient: lr = 1, is-gradient = true.
  virtual void SetAsGradient() {
    learning_rate_ = 1.0f;
    is_gradient_ = true;
  }
  float LearningRate() const { return learning_rate_; }
  float LearningRateFactor() const { return learning_rate_factor_; }
  void SetLearningRateFactor(float f) { learning_rate_factor_ = f; }
  float MaxChange() const { return max_change_; }
  void SetMaxChange(float m) { max_change_ = m; }
  float L2Regularization() const { return l2_regularize_; }
  void SetL2Regularization(float l2) { l2_regularize_ = l2; }
  bool IsGradient() const { return is_gradient_; }
  // Copies the learning rate, learning-rate-factor, l2-regularize,
  // is-gradient and max-change of `other` (Kaldi's SetUpdatableConfigs).
  void SetUpdatableConfigs(const UpdatableComponent &other) {
    CopyUpdatableCommon(other);
  }
  std::string Info() const override;

 protected:
  // Reads learning-rate, learning-rate-factor, max-change, l2-regularize
  // (reference 3.2; all >= 0).
  void InitLearningRatesFromConfig(ConfigLine *cfl);
  // Writes `<Type> [<LearningRateFactor> f] [<IsGradient> b] [<MaxChange> f]
  // [<L2Regularize> f] <LearningRate> f`, the optional fields only when not
  // at their defaults (reference 4.3).
  void WriteUpdatableCommon(std::ostream &os, bool binary) const;
  // Reads the same, the opening <Type> optional (and "<Type>" may appear
  // without its '<'). Returns "" once <LearningRate> f has been read, or,
  // if <LearningRate> is absent, the token found in its place (consumed).
  std::string ReadUpdatableCommon(std::istream &is, bool binary);
  void CopyUpdatableCommon(const UpdatableComponent &other);

  float learning_rate_ = 0.001f;
  float learning_rate_factor_ = 1.0f;
  float l2_regularize_ = 0.0f;
  bool is_gradient_ = false;
  float max_change_ = 0.0f;
};

// Reads a token that must be `token1` followed by `token2`, or just
// `token2` (Component::ReadNew has already consumed the opening tag):
//   ExpectOneOrTwoTokens(is, binary, "<NormalizeComponent>", "<InputDim>");
void ExpectOneOrTwoTokens(std::istream &is, bool binary,
                          const std::string &token1, const std::string &token2);

}  // namespace nnet3

#endif  // NNET3_NNET_COMPONENT_ITF_H_
