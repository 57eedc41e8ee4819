// Net: the network-design seed's container of operators (seeds/
// network-design.txt), as a thin layer over nnet3. A Net holds an nnet3 Nnet
// and a short list of operators that Run() executes in order over a Scope:
//
//   op 0  forward     inputs from the scope -> compiled request (through the
//                     caching compiler) -> outputs into the scope
//   op 1  loss        each loss's value and its derivative w.r.t. its output
//                     (only when the description has losses)
//   op 2  backward    added by AddBackwardOps(): the derivative requests of
//                     the same compiled computation (model derivative)
//   op 3  optimizer   added by AddOptimizerOps(attrs): one step of SGD with
//                     momentum or Adam, through lib/train's trainer code
//
//   std::unique_ptr<Net> net = Net::Create(builder.Desc());  // or a config
//   net->AddBackwardOps();                                   // text / model
//   net->AddOptimizerOps(attrs);
//   Scope scope;  scope.Set("image", x);  scope.Set("label", y);
//   net->Run(&scope);                       // forward, loss, backward, step
//   net->Run(&scope, nullptr, 0, 1);        // forward only (inference)
//   double loss = scope.Get("avg_loss").Get(0, 0);
//
// Run(scope, context, begin, end) runs ops [begin, end) (-1: from the first /
// to the last). A range that continues after an earlier one (Run(s, c, 0, 2)
// then Run(s, c, 2, 4)) works on the same pass; a range that starts at the
// forward op starts a new one. The forward op compiles a training request
// (model derivative, output derivatives) exactly when the backward op is in
// the same range, so an inference Run pays for no derivatives. A Run
// without the backward op runs the network in test mode (batch-norm uses its
// stored statistics, dropout is off), as nnet3-compute does; a Run with it in
// training mode, as nnet3-train does.
//
// Inputs: the network's one input node must be in the scope (Scope's
// layout: sequences of frames). The outputs computed are, per sequence, the
// frames whose context lies inside the input (ComputeSimpleNnetContext, on a
// copy whose input and first output are renamed "input" and "output"),
// written under each output node's name and, for the builder's outputs,
// under the name of the node they read too.
//
// Losses (LossSpec): with `probabilities`, the output holds probabilities y
// (a softmax or sigmoid layer) and the loss is -sum t·log(y) (y floored at
// 1e-20), the seed's cross_entropy; otherwise the loss is minus the output
// node's own nnet3 objective (linear: -sum t·y, i.e. cross-entropy on a
// log-softmax, as nnet3-train; quadratic: 0.5·sum (y-t)^2). `mean` divides by
// the total weight of the labels (the number of rows for one-hot labels).
// The label is a scope matrix of the output's shape (one-hot or soft
// targets). Errors are exceptions (UserError naming the variable, node or
// dims), not the seed's Error codes.
//
// Recurrent step networks: the seed runs an RNN by copying state between
// scopes; in nnet3 the recurrence is in the network itself, written as
// IfDefined(Offset(h, -1)) in a node's input descriptor, and a Net runs it
// over the whole sequence in one forward op (the scope's frames). A long
// stream is run in chunks of frames, each with enough left context.
#ifndef NNET3_BUILDER_NET_H_
#define NNET3_BUILDER_NET_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/random.h"
#include "builder/scope.h"
#include "compute/nnet-computer.h"
#include "nnet/nnet.h"
#include "optimize/caching-compiler.h"
#include "train/nnet-training.h"

namespace nnet3 {
namespace builder {

struct LossSpec {
  std::string name;         // the scope variable the loss value goes to
  std::string output_node;  // the nnet3 output node it reads
  std::string label;        // the scope variable holding the targets
  bool probabilities = false;
  bool mean = false;
};

// AddOptimizerOps' attributes. learning_rate > 0 sets every updatable
// component's learning rate; 0 keeps the network's own.
struct OptAttrs {
  std::string optimizer = "sgd";  // "sgd" or "adam"
  float learning_rate = 0.0f;
  float momentum = 0.0f;  // sgd
  float beta1 = 0.9f, beta2 = 0.999f, epsilon = 1e-8f;  // adam
  float weight_decay = 0.0f;  // adam: decoupled (AdamW)
  float max_param_change = 2.0f;  // nnet3-train's default; 0: off
  float l2_regularize_factor = 1.0f;
};

struct NetDesc {
  // The network: a config file's text, or else a model file to read.
  std::string config_text;
  std::string model_rxfilename;
  std::vector<LossSpec> losses;
  // Extra scope names for outputs: output node -> variable name (e.g. the
  // builder's "output" is also written as "fc2.softmax").
  std::map<std::string, std::string> output_aliases;
  bool backward = false;
  bool optimize = false;
  OptAttrs optimizer;
};

// Where and how to run.
struct OpContext {
  uint64_t seed = 0;  // dropout masks; advanced by every training Run
  NnetComputeOptions compute;
};

class Net {
 public:
  enum OpType { kForward, kLoss, kBackward, kOptimize };

  // Reads the network (UserError naming the file or config line), then adds
  // the ops the description asks for.
  static std::unique_ptr<Net> Create(const NetDesc &desc);

  void Run(Scope *scope, OpContext *context = nullptr, int32_t begin = -1,
           int32_t end = -1);

  // Adds the backward op (once). Without an optimizer, each Run leaves the
  // plain gradient (learning rate 1) of the objective (minus the loss) in
  // the gradient network (ExportGradients).
  void AddBackwardOps();
  // Adds the backward op if missing, then the optimizer op.
  void AddOptimizerOps(const OptAttrs &attrs);

  // Sets every updatable component's learning rate (the optimizer's step
  // size), e.g. for a schedule between epochs.
  void SetLearningRate(float learning_rate);

  int32_t NumOps() const { return static_cast<int32_t>(ops_.size()); }
  OpType Op(int32_t i) const { return ops_.at(i); }
  const Nnet &GetNnet() const { return *nnet_; }
  Nnet *MutableNnet() { return nnet_.get(); }
  // "param:<component>" / "grad:<component>" for each updatable component.
  void ExportParameters(Scope *scope) const;
  void ImportParameters(const Scope &scope);
  void ExportGradients(Scope *scope) const;
  // The network as a model file (binary or text), e.g. for nnet3-info.
  void Write(const std::string &wxfilename, bool binary) const;

 private:
  Net(std::unique_ptr<Nnet> nnet, const std::vector<LossSpec> &losses,
      const std::map<std::string, std::string> &aliases);
  bool HasOp(OpType t) const;
  ComputationRequest MakeRequest(const Scope &scope, bool with_backward);
  void Context(int32_t *left, int32_t *right);  // computed once
  void Forward(Scope *scope, OpContext *context, bool with_backward);
  void Loss(Scope *scope);
  void Backward();
  void Optimize();

  std::unique_ptr<Nnet> nnet_;
  std::vector<LossSpec> losses_;
  std::map<std::string, std::string> aliases_;
  std::vector<OpType> ops_;
  OpContext own_context_;  // when Run is given none
  std::unique_ptr<CachingOptimizingCompiler> compiler_;
  std::unique_ptr<NnetTrainer> trainer_;   // the optimizer op
  std::unique_ptr<Nnet> gradient_;         // backward without optimizer
  // The pass in progress.
  std::shared_ptr<const NnetComputation> computation_;
  std::unique_ptr<NnetComputer> computer_;
  std::vector<Matrix> output_derivs_;  // one per loss
  int32_t num_sequences_ = 0;
  bool pass_has_backward_ = false;
  int32_t next_op_ = 0;  // the op a continuing Run must start at
  int32_t context_left_ = -1, context_right_ = -1;
};

}  // namespace builder
}  // namespace nnet3

#endif  // NNET3_BUILDER_NET_H_
