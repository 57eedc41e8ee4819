// RepeatedAffineComponent, NaturalGradientRepeatedAffineComponent and
// NaturalGradientPerElementScaleComponent: the generic checks, hand-computed
// forward/backward/update, the natural-gradient update, parameter counts,
// golden files and config errors.
#include "nnet/components/repeated-affine-components.h"

#include <catch2/catch.hpp>

#include "../component-test-utils.h"
#include "nnet/components/linear-components.h"
#include "nnet/components/ng-per-element-components.h"
#include "simple-components-test-utils.h"

using namespace nnet3;
using simple_test::CheckConfigError;
using simple_test::CheckGolden;
using simple_test::CheckNear;
using simple_test::FromRows;

TEST_CASE("Repeated affine components pass the generic checks",
          "[repeated-affine]") {
  const char *configs[] = {
      "type=RepeatedAffineComponent input-dim=6 output-dim=4 num-repeats=2",
      "type=RepeatedAffineComponent input-dim=12 output-dim=3 num-repeats=3 "
      "param-stddev=0.5 bias-mean=1 bias-stddev=0.3 learning-rate=0.1",
      "type=NaturalGradientRepeatedAffineComponent input-dim=20 output-dim=10 "
      "num-repeats=5 bias-stddev=1",
      "type=NaturalGradientRepeatedAffineComponent input-dim=4 output-dim=8 "
      "num-repeats=1",
  };
  uint64_t seed = 7700;
  for (const char *config : configs) {
    INFO(config);
    CheckComponent(*ComponentFromConfig(config), seed++);
  }
}

TEST_CASE("RepeatedAffineComponent applies one block transform per repeat",
          "[repeated-affine]") {
  auto c = CheckGolden("RepeatedAffineComponent");
  // W = [1 2; 3 4], b = [0.5 -0.5], 3 repeats: 6 -> 6.
  REQUIRE(c->InputDim() == 6);
  REQUIRE(c->OutputDim() == 6);
  CHECK(c->Properties() ==
        (kSimpleComponent | kUpdatableComponent | kBackpropNeedsInput |
         kBackpropAdds | kInputContiguous | kOutputContiguous));
  Matrix in = FromRows({{1, 0, 0, 1, 2, -1}});
  Matrix out(1, 6);
  c->Propagate(nullptr, in, &out);
  CheckNear(out, {{1.5f, 2.5f, 2.5f, 3.5f, 0.5f, 1.5f}});
  // in_deriv += out_deriv W per block.
  Matrix out_deriv = FromRows({{1, 0, 0, 1, 1, 1}});
  Matrix in_deriv = FromRows({{1, 1, 1, 1, 1, 1}});
  auto *u = dynamic_cast<RepeatedAffineComponent *>(c.get());
  u->SetActualLearningRate(0.5f);
  c->Backprop("t", nullptr, in, Matrix(), out_deriv, nullptr, c.get(),
              &in_deriv);
  CheckNear(in_deriv, {{2, 3, 4, 5, 5, 7}});
  // W += 0.5 * sum over blocks of out_derivᵀ in, b += 0.5 * sum of out_deriv.
  // blocks: ([1 0] x [1 0]) + ([0 1] x [0 1]) + ([1 1] x [2 -1]).
  CheckNear(u->LinearParams(), {{1 + 0.5f * 3, 2 - 0.5f}, {3 + 0.5f * 2, 4}});
  CheckNear(u->BiasParams().ToHost(), {0.5f + 0.5f * 2, -0.5f + 0.5f * 2});
  CHECK(u->NumParameters() == 6);
  CHECK(u->NumRepeats() == 3);
  CHECK(c->Info().find("num-repeats=3, linear-params-rms=") !=
        std::string::npos);
}

TEST_CASE(
    "Repeated affine components convert to block affine (Kaldi's "
    "--convert-repeated-to-block)",
    "[repeated-affine]") {
  for (const char *type :
       {"RepeatedAffineComponent", "NaturalGradientRepeatedAffineComponent"}) {
    INFO(type);
    auto c = ComponentFromConfig(std::string("type=") + type +
                                 " input-dim=6 output-dim=4 num-repeats=2 "
                                 "learning-rate=0.25 max-change=0.5");
    const auto &rac = dynamic_cast<const RepeatedAffineComponent &>(*c);
    const BlockAffineComponent block(rac);
    CHECK(block.NumBlocks() == 2);
    CHECK(block.InputDim() == 6);
    CHECK(block.OutputDim() == 4);
    CHECK(block.LearningRate() == 0.25f);
    CHECK(block.MaxChange() == 0.5f);
    // The same function.
    Matrix in = FromRows({{1, -2, 0.5, 3, 0, -1}, {0, 1, 2, -1, 1, 0.25}});
    Matrix a(2, 4), b(2, 4);
    c->Propagate(nullptr, in, &a);
    block.Propagate(nullptr, in, &b);
    CheckNear(b, {{a.Get(0, 0), a.Get(0, 1), a.Get(0, 2), a.Get(0, 3)},
                  {a.Get(1, 0), a.Get(1, 1), a.Get(1, 2), a.Get(1, 3)}});
  }
}

TEST_CASE("NaturalGradientRepeatedAffineComponent update is preconditioned",
          "[repeated-affine]") {
  auto g = CheckGolden("NaturalGradientRepeatedAffineComponent");
  CHECK(dynamic_cast<UpdatableComponent &>(*g).IsGradient());
  CHECK(g->InputDim() == 6);
  CHECK(g->OutputDim() == 2);
  // Natural gradient changes the direction of the update, plain SGD does
  // not; both move the parameters.
  const std::string dims = " input-dim=40 output-dim=20 num-repeats=2";
  auto plain = ComponentFromConfig("type=RepeatedAffineComponent" + dims);
  auto ng =
      ComponentFromConfig("type=NaturalGradientRepeatedAffineComponent" + dims);
  auto &up = dynamic_cast<UpdatableComponent &>(*plain);
  Vector params(up.NumParameters());
  up.Vectorize(&params);
  dynamic_cast<UpdatableComponent &>(*ng).UnVectorize(params);
  Matrix in(30, 40), out_deriv(30, 20);
  in.SetRandn(1);
  out_deriv.SetRandn(2);
  auto a = plain->Copy(), b = ng->Copy();
  a->Backprop("t", nullptr, in, Matrix(), out_deriv, nullptr, a.get(), nullptr);
  b->Backprop("t", nullptr, in, Matrix(), out_deriv, nullptr, b.get(), nullptr);
  const auto &ua = dynamic_cast<UpdatableComponent &>(*a),
             &ub = dynamic_cast<UpdatableComponent &>(*b),
             &u0 = dynamic_cast<UpdatableComponent &>(*plain);
  auto delta = [&](const UpdatableComponent &x) {
    std::unique_ptr<Component> d = x.Copy();
    d->Add(-1.0f, u0);
    return d;
  };
  auto da = delta(ua), db = delta(ub);
  const auto &dua = dynamic_cast<UpdatableComponent &>(*da),
             &dub = dynamic_cast<UpdatableComponent &>(*db);
  CHECK(dua.DotProduct(dua) > 0.0f);
  CHECK(dub.DotProduct(dub) > 0.0f);
  const double cosine = dua.DotProduct(dub) /
                        std::sqrt(dua.DotProduct(dua) * dub.DotProduct(dub));
  CHECK(cosine > 0.0);
  CHECK(cosine < 0.9999);
}

TEST_CASE("Repeated affine config errors", "[repeated-affine]") {
  CheckConfigError("type=RepeatedAffineComponent input-dim=6 output-dim=4",
                   "num-repeats");
  CheckConfigError(
      "type=RepeatedAffineComponent input-dim=6 output-dim=4 num-repeats=4",
      "num-repeats=4");
  CheckConfigError(
      "type=NaturalGradientRepeatedAffineComponent input-dim=0 output-dim=4 "
      "num-repeats=2",
      "input-dim=0");
  CheckConfigError(
      "type=RepeatedAffineComponent input-dim=6 output-dim=6 num-repeats=2 "
      "param-stddev=-1",
      "param-stddev=-1");
}

TEST_CASE("NaturalGradientPerElementScaleComponent", "[repeated-affine]") {
  const char *configs[] = {
      "type=NaturalGradientPerElementScaleComponent dim=6",
      "type=NaturalGradientPerElementScaleComponent dim=10 param-stddev=0.5 "
      "param-mean=0 rank=3 update-period=2 learning-rate=0.1",
  };
  uint64_t seed = 7800;
  for (const char *config : configs) {
    INFO(config);
    CheckComponent(*ComponentFromConfig(config), seed++);
  }
  auto c = CheckGolden("NaturalGradientPerElementScaleComponent");
  CHECK(c->Properties() ==
        (kSimpleComponent | kUpdatableComponent | kBackpropNeedsInput |
         kPropagateInPlace | kBackpropInPlace));
  CHECK(c->Info().find("rank=8, update-period=10, num-samples-history=2000, "
                       "alpha=4") != std::string::npos);
  CHECK(c->Info().find("l2-regularize=0.01") != std::string::npos);
  Matrix in = FromRows({{1, 1, 2}}), out(1, 3);
  c->Propagate(nullptr, in, &out);
  CheckNear(out, {{1, 2, -1}});
  // scales= reads a vector file (and allows nothing else but the
  // natural-gradient and learning-rate keys).
  const std::string path = simple_test::WriteTempVector("ngpes", " [ 3 4 ]\n");
  auto f = ComponentFromConfig(
      "type=NaturalGradientPerElementScaleComponent scales=" + path +
      " rank=1");
  CHECK(f->InputDim() == 2);
  CheckConfigError(
      "type=NaturalGradientPerElementScaleComponent scales=" + path + " dim=2",
      "dim=2");
  CheckConfigError("type=NaturalGradientPerElementScaleComponent dim=0",
                   "dim=0");
  CheckConfigError("type=NaturalGradientPerElementScaleComponent dim=3 rank=0",
                   "rank=0");
}
