#include "builder/net.h"

#include <sstream>
#include <utility>

#include "base/error.h"
#include "compile/nnet-context.h"
#include "matrix/general-matrix.h"
#include "nnet/component-itf.h"
#include "nnet/nnet-utils.h"
#include "train/objective-function.h"
#include "util/kaldi-io.h"

namespace nnet3 {
namespace builder {
namespace {

const char *OpName(Net::OpType t) {
  switch (t) {
    case Net::kForward: return "forward";
    case Net::kLoss: return "loss";
    case Net::kBackward: return "backward";
    case Net::kOptimize: return "optimizer";
  }
  return "?";
}

// Sequence-major indexes: n = 0..num_seq-1, t = t_begin..t_end-1.
std::vector<Index> SequenceIndexes(int32_t num_seq, int32_t t_begin,
                                   int32_t t_end) {
  std::vector<Index> v;
  for (int32_t n = 0; n < num_seq; ++n)
    for (int32_t t = t_begin; t < t_end; ++t) v.push_back(Index(n, t, 0));
  return v;
}

template <class F>
void ForEachUpdatable(const Nnet &nnet, F f) {
  for (int32_t c = 0; c < nnet.NumComponents(); ++c)
    if (nnet.GetComponent(c)->Properties() & kUpdatableComponent)
      f(c, dynamic_cast<const UpdatableComponent &>(*nnet.GetComponent(c)));
}

void ExportVectors(const Nnet &nnet, const std::string &prefix,
                   Scope *scope) {
  ForEachUpdatable(nnet, [&](int32_t c, const UpdatableComponent &uc) {
    Vector v(uc.NumParameters());
    uc.Vectorize(&v);
    scope->Set(prefix + nnet.GetComponentName(c), Matrix(v.AsRowMatrix()), 1);
  });
}

}  // namespace

Net::Net(std::unique_ptr<Nnet> nnet, const std::vector<LossSpec> &losses,
         const std::map<std::string, std::string> &aliases)
    : nnet_(std::move(nnet)), losses_(losses), aliases_(aliases) {
  for (const LossSpec &loss : losses_) {
    const int32_t node = nnet_->GetNodeIndex(loss.output_node);
    if (node < 0 || !nnet_->IsOutputNode(node))
      NNET3_ERR << "Loss '" << loss.name << "' reads '" << loss.output_node
                << "', which is not an output node of the network";
  }
  ops_.push_back(kForward);
  if (!losses_.empty()) ops_.push_back(kLoss);
  compiler_ = std::make_unique<CachingOptimizingCompiler>(*nnet_);
}

std::unique_ptr<Net> Net::Create(const NetDesc &desc) {
  auto nnet = std::make_unique<Nnet>();
  if (!desc.config_text.empty()) {
    std::istringstream is(desc.config_text);
    nnet->ReadConfig(is, "<net description>");
  } else if (!desc.model_rxfilename.empty()) {
    ReadKaldiObject(desc.model_rxfilename, nnet.get());
  } else {
    NNET3_ERR << "NetDesc has neither config text nor a model file";
  }
  std::unique_ptr<Net> net(
      new Net(std::move(nnet), desc.losses, desc.output_aliases));
  if (desc.optimize)
    net->AddOptimizerOps(desc.optimizer);
  else if (desc.backward)
    net->AddBackwardOps();
  return net;
}

bool Net::HasOp(OpType t) const {
  for (OpType o : ops_)
    if (o == t) return true;
  return false;
}

void Net::AddBackwardOps() {
  if (HasOp(kBackward)) return;
  if (losses_.empty())
    NNET3_ERR << "AddBackwardOps: the network has no loss to differentiate "
                 "(add a loss op such as cross_entropy)";
  gradient_ = std::make_unique<Nnet>(*nnet_);
  SetNnetAsGradient(gradient_.get());
  ops_.push_back(kBackward);
}

void Net::AddOptimizerOps(const OptAttrs &attrs) {
  AddBackwardOps();
  if (HasOp(kOptimize))
    NNET3_ERR << "AddOptimizerOps: the network already has an optimizer";
  if (attrs.learning_rate > 0.0f)
    nnet3::SetLearningRate(attrs.learning_rate, nnet_.get());
  NnetTrainerOptions opts;
  opts.optimizer_config.optimizer = attrs.optimizer;
  opts.optimizer_config.adam_beta1 = attrs.beta1;
  opts.optimizer_config.adam_beta2 = attrs.beta2;
  opts.optimizer_config.adam_epsilon = attrs.epsilon;
  opts.optimizer_config.adam_weight_decay = attrs.weight_decay;
  opts.momentum = attrs.momentum;
  opts.max_param_change = attrs.max_param_change;
  opts.l2_regularize_factor = attrs.l2_regularize_factor;
  trainer_ = std::make_unique<NnetTrainer>(opts, nnet_.get());
  gradient_.reset();
  ops_.push_back(kOptimize);
}

void Net::SetLearningRate(float learning_rate) {
  nnet3::SetLearningRate(learning_rate, nnet_.get());
  // The backward pass accumulates lr·gradient into the trainer's delta
  // network, which keeps its own copy of the rates.
  if (trainer_)
    nnet3::SetLearningRate(learning_rate, trainer_->DeltaNnetForBackward());
}

void Net::Run(Scope *scope, OpContext *context, int32_t begin, int32_t end) {
  NNET3_ASSERT(scope != nullptr);
  if (context == nullptr) context = &own_context_;
  if (begin < 0) begin = 0;
  if (end < 0) end = NumOps();
  if (begin >= end || end > NumOps())
    NNET3_ERR << "Run: ops [" << begin << ", " << end << ") are not a range "
              << "of the network's " << NumOps() << " ops";
  if (begin != 0 && begin != next_op_)
    NNET3_ERR << "Run: op " << begin << " (" << OpName(ops_[begin])
              << ") must follow op " << begin - 1 << " of the same pass; "
              << "run ops [0, " << end << ") instead";
  bool with_backward = false;
  for (int32_t op = begin; op < end; ++op)
    with_backward = with_backward || ops_[op] == kBackward;
  for (int32_t op = begin; op < end; ++op) {
    switch (ops_[op]) {
      case kForward: Forward(scope, context, with_backward); break;
      case kLoss: Loss(scope); break;
      case kBackward: Backward(); break;
      case kOptimize: Optimize(); break;
    }
    next_op_ = op + 1;
  }
}

ComputationRequest Net::MakeRequest(const Scope &scope, bool with_backward) {
  ComputationRequest request;
  int32_t frames = -1;
  num_sequences_ = -1;
  for (int32_t node = 0; node < nnet_->NumNodes(); ++node) {
    if (!nnet_->IsInputNode(node)) continue;
    const std::string &name = nnet_->GetNodeName(node);
    const Matrix &m = scope.Get(name);
    if (m.NumCols() != nnet_->InputDim(name))
      NNET3_ERR << "Scope variable '" << name << "' has " << m.NumCols()
                << " columns but the network's input '" << name
                << "' has dim " << nnet_->InputDim(name);
    const int32_t n = scope.NumSequences(name), t = scope.NumFrames(name);
    if (num_sequences_ >= 0 && (n != num_sequences_ || t != frames))
      NNET3_ERR << "Scope variable '" << name << "' holds " << n
                << " sequences of " << t << " frames, the other inputs "
                << num_sequences_ << " of " << frames;
    num_sequences_ = n, frames = t;
    request.inputs.push_back(IoSpecification(name, SequenceIndexes(n, 0, t)));
  }
  int32_t left = 0, right = 0;
  Context(&left, &right);
  if (frames - right <= left)
    NNET3_ERR << "Sequences of " << frames << " frames are shorter than the "
              << "network's context (left " << left << ", right " << right
              << "): give at least " << left + right + 1 << " frames each";
  for (int32_t node = 0; node < nnet_->NumNodes(); ++node) {
    if (!nnet_->IsOutputNode(node)) continue;
    const std::string &name = nnet_->GetNodeName(node);
    bool has_loss = false;
    for (const LossSpec &loss : losses_) has_loss |= loss.output_node == name;
    request.outputs.push_back(IoSpecification(
        name, SequenceIndexes(num_sequences_, left, frames - right),
        with_backward && has_loss));
  }
  request.need_model_derivative = with_backward;
  request.store_component_stats = with_backward && trainer_ != nullptr;
  return request;
}

void Net::Context(int32_t *left, int32_t *right) {
  if (context_left_ < 0) {
    // ComputeSimpleNnetContext wants the nodes called "input" and "output":
    // rename a copy's single input and first output.
    Nnet renamed(*nnet_);
    int32_t num_inputs = 0, first_output = -1;
    for (int32_t node = 0; node < nnet_->NumNodes(); ++node) {
      if (nnet_->IsInputNode(node) && num_inputs++ == 0 &&
          nnet_->GetNodeName(node) != "input")
        renamed.SetNodeName(node, "input");
      if (nnet_->IsOutputNode(node) && first_output < 0) first_output = node;
    }
    if (num_inputs != 1 || first_output < 0)
      NNET3_ERR << "A Net runs networks with one input node and at least "
                   "one output node; this one has "
                << num_inputs << " inputs";
    if (nnet_->GetNodeName(first_output) != "output") {
      const int32_t other = nnet_->GetNodeIndex("output");
      if (other >= 0) renamed.SetNodeName(other, "output.renamed");
      renamed.SetNodeName(first_output, "output");
    }
    ComputeSimpleNnetContext(renamed, &context_left_, &context_right_);
  }
  *left = context_left_;
  *right = context_right_;
}

void Net::Forward(Scope *scope, OpContext *context, bool with_backward) {
  // Inference runs in test mode (as nnet3-compute), training in training
  // mode (as nnet3-train).
  SetBatchnormTestMode(!with_backward, nnet_.get());
  SetDropoutTestMode(!with_backward, nnet_.get());
  const ComputationRequest request = MakeRequest(*scope, with_backward);
  computation_ = compiler_->Compile(request);
  Nnet *to_update = nullptr;
  if (with_backward) {
    if (trainer_) {
      to_update = trainer_->DeltaNnetForBackward();
    } else {
      ScaleNnet(0.0f, gradient_.get());
      to_update = gradient_.get();
    }
    nnet_->ResetGenerators(context->seed++);
  }
  computer_ = std::make_unique<NnetComputer>(context->compute, *computation_,
                                             nnet_.get(), to_update);
  for (const IoSpecification &io : request.inputs) {
    Matrix input(scope->Get(io.name), ActiveDevice());
    computer_->AcceptInput(io.name, &input);
  }
  computer_->Run();
  for (const IoSpecification &io : request.outputs) {
    Matrix out(computer_->GetOutput(io.name));
    auto alias = aliases_.find(io.name);
    if (alias != aliases_.end()) scope->Set(alias->second, out, num_sequences_);
    scope->Set(io.name, std::move(out), num_sequences_);
  }
  pass_has_backward_ = with_backward;
  output_derivs_.clear();
}

void Net::Loss(Scope *scope) {
  NNET3_ASSERT(computer_ != nullptr);
  output_derivs_.clear();
  for (const LossSpec &loss : losses_) {
    const MatrixView &y = computer_->GetOutput(loss.output_node);
    const Matrix &label = scope->Get(loss.label);
    if (label.NumRows() != y.NumRows() || label.NumCols() != y.NumCols())
      NNET3_ERR << "Loss '" << loss.name << "': label '" << loss.label
                << "' is " << label.NumRows() << " x " << label.NumCols()
                << " but output '" << loss.output_node << "' is "
                << y.NumRows() << " x " << y.NumCols();
    Matrix t(label, ActiveDevice());
    double weight = 0.0, objf = 0.0;
    Matrix deriv;
    if (loss.probabilities) {
      // objf = sum t·log(y); d objf / d y = t / y (y floored at 1e-20).
      Matrix floored(y);
      floored.ApplyFloor(1e-20f);
      deriv = t;
      deriv.DivElements(floored);
      floored.ApplyFunc(Func::kLog);
      objf = DotProduct(t, floored);
      weight = t.Sum();
    } else {
      const int32_t node = nnet_->GetNodeIndex(loss.output_node);
      ComputeObjectiveFromOutput(GeneralMatrix(t),
                                 nnet_->GetNode(node).objective_type,
                                 loss.output_node, y, &weight, &objf, &deriv);
    }
    const double scale = loss.mean && weight != 0.0 ? 1.0 / weight : 1.0;
    deriv.Scale(static_cast<float>(scale));
    output_derivs_.push_back(std::move(deriv));
    Matrix value(1, 1, ResizeType::kSetZero, CpuDevice());
    value.Set(0, 0, static_cast<float>(-objf * scale));
    scope->Set(loss.name, std::move(value), 1);
  }
}

void Net::Backward() {
  if (!pass_has_backward_)
    NNET3_ERR << "Run: the forward op of this pass ran without derivatives; "
                 "run the forward and backward ops in one Run";
  if (output_derivs_.size() != losses_.size())
    NNET3_ERR << "Run: the backward op needs the loss op first";
  for (size_t i = 0; i < losses_.size(); ++i)
    computer_->AcceptInput(losses_[i].output_node, &output_derivs_[i]);
  computer_->Run();
  output_derivs_.clear();
}

void Net::Optimize() {
  NNET3_ASSERT(trainer_ != nullptr);
  trainer_->UpdateAfterBackward(num_sequences_);
}

void Net::ExportParameters(Scope *scope) const {
  ExportVectors(*nnet_, "param:", scope);
}

void Net::ExportGradients(Scope *scope) const {
  if (!gradient_)
    NNET3_ERR << "ExportGradients: the network has no backward op, or its "
                 "optimizer consumed the gradient";
  ExportVectors(*gradient_, "grad:", scope);
}

void Net::ImportParameters(const Scope &scope) {
  for (int32_t c = 0; c < nnet_->NumComponents(); ++c) {
    auto *uc = dynamic_cast<UpdatableComponent *>(nnet_->GetComponent(c));
    if (uc == nullptr || !(uc->Properties() & kUpdatableComponent)) continue;
    const std::string key = "param:" + nnet_->GetComponentName(c);
    if (!scope.Has(key)) continue;
    const Matrix &m = scope.Get(key);
    if (m.NumRows() != 1 || m.NumCols() != uc->NumParameters())
      NNET3_ERR << "Scope variable '" << key << "' is " << m.NumRows() << " x "
                << m.NumCols() << ", the component has "
                << uc->NumParameters() << " parameters (1 x N expected)";
    Vector v(uc->NumParameters());
    v.CopyRowsFromMat(Matrix(m, ActiveDevice()));
    uc->UnVectorize(v);
  }
}

void Net::Write(const std::string &wxfilename, bool binary) const {
  WriteKaldiObject(*nnet_, wxfilename, binary);
}

}  // namespace builder
}  // namespace nnet3
