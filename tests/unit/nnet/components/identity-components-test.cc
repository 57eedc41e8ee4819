// NoOpComponent and ClipGradientComponent: generic checks, clipping values
// and counts, self-repair, golden files, config errors.
#include "nnet/components/identity-components.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "base/error.h"
#include "../component-test-utils.h"
#include "nonlinear-test-utils.h"

using namespace nnet3;
using namespace nnet3::nonlinear_test;
using Catch::Matchers::Contains;

namespace {

ClipGradientComponent *AsClip(const std::unique_ptr<Component> &c) {
  auto *p = dynamic_cast<ClipGradientComponent *>(c.get());
  REQUIRE(p != nullptr);
  return p;
}

Matrix BackpropOf(const Component &c, const MatrixView &in,
                  const MatrixView &out_deriv, Component *to_update) {
  Matrix out(in.NumRows(), c.OutputDim());
  c.Propagate(nullptr, in, &out);
  Matrix in_deriv(in.NumRows(), c.InputDim());
  c.Backprop("clip1", nullptr, in, out, out_deriv, nullptr, to_update,
             &in_deriv);
  return in_deriv;
}

}  // namespace

TEST_CASE("NoOp and ClipGradient pass the generic checks", "[nonlinear]") {
  uint64_t seed = 600;
  CheckComponent(*ComponentFromConfig("type=NoOpComponent dim=5"), seed++);
  CheckComponent(*ComponentFromConfig("type=ClipGradientComponent dim=6"),
                 seed++);
  CheckComponent(*ComponentFromConfig("type=ClipGradientComponent dim=4 "
                                      "norm-based-clipping=true"),
                 seed++);
  // Scaled or clipped derivatives are not the forward's derivative: the
  // other checks only.
  ComponentCheckOptions opts;
  opts.check_data_derivative = false;
  CheckComponent(
      *ComponentFromConfig("type=NoOpComponent dim=3 backprop-scale=0.5"),
      seed++, opts);
  CheckComponent(*ComponentFromConfig("type=ClipGradientComponent dim=5 "
                                      "clipping-threshold=0.5"),
                 seed++, opts);
  CheckComponent(*ComponentFromConfig("type=ClipGradientComponent dim=5 "
                                      "clipping-threshold=0"),
                 seed++, opts);
}

TEST_CASE("NoOp and ClipGradient values", "[nonlinear]") {
  Matrix in = MatrixFromRows({{1.0f, -2.0f, 3.0f}, {0.5f, 0.0f, -4.0f}});
  Matrix od = MatrixFromRows({{3.0f, -4.0f, 0.5f}, {-20.0f, 1.0f, 2.0f}});
  auto noop = ComponentFromConfig(
      "type=NoOpComponent dim=3 "
      "backprop-scale=-2");
  Matrix out(2, 3);
  noop->Propagate(nullptr, in, &out);
  CHECK(out.ApproxEqual(in, 0.0f));
  Matrix expected(od);
  expected.Scale(-2.0f);
  CHECK(BackpropOf(*noop, in, od, nullptr).ApproxEqual(expected, 1e-6f));

  // Per element: clamp to [-1, 1]; no counting in this mode (as Kaldi).
  auto clip = ComponentFromConfig(
      "type=ClipGradientComponent dim=3 clipping-threshold=1");
  auto to_update = clip->Copy();
  Matrix d = BackpropOf(*clip, in, od, to_update.get());
  CHECK(d.ApproxEqual(MatrixFromRows({{1, -1, 0.5f}, {-1, 1, 1}}), 1e-6f));
  CHECK(AsClip(to_update)->NumBackpropped() == 1);
  CHECK(AsClip(to_update)->NumElementsProcessed() == 0);

  // Norm-based, threshold 5: row 0 has norm sqrt(25.25) > 5 (scaled to
  // norm 5), row 1 norm sqrt(405) (scaled too).
  auto norm = ComponentFromConfig(
      "type=ClipGradientComponent dim=3 "
      "clipping-threshold=5 "
      "norm-based-clipping=true "
      "self-repair-scale=0");
  auto norm_update = norm->Copy();
  Matrix nd = BackpropOf(*norm, in, od, norm_update.get());
  for (int r = 0; r < 2; r++) {
    double n2 = 0;
    for (int j = 0; j < 3; j++) n2 += nd.Get(r, j) * nd.Get(r, j);
    CHECK(std::sqrt(n2) == Approx(5.0));
  }
  CHECK(nd.Get(0, 0) / nd.Get(0, 1) == Approx(3.0 / -4.0));
  CHECK(AsClip(norm_update)->NumElementsClipped() == 2);
  CHECK(AsClip(norm_update)->NumElementsProcessed() == 2);
  // A small derivative is left alone.
  Matrix small(od);
  small.Scale(0.01f);
  CHECK(BackpropOf(*norm, in, small, nullptr).ApproxEqual(small, 1e-6f));
  // Threshold 0 zeroes the derivative.
  auto zero = ComponentFromConfig(
      "type=ClipGradientComponent dim=3 "
      "clipping-threshold=0");
  CHECK(BackpropOf(*zero, in, od, nullptr).FrobeniusNorm() == 0);
}

TEST_CASE("ClipGradient self-repair shrinks large inputs", "[nonlinear]") {
  // Stats saying 50% of rows were clipped (> 0.01): self-repair is on.
  auto c = ReadComponent(
      "<ClipGradientComponent> <Dim> 2 <ClippingThreshold> 100 "
      "<NormBasedClipping> T <SelfRepairClippedProportionThreshold> 0.01 "
      "<SelfRepairTarget> 1 <SelfRepairScale> 1 <NumElementsClipped> 5 "
      "<NumElementsProcessed> 10 <NumSelfRepaired> 0 <NumBackpropped> 0 "
      "</ClipGradientComponent> ",
      false);
  Matrix in = MatrixFromRows({{5.0f, -3.0f}, {0.5f, 2.0f}});
  Matrix od = MatrixFromRows({{1.0f, 0.0f}, {0.0f, 1.0f}});
  auto to_update = c->Copy();
  Matrix d = BackpropOf(*c, in, od, to_update.get());
  CHECK(AsClip(to_update)->NumSelfRepaired() == 1);
  // repair = sign(x) max(|x| - 1, 0) = [[4, -2], [0, 1]]; the term
  // -s * repair moves the gradient against large |x|, then in_deriv is
  // rescaled to keep the sum of its row norms (2).
  CHECK(d.Get(0, 0) < 1.0f);
  CHECK(d.Get(0, 1) > 0.0f);
  CHECK(d.Get(1, 0) == 0.0f);
  double total = 0;
  for (int r = 0; r < 2; r++) total += std::hypot(d.Get(r, 0), d.Get(r, 1));
  CHECK(total == Approx(2.0).epsilon(1e-5));
  // Without to_update nothing is repaired.
  CHECK(BackpropOf(*c, in, od, nullptr).ApproxEqual(od, 1e-6f));
}

TEST_CASE("NoOp and ClipGradient golden files, stats and errors",
          "[nonlinear]") {
  auto n = CheckGolden("NoOpComponent");
  CHECK(n->Info() == "NoOpComponent, dim=3, backprop-scale=0.5");
  CHECK(n->Properties() ==
        (kSimpleComponent | kPropagateInPlace | kBackpropInPlace));
  auto c = CheckGolden("ClipGradientComponent");
  CHECK(c->Info() ==
        "ClipGradientComponent, dim=4, norm-based-clipping=true, "
        "clipping-threshold=15, clipped-proportion=0.03, "
        "self-repair-clipped-proportion-threshold=0.01, "
        "self-repair-target=0, self-repair-scale=1");
  CHECK(c->Properties() == (kSimpleComponent | kPropagateInPlace |
                            kBackpropInPlace | kBackpropNeedsInput));
  // Add adds the clip counts; Scale(0) clears all counters.
  auto sum = c->Copy();
  sum->Add(1.0f, *c);
  CHECK(AsClip(sum)->NumElementsClipped() == 6);
  CHECK(AsClip(sum)->NumElementsProcessed() == 200);
  CHECK(AsClip(sum)->NumBackpropped() == 7);
  sum->Scale(0.0f);
  CHECK(AsClip(sum)->NumElementsProcessed() == 0);
  CHECK(AsClip(sum)->NumBackpropped() == 0);
  // Defaults from Kaldi's code.
  CHECK(WriteComponent(*ComponentFromConfig("type=ClipGradientComponent "
                                            "dim=2"),
                       false) ==
        "<ClipGradientComponent> <Dim> 2 <ClippingThreshold> 15 "
        "<NormBasedClipping> F <SelfRepairClippedProportionThreshold> 0.01 "
        "<SelfRepairTarget> 0 <SelfRepairScale> 1 <NumElementsClipped> 0 "
        "<NumElementsProcessed> 0 <NumSelfRepaired> 0 <NumBackpropped> 0 "
        "</ClipGradientComponent> ");
  // Older files.
  auto old_noop = ReadComponent(
      "<NoOpComponent> <Dim> 2 <ValueAvg>  [ ]\n<DerivAvg>  [ ]\n<Count> 0 "
      "<NumDimsSelfRepaired> 0 <NumDimsProcessed> 0 </NoOpComponent> ",
      false);
  CHECK(WriteComponent(*old_noop, false) ==
        "<NoOpComponent> <Dim> 2 <BackpropScale> 1 </NoOpComponent> ");
  auto old_clip = ReadComponent(
      "<ClipGradientComponent> <Dim> 2 <ClippingThreshold> 3 "
      "<NormBasedClipping> F <NumElementsClipped> 1 <NumElementsProcessed> 4 "
      "</ClipGradientComponent> ",
      false);
  CHECK(old_clip->Info() ==
        "ClipGradientComponent, dim=2, norm-based-clipping=false, "
        "clipping-threshold=3, clipped-proportion=0.25");

  auto init = [](const std::string &line) {
    ConfigLine cfl;
    REQUIRE(cfl.ParseLine(line));
    std::string type;
    REQUIRE(cfl.GetValue("type", &type));
    auto comp = Component::NewComponentOfType(type);
    comp->InitFromConfig(&cfl);
    return cfl.UnusedValues();
  };
  CHECK_THROWS_WITH(init("type=NoOpComponent"), Contains("'dim'"));
  CHECK_THROWS_WITH(init("type=ClipGradientComponent backprop-scale=1"),
                    Contains("'dim'"));
  CHECK_THROWS_WITH(
      init("type=ClipGradientComponent dim=3 clipping-threshold=-1"),
      Contains("clipping-threshold=-1"));
  CHECK(init("type=NoOpComponent dim=3 clipping-threshold=1") ==
        "clipping-threshold=1");
}
