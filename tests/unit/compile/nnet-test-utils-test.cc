#include "nnet-test-utils.h"

#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "base/error.h"
#include "nnet/components/composite-components.h"

namespace nnet3 {

namespace {

bool Has(const std::vector<std::string> &configs, const std::string &what) {
  for (const std::string &c : configs)
    if (c.find(what) != std::string::npos) return true;
  return false;
}

// The component types of `nnet`, including those inside CompositeComponents.
void AddComponentTypes(const Component &c, std::set<std::string> *types) {
  types->insert(c.Type());
  if (auto *composite = dynamic_cast<const CompositeComponent *>(&c))
    for (int32_t i = 0; i < composite->NumComponents(); i++)
      AddComponentTypes(*composite->GetComponent(i), types);
}
std::set<std::string> ComponentTypes(const Nnet &nnet) {
  std::set<std::string> types;
  for (int32_t c = 0; c < nnet.NumComponents(); c++)
    AddComponentTypes(*nnet.GetComponent(c), &types);
  return types;
}

}  // namespace

TEST_CASE("GenerateConfigSequence makes valid networks", "[computation]") {
  // Seeds 1..200; each seed is printed if its network fails.
  std::map<std::string, int32_t> seen;
  std::set<std::string> declared;  // by some family
  for (const RandomNetFamily &f : RandomNetFamilies())
    declared.insert(f.component_types.begin(), f.component_types.end());
  for (uint32_t seed = 1; seed <= 200; seed++) {
    INFO("seed " << seed);
    RandomState rng(seed);
    NnetGenerationOptions opts;
    opts.allow_multiple_outputs = seed % 3 == 0;
    opts.allow_ivector = seed % 2 == 0;
    std::vector<std::string> configs;
    GenerateConfigSequence(opts, &rng, &configs);
    REQUIRE(!configs.empty());
    INFO("configs:\n" << configs[0] << (configs.size() > 1 ? configs[1] : ""));
    Nnet nnet;
    REQUIRE_NOTHROW(nnet = NnetFromConfigSequence(configs));
    REQUIRE_NOTHROW(nnet.Check());
    for (const std::string &type : ComponentTypes(nnet)) {
      INFO("component type " << type);
      CHECK(declared.count(type) == 1);  // its family is registered
    }
    REQUIRE(nnet.GetNodeIndex("input") >= 0);
    REQUIRE(nnet.IsOutputNode(nnet.GetNodeIndex("output")));
    for (const char *what :
         {"IfDefined(", "Failover(", "Switch(", "Round(", "ReplaceIndex(",
          "Const(", "Scale(", "dim-range-node", "Offset(", "input2", "output2",
          "BatchNormComponent", "SoftmaxComponent", "DistributeComponent",
          "RestrictedAttentionComponent", "CompositeComponent"})
      if (Has(configs, what)) seen[what]++;
    if (configs.size() > 1) seen["incremental"]++;

    ComputationRequest request;
    std::vector<Matrix> inputs;
    ComputeExampleComputationRequestSimple(nnet, &rng, &request, &inputs);
    REQUIRE(request.inputs.size() == inputs.size());
    REQUIRE(request.IndexForInput("input") == 0);
    REQUIRE(request.IndexForOutput("output") >= 0);
    for (size_t i = 0; i < inputs.size(); i++) {
      REQUIRE(inputs[i].NumRows() ==
              static_cast<int32_t>(request.inputs[i].indexes.size()));
      REQUIRE(inputs[i].NumCols() == nnet.InputDim(request.inputs[i].name));
    }
    bool want = request.need_model_derivative;
    for (const IoSpecification &io : request.inputs)
      want = want || io.has_deriv;
    if (want) REQUIRE(request.outputs[0].has_deriv);
  }
  // Every kind of structure shows up.
  for (const char *what :
       {"IfDefined(", "Failover(", "Switch(", "Round(", "ReplaceIndex(",
        "Const(", "Scale(", "dim-range-node", "Offset(", "input2", "output2",
        "incremental", "DistributeComponent", "RestrictedAttentionComponent",
        "CompositeComponent"}) {
    INFO(what);
    REQUIRE(seen[what] > 0);
  }
}

TEST_CASE("Every generator family makes exactly its component types",
          "[computation]") {
  // 150 networks per family (seeds from 1 until it has made them), every
  // option on: the union of their component types must be the family's
  // list, no more, no less.
  NnetGenerationOptions opts;
  opts.allow_multiple_outputs = true;
  opts.allow_ivector = true;
  REQUIRE(RandomNetFamilies().size() >= 8);
  for (const RandomNetFamily &family : RandomNetFamilies()) {
    INFO("family " << family.name);
    std::set<std::string> types;
    int32_t made = 0;
    for (uint32_t seed = 1; made < 150 && seed <= 5000; seed++) {
      INFO("seed " << seed);
      RandomState rng(seed);
      std::vector<std::string> configs;
      if (!family.generate(opts, &rng, &configs)) continue;
      made++;
      const std::set<std::string> these =
          ComponentTypes(NnetFromConfigSequence(configs));
      types.insert(these.begin(), these.end());
    }
    CHECK(made == 150);
    CHECK(std::vector<std::string>(types.begin(), types.end()) ==
          family.component_types);
  }
}

TEST_CASE("The generator fails on an unregistered component type",
          "[computation]") {
  RandomState rng(1);
  CHECK_THROWS_AS(
      PickRegisteredType({"TanhComponent", "NoSuchComponent"}, &rng),
      InternalError);
  CHECK(PickRegisteredType({"TanhComponent"}, &rng) == "TanhComponent");
}

TEST_CASE("GenerateConfigSequence respects its options", "[computation]") {
  NnetGenerationOptions opts;
  opts.allow_context = false;
  opts.allow_nonlinearity = false;
  opts.allow_final_nonlinearity = false;
  opts.allow_multiple_inputs = false;
  opts.output_dim = 7;
  for (uint32_t seed = 1; seed <= 40; seed++) {
    INFO("seed " << seed);
    RandomState rng(seed);
    std::vector<std::string> configs;
    GenerateConfigSequence(opts, &rng, &configs);
    for (const char *what : {"Offset(", "Round(", "Switch(", "Linear",
                             "Sigmoid", "Tanh", "Softmax", "input2"})
      REQUIRE_FALSE(Has(configs, what));
    Nnet nnet = NnetFromConfigSequence(configs);
    REQUIRE(nnet.OutputDim("output") == 7);
  }
}

TEST_CASE("ComputeExampleComputationRequestSimple", "[computation]") {
  RandomState rng(7);
  Nnet nnet = NnetFromConfigSequence(
      {"input-node name=input dim=3\n"
       "input-node name=ivector dim=2\n"
       "component name=a type=AffineComponent input-dim=5 output-dim=4\n"
       "component-node name=a component=a "
       "input=Append(input, ReplaceIndex(ivector, t, 0))\n"
       "output-node name=output input=a\n"});
  for (int32_t trial = 0; trial < 20; trial++) {
    ComputationRequest request;
    std::vector<Matrix> inputs;
    ComputeExampleComputationRequestSimple(nnet, &rng, &request, &inputs);
    REQUIRE(request.inputs.size() == 2);
    const IoSpecification &input = request.inputs[0],
                          &ivector = request.inputs[1],
                          &output = request.outputs[0];
    REQUIRE(ivector.name == "ivector");
    int32_t num_n = static_cast<int32_t>(ivector.indexes.size());
    REQUIRE(num_n >= 1);
    REQUIRE(num_n <= 4);
    for (const Index &i : ivector.indexes) REQUIRE(i.t == 0);
    // Every output frame's input frame is there (the net has no context).
    for (const Index &o : output.indexes) {
      bool found = false;
      for (const Index &i : input.indexes) found = found || i == o;
      REQUIRE(found);
    }
    REQUIRE(output.indexes.size() % num_n == 0);
    REQUIRE(inputs[1].NumRows() == num_n);
    REQUIRE(inputs[1].NumCols() == 2);
  }
}

}  // namespace nnet3
