#include "builder/net-builder.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "base/error.h"
#include "nnet/nnet.h"
#include "util/kaldi-io.h"

namespace nnet3 {
namespace builder {
namespace {

struct Activation {
  const char *spelling;   // lower case, as users may write it
  const char *component;  // nnet3 type
  const char *suffix;     // node name suffix
};

const Activation kActivations[] = {
    {"sigmoid", "SigmoidComponent", "sigmoid"},
    {"tanh", "TanhComponent", "tanh"},
    {"relu", "RectifiedLinearComponent", "relu"},
    {"rectifiedlinear", "RectifiedLinearComponent", "relu"},
    {"softmax", "SoftmaxComponent", "softmax"},
    {"logsoftmax", "LogSoftmaxComponent", "log-softmax"},
};

std::string Lower(std::string s) {
  for (char &c : s) c = static_cast<char>(std::tolower(c));
  return s;
}

// nullptr for "no activation".
const Activation *FindActivation(const std::string &op,
                                 const std::string &activation) {
  const std::string a = Lower(activation);
  if (a.empty() || a == "none" || a == "linear") return nullptr;
  for (const Activation &act : kActivations)
    if (a == act.spelling) return &act;
  NNET3_ERR << "op '" << op << "': unknown activation '" << activation
            << "' (use Sigmoid, Tanh, Relu, Softmax, LogSoftmax or none)";
  return nullptr;
}

std::string Num(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

std::string Spliced(const std::string &node, const std::vector<int32_t> &ctx) {
  if (ctx.size() == 1 && ctx[0] == 0) return node;
  std::string d = ctx.size() == 1 ? "" : "Append(";
  for (size_t i = 0; i < ctx.size(); ++i) {
    if (i > 0) d += ", ";
    d += ctx[i] == 0 ? node
                     : "Offset(" + node + ", " + std::to_string(ctx[i]) + ")";
  }
  return ctx.size() == 1 ? d : d + ")";
}

}  // namespace

Variable *NetBuilder::NewVariable(Variable::Kind kind, const std::string &name,
                                  int32_t dim) {
  vars_.emplace_back();
  Variable *v = &vars_.back();
  v->kind = kind;
  v->name = name;
  v->dim = dim;
  names_.insert(name);
  return v;
}

bool NetBuilder::IsUsed(const std::string &name) const {
  if (names_.count(name)) return true;
  // "fc1" is taken by "fc1.affine", "fc1.relu", ...
  auto it = names_.lower_bound(name + ".");
  return it != names_.end() && it->compare(0, name.size() + 1, name + ".") == 0;
}

void NetBuilder::CheckNewName(const std::string &op,
                              const std::string &name) const {
  if (IsUsed(name))
    NNET3_ERR << "op '" << op << "': the name '" << name
              << "' is already used";
}

Variable *NetBuilder::AddInput(const std::string &name, int32_t dim) {
  if (dim <= 0)
    NNET3_ERR << "input '" << name << "': dim must be > 0, got " << dim;
  CheckNewName("input", name);
  Line("input-node name=" + name + " dim=" + std::to_string(dim));
  return NewVariable(Variable::kInput, name, dim);
}

Variable *NetBuilder::AddLabel(const std::string &name, int32_t dim) {
  if (dim <= 0)
    NNET3_ERR << "label '" << name << "': dim must be > 0, got " << dim;
  CheckNewName("label", name);
  return NewVariable(Variable::kLabel, name, dim);
}

std::string NetBuilder::OpName(const std::string &type, const OpArgs &args) {
  std::string name = args.GetString("name", "");
  if (!name.empty()) {
    CheckNewName(type, name);
    return name;
  }
  do {  // the next "<type><count>" that no node uses yet
    name = type + std::to_string(++op_counts_[type]);
  } while (IsUsed(name));
  return name;
}

const Variable *NetBuilder::NodeInput(const std::string &op,
                                      const OpArgs &args) {
  const Variable *in = args.GetVariable("input");
  if (in->kind == Variable::kLabel || in->kind == Variable::kLoss)
    NNET3_ERR << "op '" << op << "': input '" << in->name << "' is a "
              << (in->kind == Variable::kLabel ? "label" : "loss")
              << ", not a network node";
  return in;
}

Variable *NetBuilder::AddOpWithArgs(const std::string &type,
                                    const OpArgs &args) {
  // An op that fails leaves the builder as it was.
  const size_t num_vars = vars_.size(), num_lines = lines_.size(),
               num_outputs = output_nodes_.size(), num_losses = losses_.size();
  const auto names = names_;
  const auto counts = op_counts_;
  const auto aliases = aliases_;
  const std::vector<LossSpec> losses = losses_;
  try {
    return AddOpChecked(type, args);
  } catch (...) {
    vars_.resize(num_vars);
    lines_.resize(num_lines);
    output_nodes_.resize(num_outputs);
    losses_ = losses;
    losses_.resize(num_losses);
    names_ = names;
    op_counts_ = counts;
    aliases_ = aliases;
    throw;
  }
}

Variable *NetBuilder::AddOpChecked(const std::string &type,
                                   const OpArgs &args) {
  Variable *v = nullptr;
  if (type == "fc" || type == "tdnn")
    v = AddAffine(type, args);
  else if (type == "batchnorm")
    v = AddBatchNorm(args);
  else if (type == "dropout")
    v = AddDropout(args);
  else if (type == "cross_entropy")
    v = AddCrossEntropy(args);
  else if (type == "mean")
    v = AddMean(args);
  else
    NNET3_ERR << "unknown op '" << type << "' (known: fc, tdnn, batchnorm, "
              << "dropout, cross_entropy, mean)";
  args.CheckAllUsed();
  return v;
}

Variable *NetBuilder::AddAffine(const std::string &type, const OpArgs &args) {
  const Variable *in = NodeInput(type, args);
  const int64_t size = args.GetInt("size");
  if (size <= 0)
    NNET3_ERR << "op '" << type << "': size must be > 0, got " << size;
  const std::vector<int32_t> context = args.GetIntList(
      "context", type == "tdnn" ? std::vector<int32_t>{-1, 0, 1}
                                : std::vector<int32_t>{0});
  if (context.empty())
    NNET3_ERR << "op '" << type << "': context must not be empty";
  const std::string activation =
      args.GetString("activation", type == "tdnn" ? "Relu" : "");
  const Activation *act = FindActivation(type, activation);
  const std::string name = OpName(type, args);
  std::ostringstream c;
  c << "component name=" << name << ".affine type="
    << (args.GetInt("natural_gradient", 0) ? "NaturalGradientAffineComponent"
                                           : "AffineComponent")
    << " input-dim=" << in->dim * static_cast<int64_t>(context.size())
    << " output-dim=" << size;
  const std::pair<const char *, const char *> optional[] = {
      {"param_stddev", "param-stddev"},
      {"bias_stddev", "bias-stddev"},
      {"learning_rate_factor", "learning-rate-factor"},
      {"max_change", "max-change"},
      {"l2_regularize", "l2-regularize"}};
  for (const auto &key : optional)
    if (args.Has(key.first))
      c << " " << key.second << "=" << Num(args.GetReal(key.first, 0.0));
  Line(c.str());
  Line("component-node name=" + name + ".affine component=" + name +
       ".affine input=" + Spliced(in->name, context));
  Variable *affine = NewVariable(Variable::kNode, name + ".affine",
                                 static_cast<int32_t>(size));
  if (act == nullptr) return affine;
  Variable *out = NewVariable(Variable::kNode, name + "." + act->suffix,
                              affine->dim);
  out->activation = act->spelling;
  Line("component name=" + out->name + " type=" + act->component +
       " dim=" + std::to_string(out->dim));
  Line("component-node name=" + out->name + " component=" + out->name +
       " input=" + affine->name);
  return out;
}

Variable *NetBuilder::AddBatchNorm(const OpArgs &args) {
  const Variable *in = NodeInput("batchnorm", args);
  const std::string name = OpName("batchnorm", args);
  std::string line = "component name=" + name +
                     " type=BatchNormComponent dim=" + std::to_string(in->dim);
  if (args.Has("target_rms"))
    line += " target-rms=" + Num(args.GetReal("target_rms", 1.0));
  Line(line);
  Line("component-node name=" + name + " component=" + name +
       " input=" + in->name);
  return NewVariable(Variable::kNode, name, in->dim);
}

Variable *NetBuilder::AddDropout(const OpArgs &args) {
  const Variable *in = NodeInput("dropout", args);
  const double p = args.GetReal("proportion", 0.5);
  if (p < 0.0 || p >= 1.0)
    NNET3_ERR << "op 'dropout': proportion must be in [0, 1), got " << p;
  const std::string name = OpName("dropout", args);
  Line("component name=" + name + " type=DropoutComponent dim=" +
       std::to_string(in->dim) + " dropout-proportion=" + Num(p));
  Line("component-node name=" + name + " component=" + name +
       " input=" + in->name);
  return NewVariable(Variable::kNode, name, in->dim);
}

std::string NetBuilder::AddOutput(const Variable *v, const std::string &name) {
  if (v == nullptr || v->kind != Variable::kNode)
    NNET3_ERR << "AddOutput: the variable must be a network node";
  std::string node = name;
  if (node.empty())
    node = output_nodes_.empty()
               ? "output"
               : "output" + std::to_string(output_nodes_.size() + 1);
  CheckNewName("output", node);
  output_nodes_.push_back(node);
  Line("output-node name=" + node + " input=" + v->name + " objective=linear");
  aliases_[node] = v->name;
  names_.insert(node);
  return node;
}

Variable *NetBuilder::AddCrossEntropy(const OpArgs &args) {
  const Variable *pred = NodeInput("cross_entropy", args);
  const Variable *label = args.GetVariable("label");
  if (label->kind != Variable::kLabel)
    NNET3_ERR << "op 'cross_entropy': label '" << label->name
              << "' is not a label (make it with AddLabel)";
  if (label->dim != pred->dim)
    NNET3_ERR << "op 'cross_entropy': input '" << pred->name << "' has dim "
              << pred->dim << " but label '" << label->name << "' has dim "
              << label->dim;
  const std::string &a = pred->activation;
  if (a != "softmax" && a != "sigmoid" && a != "logsoftmax")
    NNET3_ERR << "op 'cross_entropy': input '" << pred->name
              << "' must hold probabilities (activation Softmax or Sigmoid) "
              << "or log-probabilities (LogSoftmax), not activation '"
              << (a.empty() ? "none" : a) << "'";
  const std::string name = OpName("cross_entropy", args);
  LossSpec loss;
  loss.name = name;
  loss.output_node = AddOutput(pred);
  loss.label = label->name;
  loss.probabilities = a != "logsoftmax";
  losses_.push_back(loss);
  Variable *v = NewVariable(Variable::kLoss, name, 1);
  v->loss_index = static_cast<int32_t>(losses_.size()) - 1;
  return v;
}

Variable *NetBuilder::AddMean(const OpArgs &args) {
  const Variable *in = args.GetVariable("input");
  if (in->kind != Variable::kLoss)
    NNET3_ERR << "op 'mean': input '" << in->name
              << "' must be a loss (e.g. from cross_entropy)";
  const std::string name = OpName("mean", args);
  LossSpec &loss = losses_[in->loss_index];
  loss.mean = true;
  loss.name = name;
  Variable *v = NewVariable(Variable::kLoss, name, 1);
  v->loss_index = in->loss_index;
  return v;
}

void NetBuilder::AddOptimization(double learning_rate,
                                 const std::string &optimizer) {
  OptAttrs attrs;
  attrs.optimizer = optimizer;
  attrs.learning_rate = static_cast<float>(learning_rate);
  AddOptimization(attrs);
}

void NetBuilder::AddOptimization(const OptAttrs &attrs) {
  if (attrs.optimizer != "sgd" && attrs.optimizer != "adam")
    NNET3_ERR << "AddOptimization: optimizer must be 'sgd' or 'adam', got '"
              << attrs.optimizer << "'";
  if (!(attrs.learning_rate > 0.0f))
    NNET3_ERR << "AddOptimization: learning rate must be > 0, got "
              << attrs.learning_rate;
  if (losses_.empty())
    NNET3_ERR << "AddOptimization: add a loss op (cross_entropy) first";
  optimize_ = true;
  optimizer_ = attrs;
}

std::string NetBuilder::ConfigText() const {
  std::string text;
  for (const std::string &line : lines_) text += line + "\n";
  return text;
}

NetDesc NetBuilder::Desc() const {
  NetDesc desc;
  desc.config_text = ConfigText();
  desc.losses = losses_;
  desc.output_aliases = aliases_;
  desc.backward = !losses_.empty();
  desc.optimize = optimize_;
  desc.optimizer = optimizer_;
  return desc;
}

void NetBuilder::WriteConfig(const std::string &wxfilename) const {
  Output ko(wxfilename, false, false, /*atomic=*/true);
  ko.Stream() << ConfigText();
  ko.Close();
}

void NetBuilder::WriteModel(const std::string &wxfilename, bool binary) const {
  Nnet nnet;
  std::istringstream is(ConfigText());
  nnet.ReadConfig(is, "<NetBuilder>");
  WriteKaldiObject(nnet, wxfilename, binary);
}

}  // namespace builder
}  // namespace nnet3
