// Tests of the fixed simple components (simple-components.h): the generic
// component checks on several configs of each type, outputs and
// derivatives computed by hand on small inputs, config errors, golden
// model-file fragments, and the group's type list.
#include "nnet/components/simple-components.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "../component-test-utils.h"
#include "nnet/component-registry.h"
#include "simple-components-test-utils.h"

namespace nnet3 {
namespace {

using simple_test::CheckConfigError;
using simple_test::CheckGolden;
using simple_test::CheckNear;
using simple_test::FromRows;
using simple_test::WriteTempVector;

// Runs CheckComponent on each config with seeds 1000, 1001, ...
void CheckConfigs(const std::vector<std::string> &configs,
                  const ComponentCheckOptions &opts = {}) {
  uint64_t seed = 1000;
  for (const std::string &config : configs) {
    INFO("config '" << config << "', seed " << seed);
    std::unique_ptr<Component> c = ComponentFromConfig(config);
    CheckComponent(*c, seed++, opts);
  }
}

// Propagate into a zeroed output and Backprop into a zeroed in_deriv.
struct Pass {
  Matrix out, in_deriv;
};
Pass RunPass(const Component &c, const Matrix &in, const Matrix &out_deriv) {
  Pass p;
  p.out = Matrix(in.NumRows(), c.OutputDim());
  void *memo = c.Propagate(nullptr, in, &p.out);
  p.in_deriv = Matrix(in.NumRows(), c.InputDim());
  c.Backprop("test", nullptr, in, p.out, out_deriv, memo, nullptr, &p.in_deriv);
  c.DeleteMemo(memo);
  return p;
}

}  // namespace

TEST_CASE("SimpleComponentTypes are all registered", "[simple]") {
  std::vector<std::string> types = SimpleComponentTypes();
  CHECK(types.size() == 11);
  std::vector<std::string> all = RegisteredComponentTypes();
  for (const std::string &t : types) {
    INFO(t);
    std::unique_ptr<Component> c = Component::NewComponentOfType(t);
    REQUIRE(c != nullptr);
    CHECK(c->Type() == t);
    CHECK(std::count(all.begin(), all.end(), t) == 1);
  }
  CHECK(NewSimpleComponentOfType("NoSuchComponent") == nullptr);
}

TEST_CASE("ElementwiseProductComponent", "[simple]") {
  CheckConfigs({"type=ElementwiseProductComponent input-dim=6 output-dim=2",
                "type=ElementwiseProductComponent input-dim=9 output-dim=3",
                "type=ElementwiseProductComponent input-dim=4 output-dim=1"});
  std::unique_ptr<Component> c = CheckGolden("ElementwiseProductComponent");
  CHECK(c->Properties() == (kSimpleComponent | kBackpropNeedsInput));
  CHECK(c->Info() == "ElementwiseProductComponent, input-dim=6, output-dim=2");
  Pass p = RunPass(*c, FromRows({{1, 2, 3, 4, 5, 6}}), FromRows({{1, 0.5}}));
  CheckNear(p.out, {{15, 48}});
  CheckNear(p.in_deriv, {{15, 12, 5, 6, 3, 4}});
  CheckConfigError("type=ElementwiseProductComponent input-dim=5 output-dim=2",
                   "input-dim=5");
  CheckConfigError("type=ElementwiseProductComponent input-dim=2 output-dim=2",
                   "input-dim=2");
  CheckConfigError("type=ElementwiseProductComponent input-dim=6",
                   "'output-dim'");
}

TEST_CASE("SumGroupComponent", "[simple]") {
  CheckConfigs({"type=SumGroupComponent sizes=2,1,3",
                "type=SumGroupComponent input-dim=12 output-dim=4",
                "type=SumGroupComponent sizes=1"});
  std::unique_ptr<Component> c = CheckGolden("SumGroupComponent");
  CHECK(c->Properties() == kSimpleComponent);
  CHECK(c->InputDim() == 6);
  CHECK(c->OutputDim() == 3);
  Pass p = RunPass(*c, FromRows({{1, 2, 3, 4, 5, 6}, {1, 0, 0, 0, 0, -1}}),
                   FromRows({{1, 2, 3}, {0, -1, 1}}));
  CheckNear(p.out, {{3, 3, 15}, {1, 0, -1}});
  CheckNear(p.in_deriv, {{1, 1, 2, 3, 3, 3}, {0, 0, -1, 1, 1, 1}});
  CheckConfigError("type=SumGroupComponent sizes=2,0", "sizes=2,0");
  CheckConfigError("type=SumGroupComponent sizes=2,x", "sizes");
  CheckConfigError("type=SumGroupComponent input-dim=7 output-dim=2",
                   "input-dim=7");
  CheckConfigError("type=SumGroupComponent", "sizes");
}

TEST_CASE("SumBlockComponent", "[simple]") {
  CheckConfigs({"type=SumBlockComponent input-dim=6 output-dim=2",
                "type=SumBlockComponent input-dim=12 output-dim=4 scale=0.25",
                "type=SumBlockComponent input-dim=5 output-dim=5 scale=-2"});
  std::unique_ptr<Component> c = CheckGolden("SumBlockComponent");
  CHECK(c->Properties() == (kSimpleComponent | kPropagateAdds | kBackpropAdds));
  CHECK(c->Info() == "SumBlockComponent, input-dim=6, output-dim=2, scale=0.5");
  // out_j = 0.5 * (in_j + in_{j+2} + in_{j+4}), added to the output.
  Matrix in = FromRows({{1, 2, 3, 4, 5, 6}});
  Matrix out = FromRows({{10, 10}});
  c->Propagate(nullptr, in, &out);
  CheckNear(out, {{14.5, 16}});
  Matrix in_deriv = FromRows({{0, 0, 0, 0, 0, 1}});
  c->Backprop("test", nullptr, Matrix(), Matrix(), FromRows({{1, 2}}), nullptr,
              nullptr, &in_deriv);
  CheckNear(in_deriv, {{0.5, 1, 0.5, 1, 0.5, 2}});
  CheckConfigError("type=SumBlockComponent input-dim=5 output-dim=2",
                   "input-dim=5");
  CheckConfigError("type=SumBlockComponent output-dim=2", "'input-dim'");
  CheckConfigError("type=SumBlockComponent input-dim=4 output-dim=2 scale=x",
                   "scale");
}

TEST_CASE("PnormComponent", "[simple]") {
  CheckConfigs({"type=PnormComponent input-dim=6 output-dim=2",
                "type=PnormComponent input-dim=6 output-dim=3",
                "type=PnormComponent input-dim=8 output-dim=2"});
  std::unique_ptr<Component> c = CheckGolden("PnormComponent");
  CHECK(c->Properties() ==
        (kSimpleComponent | kBackpropNeedsInput | kBackpropNeedsOutput));
  Pass p = RunPass(*c, FromRows({{3, 4, 0, 0}, {-1, 0, 0, 2}}),
                   FromRows({{1, 1}, {2, 4}}));
  CheckNear(p.out, {{5, 0}, {1, 2}});
  // d in_i = d out_j in_i / out_j, and 0 for the all-zero group.
  CheckNear(p.in_deriv, {{0.6, 0.8, 0, 0}, {-2, 0, 0, 4}});
  CheckConfigError("type=PnormComponent input-dim=5 output-dim=2",
                   "input-dim=5");
  CheckConfigError("type=PnormComponent input-dim=5", "'output-dim'");
}

TEST_CASE("PermuteComponent", "[simple]") {
  CheckConfigs({"type=PermuteComponent column-map=2,0,1",
                "type=PermuteComponent column-map=0,1,2,3",
                "type=PermuteComponent column-map=5,3,1,0,2,4,6"});
  std::unique_ptr<Component> c = CheckGolden("PermuteComponent");
  CHECK(c->Properties() == kSimpleComponent);
  CHECK(c->Info() == "PermuteComponent, dim=3 , column-map=[ 2 0 1 ]");
  Pass p = RunPass(*c, FromRows({{10, 20, 30}, {1, 2, 3}}),
                   FromRows({{1, 2, 3}, {4, 5, 6}}));
  CheckNear(p.out, {{30, 10, 20}, {3, 1, 2}});
  CheckNear(p.in_deriv, {{2, 3, 1}, {5, 6, 4}});
  std::unique_ptr<Component> long_map =
      ComponentFromConfig("type=PermuteComponent column-map=5,3,1,0,2,4,6");
  CHECK(long_map->Info() ==
        "PermuteComponent, dim=7 , column-map=[ 5 3 1 0 2 ... ]");
  CheckConfigError("type=PermuteComponent column-map=0,0,1",
                   "column-map=0,0,1");
  CheckConfigError("type=PermuteComponent column-map=0,1,3",
                   "column-map=0,1,3");
  CheckConfigError("type=PermuteComponent column-map=a,b", "column-map=a,b");
  CheckConfigError("type=PermuteComponent", "'column-map'");
}

TEST_CASE("FixedScaleComponent", "[simple]") {
  std::string path = WriteTempVector("scales.vec", " [ 1 -2 0.5 ]\n");
  CheckConfigs({"type=FixedScaleComponent dim=4",
                "type=FixedScaleComponent dim=3 scale=2",
                "type=FixedScaleComponent scales=" + path});
  std::unique_ptr<Component> c = CheckGolden("FixedScaleComponent");
  CHECK(c->Properties() ==
        (kSimpleComponent | kPropagateInPlace | kBackpropInPlace));
  CHECK(c->Info() ==
        "FixedScaleComponent, input-dim=3, output-dim=3, "
        "scales-{mean,stddev}=-0.1667,1.312");
  Pass p = RunPass(*c, FromRows({{1, 1, 1}, {2, 3, -4}}),
                   FromRows({{1, 2, 3}, {0, 1, 0}}));
  CheckNear(p.out, {{1, -2, 0.5}, {2, -6, -2}});
  CheckNear(p.in_deriv, {{1, -4, 1.5}, {0, -2, 0}});

  auto from_file =
      ComponentFromConfig("type=FixedScaleComponent scales=" + path);
  CheckNear(dynamic_cast<FixedScaleComponent &>(*from_file).Scales().ToHost(),
            {1, -2, 0.5});
  auto scale2 = ComponentFromConfig("type=FixedScaleComponent dim=3 scale=2");
  CheckNear(dynamic_cast<FixedScaleComponent &>(*scale2).Scales().ToHost(),
            {2, 2, 2});
  // Without scale= the scales are random (Kaldi's testing initialization).
  auto random = ComponentFromConfig("type=FixedScaleComponent dim=4");
  std::vector<float> r =
      dynamic_cast<FixedScaleComponent &>(*random).Scales().ToHost();
  CHECK(r[0] != r[1]);
  CheckConfigError("type=FixedScaleComponent", "dim=<int>");
  CheckConfigError("type=FixedScaleComponent dim=0", "dim=0");
  CheckConfigError("type=FixedScaleComponent scales=/nonexistent/x.vec",
                   "/nonexistent/x.vec");
  std::remove(path.c_str());
}

TEST_CASE("FixedBiasComponent", "[simple]") {
  std::string path = WriteTempVector("bias.vec", " [ 0.5 -1 2 ]\n");
  CheckConfigs({"type=FixedBiasComponent dim=5",
                "type=FixedBiasComponent bias=" + path});
  std::unique_ptr<Component> c = CheckGolden("FixedBiasComponent");
  CHECK(c->Properties() ==
        (kSimpleComponent | kPropagateInPlace | kBackpropInPlace));
  CHECK(c->Info() ==
        "FixedBiasComponent, input-dim=3, output-dim=3, "
        "bias-{mean,stddev}=0.5,1.225");
  Pass p = RunPass(*c, FromRows({{1, 1, 1}, {0, 0, 0}}),
                   FromRows({{1, 2, 3}, {4, 5, 6}}));
  CheckNear(p.out, {{1.5, 0, 3}, {0.5, -1, 2}});
  CheckNear(p.in_deriv, {{1, 2, 3}, {4, 5, 6}});
  auto from_file = ComponentFromConfig("type=FixedBiasComponent bias=" + path);
  CheckNear(dynamic_cast<FixedBiasComponent &>(*from_file).Bias().ToHost(),
            {0.5, -1, 2});
  CheckConfigError("type=FixedBiasComponent", "bias=<rxfilename>");
  CheckConfigError("type=FixedBiasComponent dim=-3", "dim=-3");
  std::remove(path.c_str());
}

TEST_CASE("Simple components reject bad model files", "[simple]") {
  auto read = [](const std::string &text) {
    std::istringstream is(text);
    return Component::ReadNew(is, false);
  };
  CHECK_THROWS_AS(read("<PermuteComponent> <ColumnMap> [ 0 0 ]\n"
                       "</PermuteComponent> "),
                  UserError);
  CHECK_THROWS_AS(read("<SumGroupComponent> <Sizes> [ 2 0 ]\n"
                       "</SumGroupComponent> "),
                  UserError);
  CHECK_THROWS_AS(read("<PnormComponent> <InputDim> 5 <OutputDim> 2 "
                       "</PnormComponent> "),
                  UserError);
  CHECK_THROWS_AS(read("<SumBlockComponent> <InputDim> 6 <OutputDim> 2 "
                       "</SumBlockComponent> "),
                  UserError);
}

}  // namespace nnet3
