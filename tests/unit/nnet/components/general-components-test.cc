// DistributeComponent and ConstantComponent: the general checks (driven by
// Indexes), their outputs computed directly, the update, golden files and
// config errors.
#include "nnet/components/general-components.h"

#include <catch2/catch.hpp>

#include "../component-test-utils.h"
#include "../general-component-test-utils.h"
#include "nonlinear-test-utils.h"
#include "simple-components-test-utils.h"

using namespace nnet3;
using simple_test::CheckConfigError;

namespace {

// Outputs (n, t, x) for x in [x_begin, x_end), n in [0, 2), t in [0, 3).
std::vector<Index> XGrid(int32_t x_begin, int32_t x_end) {
  std::vector<Index> v;
  for (int32_t n = 0; n < 2; n++)
    for (int32_t t = 0; t < 3; t++)
      for (int32_t x = x_begin; x < x_end; x++) v.push_back(Index(n, t, x));
  return v;
}

// floor(a / b) for b > 0.
int32_t FloorDiv(int32_t a, int32_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

}  // namespace

TEST_CASE("DistributeComponent spreads blocks over x", "[general]") {
  struct Case {
    int32_t input_dim, output_dim, x_begin, x_end;
  };
  const Case cases[] = {
      {6, 2, 0, 3}, {12, 4, 0, 6}, {5, 5, 0, 2}, {8, 2, -5, 3}};
  uint64_t seed = 7300;
  for (const Case &k : cases) {
    const std::string config =
        "type=DistributeComponent input-dim=" + std::to_string(k.input_dim) +
        " output-dim=" + std::to_string(k.output_dim);
    INFO(config << ", x in [" << k.x_begin << ", " << k.x_end << ")");
    auto c = ComponentFromConfig(config);
    CHECK(c->Properties() == 0);
    const int32_t blocks = k.input_dim / k.output_dim;
    std::vector<Index> available;
    for (int32_t x = FloorDiv(k.x_begin, blocks);
         x <= FloorDiv(k.x_end - 1, blocks); x++) {
      std::vector<Index> g = XGrid(x, x + 1);
      available.insert(available.end(), g.begin(), g.end());
    }
    GeneralComponentRun run;
    CheckGeneralComponent(*c, XGrid(k.x_begin, k.x_end), available, seed++, {},
                          &run);
    // Output (n, t, x) = block x mod k of input (n, t, floor(x / k)).
    for (size_t o = 0; o < run.output_indexes.size(); o++) {
      const Index &out = run.output_indexes[o];
      Index in = out;
      in.x = FloorDiv(out.x, blocks);
      const int32_t block = out.x - in.x * blocks;
      auto it =
          std::find(run.input_indexes.begin(), run.input_indexes.end(), in);
      REQUIRE(it != run.input_indexes.end());
      const int32_t r = static_cast<int32_t>(it - run.input_indexes.begin());
      for (int32_t j = 0; j < k.output_dim; j++)
        CHECK(run.output.Get(static_cast<int32_t>(o), j) ==
              run.input.Get(r, block * k.output_dim + j));
    }
  }
}

TEST_CASE("DistributeComponent backprop zeroes blocks no output reads",
          "[general]") {
  auto c =
      ComponentFromConfig("type=DistributeComponent input-dim=6 output-dim=2");
  // Only blocks 0 and 2 of one input row are read.
  const std::vector<Index> inputs = {Index(0, 0, 0)},
                           outputs = {Index(0, 0, 0), Index(0, 0, 2)};
  auto pre = c->PrecomputeIndexes(MiscComputationInfo(), inputs, outputs, true);
  Matrix out_deriv = simple_test::FromRows({{1, 2}, {3, 4}});
  Matrix in_deriv = simple_test::FromRows({{9, 9, 9, 9, 9, 9}});
  c->Backprop("t", pre.get(), Matrix(), Matrix(), out_deriv, nullptr, nullptr,
              &in_deriv);
  simple_test::CheckNear(in_deriv, {{1, 2, 0, 0, 3, 4}});
}

TEST_CASE("DistributeComponent golden file and config errors", "[general]") {
  auto c = nonlinear_test::CheckGolden("DistributeComponent");
  CHECK(c->InputDim() == 6);
  CHECK(c->OutputDim() == 2);
  CHECK(c->Info() == "DistributeComponent, input-dim=6, output-dim=2");
  CheckConfigError("type=DistributeComponent input-dim=6 output-dim=4",
                   "output-dim=4");
  CheckConfigError("type=DistributeComponent input-dim=0 output-dim=4",
                   "input-dim=0");
  CheckConfigError("type=DistributeComponent input-dim=6", "output-dim");
}

TEST_CASE("ConstantComponent outputs its vector and learns it", "[general]") {
  const char *configs[] = {
      "type=ConstantComponent output-dim=5 output-stddev=1 output-mean=0.5",
      "type=ConstantComponent output-dim=3 use-natural-gradient=false",
      "type=ConstantComponent output-dim=4 is-updatable=false "
      "output-stddev=2",
  };
  uint64_t seed = 7400;
  for (const char *config : configs) {
    INFO(config);
    auto c = ComponentFromConfig(config);
    const auto &cc = dynamic_cast<const ConstantComponent &>(*c);
    CHECK(c->Properties() == (cc.IsUpdatable() ? kUpdatableComponent : 0));
    GeneralComponentRun run;
    CheckGeneralComponent(*c, FrameGrid(2, 0, 4, 1, false), {}, seed++, {},
                          &run);
    CHECK(run.input_indexes.empty());
    const std::vector<float> v = cc.Output().ToHost();
    for (int32_t r = 0; r < run.output.NumRows(); r++)
      simple_test::CheckNear(run.output.Row(r).ToHost(), v);
  }
  // Plain SGD update: output += lr * (column sums of out_deriv).
  auto c = ComponentFromConfig(
      "type=ConstantComponent output-dim=2 use-natural-gradient=false "
      "learning-rate=0.5 output-mean=1");
  Matrix out_deriv = simple_test::FromRows({{1, 2}, {3, -4}});
  c->Backprop("t", nullptr, Matrix(), Matrix(), out_deriv, nullptr, c.get(),
              nullptr);
  simple_test::CheckNear(
      dynamic_cast<ConstantComponent &>(*c).Output().ToHost(), {3.0f, 0.0f});
  // Not updatable: nothing changes, no parameters.
  auto fixed = ComponentFromConfig(
      "type=ConstantComponent output-dim=2 is-updatable=false");
  fixed->Backprop("t", nullptr, Matrix(), Matrix(), out_deriv, nullptr,
                  fixed.get(), nullptr);
  auto &f = dynamic_cast<ConstantComponent &>(*fixed);
  simple_test::CheckNear(f.Output().ToHost(), {0.0f, 0.0f});
  CHECK(f.NumParameters() == 0);
}

TEST_CASE("ConstantComponent golden file, Info and config errors",
          "[general]") {
  auto c = nonlinear_test::CheckGolden("ConstantComponent");
  CHECK(c->OutputDim() == 3);
  CHECK(c->Info() ==
        "ConstantComponent, input-dim=3, output-dim=3, learning-rate=0.002, "
        "learning-rate-factor=0.5, max-change=0.75, ConstantComponent, "
        "output-dim=3, is-updatable=true, use-natural-gradient=false, "
        "output-{mean,stddev}=0.5,1.225");
  CheckConfigError("type=ConstantComponent output-dim=0", "output-dim=0");
  CheckConfigError("type=ConstantComponent", "output-dim");
  CheckConfigError("type=ConstantComponent output-dim=3 output-stddev=-1",
                   "output-stddev=-1");
}
