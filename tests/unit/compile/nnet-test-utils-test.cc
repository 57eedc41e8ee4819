#include "nnet-test-utils.h"

#include <catch2/catch.hpp>
#include <map>

#include "base/error.h"

namespace nnet3 {

namespace {

bool Has(const std::vector<std::string> &configs, const std::string &what) {
  for (const std::string &c : configs)
    if (c.find(what) != std::string::npos) return true;
  return false;
}

// Component types that only the LSTM families (random-nets-lstm.cc) use.
const char *const kLstmFamilyTypes[] = {
    "LstmNonlinearityComponent", "GruNonlinearityComponent",
    "OutputGruNonlinearityComponent", "BackpropTruncationComponent",
    "PerElementScaleComponent"};

}  // namespace

TEST_CASE("GenerateConfigSequence makes valid networks", "[computation]") {
  // Seeds 1..200; each seed is printed if its network fails.
  std::map<std::string, int32_t> seen;
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
    REQUIRE(nnet.GetNodeIndex("input") >= 0);
    REQUIRE(nnet.IsOutputNode(nnet.GetNodeIndex("output")));
    for (const char *what :
         {"IfDefined(", "Failover(", "Switch(", "Round(", "ReplaceIndex(",
          "Const(", "Scale(", "dim-range-node", "Offset(", "input2", "output2",
          "BatchNormComponent", "SoftmaxComponent", "DistributeComponent",
          "RestrictedAttentionComponent", "CompositeComponent"})
      if (Has(configs, what)) seen[what]++;
    if (configs.size() > 1) seen["incremental"]++;
    for (const char *what : kLstmFamilyTypes)
      if (Has(configs, what)) seen[what]++;

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
  for (const char *what : kLstmFamilyTypes) {
    INFO(what);
    REQUIRE(seen[what] > 0);
  }
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
