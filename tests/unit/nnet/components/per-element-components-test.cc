// Tests of the trainable per-element components (per-element-components.h):
// the generic component checks on several configs of each type, outputs,
// derivatives and updates computed by hand on small inputs, config errors
// and golden model-file fragments.
#include "nnet/components/per-element-components.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "../component-test-utils.h"
#include "simple-components-test-utils.h"

namespace nnet3 {
namespace {

using simple_test::CheckConfigError;
using simple_test::CheckGolden;
using simple_test::CheckNear;
using simple_test::FromRows;
using simple_test::WriteTempVector;

void CheckConfigs(const std::vector<std::string> &configs, uint64_t seed) {
  for (const std::string &config : configs) {
    INFO("config '" << config << "', seed " << seed);
    std::unique_ptr<Component> c = ComponentFromConfig(config);
    CheckComponent(*c, seed++);
  }
}

UpdatableComponent &AsUpdatable(const std::unique_ptr<Component> &c) {
  auto *u = dynamic_cast<UpdatableComponent *>(c.get());
  REQUIRE(u != nullptr);
  return *u;
}

Matrix Propagate(const Component &c, const Matrix &in) {
  Matrix out(in.NumRows(), c.OutputDim());
  c.DeleteMemo(c.Propagate(nullptr, in, &out));
  return out;
}

// Backprop of `c` (forward on `in`) into `to_update` (may be null);
// returns in_deriv.
Matrix Backprop(const Component &c, const Matrix &in, const Matrix &out_deriv,
                Component *to_update) {
  Matrix out = Propagate(c, in);
  Matrix in_deriv(in.NumRows(), c.InputDim());
  c.Backprop("test", nullptr, in, out, out_deriv, nullptr, to_update,
             &in_deriv);
  return in_deriv;
}

// A zeroed copy of c set as a gradient (lr = 1, plain gradient).
std::unique_ptr<Component> ZeroGradient(const Component &c) {
  std::unique_ptr<Component> g = c.Copy();
  AsUpdatable(g).Scale(0.0f);
  AsUpdatable(g).SetAsGradient();
  return g;
}

std::vector<float> Params(const std::unique_ptr<Component> &c) {
  const UpdatableComponent &u = AsUpdatable(c);
  Vector v(u.NumParameters());
  u.Vectorize(&v);
  return v.ToHost();
}

}  // namespace

TEST_CASE("PerElementScaleComponent", "[simple]") {
  std::string path = WriteTempVector("pes.vec", " [ 1 2 -0.5 ]\n");
  CheckConfigs({"type=PerElementScaleComponent dim=3 param-stddev=0.5",
                "type=PerElementScaleComponent dim=5",
                "type=PerElementScaleComponent dim=4 param-mean=0.5 "
                "learning-rate=0.01 max-change=0.5",
                "type=PerElementScaleComponent vector=" + path},
               2000);
  std::unique_ptr<Component> c = CheckGolden("PerElementScaleComponent");
  CHECK(c->Properties() ==
        (kSimpleComponent | kUpdatableComponent | kBackpropNeedsInput |
         kPropagateInPlace | kBackpropInPlace));
  CHECK(c->Info() ==
        "PerElementScaleComponent, input-dim=3, output-dim=3, "
        "learning-rate=0.001, scales-min=-0.5, scales-max=2, "
        "scales-{mean,stddev}=0.8333,1.027");
  Matrix in = FromRows({{1, 1, 1}, {2, 0, 4}});
  Matrix od = FromRows({{1, 1, 1}, {1, 1, 1}});
  CheckNear(Propagate(*c, in), {{1, 2, -0.5}, {2, 0, -2}});
  CheckNear(Backprop(*c, in, od, nullptr), {{1, 2, -0.5}, {1, 2, -0.5}});

  // d scales = sum over rows of od .* in = [3, 1, 5].
  std::unique_ptr<Component> g = ZeroGradient(*c);
  Backprop(*c, in, od, g.get());
  CheckNear(Params(g), {3, 1, 5});
  // An update of itself, in place: in_deriv uses the old scales.
  std::unique_ptr<Component> u = c->Copy();
  AsUpdatable(u).SetActualLearningRate(0.1f);
  Matrix deriv(od);
  u->Backprop("test", nullptr, in, Matrix(), deriv, nullptr, u.get(), &deriv);
  CheckNear(deriv, {{1, 2, -0.5}, {1, 2, -0.5}});
  CheckNear(Params(u), {1.3, 2.1, 0});
  std::remove(path.c_str());
}

TEST_CASE("PerElementScaleComponent prefix, init and errors", "[simple]") {
  std::unique_ptr<Component> p = CheckGolden("PerElementScaleComponent-prefix");
  const UpdatableComponent &pu = AsUpdatable(p);
  CHECK(pu.LearningRateFactor() == 0.5f);
  CHECK(pu.IsGradient());
  CHECK(pu.MaxChange() == 0.75f);
  CHECK(pu.L2Regularization() == 0.25f);
  CHECK(pu.LearningRate() == 0.002f);

  auto constant =
      ComponentFromConfig("type=PerElementScaleComponent dim=4 param-mean=2");
  CheckNear(Params(constant), {2, 2, 2, 2});
  auto random = ComponentFromConfig(
      "type=PerElementScaleComponent dim=2000 param-stddev=0.1");
  std::vector<float> r = Params(random);
  double sum = 0, sumsq = 0;
  for (float x : r) sum += x, sumsq += x * x;
  double mean = sum / r.size(), var = sumsq / r.size() - mean * mean;
  CHECK(std::abs(mean - 1.0) < 0.02);
  CHECK(std::abs(std::sqrt(var) - 0.1) < 0.01);

  CheckConfigError("type=PerElementScaleComponent", "dim=<int>");
  CheckConfigError("type=PerElementScaleComponent dim=0", "dim=0");
  CheckConfigError("type=PerElementScaleComponent dim=3 param-stddev=-1",
                   "param-stddev=-1");
  CheckConfigError("type=PerElementScaleComponent dim=3 learning-rate=-1",
                   "learning-rate");
  std::string path = WriteTempVector("pes2.vec", " [ 1 2 -0.5 ]\n");
  CheckConfigError("type=PerElementScaleComponent dim=4 vector=" + path,
                   "dim=4");
  std::remove(path.c_str());
}

TEST_CASE("PerElementOffsetComponent", "[simple]") {
  std::string path = WriteTempVector("peo.vec", " [ 0.5 -0.25 ]\n");
  CheckConfigs(
      {"type=PerElementOffsetComponent dim=4",
       "type=PerElementOffsetComponent dim=6 block-dim=2 param-stddev=0.3",
       "type=PerElementOffsetComponent dim=8 block-dim=4 param-mean=1 "
       "use-natural-gradient=false",
       "type=PerElementOffsetComponent vector=" + path,
       "type=PerElementOffsetComponent vector=" + path + " dim=6"},
      3000);
  std::unique_ptr<Component> c = CheckGolden("PerElementOffsetComponent");
  CHECK(c->Properties() ==
        (kSimpleComponent | kUpdatableComponent | kBackpropInPlace |
         kPropagateInPlace | kOutputContiguous));
  CHECK(c->Info() ==
        "PerElementOffsetComponent, input-dim=4, output-dim=4, "
        "learning-rate=0.001, offsets-min=-0.25, offsets-max=0.5, "
        "block-dim=2, use-natural-gradient=true, "
        "offsets-{mean,stddev}=0.125,0.375");
  Matrix in = FromRows({{1, 1, 1, 1}, {0, 0, 0, 0}});
  Matrix od = FromRows({{1, 2, 3, 4}, {1, 1, 1, 1}});
  CheckNear(Propagate(*c, in),
            {{1.5, 0.75, 1.5, 0.75}, {0.5, -0.25, 0.5, -0.25}});
  CheckNear(Backprop(*c, in, od, nullptr), {{1, 2, 3, 4}, {1, 1, 1, 1}});
  // d offsets = sum of od over rows and blocks = [6, 8].
  std::unique_ptr<Component> g = ZeroGradient(*c);
  Backprop(*c, in, od, g.get());
  CheckNear(Params(g), {6, 8});

  auto plain = ComponentFromConfig(
      "type=PerElementOffsetComponent dim=4 block-dim=2 learning-rate=0.1 "
      "use-natural-gradient=false");
  Backprop(*plain, in, od, plain.get());
  CheckNear(Params(plain), {0.6, 0.8});
  // The natural-gradient update is a positive-definite transform of the
  // gradient: a descent direction, finite.
  auto ng = ComponentFromConfig(
      "type=PerElementOffsetComponent dim=4 block-dim=2 learning-rate=0.1");
  Backprop(*ng, in, od, ng.get());
  std::vector<float> d = Params(ng);
  CHECK(std::isfinite(d[0]));
  CHECK(std::isfinite(d[1]));
  CHECK(d[0] * 6 + d[1] * 8 > 0);

  CheckConfigError("type=PerElementOffsetComponent dim=6 block-dim=4",
                   "block-dim=4");
  CheckConfigError("type=PerElementOffsetComponent dim=-1", "dim=-1");
  CheckConfigError("type=PerElementOffsetComponent", "dim=<int>");
  CheckConfigError("type=PerElementOffsetComponent vector=" + path + " dim=3",
                   "dim=3");
  std::remove(path.c_str());
}

TEST_CASE("ScaleAndOffsetComponent", "[simple]") {
  CheckConfigs({"type=ScaleAndOffsetComponent dim=4",
                "type=ScaleAndOffsetComponent dim=6 block-dim=2",
                "type=ScaleAndOffsetComponent dim=8 block-dim=4 "
                "use-natural-gradient=false",
                "type=ScaleAndOffsetComponent dim=3 rank=2 learning-rate=0.01"},
               4000);
  for (const char *config :
       {"type=ScaleAndOffsetComponent dim=5",
        "type=ScaleAndOffsetComponent dim=6 block-dim=3"}) {
    INFO(config);
    auto perturbed = ComponentFromConfig(config);
    AsUpdatable(perturbed).PerturbParams(0.3f, 4100);
    CheckComponent(*perturbed, 4101);
  }
  std::unique_ptr<Component> c = CheckGolden("ScaleAndOffsetComponent");
  CHECK(c->Properties() ==
        (kSimpleComponent | kUpdatableComponent | kBackpropInPlace |
         kPropagateInPlace | kBackpropNeedsOutput | kInputContiguous |
         kOutputContiguous));
  CHECK(c->Info() ==
        "ScaleAndOffsetComponent, input-dim=4, output-dim=4, "
        "learning-rate=0.001, rank=20, block-size=2, "
        "scales-{mean,stddev}=1.5,0.5, offsets-{mean,stddev}=-0.5,0.5");
  Matrix in = FromRows({{1, 1, 1, 1}, {2, -1, 0, 3}});
  Matrix od = FromRows({{1, 1, 1, 1}, {1, 0, 0, 1}});
  CheckNear(Propagate(*c, in), {{1, 1, 1, 1}, {2, -3, 0, 5}});
  CheckNear(Backprop(*c, in, od, nullptr), {{1, 2, 1, 2}, {1, 0, 0, 2}});
  // d scales = sum od .* x over rows and blocks = [4, 5] (x recovered from
  // the output); d offsets = sum od = [3, 3].
  std::unique_ptr<Component> g = ZeroGradient(*c);
  Backprop(*c, in, od, g.get());
  CheckNear(Params(g), {4, 5, 3, 3});

  // An update of itself, in place, plain SGD with lr 0.1.
  auto u = ComponentFromConfig(
      "type=ScaleAndOffsetComponent dim=4 block-dim=2 learning-rate=0.1 "
      "use-natural-gradient=false");
  AsUpdatable(u).UnVectorize(Vector(std::vector<float>{1, 2, 0, -1}));
  Matrix out = Propagate(*u, in);
  Matrix deriv(od);
  u->Backprop("test", nullptr, Matrix(), out, deriv, nullptr, u.get(), &deriv);
  CheckNear(deriv, {{1, 2, 1, 2}, {1, 0, 0, 2}});
  CheckNear(Params(u), {1.4, 2.5, 0.3, -0.7});
}

TEST_CASE("ScaleAndOffsetComponent near-zero scales and errors", "[simple]") {
  // Scales near zero are used with magnitude 1e-4 (sign kept, 0 positive).
  std::istringstream tiny(
      "<ScaleAndOffsetComponent> <LearningRate> 0.001 <Dim> 3 "
      "<Scales> [ 0 -1e-06 2 ] <Offsets> [ 0 0 0 ] "
      "<UseNaturalGradient> F <Rank> 20 </ScaleAndOffsetComponent> ");
  std::unique_ptr<Component> t = Component::ReadNew(tiny, false);
  Matrix ones = FromRows({{1, 1, 1}});
  Matrix tiny_out = Propagate(*t, ones);
  CheckNear(tiny_out, {{1e-4, -1e-4, 2}}, 1e-9f);
  std::unique_ptr<Component> tg = ZeroGradient(*t);
  Matrix tiny_deriv(1, 3);
  t->Backprop("test", nullptr, Matrix(), tiny_out, FromRows({{1, 1, 1}}),
              nullptr, tg.get(), &tiny_deriv);
  CheckNear(Params(tg), {1, 1, 1, 1, 1, 1}, 1e-4f);
  CheckNear(tiny_deriv, {{1e-4, -1e-4, 2}}, 1e-9f);

  CheckConfigError("type=ScaleAndOffsetComponent", "'dim'");
  CheckConfigError("type=ScaleAndOffsetComponent dim=6 block-dim=4",
                   "block-dim=4");
  CheckConfigError("type=ScaleAndOffsetComponent dim=4 rank=0", "rank=0");
}

TEST_CASE("ConstantFunctionComponent", "[simple]") {
  CheckConfigs({"type=ConstantFunctionComponent input-dim=3 output-dim=2",
                "type=ConstantFunctionComponent input-dim=4 output-dim=4 "
                "output-mean=0.5 output-stddev=1",
                "type=ConstantFunctionComponent input-dim=2 output-dim=3 "
                "is-updatable=false output-stddev=1",
                "type=ConstantFunctionComponent input-dim=5 output-dim=3 "
                "use-natural-gradient=false output-stddev=2"},
               5000);
  std::unique_ptr<Component> c = CheckGolden("ConstantFunctionComponent");
  CHECK(c->Properties() ==
        (kSimpleComponent | kUpdatableComponent | kBackpropAdds));
  CHECK(c->Info() ==
        "ConstantFunctionComponent, input-dim=3, output-dim=2, "
        "learning-rate=0.001, ConstantFunctionComponent, input-dim=3, "
        "output-dim=2, is-updatable=true, use-natural-gradient=false, "
        "output-{mean,stddev}=1.5,0.5");
  Matrix in = FromRows({{3, -1, 2}, {0, 0, 9}});
  CheckNear(Propagate(*c, in), {{1, 2}, {1, 2}});
  // The input derivative is zero: Backprop adds nothing (BA).
  Matrix in_deriv = FromRows({{7, 7, 7}, {7, 7, 7}});
  std::unique_ptr<Component> u = c->Copy();
  AsUpdatable(u).SetActualLearningRate(0.5f);
  c->Backprop("test", nullptr, Matrix(), Matrix(), FromRows({{1, 2}, {3, 4}}),
              nullptr, u.get(), &in_deriv);
  CheckNear(in_deriv, {{7, 7, 7}, {7, 7, 7}});
  CheckNear(Params(u), {3, 5});  // output += 0.5 * [4, 6]

  auto fixed = ComponentFromConfig(
      "type=ConstantFunctionComponent input-dim=2 output-dim=2 "
      "is-updatable=false output-mean=3");
  CHECK(fixed->Properties() ==
        (kSimpleComponent | kPropagateInPlace | kBackpropAdds));
  fixed->Backprop("test", nullptr, Matrix(), Matrix(), FromRows({{1, 1}}),
                  nullptr, fixed.get(), nullptr);
  fixed->Scale(0.0f);
  CHECK(AsUpdatable(fixed).NumParameters() == 0);
  CheckNear(Propagate(*fixed, FromRows({{0, 0}})), {{3, 3}});

  CheckConfigError("type=ConstantFunctionComponent output-dim=2",
                   "'input-dim'");
  CheckConfigError("type=ConstantFunctionComponent input-dim=2 output-dim=0",
                   "output-dim=0");
  CheckConfigError(
      "type=ConstantFunctionComponent input-dim=2 output-dim=2 "
      "is-updatable=maybe",
      "is-updatable");
}

}  // namespace nnet3
