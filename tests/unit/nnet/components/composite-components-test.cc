// CompositeComponent: the generic checks (also with max-rows-process below
// the number of rows, so that the chunked paths run), equality with running
// the sub-components one after another, properties, the forwarded
// updatable interface, the golden file and config errors.
#include "nnet/components/composite-components.h"

#include <catch2/catch.hpp>

#include "../component-test-utils.h"
#include "simple-components-test-utils.h"

using namespace nnet3;
using simple_test::CheckConfigError;
using simple_test::CheckGolden;

namespace {

const CompositeComponent &AsComposite(const Component &c) {
  const auto *cc = dynamic_cast<const CompositeComponent *>(&c);
  REQUIRE(cc != nullptr);
  return *cc;
}

}  // namespace

TEST_CASE("CompositeComponent passes the generic checks", "[composite]") {
  const char *configs[] = {
      "type=CompositeComponent num-components=1 "
      "component1='type=AffineComponent input-dim=4 output-dim=3'",
      "type=CompositeComponent max-rows-process=3 num-components=3 "
      "component1='type=BlockAffineComponent input-dim=6 output-dim=4 "
      "num-blocks=2' component2='type=RepeatedAffineComponent input-dim=4 "
      "output-dim=6 num-repeats=2' "
      "component3='type=NaturalGradientRepeatedAffineComponent input-dim=6 "
      "output-dim=3 num-repeats=3'",
      "type=CompositeComponent max-rows-process=4 num-components=3 "
      "component1='type=NaturalGradientAffineComponent input-dim=5 "
      "output-dim=4' component2='type=TanhComponent dim=4' "
      "component3='type=SoftmaxComponent dim=4'",
      "type=CompositeComponent max-rows-process=0 num-components=2 "
      "component1='type=SigmoidComponent dim=3' "
      "component2='type=FixedScaleComponent dim=3 scale=2'",
  };
  uint64_t seed = 7900;
  for (const char *config : configs) {
    INFO(config);
    CheckComponent(*ComponentFromConfig(config), seed++);
  }
}

TEST_CASE("CompositeComponent equals its sub-components in sequence",
          "[composite]") {
  auto c = ComponentFromConfig(
      "type=CompositeComponent max-rows-process=4 num-components=3 "
      "component1='type=AffineComponent input-dim=5 output-dim=6' "
      "component2='type=RectifiedLinearComponent dim=6' "
      "component3='type=RepeatedAffineComponent input-dim=6 output-dim=4 "
      "num-repeats=2 bias-stddev=1'");
  const CompositeComponent &cc = AsComposite(*c);
  REQUIRE(cc.NumComponents() == 3);
  Matrix x(11, 5);
  x.SetRandn(3);
  Matrix y(11, 4);
  c->Propagate(nullptr, x, &y);
  Matrix h(x);
  for (int32_t i = 0; i < 3; i++) {
    const Component &sub = *cc.GetComponent(i);
    Matrix next(11, sub.OutputDim());
    sub.DeleteMemo(sub.Propagate(nullptr, h, &next));
    h = next;
  }
  CHECK(y.ApproxEqual(h, 1e-5f));
  // ReLU stats are stored during the composite's backprop.
  std::unique_ptr<Component> u = c->Copy();
  Matrix out_deriv(11, 4);
  out_deriv.SetRandn(4);
  c->Backprop("t", nullptr, x, y, out_deriv, nullptr, u.get(), nullptr);
  CHECK(AsComposite(*u).GetComponent(1)->Info().find("count=11") !=
        std::string::npos);
  // Properties: S BNI, BA from the first, U.
  CHECK(c->Properties() ==
        (kSimpleComponent | kBackpropNeedsInput | kBackpropAdds |
         kUpdatableComponent | kOutputContiguous));
  // The updatable interface covers the updatable sub-components.
  auto &uc = dynamic_cast<UpdatableComponent &>(*c);
  CHECK(uc.NumParameters() == 5 * 6 + 6 + 3 * 2 + 2);
  uc.SetUnderlyingLearningRate(0.25f);
  CHECK(dynamic_cast<const UpdatableComponent *>(cc.GetComponent(0))
            ->LearningRate() == 0.25f);
  CHECK(c->Info().rfind("CompositeComponent sub-component1 = { "
                        "AffineComponent, input-dim=5, output-dim=6",
                        0) == 0);
}

TEST_CASE("CompositeComponent golden file", "[composite]") {
  auto c = CheckGolden("CompositeComponent");
  const CompositeComponent &cc = AsComposite(*c);
  REQUIRE(cc.NumComponents() == 2);
  CHECK(c->InputDim() == 4);
  CHECK(c->OutputDim() == 2);
  // RepeatedAffine (W = [1 -1], b = 0.5, 2 repeats) then scales [2 3].
  Matrix x = simple_test::FromRows({{3, 1, 0, 2}}), y(1, 2);
  c->Propagate(nullptr, x, &y);
  simple_test::CheckNear(y, {{2 * 2.5f, 3 * -1.5f}});
}

TEST_CASE("CompositeComponent config errors", "[composite]") {
  CheckConfigError(
      "type=CompositeComponent component1='type=SigmoidComponent "
      "dim=3'",
      "num-components");
  CheckConfigError(
      "type=CompositeComponent num-components=2 "
      "component1='type=SigmoidComponent dim=3'",
      "component2");
  CheckConfigError(
      "type=CompositeComponent num-components=1 "
      "component1='type=NoSuchComponent dim=3'",
      "NoSuchComponent");
  CheckConfigError(
      "type=CompositeComponent num-components=2 "
      "component1='type=SigmoidComponent dim=3' "
      "component2='type=AffineComponent input-dim=4 output-dim=2'",
      "component2 has input dim 4");
  CheckConfigError(
      "type=CompositeComponent num-components=1 "
      "component1='type=DropoutComponent dim=3 "
      "dropout-proportion=0.5'",
      "DropoutComponent");
  CheckConfigError(
      "type=CompositeComponent num-components=1 "
      "component1='type=DistributeComponent input-dim=4 "
      "output-dim=2'",
      "DistributeComponent");
  CheckConfigError(
      "type=CompositeComponent num-components=1 "
      "component1='type=CompositeComponent num-components=1'",
      "nesting");
  CheckConfigError(
      "type=CompositeComponent num-components=1 "
      "component1='type=SigmoidComponent dim=3 foo=1'",
      "foo=1");
  CheckConfigError(
      "type=CompositeComponent num-components=1 "
      "component1='type=SigmoidComponent dim=0'",
      "dim=0");
}
