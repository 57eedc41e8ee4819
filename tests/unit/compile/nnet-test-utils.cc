#include "nnet-test-utils.h"

#include <algorithm>
#include <sstream>

#include "base/error.h"
#include "compile/nnet-context.h"
#include "nnet/component-itf.h"

namespace nnet3 {

namespace {

// InternalError unless `type` is registered.
void RequireRegistered(const std::string &type) {
  if (Component::NewComponentOfType(type) == nullptr)
    NNET3_INTERNAL_ERR << "random network generator: component type '" << type
                       << "' is not registered";
}

std::vector<RandomNetFamily> &FamilyRegistry() {
  static std::vector<RandomNetFamily> families;
  return families;
}

}  // namespace

bool RegisterRandomNetFamily(const RandomNetFamily &family) {
  std::vector<RandomNetFamily> &families = FamilyRegistry();
  NNET3_ASSERT(family.generate != nullptr &&
               std::is_sorted(family.component_types.begin(),
                              family.component_types.end()));
  auto it =
      std::lower_bound(families.begin(), families.end(), family,
                       [](const RandomNetFamily &a, const RandomNetFamily &b) {
                         return a.name < b.name;
                       });
  NNET3_ASSERT(it == families.end() || it->name != family.name);
  families.insert(it, family);
  return true;
}

const std::vector<RandomNetFamily> &RandomNetFamilies() {
  return FamilyRegistry();
}

std::string PickRegisteredType(const std::vector<std::string> &types,
                               RandomState *rng) {
  NNET3_ASSERT(!types.empty());
  for (const std::string &t : types) RequireRegistered(t);
  return types[rng->Int(0, static_cast<int32_t>(types.size()) - 1)];
}

namespace {

// Writes config text for one kind of network. Each method appends lines to
// `os_`; node names are unique within a generated sequence.
class ConfigWriter {
 public:
  ConfigWriter(const NnetGenerationOptions &opts, RandomState *rng)
      : opts_(opts), rng_(rng) {
    affine_type_ = PickRegisteredType(
        {"AffineComponent", "NaturalGradientAffineComponent"}, rng);
    output_dim_ = opts.output_dim > 0 ? opts.output_dim : rng->Int(1, 12);
  }

  std::ostringstream &os() { return os_; }
  std::string Take() {
    std::string s = os_.str();
    os_.str("");
    return s;
  }
  int32_t OutputDim() const { return output_dim_; }
  bool Coin(int32_t one_in = 2) { return rng_->Int(0, one_in - 1) == 0; }
  int32_t Int(int32_t lo, int32_t hi) { return rng_->Int(lo, hi); }

  // The input nodes; returns the descriptor that feeds the first layer and
  // sets *dim to its dim.
  std::string Inputs(int32_t *dim);
  // An affine layer `name` (a component and a component node).
  void Affine(const std::string &name, const std::string &input, int32_t in_dim,
              int32_t out_dim) {
    os_ << "component name=" << name << " type=" << affine_type_
        << " input-dim=" << in_dim << " output-dim=" << out_dim << "\n"
        << "component-node name=" << name << " component=" << name
        << " input=" << input << "\n";
  }
  // Optional BatchNorm, then a ReLU/Sigmoid/Tanh after node `input`;
  // returns the last node's name (`input` if nonlinearities are off).
  std::string Nonlinearity(const std::string &prefix, const std::string &input,
                           int32_t dim);
  // final_affine (+ optional final Softmax/LogSoftmax) and the output node
  // "output"; maybe "output2" from `second_source`.
  void Final(const std::string &input, int32_t in_dim,
             const std::string &second_source, int32_t second_dim);
  // A random descriptor over node `prev` (dim `dim`); sets *out_dim.
  std::string HiddenDescriptor(const std::string &prev, int32_t dim,
                               int32_t *out_dim);

 private:
  void SimpleComponent(const std::string &name, const std::string &type,
                       const std::string &input, int32_t dim) {
    os_ << "component name=" << name << " type=" << type << " dim=" << dim
        << "\n"
        << "component-node name=" << name << " component=" << name
        << " input=" << input << "\n";
  }

  const NnetGenerationOptions &opts_;
  RandomState *rng_;
  std::ostringstream os_;
  std::string affine_type_;
  int32_t output_dim_;
};

std::string ConfigWriter::Inputs(int32_t *dim) {
  int32_t d = Int(2, 8);
  os_ << "input-node name=input dim=" << d << "\n";
  std::string desc = "input";
  *dim = d;
  std::vector<std::string> parts = {"input"};
  if (opts_.allow_multiple_inputs && Coin(3)) {
    int32_t d2 = Int(1, 5);
    os_ << "input-node name=input2 dim=" << d2 << "\n";
    parts.push_back("input2");
    *dim += d2;
  }
  if (opts_.allow_ivector && Coin()) {
    int32_t di = Int(1, 4);
    os_ << "input-node name=ivector dim=" << di << "\n";
    parts.push_back("ReplaceIndex(ivector, t, 0)");
    *dim += di;
  }
  if (parts.size() == 1) return desc;
  desc = "Append(";
  for (size_t i = 0; i < parts.size(); i++)
    desc += (i > 0 ? ", " : "") + parts[i];
  return desc + ")";
}

std::string ConfigWriter::Nonlinearity(const std::string &prefix,
                                       const std::string &input, int32_t dim) {
  if (!opts_.allow_nonlinearity) return input;
  std::string last = input;
  RequireRegistered("BatchNormComponent");
  if (Coin(4)) {
    SimpleComponent(prefix + "_bn", "BatchNormComponent", last, dim);
    last = prefix + "_bn";
  }
  const std::string type = PickRegisteredType(
      {"RectifiedLinearComponent", "SigmoidComponent", "TanhComponent"}, rng_);
  SimpleComponent(prefix + "_nl", type, last, dim);
  return prefix + "_nl";
}

void ConfigWriter::Final(const std::string &input, int32_t in_dim,
                         const std::string &second_source, int32_t second_dim) {
  Affine("final_affine", input, in_dim, output_dim_);
  std::string out = "final_affine";
  if (opts_.allow_final_nonlinearity && Coin()) {
    SimpleComponent(
        "final_nonlin",
        PickRegisteredType({"LogSoftmaxComponent", "SoftmaxComponent"}, rng_),
        out, output_dim_);
    out = "final_nonlin";
  }
  os_ << "output-node name=output input=" << out << "\n";
  if (opts_.allow_multiple_outputs && !second_source.empty() && Coin()) {
    Affine("output2_affine", second_source, second_dim, Int(1, 6));
    os_ << "output-node name=output2 input=output2_affine"
        << (Coin() ? " objective=quadratic" : "") << "\n";
  }
}

std::string ConfigWriter::HiddenDescriptor(const std::string &prev, int32_t dim,
                                           int32_t *out_dim) {
  *out_dim = dim;
  switch (Int(0, 5)) {
    case 0:
      return "Scale(0.5, " + prev + ")";
    case 1:
      return "Sum(Const(1.0, " + std::to_string(dim) + "), Scale(-1.0, " +
             prev + "))";
    case 2: {
      // A dim-range node over part of prev, appended to prev.
      int32_t part = Int(1, dim), offset = Int(0, dim - part);
      os_ << "dim-range-node name=" << prev << "_part input-node=" << prev
          << " dim-offset=" << offset << " dim=" << part << "\n";
      *out_dim = dim + part;
      return "Append(" + prev + "_part, " + prev + ")";
    }
    case 3:
      if (opts_.allow_context) {  // TDNN-style splicing
        *out_dim = 3 * dim;
        return "Append(Offset(" + prev + ", -1), " + prev + ", Offset(" + prev +
               ", 1))";
      }
      return prev;
    default:
      return prev;
  }
}

// ---------------------------------------------------------------------------
// The kinds, each followed by its registration as a family (for the type
// test; GenerateConfigSequence picks among them with one draw).

// The component types of Final(): the affine types and the final
// nonlinearities.
std::vector<std::string> FinalTypes() {
  return {"AffineComponent", "LogSoftmaxComponent",
          "NaturalGradientAffineComponent", "SoftmaxComponent"};
}
// ... and of hidden layers too (Affine + Nonlinearity).
std::vector<std::string> HiddenAndFinalTypes() {
  return {"AffineComponent",          "BatchNormComponent",
          "LogSoftmaxComponent",      "NaturalGradientAffineComponent",
          "RectifiedLinearComponent", "SigmoidComponent",
          "SoftmaxComponent",         "TanhComponent"};
}

void SimplestConfig(ConfigWriter *w, std::vector<std::string> *configs) {
  int32_t dim;
  std::string input = w->Inputs(&dim);
  w->Final(input, dim, "", 0);
  configs->push_back(w->Take());
}

[[maybe_unused]] const bool kSimplestRegistered = RegisterRandomNetFamily(
    {"simplest", FinalTypes(),
     [](const NnetGenerationOptions &opts, RandomState *rng,
        std::vector<std::string> *configs) {
       ConfigWriter w(opts, rng);
       SimplestConfig(&w, configs);
       return true;
     }});

void SplicedConfig(ConfigWriter *w, std::vector<std::string> *configs) {
  int32_t dim;
  std::string input = w->Inputs(&dim);
  // input is "input" or an Append; splice the primary input only.
  std::vector<int32_t> offsets;
  int32_t num = w->Int(2, 4);
  while (static_cast<int32_t>(offsets.size()) < num) {
    int32_t o = w->Int(-4, 4);
    if (std::find(offsets.begin(), offsets.end(), o) == offsets.end())
      offsets.push_back(o);
  }
  std::sort(offsets.begin(), offsets.end());
  std::string desc = "Append(";
  for (size_t i = 0; i < offsets.size(); i++) {
    desc += i > 0 ? ", " : "";
    desc += offsets[i] == 0
                ? input
                : "Offset(" + input + ", " + std::to_string(offsets[i]) + ")";
  }
  desc += ")";
  int32_t hidden = w->Int(2, 10);
  w->Affine("affine1", desc, dim * num, hidden);
  std::string last = w->Nonlinearity("layer1", "affine1", hidden);
  w->Final(last, hidden, last, hidden);
  configs->push_back(w->Take());
}

[[maybe_unused]] const bool kSplicedRegistered = RegisterRandomNetFamily(
    {"spliced", HiddenAndFinalTypes(),
     [](const NnetGenerationOptions &opts, RandomState *rng,
        std::vector<std::string> *configs) {
       if (!opts.allow_context) return false;
       ConfigWriter w(opts, rng);
       SplicedConfig(&w, configs);
       return true;
     }});

void FeedForwardConfig(ConfigWriter *w, std::vector<std::string> *configs) {
  int32_t dim;
  std::string desc = w->Inputs(&dim);
  int32_t num_layers = w->Int(1, 3);
  std::string last;
  int32_t hidden = 0;
  for (int32_t l = 1; l <= num_layers; l++) {
    std::string name = "affine" + std::to_string(l);
    hidden = w->Int(2, 10);
    w->Affine(name, desc, dim, hidden);
    last = w->Nonlinearity("layer" + std::to_string(l), name, hidden);
    desc = w->HiddenDescriptor(last, hidden, &dim);
  }
  // The final layer reads the last hidden layer through `desc`.
  w->Final(desc, dim, last, hidden);
  configs->push_back(w->Take());
  // (Only when final_affine reads `last` directly: otherwise nodes made for
  // its old input would become orphans.)
  if (desc == last && w->Coin(3)) {
    // Add a layer on top and redefine final_affine to read it (the
    // component is replaced in place, the node moves to its new line).
    int32_t extra = w->Int(2, 10);
    w->Affine("extra_affine", last, hidden, extra);
    std::string top = w->Nonlinearity("extra", "extra_affine", extra);
    w->Affine("final_affine", top, extra, w->OutputDim());
    configs->push_back(w->Take());
  }
}

[[maybe_unused]] const bool kFeedForwardRegistered = RegisterRandomNetFamily(
    {"feed-forward", HiddenAndFinalTypes(),
     [](const NnetGenerationOptions &opts, RandomState *rng,
        std::vector<std::string> *configs) {
       ConfigWriter w(opts, rng);
       FeedForwardConfig(&w, configs);
       return true;
     }});

void RecurrentConfig(ConfigWriter *w, std::vector<std::string> *configs) {
  int32_t dim;
  std::string input = w->Inputs(&dim);
  int32_t hidden = w->Int(2, 8), delay = w->Int(1, 3);
  // The recurrent node is the nonlinearity if there is one, else the
  // affine; its name is known only after Nonlinearity(), hence REC.
  w->Affine("rnn_affine",
            "Append(" + input + ", IfDefined(Offset(REC, -" +
                std::to_string(delay) + ")))",
            dim + hidden, hidden);
  std::string rec = w->Nonlinearity("rnn", "rnn_affine", hidden);
  std::string text = w->Take();
  text.replace(text.find("REC"), 3, rec);
  w->os() << text;
  std::string final_input;
  switch (w->Int(0, 2)) {
    case 0:
      final_input = rec;
      break;
    case 1:
      // Not Failover(..., Const()): a Failover whose sides have different
      // constant terms cannot be compiled (GetScaleForNode, as in Kaldi).
      final_input = "Failover(Offset(" + rec + ", -1), " + rec + ")";
      break;
    default:
      final_input = "Sum(" + rec + ", IfDefined(Offset(" + rec + ", -2)))";
  }
  w->Final(final_input, hidden, rec, hidden);
  configs->push_back(w->Take());
}

[[maybe_unused]] const bool kRecurrentRegistered = RegisterRandomNetFamily(
    {"recurrent", HiddenAndFinalTypes(),
     [](const NnetGenerationOptions &opts, RandomState *rng,
        std::vector<std::string> *configs) {
       if (!opts.allow_context || !opts.allow_recursion) return false;
       ConfigWriter w(opts, rng);
       RecurrentConfig(&w, configs);
       return true;
     }});

void ClockworkConfig(ConfigWriter *w, bool recursion,
                     std::vector<std::string> *configs) {
  int32_t dim;
  std::string input = w->Inputs(&dim);
  int32_t hidden = w->Int(2, 8), m = w->Int(2, 3);
  w->Affine("fast", input, dim, hidden);
  std::string fast = w->Nonlinearity("fast", "fast", hidden);
  std::string rm = std::to_string(m);
  if (recursion && w->Coin())
    w->Affine("slow",
              "Append(Round(" + fast + ", " + rm +
                  "), IfDefined(Offset(slow, -" + rm + ")))",
              2 * hidden, hidden);
  else
    w->Affine("slow", "Round(" + fast + ", " + rm + ")", hidden, hidden);
  std::string sw = w->Coin() ? "Switch(" + fast + ", slow)"
                             : "Switch(" + fast + ", slow, " + fast + ")";
  w->Final("Append(" + sw + ", Round(slow, " + rm + "))", 2 * hidden, fast,
           hidden);
  configs->push_back(w->Take());
}

[[maybe_unused]] const bool kClockworkRegistered = RegisterRandomNetFamily(
    {"clockwork", HiddenAndFinalTypes(),
     [](const NnetGenerationOptions &opts, RandomState *rng,
        std::vector<std::string> *configs) {
       if (!opts.allow_context || !opts.allow_clockwork) return false;
       ConfigWriter w(opts, rng);
       ClockworkConfig(&w, opts.allow_recursion, configs);
       return true;
     }});

}  // namespace

void GenerateConfigSequence(const NnetGenerationOptions &opts, RandomState *rng,
                            std::vector<std::string> *configs) {
  configs->clear();
  ConfigWriter w(opts, rng);
  while (configs->empty()) {
    if (GenerateDistributeConfigs(opts, rng, configs)) break;
    if (GenerateRestrictedAttentionConfigs(opts, rng, configs)) break;
    if (GenerateCompositeBlockConfigs(opts, rng, configs)) break;
    if (GenerateLstmConfigs(opts, rng, configs)) break;
    switch (rng->Int(0, 5)) {
      case 0:
        SimplestConfig(&w, configs);
        break;
      case 1:
        if (opts.allow_context) SplicedConfig(&w, configs);
        break;
      case 2:
      case 3:
        FeedForwardConfig(&w, configs);
        break;
      case 4:
        if (opts.allow_context && opts.allow_recursion)
          RecurrentConfig(&w, configs);
        break;
      default:
        if (opts.allow_context && opts.allow_clockwork)
          ClockworkConfig(&w, opts.allow_recursion, configs);
        break;
    }
  }
}

Nnet NnetFromConfigSequence(const std::vector<std::string> &configs) {
  Nnet nnet;
  for (size_t i = 0; i < configs.size(); i++) {
    std::istringstream is(configs[i]);
    nnet.ReadConfig(is, "generated-config-" + std::to_string(i + 1));
  }
  return nnet;
}

namespace {

void NnetContext(const Nnet &nnet, int32_t *left, int32_t *right) {
  *left = *right = kMaxGeneratedContext;
  // Networks with extra frame-level inputs are not "simple": they keep the
  // generous window.
  if (IsSimpleNnet(nnet)) ComputeSimpleNnetContext(nnet, left, right);
}

std::vector<Index> FrameIndexes(int32_t n0, int32_t num_n, int32_t t_begin,
                                int32_t t_end) {
  std::vector<Index> v;
  for (int32_t n = n0; n < n0 + num_n; n++)
    for (int32_t t = t_begin; t < t_end; t++) v.push_back(Index(n, t, 0));
  return v;
}

}  // namespace

void ComputeExampleComputationRequestSimple(const Nnet &nnet, RandomState *rng,
                                            ComputationRequest *request,
                                            std::vector<Matrix> *inputs) {
  int32_t left, right;
  NnetContext(nnet, &left, &right);
  int32_t num_out = rng->Int(1, 10), out_begin = rng->Int(0, 9),
          out_end = out_begin + num_out;
  int32_t num_n = rng->Int(1, 4), n0 = rng->Int(0, 1);
  int32_t in_begin = out_begin - left - rng->Int(0, 2),
          in_end = std::max(out_end + right + rng->Int(0, 2), in_begin + 3);
  *request = ComputationRequest();
  inputs->clear();
  for (int32_t node = 0; node < nnet.NumNodes(); node++) {
    if (!nnet.IsInputNode(node)) continue;
    const std::string &name = nnet.GetNodeName(node);
    IoSpecification io;
    io.name = name;
    if (name == "ivector") {
      for (int32_t n = n0; n < n0 + num_n; n++)
        io.indexes.push_back(Index(n, 0, 0));
    } else {
      io.indexes = FrameIndexes(n0, num_n, in_begin, in_end);
    }
    io.has_deriv = rng->Int(0, 2) == 0;
    request->inputs.push_back(io);
    Matrix m(static_cast<int32_t>(io.indexes.size()), nnet.InputDim(name));
    m.SetRandn(rng->NextSeed());
    inputs->push_back(std::move(m));
  }
  for (int32_t node = 0; node < nnet.NumNodes(); node++) {
    if (!nnet.IsOutputNode(node)) continue;
    request->outputs.push_back(IoSpecification(
        nnet.GetNodeName(node), FrameIndexes(n0, num_n, out_begin, out_end),
        rng->Int(0, 1) == 0));
  }
  request->need_model_derivative = rng->Int(0, 1) == 0;
  request->store_component_stats = rng->Int(0, 1) == 0;
  // Derivatives flow back from the outputs: if any are wanted, the first
  // output supplies one.
  bool want = request->need_model_derivative;
  for (const IoSpecification &io : request->inputs) want = want || io.has_deriv;
  if (want && !request->outputs.empty()) request->outputs[0].has_deriv = true;
}

}  // namespace nnet3
