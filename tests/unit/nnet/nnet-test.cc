// Nnet: config reading (reference 1.3: forward references, incremental
// configs, first value wins, every bad input as a one-line "FILE:LINE:"
// error), config lines written back (1.4), model files (4.3: round trips,
// hand-written golden files, corrupted input) and Info().
#include "nnet/nnet.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/error.h"
#include "nnet-test-utils.h"
#include "nnet/nnet-utils.h"

using namespace nnet3;

namespace {

const char *const kMlpConfig =
    "# an MLP with a spliced first layer\n"
    "input-node name=input dim=4\n"
    "component name=affine1 type=AffineComponent input-dim=8 output-dim=5\n"
    "component-node name=affine1 component=affine1 "
    "input=Append(Offset(input,-1),input)   # comment\n"
    "component name=relu1 type=RectifiedLinearComponent dim=5\n"
    "component-node name=relu1 component=relu1 input=affine1\n"
    "\n"
    "component name=final_affine type=AffineComponent input-dim=5 "
    "output-dim=3\n"
    "component-node name=final_affine component=final_affine input=relu1\n"
    "component name=log_softmax type=LogSoftmaxComponent dim=3\n"
    "component-node name=log_softmax component=log_softmax "
    "input=final_affine\n"
    "output-node name=output input=log_softmax\n";

const std::vector<std::string> kMlpTypes = {
    "AffineComponent", "RectifiedLinearComponent", "LogSoftmaxComponent"};

std::vector<std::string> ConfigLines(const Nnet &nnet, bool include_dim) {
  std::vector<std::string> lines;
  nnet.GetConfigLines(include_dim, &lines);
  return lines;
}

std::string ReadFile(const std::string &path) {
  std::ifstream is(path, std::ios::binary);
  REQUIRE(is.good());
  std::ostringstream os;
  os << is.rdbuf();
  return os.str();
}

// The one-line message of reading `bytes` as a model, or "<no error>".
std::string ReadError(const std::string &bytes) {
  try {
    ReadFromString(bytes);
  } catch (const UserError &e) {
    std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find('\n') == std::string::npos);
    return msg;
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("Nnet config: structure, names and config lines", "[nnet]") {
  if (!HaveComponentTypes(kMlpTypes)) return;
  Nnet nnet = NnetFromConfig(kMlpConfig);
  REQUIRE(nnet.NumNodes() == 10);
  REQUIRE(nnet.NumComponents() == 4);
  std::vector<std::string> names = {"input",        "affine1_input",
                                    "affine1",      "relu1_input",
                                    "relu1",        "final_affine_input",
                                    "final_affine", "log_softmax_input",
                                    "log_softmax",  "output"};
  CHECK(nnet.GetNodeNames() == names);
  CHECK(nnet.IsInputNode(0));
  CHECK(nnet.IsComponentInputNode(1));
  CHECK_FALSE(nnet.IsOutputNode(1));
  CHECK(nnet.IsComponentNode(2));
  CHECK(nnet.IsOutputNode(9));
  CHECK(nnet.IsDescriptorNode(9));
  CHECK_FALSE(nnet.IsDimRangeNode(9));
  CHECK(nnet.GetNode(2).component_index == 0);
  CHECK(nnet.GetComponentIndex("relu1") == 1);
  CHECK(nnet.GetComponentName(3) == "log_softmax");
  CHECK(nnet.GetComponentIndex("nope") == -1);
  CHECK(nnet.GetNodeIndex("nope") == -1);
  CHECK(nnet.GetNodeIndex("relu1_input") == 3);
  CHECK(nnet.InputDim("input") == 4);
  CHECK(nnet.InputDim("output") == -1);
  CHECK(nnet.OutputDim("output") == 3);
  CHECK(nnet.OutputDim("input") == -1);
  CHECK(nnet.GetNode(9).Dim(nnet) == 3);
  CHECK(nnet.GetNode(1).Dim(nnet) == 8);
  CHECK(nnet.GetNode(9).objective_type == kLinear);
  CHECK(nnet.Modulus() == 1);
  CHECK(NumInputNodes(nnet) == 1);
  CHECK(NumOutputNodes(nnet) == 1);

  std::vector<std::string> lines = {
      "input-node name=input dim=4",
      "component-node name=affine1 component=affine1 "
      "input=Append(Offset(input, -1), input)",
      "component-node name=relu1 component=relu1 input=affine1",
      "component-node name=final_affine component=final_affine input=relu1",
      "component-node name=log_softmax component=log_softmax "
      "input=final_affine",
      "output-node name=output input=log_softmax objective=linear"};
  CHECK(ConfigLines(nnet, false) == lines);
  std::vector<std::string> with_dims = ConfigLines(nnet, true);
  REQUIRE(with_dims.size() == 6);
  CHECK(with_dims[0] == "input-node name=input dim=4");
  CHECK(with_dims[1] ==
        "component-node name=affine1 component=affine1 "
        "input=Append(Offset(input, -1), input) input-dim=8 output-dim=5");
  CHECK(with_dims[5] ==
        "output-node name=output input=log_softmax dim=3 objective=linear");
}

TEST_CASE("Nnet config: forward references and recurrence", "[nnet]") {
  if (!HaveComponentTypes(kMlpTypes)) return;
  // The output node and affine1 refer to nodes defined further down.
  Nnet nnet = NnetFromConfig(
      "output-node name=output input=relu1 objective=quadratic\n"
      "input-node name=input dim=4\n"
      "component-node name=affine1 component=affine1 "
      "input=Append(input, IfDefined(Offset(relu1, -1)))\n"
      "component name=affine1 type=AffineComponent input-dim=7 output-dim=3\n"
      "component-node name=relu1 component=relu1 input=affine1\n"
      "component name=relu1 type=RectifiedLinearComponent dim=3\n");
  CHECK(nnet.NumNodes() == 6);
  CHECK(nnet.IsOutputNode(0));
  CHECK(nnet.GetNode(0).objective_type == kQuadratic);
  CHECK(nnet.OutputDim("output") == 3);
  CHECK(ConfigLines(nnet, false)[0] ==
        "output-node name=output input=relu1 objective=quadratic");
  CHECK(ConfigLines(nnet, false)[2] ==
        "component-node name=affine1 component=affine1 "
        "input=Append(input, IfDefined(Offset(relu1, -1)))");
  // Round and Switch make the modulus the lcm of their periods.
  Nnet clockwork = NnetFromConfig(
      "input-node name=input dim=4\n"
      "output-node name=output input=Sum(Round(input, 3), Switch(input, "
      "input))\n");
  CHECK(clockwork.Modulus() == 6);
}

TEST_CASE("Nnet config: incremental configs (the nnet3-init example)",
          "[nnet]") {
  if (!HaveComponentTypes(kMlpTypes)) return;
  Nnet nnet = NnetFromConfig(
      "input-node name=input dim=4\n"
      "component name=affine1 type=AffineComponent input-dim=4 output-dim=6\n"
      "component-node name=affine1 component=affine1 input=input\n"
      "component name=relu1 type=RectifiedLinearComponent dim=6\n"
      "component-node name=relu1 component=relu1 input=affine1\n"
      "component name=final_affine type=AffineComponent input-dim=6 "
      "output-dim=3\n"
      "component-node name=final_affine component=final_affine input=relu1\n"
      "output-node name=output input=final_affine\n");
  std::string first_model = WriteToString(nnet, true);
  // The second config redefines final_affine (component and node) and adds
  // a layer; the old final_affine node line is replaced.
  ApplyConfig(
      "component name=affine2 type=AffineComponent input-dim=6 output-dim=5\n"
      "component-node name=affine2 component=affine2 input=relu1\n"
      "component name=relu2 type=RectifiedLinearComponent dim=5\n"
      "component-node name=relu2 component=relu2 input=affine2\n"
      "component name=final_affine type=AffineComponent input-dim=5 "
      "output-dim=3\n"
      "component-node name=final_affine component=final_affine input=relu2\n",
      &nnet);
  std::vector<std::string> lines = {
      "input-node name=input dim=4",
      "component-node name=affine1 component=affine1 input=input",
      "component-node name=relu1 component=relu1 input=affine1",
      "output-node name=output input=final_affine objective=linear",
      "component-node name=affine2 component=affine2 input=relu1",
      "component-node name=relu2 component=relu2 input=affine2",
      "component-node name=final_affine component=final_affine input=relu2"};
  CHECK(ConfigLines(nnet, false) == lines);
  // final_affine was replaced in place (index 2); new components appended.
  std::vector<std::string> components = {"affine1", "relu1", "final_affine",
                                         "affine2", "relu2"};
  CHECK(nnet.GetComponentNames() == components);
  CHECK(nnet.GetComponent(2)->InputDim() == 5);
  CHECK(nnet.OutputDim("output") == 3);
  // affine1 itself is untouched.
  Nnet first = ReadFromString(first_model);
  std::ostringstream a, b;
  first.GetComponent(0)->Write(a, false);
  nnet.GetComponent(0)->Write(b, false);
  CHECK(a.str() == b.str());

  // Redefining a component with a new input dim while an existing node
  // still feeds it the old dim is an error naming that existing line.
  std::string msg = ConfigError(
      "component name=relu2 type=RectifiedLinearComponent dim=4\n", &nnet);
  CHECK_THAT(msg, Catch::Contains("nnet.config: existing line "
                                  "'component-node name=relu2"));
  CHECK_THAT(msg, Catch::Contains("has dim 5"));
  CHECK_THAT(msg, Catch::Contains("input-dim 4"));
}

TEST_CASE("Nnet config: first value of a duplicated key wins", "[nnet]") {
  if (!HaveComponentTypes(kMlpTypes)) return;
  Nnet nnet = NnetFromConfig(
      "input-node name=input dim=4 dim=9\n"
      "component name=a type=AffineComponent input-dim=4 output-dim=3 "
      "output-dim=7\n"
      "component-node name=a component=a input=input input=nope\n"
      "output-node name=output input=a objective=quadratic objective=bad\n");
  CHECK(nnet.InputDim("input") == 4);
  CHECK(nnet.GetComponent(0)->OutputDim() == 3);
  CHECK(nnet.GetNode(3).objective_type == kQuadratic);
}

TEST_CASE("Nnet config: dim-range nodes", "[nnet]") {
  if (!HaveComponentTypes(kMlpTypes)) return;
  Nnet nnet = NnetFromConfig(
      "input-node name=input dim=4\n"
      "component name=affine1 type=AffineComponent input-dim=4 output-dim=6\n"
      "component-node name=affine1 component=affine1 input=input\n"
      "dim-range-node name=low input-node=affine1 dim-offset=0 dim=2\n"
      "dim-range-node name=high input-node=affine1 dim=4 dim-offset=2\n"
      "dim-range-node name=in2 input-node=input dim-offset=1 dim=3\n"
      "output-node name=output input=Append(low, Offset(high, 1), in2)\n");
  int32_t high = nnet.GetNodeIndex("high");
  REQUIRE(nnet.IsDimRangeNode(high));
  CHECK(nnet.GetNode(high).node_index == nnet.GetNodeIndex("affine1"));
  CHECK(nnet.GetNode(high).dim_offset == 2);
  CHECK(nnet.GetNode(high).Dim(nnet) == 4);
  CHECK(nnet.OutputDim("output") == 9);
  CHECK(ConfigLines(nnet, false)[3] ==
        "dim-range-node name=high input-node=affine1 dim-offset=2 dim=4");
}

TEST_CASE("Nnet config: bad input gives one-line FILE:LINE errors", "[nnet]") {
  if (!HaveComponentTypes(kMlpTypes)) return;
  const std::string in = "input-node name=input dim=4\n";
  const std::string out = "output-node name=output input=input\n";
  struct Case {
    std::string config, expected;
  };
  std::vector<Case> cases = {
      {in + "foo-node name=x\n",
       "nnet.config:2: invalid line type 'foo-node' (expected component, "
       "component-node, input-node, output-node or dim-range-node)"},
      {in + "name=x dim=3\n", "nnet.config:2: the line does not start with"},
      {in + "input-node name='x dim=3\n", "nnet.config:2: cannot parse"},
      {"\n\n" + in + "component name=c type=FooComponent dim=3\n" + out,
       "nnet.config:4: unknown component type 'FooComponent' (known types: "},
      {in +
           "component name=c type=AffineComponent input-dim=4 output-dim=3 "
           "learning-rat=0.1\n" +
           out,
       "nnet.config:2: unused value 'learning-rat=0.1'"},
      {in + "input-node name=x dim=3 dimm=4\n" + out,
       "nnet.config:2: unused value 'dimm=4'"},
      {in + out + "output-node name=o2 input=input objectiv=linear\n",
       "nnet.config:3: unused value 'objectiv=linear'"},
      {"input-node name=input\n" + out,
       "nnet.config:1: input-node line needs dim=<dimension>"},
      {in + "component name=c input-dim=3\n" + out,
       "nnet.config:2: component line needs type="},
      {in + "component-node name=x component=c\n" + out,
       "nnet.config:2: component-node line needs input="},
      {in + "output-node name=x\n" + out,
       "nnet.config:2: output-node line needs input="},
      {in + "dim-range-node name=r input-node=input dim=2\n" + out,
       "nnet.config:2: dim-range-node line needs dim-offset="},
      {in + "input-node dim=3\n" + out,
       "nnet.config:2: input-node line has no name=<name>"},
      {in + "input-node name=1x dim=3\n" + out,
       "nnet.config:2: invalid name '1x'"},
      {"input-node name=input dim=abc\n" + out,
       "nnet.config:1: Invalid value 'abc' for dim (expected an integer)"},
      {"input-node name=input dim=0\n" + out,
       "nnet.config:1: input-node dim must be > 0, got 0"},
      {in + "output-node name=output input=Append(input, \n",
       "nnet.config:2: In descriptor 'Append(input,': expected"},
      {in + "output-node name=output input=Offset(input, x)\n",
       "nnet.config:2: In descriptor 'Offset(input, x)'"},
      {in + "output-node name=output input=Append(input, foo)\n",
       "nnet.config:2: undefined node 'foo' in input=Append(input, foo) (no "
       "input-node, component-node or dim-range-node has that name)"},
      {in + out + "output-node name=o2 input=output\n",
       "nnet.config:3: node 'output' in input=output is an output node"},
      {in +
           "component name=c type=AffineComponent input-dim=3 output-dim=2\n"
           "component-node name=c component=c input=input\n" +
           out,
       "nnet.config:3: component-node 'c': its input input has dim 4 but "
       "component 'c' (AffineComponent) has input-dim 3"},
      {in + "component-node name=c component=nope input=input\n" + out,
       "nnet.config:2: component-node 'c': there is no component 'nope'"},
      {in + out + "input-node name=input dim=5\n",
       "nnet.config:3: node name 'input' is already defined at line 1"},
      {in + out +
           "component name=c type=RectifiedLinearComponent dim=4\n"
           "component name=c type=RectifiedLinearComponent dim=4\n",
       "nnet.config:4: component name 'c' is already defined at line 3"},
      {in +
           "component name=c type=RectifiedLinearComponent dim=4\n"
           "component-node name=c component=c input=input\n"
           "input-node name=c_input dim=3\n" +
           out,
       "nnet.config:4: node name 'c_input' is already used by nnet.config:3"},
      {in + "dim-range-node name=r input-node=input dim-offset=2 dim=3\n" + out,
       "nnet.config:2: dim-range-node 'r': dim-offset=2 dim=3 is not a range "
       "inside node 'input' of dim 4"},
      {in + "dim-range-node name=r input-node=nope dim-offset=0 dim=1\n" + out,
       "nnet.config:2: dim-range-node 'r': input-node 'nope' is not defined"},
      {in + out +
           "dim-range-node name=r input-node=output dim-offset=0 "
           "dim=1\n",
       "nnet.config:3: dim-range-node 'r': input-node 'output' must be an "
       "input-node or a component-node"},
      {in + "output-node name=output input=input objective=cross\n",
       "nnet.config:2: invalid objective 'cross'"},
      {in + "output-node name=output input=Sum(input, Const(1, 3))\n",
       "nnet.config:2: "},
      {in, "nnet.config: the network has no output node"},
      {out, "nnet.config:1: undefined node 'input'"},
      {"output-node name=output input=Const(1, 3)\n",
       "nnet.config: the network has no input node"},
  };
  for (const Case &c : cases) {
    INFO("config:\n" << c.config);
    std::string msg = ConfigError(c.config);
    CHECK_THAT(msg, Catch::StartsWith(c.expected));
  }
  // A component's own InitFromConfig errors are prefixed with FILE:LINE.
  CHECK_THAT(ConfigError(in +
                         "component name=c type=AffineComponent "
                         "input-dim=4\n" +
                         out),
             Catch::StartsWith("nnet.config:2: "));
}

TEST_CASE("Nnet config: a failed ReadConfig leaves the network as it was",
          "[nnet]") {
  if (!HaveComponentTypes(kMlpTypes)) return;
  Nnet nnet = NnetFromConfig(kMlpConfig);
  std::string before = WriteToString(nnet, true);
  std::istringstream bad(
      "component name=relu1 type=RectifiedLinearComponent dim=2\n"
      "input-node name=x dim=2\n"
      "output-node name=output input=nope\n");
  CHECK_THROWS_AS(nnet.ReadConfig(bad, "bad.config"), UserError);
  CHECK(WriteToString(nnet, true) == before);
}

TEST_CASE("Nnet: copies are deep; Swap; SetNodeName", "[nnet]") {
  if (!HaveComponentTypes(kMlpTypes)) return;
  Nnet nnet = NnetFromConfig(kMlpConfig);
  std::string text = WriteToString(nnet, false);
  Nnet copy(nnet);
  CHECK(WriteToString(copy, false) == text);
  ScaleNnet(2.0f, &copy);
  CHECK(WriteToString(nnet, false) == text);
  CHECK(WriteToString(copy, false) != text);
  Nnet assigned;
  assigned = copy;
  CHECK(WriteToString(assigned, false) == WriteToString(copy, false));
  assigned.Swap(&nnet);
  CHECK(WriteToString(assigned, false) == text);

  Nnet renamed = NnetFromConfig(kMlpConfig);
  renamed.SetNodeName(renamed.GetNodeIndex("relu1"), "hidden");
  CHECK(renamed.GetNodeIndex("hidden_input") == 3);
  CHECK(ConfigLines(renamed, false)[3] ==
        "component-node name=final_affine component=final_affine "
        "input=hidden");
  CHECK_THROWS_AS(renamed.SetNodeName(0, "hidden"), UserError);
  CHECK_THROWS_AS(renamed.SetNodeName(0, "bad name"), UserError);
  renamed.SetNodeName(renamed.GetNodeIndex("output"), "out");
  CHECK(renamed.OutputDim("out") == 3);
  Nnet reread = ReadFromString(WriteToString(renamed, true));
  CHECK(reread.GetNodeNames() == renamed.GetNodeNames());
}

TEST_CASE("Nnet model files: round trips", "[nnet]") {
  if (!HaveComponentTypes(kMlpTypes)) return;
  Nnet nnet = NnetFromConfig(kMlpConfig);
  for (bool binary : {true, false}) {
    std::string bytes = WriteToString(nnet, binary);
    Nnet reread = ReadFromString(bytes);
    CHECK(WriteToString(reread, binary) == bytes);
  }
  // Binary is exact, so its text form is the original's (text is not).
  CHECK(WriteToString(ReadFromString(WriteToString(nnet, true)), false) ==
        WriteToString(nnet, false));
  // The layout of 4.3: config section, empty line, components.
  std::string text = WriteToString(nnet, false);
  CHECK_THAT(text,
             Catch::StartsWith("<Nnet3> \ninput-node name=input dim=4\n"
                               "component-node name=affine1 component=affine1 "
                               "input=Append(Offset(input, -1), input)\n"));
  CHECK_THAT(text,
             Catch::Contains("output-node name=output input=log_softmax "
                             "objective=linear\n\n<NumComponents> 4 \n"
                             "<ComponentName> affine1 <AffineComponent> "));
  CHECK_THAT(text, Catch::EndsWith("</LogSoftmaxComponent> \n</Nnet3> "));
  std::string binary = WriteToString(nnet, true);
  CHECK_THAT(binary, Catch::StartsWith(std::string("\0B<Nnet3> \n", 11) +
                                       "input-node name=input dim=4\n"));
  CHECK_THAT(binary, Catch::Contains("objective=linear\n\n<NumComponents> "));
}

TEST_CASE("Nnet model files: hand-written golden files", "[nnet]") {
  if (!HaveComponentTypes(
          {"NaturalGradientAffineComponent", "RectifiedLinearComponent"}))
    return;
  const std::string dir = std::string(NNET3_TEST_DATA) + "/nnet/models/";
  std::string text = ReadFile(dir + "example.txt");
  std::string binary = ReadFile(dir + "example.bin");
  Nnet from_text = ReadFromString(text);
  Nnet from_binary = ReadFromString(binary);
  CHECK(from_text.NumNodes() == 6);
  CHECK(from_text.OutputDim("output") == 2);
  CHECK(WriteToString(from_text, false) == text);
  CHECK(WriteToString(from_binary, true) == binary);
  CHECK(WriteToString(from_text, true) == binary);
  CHECK(WriteToString(from_binary, false) == text);
}

TEST_CASE("Nnet model files: corrupted input", "[nnet]") {
  if (!HaveComponentTypes(kMlpTypes)) return;
  Nnet nnet = NnetFromConfig(kMlpConfig);
  for (bool binary : {true, false}) {
    std::string bytes = WriteToString(nnet, binary);
    // Every truncation is an error (never a crash or a silent success).
    // (All but the last byte: a missing final space after </Nnet3> is
    // tolerated.)
    for (size_t len = 0; len + 1 < bytes.size(); len += 1 + len / 16) {
      INFO("binary=" << binary << " truncated to " << len << " bytes");
      CHECK(ReadError(bytes.substr(0, len)) != "<no error>");
    }
  }
  std::string text = WriteToString(nnet, false);
  CHECK_THAT(ReadError("<TransitionModel> <Topology> "),
             Catch::Contains("nnet3-am-copy --raw=true"));
  CHECK_THAT(ReadError("<Nnet2> "), Catch::Contains("<Nnet3>"));
  std::string bad_type = text;
  bad_type.replace(bad_type.find("<RectifiedLinearComponent>"), 26,
                   "<RectifiedLinearComponenX>");
  CHECK_THAT(ReadError(bad_type),
             Catch::StartsWith("Reading component 2 of 4 ('relu1'): "));
  CHECK_THAT(ReadError(bad_type),
             Catch::Contains("<RectifiedLinearComponenX>"));
  std::string bad_count = text;
  bad_count.replace(bad_count.find("<NumComponents> 4"), 17,
                    "<NumComponents> -4");
  CHECK_THAT(ReadError(bad_count), Catch::Contains("<NumComponents> -4"));
  std::string bad_line = text;
  bad_line.replace(bad_line.find("input=relu1"), 11, "input=relu9");
  CHECK_THAT(ReadError(bad_line),
             Catch::StartsWith("line 5: undefined node 'relu9'"));
  std::string no_end = text.substr(0, text.find("</Nnet3>"));
  CHECK_THAT(ReadError(no_end + "</Nnet2> "), Catch::Contains("</Nnet3>"));
}

TEST_CASE("Nnet::Info", "[nnet]") {
  if (!HaveComponentTypes(kMlpTypes)) return;
  Nnet nnet = NnetFromConfig(kMlpConfig);
  std::string info = nnet.Info();
  std::string expected_start =
      "num-parameters: " + std::to_string(8 * 5 + 5 + 5 * 3 + 3) +
      "\nmodulus: 1\ninput-node name=input dim=4\n"
      "component-node name=affine1 component=affine1 "
      "input=Append(Offset(input, -1), input) input-dim=8 output-dim=5\n";
  CHECK_THAT(info, Catch::StartsWith(expected_start));
  CHECK_THAT(
      info, Catch::Contains("output-node name=output input=log_softmax dim=3 "
                            "objective=linear\ncomponent name=affine1 "
                            "type=AffineComponent, input-dim=8, output-dim=5"));
  CHECK_THAT(info, Catch::Contains("\ncomponent name=log_softmax "
                                   "type=LogSoftmaxComponent, "));
  CHECK_THAT(info, Catch::EndsWith("\n"));
}

TEST_CASE("Nnet: removing orphans and nodes", "[nnet]") {
  if (!HaveComponentTypes(kMlpTypes)) return;
  Nnet nnet =
      NnetFromConfig(std::string(kMlpConfig) +
                     "input-node name=unused_input dim=2\n"
                     "component name=spare type=RectifiedLinearComponent"
                     " dim=3\n"
                     "component-node name=side component=spare "
                     "input=final_affine\n"
                     "output-node name=output2 input=relu1\n");
  std::vector<int32_t> orphans;
  FindOrphanNodes(nnet, &orphans);
  std::vector<int32_t> expected = {nnet.GetNodeIndex("unused_input"),
                                   nnet.GetNodeIndex("side_input"),
                                   nnet.GetNodeIndex("side")};
  CHECK(orphans == expected);
  Nnet copy(nnet);
  copy.RemoveOrphanNodes();
  CHECK(copy.GetNodeIndex("side") == -1);
  CHECK(copy.GetNodeIndex("unused_input") != -1);
  FindOrphanComponents(copy, &orphans);
  CHECK(orphans == std::vector<int32_t>{copy.GetComponentIndex("spare")});
  copy.RemoveOrphanComponents();
  CHECK(copy.NumComponents() == 4);
  copy.Check();
  copy.RemoveOrphanNodes(true);
  CHECK(copy.GetNodeIndex("unused_input") == -1);
  // A node that others use cannot be removed.
  CHECK_THROWS_WITH(copy.RemoveSomeNodes({copy.GetNodeIndex("relu1")}),
                    Catch::Contains("Cannot remove node 'relu1'"));
  copy.RemoveSomeNodes({copy.GetNodeIndex("output2")});
  CHECK(NumOutputNodes(copy) == 1);
  CHECK(ReadFromString(WriteToString(copy, true)).NumNodes() ==
        copy.NumNodes());
}

TEST_CASE("Nnet config: every example config in configs/ initializes",
          "[nnet]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(NNET3_TEST_DATA) / ".." / ".." / "configs";
  int32_t num_configs = 0;
  for (const fs::directory_entry &e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".config") continue;
    INFO(e.path().string());
    std::ifstream is(e.path());
    Nnet nnet;
    nnet.ReadConfig(is, e.path().filename().string());
    CHECK(NumParameters(nnet) > 0);
    CHECK(NumOutputNodes(nnet) >= 1);
    // The written model reads back to the same bytes.
    std::string bytes = WriteToString(nnet, true);
    CHECK(WriteToString(ReadFromString(bytes), true) == bytes);
    num_configs++;
  }
  CHECK(num_configs >= 5);
}
