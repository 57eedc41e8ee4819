// NetBuilder: the network-design seed's C++ syntax for building a network,
// writing nnet3 config lines as it goes:
//
//   using namespace nnet3::builder::args;
//   NetBuilder builder;
//   Variable *image = builder.AddInput("image", 784);
//   Variable *label = builder.AddLabel("label", 10);
//   Variable *fc_out = builder.AddOp("fc", input = image, size = 100,
//                                    activation = "Sigmoid");
//   Variable *prediction = builder.AddOp("fc", input = fc_out, size = 10,
//                                        activation = "Softmax");
//   Variable *loss = builder.AddOp("cross_entropy", input = prediction,
//                                  label = label);
//   Variable *avg_loss = builder.AddOp("mean", input = loss);
//   builder.AddOptimization(1e-3, "adam");
//   std::unique_ptr<Net> net = Net::Create(builder.Desc());   // net.h
//   builder.WriteConfig("mlp.config");  // or builder.WriteModel("0.raw")
//
// The ops and the nnet3 lines each makes (N is the op's name: the `name`
// argument, else the op type and a count, "fc1", "fc2", ...):
//   fc             N.affine: AffineComponent (NaturalGradientAffineComponent
//                  with natural_gradient = 1) of input's dim -> size, then
//                  the activation (Sigmoid, Tanh, Relu, Softmax, LogSoftmax,
//                  or none) as N.sigmoid, N.tanh, ...; optional
//                  param_stddev, bias_stddev, learning_rate_factor,
//                  max_change, l2_regularize.
//   tdnn           like fc, over Append(Offset(input, c) for c in context)
//                  (context default {-1, 0, 1}, activation default Relu).
//   batchnorm      N: BatchNormComponent (target_rms optional).
//   dropout        N: DropoutComponent (proportion, default 0.5).
//   cross_entropy  an output node ("output", then "output2", ...) reading
//                  input; the loss -sum label·log(input) for a Softmax or
//                  Sigmoid input, -sum label·input for a LogSoftmax input
//                  (nnet3's linear objective, as nnet3-train).
//   mean           input must be a loss: its average over the label weights.
// Each op checks its arguments as it is added: an argument it does not know,
// a missing one, a non-positive size, a label whose dim differs from the
// prediction's, or an input that is a label or a loss, is a UserError naming
// the op and the dims.
//
// The config written is what a user would write by hand for the same
// network (tests/unit/builder compares them line for line); nnet3-init,
// nnet3-info and nnet3-train read it. A Softmax under cross_entropy trains
// with the seed's loss in a Net; nnet3-train would apply its linear
// objective to the probabilities instead, so use LogSoftmax for models that
// nnet3-train will train.
#ifndef NNET3_BUILDER_NET_BUILDER_H_
#define NNET3_BUILDER_NET_BUILDER_H_

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "builder/net.h"
#include "builder/op-args.h"

namespace nnet3 {
namespace builder {

struct Variable {
  enum Kind { kInput, kLabel, kNode, kLoss };
  Kind kind = kNode;
  std::string name;  // node name; for a loss, the scope variable of its value
  int32_t dim = 0;
  std::string activation;   // of the op that made a kNode ("" if none)
  int32_t loss_index = -1;  // kLoss: which LossSpec
};

class NetBuilder {
 public:
  NetBuilder() = default;
  NetBuilder(const NetBuilder &) = delete;
  NetBuilder &operator=(const NetBuilder &) = delete;

  Variable *AddInput(const std::string &name, int32_t dim);
  // A scope variable of targets for a loss (not part of the network).
  Variable *AddLabel(const std::string &name, int32_t dim);

  template <class... A>
  Variable *AddOp(const std::string &type, const A &...args) {
    OpArgs op_args;
    op_args.SetOpName(type);
    (op_args.Set(args), ...);
    return AddOpWithArgs(type, op_args);
  }
  Variable *AddOpWithArgs(const std::string &type, const OpArgs &args);

  // Makes `v` an output node of the network (for networks without a loss;
  // a loss makes its own output node). Returns the node's name.
  std::string AddOutput(const Variable *v, const std::string &name = "");

  // The optimizer op: every updatable component gets this learning rate.
  void AddOptimization(double learning_rate, const std::string &optimizer);
  void AddOptimization(const OptAttrs &attrs);

  std::string ConfigText() const;
  NetDesc Desc() const;
  void WriteConfig(const std::string &wxfilename) const;
  void WriteModel(const std::string &wxfilename, bool binary = true) const;

 private:
  Variable *NewVariable(Variable::Kind kind, const std::string &name,
                        int32_t dim);
  std::string OpName(const std::string &type, const OpArgs &args);
  const Variable *NodeInput(const std::string &op, const OpArgs &args);
  Variable *AddOpChecked(const std::string &type, const OpArgs &args);
  bool IsUsed(const std::string &name) const;
  void CheckNewName(const std::string &op, const std::string &name) const;
  Variable *AddAffine(const std::string &type, const OpArgs &args);
  Variable *AddActivation(const std::string &op, const std::string &name,
                          const std::string &activation, const Variable *in);
  Variable *AddBatchNorm(const OpArgs &args);
  Variable *AddDropout(const OpArgs &args);
  Variable *AddCrossEntropy(const OpArgs &args);
  Variable *AddMean(const OpArgs &args);
  void Line(const std::string &line) { lines_.push_back(line); }

  std::deque<Variable> vars_;  // stable addresses
  std::set<std::string> names_;  // nodes, labels, losses, outputs
  std::map<std::string, int32_t> op_counts_;
  std::vector<std::string> lines_;
  std::vector<std::string> output_nodes_;
  std::vector<LossSpec> losses_;
  std::map<std::string, std::string> aliases_;
  bool optimize_ = false;
  OptAttrs optimizer_;
};

}  // namespace builder
}  // namespace nnet3

#endif  // NNET3_BUILDER_NET_BUILDER_H_
