// The whole-network utilities on the components of issue 14: dropout
// proportions and test modes reach DropoutMaskComponent and
// SpecAugmentTimeMaskComponent (the set-dropout-proportion edit too, as in
// Kaldi), CollapseModel bypasses SpecAugmentTimeMask in test mode, and
// averaging (ScaleNnet / AddNnet), DotProduct and NumParameters act on the
// parameters and stats of the new components.
#include <catch2/catch.hpp>
#include <sstream>

#include "nnet-test-utils.h"
#include "nnet/components/attention-components.h"
#include "nnet/components/composite-components.h"
#include "nnet/components/general-components.h"
#include "nnet/components/random-mask-components.h"
#include "nnet/nnet-utils.h"

using namespace nnet3;

namespace {

const char *const kMaskConfig =
    "input-node name=input dim=4\n"
    "component name=mask type=DropoutMaskComponent output-dim=4 "
    "dropout-proportion=0.5\n"
    "component-node name=mask component=mask input=input\n"
    "component name=spec type=SpecAugmentTimeMaskComponent dim=4\n"
    "component-node name=spec component=spec input=input\n"
    "component name=affine type=AffineComponent input-dim=8 output-dim=2\n"
    "component-node name=affine component=affine "
    "input=Append(Offset(spec, -1), mask)\n"
    "output-node name=output input=affine\n";

template <class T>
T *Get(Nnet *nnet, const std::string &name) {
  auto *c =
      dynamic_cast<T *>(nnet->GetComponent(nnet->GetComponentIndex(name)));
  REQUIRE(c != nullptr);
  return c;
}

}  // namespace

TEST_CASE("Dropout proportions and test modes reach the mask components",
          "[nnet]") {
  Nnet nnet = NnetFromConfig(kMaskConfig);
  auto *mask = Get<DropoutMaskComponent>(&nnet, "mask");
  auto *spec = Get<SpecAugmentTimeMaskComponent>(&nnet, "spec");
  SetDropoutProportion(0.2f, &nnet);
  CHECK(mask->DropoutProportion() == 0.2f);
  std::istringstream edits("set-dropout-proportion name=ma* proportion=0.1\n");
  ReadEditConfig(edits, "edits.config", &nnet);
  CHECK(mask->DropoutProportion() == 0.1f);
  SetDropoutTestMode(true, &nnet);
  CHECK(mask->TestMode());
  CHECK(spec->TestMode());
  std::istringstream bad("set-dropout-proportion name=mask proportion=2\n");
  CHECK_THROWS_AS(ReadEditConfig(bad, "edits.config", &nnet), UserError);
}

TEST_CASE("CollapseModel bypasses SpecAugmentTimeMask in test mode", "[nnet]") {
  Nnet nnet = NnetFromConfig(kMaskConfig);
  Nnet training(nnet);
  CollapseModel(CollapseModelConfig(), &training);
  CHECK(training.GetComponentIndex("spec") >= 0);  // not in test mode
  SetDropoutTestMode(true, &nnet);
  CollapseModel(CollapseModelConfig(), &nnet);
  CHECK(nnet.GetComponentIndex("spec") < 0);
  CHECK(nnet.GetNodeIndex("spec") < 0);
  // The affine now reads the input directly; the mask (a constant 1 - p in
  // test mode, not an identity) stays.
  CHECK(nnet.GetComponentIndex("mask") >= 0);
  const std::string text = WriteToString(nnet, false);
  CHECK(text.find("input=Append(Offset(input, -1), mask)") !=
        std::string::npos);
}

TEST_CASE("Averaging and parameter utilities on the new components", "[nnet]") {
  const std::string config =
      "input-node name=input dim=10\n"
      "component name=const type=ConstantComponent output-dim=3 "
      "output-stddev=1\n"
      "component-node name=const component=const input=const\n"
      "component name=affine type=NaturalGradientAffineComponent "
      "input-dim=10 output-dim=19\n"
      "component-node name=affine component=affine input=input\n"
      "component name=att type=RestrictedAttentionComponent key-dim=4 "
      "value-dim=7 num-left-inputs=2 num-right-inputs=1 "
      "output-context=false\n"
      "component-node name=att component=att input=affine\n"
      "component name=comp type=CompositeComponent num-components=2 "
      "component1='type=RepeatedAffineComponent input-dim=10 output-dim=6 "
      "num-repeats=2' component2='type=NaturalGradientPerElementScaleComponent "
      "dim=6 param-stddev=1'\n"
      "component-node name=comp component=comp input=Append(att, const)\n"
      "output-node name=output input=comp\n";
  Nnet a = NnetFromConfig(config), b = NnetFromConfig(config);
  // 3 (constant) + 10 * 19 + 19 + (5 * 3 + 3) + 6.
  CHECK(NumParameters(a) == 3 + 209 + 18 + 6);
  CHECK(NumUpdatableComponents(a) == 3);
  // (a + b) / 2, component by component.
  Nnet avg(a);
  ScaleNnet(0.5f, &avg);
  AddNnet(b, 0.5f, &avg);
  const double aa = DotProduct(a, a), bb = DotProduct(b, b),
               ab = DotProduct(a, b);
  CHECK(DotProduct(avg, avg) ==
        Approx(0.25 * (aa + bb + 2 * ab)).epsilon(1e-4));
  const auto *ca = Get<ConstantComponent>(&a, "const");
  const auto *cb = Get<ConstantComponent>(&b, "const");
  const auto *cavg = Get<ConstantComponent>(&avg, "const");
  const std::vector<float> va = ca->Output().ToHost(),
                           vb = cb->Output().ToHost(),
                           vavg = cavg->Output().ToHost();
  for (size_t i = 0; i < va.size(); i++)
    CHECK(vavg[i] == Approx(0.5 * (va[i] + vb[i])));
  // The attention stats are averaged too (they are zero here, and stay
  // readable).
  CHECK_NOTHROW(ReadFromString(WriteToString(avg, true)));
}
