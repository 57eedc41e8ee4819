// nnet-utils: name patterns, parameter utilities, test modes, every edits
// directive (reference 1.6) with its errors, and CollapseModel checked
// against a frame-by-frame evaluation of the network before and after.
#include "nnet/nnet-utils.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

#include "base/error.h"
#include "nnet-test-utils.h"
#include "nnet/components/affine-components.h"
#include "nnet/components/dropout-components.h"
#include "nnet/components/normalize-components.h"

using namespace nnet3;

namespace {

const char *const kEditsConfig =
    "input-node name=input dim=4\n"
    "input-node name=spare dim=2\n"
    "component name=affine1 type=NaturalGradientAffineComponent input-dim=4 "
    "output-dim=5 learning-rate-factor=0.5\n"
    "component-node name=affine1 component=affine1 input=input\n"
    "component name=relu1 type=RectifiedLinearComponent dim=5\n"
    "component-node name=relu1 component=relu1 input=affine1\n"
    "component name=drop1 type=DropoutComponent dim=5 "
    "dropout-proportion=0.1\n"
    "component-node name=drop1 component=drop1 input=relu1\n"
    "component name=final_affine type=AffineComponent input-dim=5 "
    "output-dim=3\n"
    "component-node name=final_affine component=final_affine input=drop1\n"
    "component name=xent_affine type=AffineComponent input-dim=5 "
    "output-dim=3\n"
    "component-node name=xent_affine component=xent_affine input=drop1\n"
    "output-node name=output input=final_affine\n"
    "output-node name=output-xent input=xent_affine\n";

const std::vector<std::string> kEditsTypes = {
    "AffineComponent", "NaturalGradientAffineComponent",
    "RectifiedLinearComponent", "DropoutComponent", "FixedAffineComponent"};

void Edit(const std::string &edits, Nnet *nnet) {
  std::istringstream is(edits);
  ReadEditConfig(is, "edits.config", nnet);
}

std::string EditError(const std::string &edits, const Nnet &nnet) {
  Nnet copy(nnet);
  try {
    Edit(edits, &copy);
  } catch (const UserError &e) {
    std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find('\n') == std::string::npos);
    return msg;
  }
  return "<no error>";
}

const UpdatableComponent &Updatable(const Nnet &nnet, const std::string &name) {
  auto *u = dynamic_cast<const UpdatableComponent *>(
      nnet.GetComponent(nnet.GetComponentIndex(name)));
  REQUIRE(u != nullptr);
  return *u;
}

int32_t CountType(const Nnet &nnet, const std::string &type) {
  int32_t ans = 0;
  for (int32_t c = 0; c < nnet.NumComponents(); c++)
    ans += nnet.GetComponent(c)->Type() == type;
  return ans;
}

// Gives batch-norm component `name` non-trivial stats.
void SetBatchNormStats(const std::string &name, const std::string &stats,
                       Nnet *nnet) {
  std::istringstream is(stats);
  nnet->SetComponent(nnet->GetComponentIndex(name),
                     Component::ReadNew(is, false));
}

}  // namespace

TEST_CASE("NameMatchesPattern", "[nnet]") {
  CHECK(NameMatchesPattern("affine1", "affine1"));
  CHECK(NameMatchesPattern("affine1", "*"));
  CHECK(NameMatchesPattern("affine1", "aff*"));
  CHECK(NameMatchesPattern("affine1", "*1"));
  CHECK(NameMatchesPattern("tdnn1.affine", "tdnn*.aff*"));
  CHECK(NameMatchesPattern("", "*"));
  CHECK(NameMatchesPattern("a.b", "a*b*"));
  CHECK_FALSE(NameMatchesPattern("affine1", "affine"));
  CHECK_FALSE(NameMatchesPattern("affine1", "*2"));
  CHECK_FALSE(NameMatchesPattern("affine1", "?ffine1"));
  CHECK_FALSE(NameMatchesPattern("abc", "a*c*d"));
}

TEST_CASE("nnet-utils: parameters, scaling, adding", "[nnet]") {
  if (!HaveComponentTypes(kEditsTypes)) return;
  Nnet nnet = NnetFromConfig(kEditsConfig);
  CHECK(NumParameters(nnet) == (4 * 5 + 5) + 2 * (5 * 3 + 3));
  CHECK(NumUpdatableComponents(nnet) == 3);
  SetLearningRate(0.01f, &nnet);
  CHECK(Updatable(nnet, "affine1").LearningRate() == Approx(0.005f));
  CHECK(Updatable(nnet, "final_affine").LearningRate() == Approx(0.01f));

  Nnet doubled(nnet), summed(nnet);
  ScaleNnet(2.0f, &doubled);
  AddNnet(nnet, 1.0f, &summed);
  CHECK(WriteToString(doubled, false) == WriteToString(summed, false));
  double dot = DotProduct(nnet, nnet);
  CHECK(dot > 0.0);
  CHECK(DotProduct(nnet, doubled) == Approx(2.0 * dot));
  Nnet other = NnetFromConfig(
      "input-node name=input dim=4\n"
      "output-node name=output input=input\n");
  CHECK_THROWS_AS(AddNnet(other, 1.0f, &nnet), UserError);

  Nnet gradient(nnet);
  SetNnetAsGradient(&gradient);
  CHECK(Updatable(gradient, "affine1").IsGradient());
  CHECK(Updatable(gradient, "affine1").LearningRate() == 1.0f);
  ZeroComponentStats(&nnet);
  FreezeNaturalGradient(true, &nnet);
}

TEST_CASE("nnet-utils: test modes and dropout proportions", "[nnet]") {
  if (!HaveComponentTypes({"BatchNormComponent", "DropoutComponent",
                           "GeneralDropoutComponent"}))
    return;
  Nnet nnet = NnetFromConfig(
      "input-node name=input dim=4\n"
      "component name=bn type=BatchNormComponent dim=4\n"
      "component-node name=bn component=bn input=input\n"
      "component name=drop type=DropoutComponent dim=4 "
      "dropout-proportion=0.5\n"
      "component-node name=drop component=drop input=bn\n"
      "component name=gdrop type=GeneralDropoutComponent dim=4\n"
      "component-node name=gdrop component=gdrop input=drop\n"
      "output-node name=output input=gdrop\n");
  auto *bn = dynamic_cast<BatchNormComponent *>(nnet.GetComponent(0));
  auto *drop = dynamic_cast<DropoutComponent *>(nnet.GetComponent(1));
  auto *gdrop = dynamic_cast<GeneralDropoutComponent *>(nnet.GetComponent(2));
  REQUIRE((bn && drop && gdrop));
  SetBatchnormTestMode(true, &nnet);
  CHECK(bn->TestMode());
  CHECK_FALSE(drop->TestMode());
  SetDropoutTestMode(true, &nnet);
  CHECK(drop->TestMode());
  CHECK(gdrop->TestMode());
  SetDropoutTestMode(false, &nnet);
  SetBatchnormTestMode(false, &nnet);
  CHECK_FALSE(bn->TestMode());
  CHECK_FALSE(gdrop->TestMode());
  SetDropoutProportion(0.25f, &nnet);
  CHECK(drop->DropoutProportion() == 0.25f);
  CHECK(gdrop->DropoutProportion() == 0.25f);
  CHECK_THROWS_AS(SetDropoutProportion(1.0f, &nnet), UserError);
}

TEST_CASE("ConvertRepeatedToBlockAffine, also inside composites", "[nnet]") {
  Nnet nnet = NnetFromConfig(
      "input-node name=input dim=6\n"
      "component name=rep type=NaturalGradientRepeatedAffineComponent "
      "input-dim=6 output-dim=4 num-repeats=2\n"
      "component-node name=rep component=rep input=input\n"
      "component name=comp type=CompositeComponent num-components=2 "
      "component1='type=RepeatedAffineComponent input-dim=4 output-dim=4 "
      "num-repeats=2' component2='type=RectifiedLinearComponent dim=4'\n"
      "component-node name=comp component=comp input=rep\n"
      "output-node name=output input=comp\n");
  const std::string before = WriteToString(nnet, false);
  ConvertRepeatedToBlockAffine(&nnet);
  const std::string after = WriteToString(nnet, false);
  CHECK(before.find("RepeatedAffineComponent>") != std::string::npos);
  CHECK(after.find("RepeatedAffineComponent>") == std::string::npos);
  size_t blocks = 0;
  for (size_t p = after.find("<BlockAffineComponent>"); p != std::string::npos;
       p = after.find("<BlockAffineComponent>", p + 1))
    blocks++;
  CHECK(blocks == 2);
  CHECK(after.find("<NumBlocks> 2 ") != std::string::npos);
}

TEST_CASE("ReadEditConfig: every directive", "[nnet]") {
  if (!HaveComponentTypes(kEditsTypes)) return;
  const Nnet base = NnetFromConfig(kEditsConfig);

  Nnet nnet(base);
  Edit(
      "set-learning-rate learning-rate=0.01  # all updatable components\n"
      "set-learning-rate name=final* learning-rate=0.1\n",
      &nnet);
  CHECK(Updatable(nnet, "affine1").LearningRate() == Approx(0.005f));
  CHECK(Updatable(nnet, "xent_affine").LearningRate() == Approx(0.01f));
  CHECK(Updatable(nnet, "final_affine").LearningRate() == Approx(0.1f));
  Edit(
      "set-learning-rate-factor name=xent* learning-rate-factor=0.25\n"
      "set-learning-rate learning-rate=0.4",
      &nnet);
  CHECK(Updatable(nnet, "xent_affine").LearningRateFactor() == 0.25f);
  CHECK(Updatable(nnet, "xent_affine").LearningRate() == Approx(0.1f));
  CHECK(Updatable(nnet, "affine1").LearningRateFactor() == 0.5f);

  nnet = base;
  Edit("set-dropout-proportion name=drop* proportion=0.3", &nnet);
  CHECK(dynamic_cast<const DropoutComponent *>(nnet.GetComponent(2))
            ->DropoutProportion() == 0.3f);

  nnet = base;
  Edit("rename-node old-name=output-xent new-name=xent", &nnet);
  CHECK(nnet.OutputDim("xent") == 3);
  CHECK(nnet.GetNodeIndex("output-xent") == -1);
  Edit("rename-node old-name=relu1 new-name=hidden", &nnet);
  CHECK(nnet.GetNodeIndex("hidden_input") != -1);

  nnet = base;
  Edit("remove-output-nodes name=output-*", &nnet);
  CHECK(NumOutputNodes(nnet) == 1);
  CHECK(nnet.GetNodeIndex("xent_affine") != -1);
  Edit("remove-orphan-nodes", &nnet);
  CHECK(nnet.GetNodeIndex("xent_affine") == -1);
  CHECK(nnet.GetNodeIndex("spare") != -1);
  CHECK(nnet.GetComponentIndex("xent_affine") != -1);
  Edit("remove-orphan-components", &nnet);
  CHECK(nnet.GetComponentIndex("xent_affine") == -1);
  Edit("remove-orphan-nodes remove-orphan-inputs=true", &nnet);
  CHECK(nnet.GetNodeIndex("spare") == -1);

  nnet = base;
  Edit("remove-output-nodes name=output-xent\nremove-orphans", &nnet);
  CHECK(nnet.GetComponentIndex("xent_affine") == -1);
  CHECK(nnet.GetNodeIndex("spare") != -1);
  nnet = base;
  Edit(
      "remove-output-nodes name=output-xent\n"
      "remove-orphans remove-orphan-inputs=true",
      &nnet);
  CHECK(nnet.GetNodeIndex("spare") == -1);
  CHECK(nnet.NumComponents() == 4);
  CHECK(ReadFromString(WriteToString(nnet, true)).NumNodes() ==
        nnet.NumNodes());

  nnet = base;
  Edit("convert-to-fixed-affine name=*_affine", &nnet);
  CHECK(CountType(nnet, "FixedAffineComponent") == 2);
  CHECK(CountType(nnet, "NaturalGradientAffineComponent") == 1);
  auto *fixed = dynamic_cast<const FixedAffineComponent *>(
      nnet.GetComponent(nnet.GetComponentIndex("final_affine")));
  auto *orig = dynamic_cast<const AffineComponent *>(
      base.GetComponent(base.GetComponentIndex("final_affine")));
  REQUIRE((fixed && orig));
  CHECK(fixed->LinearParams().ToHost() == orig->LinearParams().ToHost());
  CHECK(fixed->BiasParams().ToHost() == orig->BiasParams().ToHost());
  CheckSameOutputs(base, nnet);
  Edit("convert-to-fixed-affine", &nnet);
  CHECK(CountType(nnet, "FixedAffineComponent") == 3);
}

TEST_CASE("ReadEditConfig: errors name the file and line", "[nnet]") {
  if (!HaveComponentTypes(kEditsTypes)) return;
  const Nnet base = NnetFromConfig(kEditsConfig);
  struct Case {
    std::string edits, expected;
  };
  std::vector<Case> cases = {
      {"remove-orphans\nfoo-bar name=x\n",
       "edits.config:2: unknown directive 'foo-bar' (expected "},
      {"set-learning-rate name=x\n",
       "edits.config:1: set-learning-rate needs learning-rate=<value>"},
      {"set-learning-rate learning-rate=abc\n",
       "edits.config:1: Invalid value 'abc' for learning-rate"},
      {"set-learning-rate learning-rate=0.1 nmae=x\n",
       "edits.config:1: could not interpret 'nmae=x'"},
      {"set-learning-rate-factor learning-rate-factor=-1\n",
       "edits.config:1: learning-rate-factor=-1 must be >= 0"},
      {"remove-orphans remove-orphan-input=true\n",
       "edits.config:1: could not interpret 'remove-orphan-input=true'"},
      {"remove-orphan-components name=x\n",
       "edits.config:1: could not interpret 'name=x'"},
      {"rename-node old-name=nope new-name=x\n",
       "edits.config:1: cannot rename node 'nope' to 'x': there is no node"},
      {"rename-node old-name=output new-name=output-xent\n",
       "edits.config:1: Cannot rename node 'output' to 'output-xent': a node "
       "with that name already exists"},
      {"rename-node old-name=output\n",
       "edits.config:1: rename-node needs new-name=<node>"},
      {"remove-output-nodes name=output*\n",
       "edits.config:1: name=output* matches every output node"},
      {"remove-output-nodes\n",
       "edits.config:1: remove-output-nodes needs name=<pattern>"},
      {"set-dropout-proportion proportion=1.5\n",
       "edits.config:1: proportion=1.5 must be in [0, 1)"},
      {"apply-svd bottleneck-dim=2\n",
       "edits.config:1: apply-svd needs name=<pattern>"},
      {"apply-svd name=*\n",
       "edits.config:1: apply-svd needs bottleneck-dim=<dim> or "
       "energy-threshold=<fraction in (0, 1)>"},
      {"apply-svd name=* energy-threshold=1.5\n",
       "edits.config:1: energy-threshold=1.5 must be less than 1"},
      {"apply-svd name=* bottleneck-dim=2 shrinkage-threshold=0\n",
       "edits.config:1: shrinkage-threshold=0 must be positive"},
      {"apply-svd name=* bottleneck-dim=2 rank=2\n",
       "edits.config:1: could not interpret 'rank=2' (apply-svd takes "
       "name=<pattern>, bottleneck-dim, energy-threshold and "
       "shrinkage-threshold)"},
      {"apply-svd name=* bottleneck-dim=two\n",
       "edits.config:1: Invalid value 'two' for bottleneck-dim (expected an "
       "integer)"},
      {"reduce-rank name=*\n", "edits.config:1: reduce-rank needs rank=<dim>"},
      {"reduce-rank rank=2\n",
       "edits.config:1: reduce-rank needs name=<pattern>"},
      {"reduce-rank name=* rank=0\n",
       "edits.config:1: rank=0 must be positive"},
      {"name=x\n", "edits.config:1: unknown directive ''"},
  };
  for (const Case &c : cases) {
    INFO("edits: " << c.edits);
    CHECK_THAT(EditError(c.edits, base), Catch::StartsWith(c.expected));
  }
  // A bad line changes nothing.
  Nnet nnet(base);
  CHECK_THROWS_AS(Edit("set-learning-rate learning-rate=0.1 bad=1", &nnet),
                  UserError);
  CHECK(WriteToString(nnet, true) == WriteToString(base, true));
}

TEST_CASE("CollapseModel: dropout and batch-norm folded exactly", "[nnet]") {
  if (!HaveComponentTypes({"AffineComponent", "NaturalGradientAffineComponent",
                           "FixedAffineComponent", "RectifiedLinearComponent",
                           "BatchNormComponent", "DropoutComponent"}))
    return;
  Nnet nnet = NnetFromConfig(
      "input-node name=input dim=3\n"
      "component name=affine1 type=AffineComponent input-dim=9 output-dim=6\n"
      "component-node name=affine1 component=affine1 "
      "input=Append(Offset(input, -1), input, Offset(input, 1))\n"
      "component name=relu1 type=RectifiedLinearComponent dim=6\n"
      "component-node name=relu1 component=relu1 input=affine1\n"
      "component name=bn1 type=BatchNormComponent dim=6 block-dim=3\n"
      "component-node name=bn1 component=bn1 input=relu1\n"
      "component name=drop1 type=DropoutComponent dim=6 "
      "dropout-proportion=0.25\n"
      "component-node name=drop1 component=drop1 input=bn1\n"
      "component name=affine2 type=NaturalGradientAffineComponent "
      "input-dim=12 output-dim=4\n"
      "component-node name=affine2 component=affine2 "
      "input=Append(Offset(drop1, -2), drop1)\n"
      "component name=bn2 type=BatchNormComponent dim=4 target-rms=0.5\n"
      "component-node name=bn2 component=bn2 input=affine2\n"
      "component name=relu2 type=RectifiedLinearComponent dim=4\n"
      "component-node name=relu2 component=relu2 input=bn2\n"
      "component name=bn3 type=BatchNormComponent dim=4\n"
      "component-node name=bn3 component=bn3 input=relu2\n"
      "component name=final type=FixedAffineComponent input-dim=8 "
      "output-dim=2\n"
      "component-node name=final component=final "
      "input=Append(bn3, IfDefined(Offset(bn3, -1)))\n"
      "output-node name=output input=final\n"
      "output-node name=output2 input=Sum(Scale(0.5, drop1), relu1)\n");
  SetBatchNormStats("bn1",
                    "<BatchNormComponent> <Dim> 6 <BlockDim> 3 <Epsilon> 0.001 "
                    "<TargetRms> 1 <TestMode> F <Count> 10 <StatsMean> "
                    "[ 0.5 -1 2 ] <StatsVar> [ 0.25 4 1 ] "
                    "</BatchNormComponent>",
                    &nnet);
  SetBatchNormStats("bn2",
                    "<BatchNormComponent> <Dim> 4 <BlockDim> 4 <Epsilon> 0.01 "
                    "<TargetRms> 0.5 <TestMode> F <Count> 3 <StatsMean> "
                    "[ 1 2 3 -4 ] <StatsVar> [ 2 0.5 1 3 ] "
                    "</BatchNormComponent>",
                    &nnet);
  SetBatchNormStats("bn3",
                    "<BatchNormComponent> <Dim> 4 <BlockDim> 4 <Epsilon> 0.001 "
                    "<TargetRms> 1 <TestMode> F <Count> 7 <StatsMean> "
                    "[ 0.2 0.4 0.1 0.3 ] <StatsVar> [ 0.1 0.2 0.3 0.4 ] "
                    "</BatchNormComponent>",
                    &nnet);
  // Not in test mode: nothing changes.
  Nnet unchanged(nnet);
  CollapseModel(CollapseModelConfig(), &unchanged);
  CHECK(WriteToString(unchanged, true) == WriteToString(nnet, true));

  SetBatchnormTestMode(true, &nnet);
  SetDropoutTestMode(true, &nnet);
  Nnet collapsed(nnet);
  CollapseModel(CollapseModelConfig(), &collapsed);
  CheckSameOutputs(nnet, collapsed);
  CHECK(CountType(collapsed, "DropoutComponent") == 0);
  // bn1 stays for output2, bn3 for the IfDefined part; bn2 is folded into
  // the affine before it.
  CHECK(CountType(collapsed, "BatchNormComponent") == 2);
  CHECK(collapsed.GetNodeIndex("drop1") == -1);
  CHECK(collapsed.GetNodeIndex("affine2") == -1);
  std::vector<std::string> lines;
  collapsed.GetConfigLines(false, &lines);
  std::string all;
  for (const std::string &l : lines) all += l + "\n";
  INFO(all);
  CHECK_THAT(all,
             Catch::Contains("component-node name=bn2 component=affine2.bn2 "
                             "input=Append(Offset(Scale(0.75, relu1), -2), "
                             "Scale(0.75, relu1))\n"));
  CHECK_THAT(all, Catch::Contains(
                      "component-node name=final component=final "
                      "input=Append(relu2, IfDefined(Offset(bn3, -1)))\n"));
  CHECK_THAT(all, Catch::Contains("output-node name=output2 "
                                  "input=Sum(Scale(0.375, bn1), relu1)"));
  // The result still reads and writes.
  CHECK(WriteToString(ReadFromString(WriteToString(collapsed, true)), true) ==
        WriteToString(collapsed, true));
}
