// CompositeComponent (Kaldi's nnet-simple-component.h): a chain of simple,
// non-random components run as one simple component, processing at most
// max-rows-process rows at a time to bound the memory of the intermediate
// values. Backprop recomputes the intermediate values (they are not kept
// after Propagate) and stores the sub-components' stats as it goes.
//
//   component name=c type=CompositeComponent max-rows-process=2048
//       num-components=2 component1='type=BlockAffineComponent input-dim=100
//       output-dim=50 num-blocks=10' component2='type=RectifiedLinearComponent
//       dim=50'
//
// The nested lines are ordinary component configs (quoted, no comments); a
// nested CompositeComponent or a random or non-simple sub-component is an
// error. Model tokens: <CompositeComponent> [updatable prefix] <LearningRate>
// f <MaxRowsProcess> i <NumComponents> i, the sub-components, then
// </CompositeComponent>. The updatable interface (learning rates,
// parameters, natural-gradient freezing) forwards to the updatable
// sub-components, in order.
#ifndef NNET3_NNET_COMPOSITE_COMPONENTS_H_
#define NNET3_NNET_COMPOSITE_COMPONENTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "matrix/matrix.h"
#include "nnet/component-itf.h"

namespace nnet3 {

class CompositeComponent : public UpdatableComponent {
 public:
  CompositeComponent() = default;
  // Takes the components (checked as in InitFromConfig).
  CompositeComponent(std::vector<std::unique_ptr<Component>> components,
                     int32_t max_rows_process);

  std::string Type() const override { return "CompositeComponent"; }
  int32_t InputDim() const override;
  int32_t OutputDim() const override;
  // S BNI, plus PA/BNO/OC of the last sub-component, BA/IC of the first, U
  // if any is updatable, and BNO if the last stores stats.
  int32_t Properties() const override;
  // max-rows-process=4096 (0: no limit), num-components (required, >= 1),
  // component1 ... componentN.
  void InitFromConfig(ConfigLine *cfl) override;
  std::unique_ptr<Component> Copy() const override;
  void Read(std::istream &is, bool binary) override;
  void Write(std::ostream &os, bool binary) const override;
  // "CompositeComponent sub-component1 = { ... }, sub-component2 = { ... }".
  std::string Info() const override;
  void *Propagate(const ComponentPrecomputedIndexes *indexes,
                  const MatrixView &in, MatrixView *out) const override;
  // The chain rule through the sub-components, last to first.
  void Backprop(const std::string &debug_info,
                const ComponentPrecomputedIndexes *indexes,
                const MatrixView &in_value, const MatrixView &out_value,
                const MatrixView &out_deriv, void *memo, Component *to_update,
                MatrixView *in_deriv) const override;
  void ZeroStats() override;

  void Scale(float scale) override;
  void Add(float alpha, const Component &other) override;
  float DotProduct(const UpdatableComponent &other) const override;
  void PerturbParams(float stddev, uint64_t seed) override;
  int32_t NumParameters() const override;
  void Vectorize(VectorView *params) const override;
  void UnVectorize(const VectorView &params) override;
  void FreezeNaturalGradient(bool freeze) override;
  void SetUnderlyingLearningRate(float lrate) override;
  void SetActualLearningRate(float lrate) override;
  void SetAsGradient() override;

  int32_t NumComponents() const {
    return static_cast<int32_t>(components_.size());
  }
  const Component *GetComponent(int32_t i) const;
  // Replaces sub-component i (which must keep the dims).
  void SetComponent(int32_t i, std::unique_ptr<Component> component);

 private:
  // Checks the chain; `what` prefixes errors (a config line or a file).
  void Init(std::vector<std::unique_ptr<Component>> components,
            int32_t max_rows_process, const std::string &what);
  bool IsUpdatable() const;
  // The updatable sub-components (with their indexes in components_).
  std::vector<UpdatableComponent *> Updatable() const;
  // Contiguous storage for the output of sub-component i when it or the
  // next one wants contiguous rows.
  MatrixStrideType StrideType(int32_t i) const;
  // Propagate / Backprop on at most max_rows_process_ rows.
  void PropagateChunk(const MatrixView &in, MatrixView *out) const;
  void BackpropChunk(const std::string &debug_info, const MatrixView &in_value,
                     const MatrixView &out_value, const MatrixView &out_deriv,
                     CompositeComponent *to_update, MatrixView *in_deriv) const;
  // How many leading sub-components Backprop must re-propagate.
  int32_t NumToRepropagate() const;

  std::vector<std::unique_ptr<Component>> components_;
  int32_t max_rows_process_ = 4096;
};

}  // namespace nnet3

#endif  // NNET3_NNET_COMPOSITE_COMPONENTS_H_
