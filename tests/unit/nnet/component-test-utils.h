// Checks every component must pass (Kaldi's nnet-component-test, our code):
//
//   std::unique_ptr<Component> c = ComponentFromConfig(
//       "type=SigmoidComponent dim=10");
//   CheckComponent(*c, /*seed=*/17);
//
// CheckComponent runs, on a few random minibatches:
//  - I/O: Write then ReadNew in binary and text; re-writing gives identical
//    bytes (binary) / text; Copy() writes the same as the original.
//  - properties: kPropagateInPlace ⇒ in-place propagate equals
//    out-of-place; kPropagateAdds ⇒ propagate adds to the output;
//    kBackpropInPlace ⇒ in-place backprop equals out-of-place;
//    kBackpropAdds ⇒ backprop adds to in_deriv; Backprop works with the
//    unneeded of in_value/out_value given as empty views.
//  - the data derivative: for f(x) = sum(y(x) .* r) with random r, the
//    derivative from Backprop predicts f(x + d) - f(x) for small random d.
//  - for updatable components: the model derivative (a zeroed copy set as a
//    gradient, Backprop into it, then the predicted vs measured change for a
//    small parameter perturbation); Scale/Add/DotProduct/Vectorize
//    consistency; NumParameters.
//  - StoreStats runs (kStoresStats) and Scale(0)/Add keep I/O working.
// Random components are checked in test mode and, in training mode, with the
// generator reset before each propagate so the mask is fixed.
#ifndef NNET3_TESTS_UNIT_NNET_COMPONENT_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_NNET_COMPONENT_TEST_UTILS_H_

#include <memory>
#include <string>

#include "nnet/component-itf.h"

namespace nnet3 {

// Parses "type=X key=value ..." and calls InitFromConfig; fails the test on
// unused keys.
std::unique_ptr<Component> ComponentFromConfig(const std::string &config);

// All checks above. `input_scale` scales the random inputs (e.g. to keep
// away from ReLU kinks, use a smaller perturbation instead). `tolerance` is
// the allowed relative error of predicted vs measured objective change.
struct ComponentCheckOptions {
  int32_t num_rows = 10;
  float input_scale = 1.0f;
  float perturb_scale = 1e-3f;  // relative size of the perturbation
  float tolerance = 0.02f;
  bool check_data_derivative = true;
  bool check_model_derivative = true;
};
void CheckComponent(const Component &c, uint64_t seed,
                    const ComponentCheckOptions &opts = {});

// The individual checks, for focused tests.
void CheckComponentIo(const Component &c);
void CheckPropagateProperties(const Component &c, uint64_t seed,
                              const ComponentCheckOptions &opts);
void CheckDataDerivative(const Component &c, uint64_t seed,
                         const ComponentCheckOptions &opts);
void CheckModelDerivative(const UpdatableComponent &c, uint64_t seed,
                          const ComponentCheckOptions &opts);
void CheckUpdatableInterface(const UpdatableComponent &c, uint64_t seed);

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_NNET_COMPONENT_TEST_UTILS_H_
