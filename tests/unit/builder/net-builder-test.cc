// NetBuilder: the config lines it writes equal what a user writes by hand for
// the same network, and each AddOp that is wrong is a UserError naming the
// op and the dims or the key.
#include "builder/net-builder.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "base/error.h"
#include "nnet/nnet.h"

namespace nnet3 {
namespace builder {
namespace {

using namespace args;

// The seed's example, in our syntax.
TEST_CASE("The seed's MLP gives the hand-written config", "[builder]") {
  NetBuilder builder;
  Variable *image = builder.AddInput("image", 784);
  Variable *lab = builder.AddLabel("label", 10);
  Variable *fc_out = builder.AddOp("fc", input = image, size = 100,
                                   activation = "Sigmoid");
  Variable *prediction = builder.AddOp("fc", input = fc_out, size = 10,
                                       activation = "Sigmoid");
  Variable *loss =
      builder.AddOp("cross_entropy", input = prediction, label = lab);
  Variable *avg_loss = builder.AddOp("mean", input = loss);
  builder.AddOptimization(1e-4, "adam");

  const std::string hand =
      "input-node name=image dim=784\n"
      "component name=fc1.affine type=AffineComponent input-dim=784 "
      "output-dim=100\n"
      "component-node name=fc1.affine component=fc1.affine input=image\n"
      "component name=fc1.sigmoid type=SigmoidComponent dim=100\n"
      "component-node name=fc1.sigmoid component=fc1.sigmoid "
      "input=fc1.affine\n"
      "component name=fc2.affine type=AffineComponent input-dim=100 "
      "output-dim=10\n"
      "component-node name=fc2.affine component=fc2.affine input=fc1.sigmoid\n"
      "component name=fc2.sigmoid type=SigmoidComponent dim=10\n"
      "component-node name=fc2.sigmoid component=fc2.sigmoid "
      "input=fc2.affine\n"
      "output-node name=output input=fc2.sigmoid objective=linear\n";
  CHECK(builder.ConfigText() == hand);
  CHECK(fc_out->name == "fc1.sigmoid");
  CHECK(prediction->dim == 10);
  CHECK(avg_loss->name == "mean1");

  const NetDesc desc = builder.Desc();
  REQUIRE(desc.losses.size() == 1);
  CHECK(desc.losses[0].name == "mean1");
  CHECK(desc.losses[0].output_node == "output");
  CHECK(desc.losses[0].label == "label");
  CHECK(desc.losses[0].probabilities);
  CHECK(desc.losses[0].mean);
  CHECK(desc.optimize);
  CHECK(desc.optimizer.optimizer == "adam");
  CHECK(desc.optimizer.learning_rate == Approx(1e-4));
  CHECK(desc.output_aliases.at("output") == "fc2.sigmoid");

  // The config makes a network with the expected size.
  Nnet nnet;
  std::istringstream is(builder.ConfigText());
  nnet.ReadConfig(is, "builder");
  CHECK(nnet.NumComponents() == 4);
}

TEST_CASE("tdnn, batchnorm, dropout and options", "[builder]") {
  NetBuilder builder;
  Variable *x = builder.AddInput("input", 40);
  Variable *lab = builder.AddLabel("targets", 5);
  Variable *t1 = builder.AddOp("tdnn", input = x, size = 64, name = "tdnn1",
                               param_stddev = 0.1, max_change = 0.75);
  Variable *bn = builder.AddOp("batchnorm", input = t1, target_rms = 0.5);
  Variable *d = builder.AddOp("dropout", input = bn, proportion = 0.25);
  Variable *t2 = builder.AddOp("tdnn", input = d, size = 32,
                               context = {-3, 0, 3}, natural_gradient = 1);
  Variable *out = builder.AddOp("fc", input = t2, size = 5,
                                activation = "LogSoftmax");
  builder.AddOp("cross_entropy", input = out, label = lab);
  const std::string hand =
      "input-node name=input dim=40\n"
      "component name=tdnn1.affine type=AffineComponent input-dim=120 "
      "output-dim=64 param-stddev=0.1 max-change=0.75\n"
      "component-node name=tdnn1.affine component=tdnn1.affine "
      "input=Append(Offset(input, -1), input, Offset(input, 1))\n"
      "component name=tdnn1.relu type=RectifiedLinearComponent dim=64\n"
      "component-node name=tdnn1.relu component=tdnn1.relu "
      "input=tdnn1.affine\n"
      "component name=batchnorm1 type=BatchNormComponent dim=64 "
      "target-rms=0.5\n"
      "component-node name=batchnorm1 component=batchnorm1 input=tdnn1.relu\n"
      "component name=dropout1 type=DropoutComponent dim=64 "
      "dropout-proportion=0.25\n"
      "component-node name=dropout1 component=dropout1 input=batchnorm1\n"
      "component name=tdnn2.affine type=NaturalGradientAffineComponent "
      "input-dim=192 output-dim=32\n"
      "component-node name=tdnn2.affine component=tdnn2.affine "
      "input=Append(Offset(dropout1, -3), dropout1, Offset(dropout1, 3))\n"
      "component name=tdnn2.relu type=RectifiedLinearComponent dim=32\n"
      "component-node name=tdnn2.relu component=tdnn2.relu "
      "input=tdnn2.affine\n"
      "component name=fc1.affine type=AffineComponent input-dim=32 "
      "output-dim=5\n"
      "component-node name=fc1.affine component=fc1.affine input=tdnn2.relu\n"
      "component name=fc1.log-softmax type=LogSoftmaxComponent dim=5\n"
      "component-node name=fc1.log-softmax component=fc1.log-softmax "
      "input=fc1.affine\n"
      "output-node name=output input=fc1.log-softmax objective=linear\n";
  CHECK(builder.ConfigText() == hand);
  CHECK(t1->name == "tdnn1.relu");
  CHECK(t2->name == "tdnn2.relu");
  CHECK(out->activation == "logsoftmax");
  const std::string text = builder.ConfigText();
  CHECK(!builder.Desc().losses[0].probabilities);
  Nnet nnet;
  std::istringstream is(text);
  nnet.ReadConfig(is, "builder");
  CHECK(nnet.NumComponents() == 8);
}

TEST_CASE("A wrong AddOp names the op and the dims", "[builder]") {
  NetBuilder builder;
  Variable *x = builder.AddInput("x", 8);
  Variable *lab = builder.AddLabel("y", 3);
  Variable *h = builder.AddOp("fc", input = x, size = 4,
                              activation = "Softmax");
  CHECK_THROWS_WITH(
      builder.AddOp("cross_entropy", input = h, label = lab),
      Catch::Contains("op 'cross_entropy': input 'fc1.softmax' has dim 4 "
                      "but label 'y' has dim 3"));
  CHECK_THROWS_WITH(builder.AddOp("fc", input = x),
                    Catch::Contains("op 'fc' needs the argument 'size'"));
  OpArgs misspelt;  // a key no op knows (not expressible as args::key)
  misspelt.SetOpName("fc");
  misspelt.Set(input = x);
  misspelt.Set(size = 4);
  misspelt.Set(NamedArg{"sise", {}});
  CHECK_THROWS_WITH(builder.AddOpWithArgs("fc", misspelt),
                    Catch::Contains("op 'fc' has no argument 'sise'"));
  CHECK_THROWS_WITH(builder.AddOp("fc", input = x, size = 0),
                    Catch::Contains("op 'fc': size must be > 0, got 0"));
  CHECK_THROWS_WITH(builder.AddOp("fc", input = lab, size = 2),
                    Catch::Contains("input 'y' is a label"));
  CHECK_THROWS_WITH(
      builder.AddOp("fc", input = x, size = 2, activation = "Swish"),
      Catch::Contains("unknown activation 'Swish'"));
  CHECK_THROWS_WITH(builder.AddOp("conv2d", input = x),
                    Catch::Contains("unknown op 'conv2d'"));
  CHECK_THROWS_WITH(builder.AddOp("fc", input = x, size = 2, proportion = 0.5),
                    Catch::Contains("op 'fc' has no argument 'proportion'"));
  CHECK_THROWS_WITH(builder.AddOp("fc", input = x, size = 2, name = "fc1"),
                    Catch::Contains("the name 'fc1' is already used"));
  Variable *raw = builder.AddOp("fc", input = x, size = 3);
  CHECK_THROWS_WITH(builder.AddOp("cross_entropy", input = raw, label = lab),
                    Catch::Contains("must hold probabilities"));
  CHECK_THROWS_WITH(builder.AddOp("mean", input = raw),
                    Catch::Contains("op 'mean': input 'fc2.affine' must be a "
                                    "loss"));
  CHECK_THROWS_WITH(builder.AddOptimization(0.1, "adagrad"),
                    Catch::Contains("optimizer must be 'sgd' or 'adam'"));
  CHECK_THROWS_AS(builder.AddOp("fc", input = x, size = 2, context = {}),
                  UserError);
  // Failed ops left nothing behind: the config has fc1 and fc2 only.
  const std::string text = builder.ConfigText();
  CHECK(text.find("fc3") == std::string::npos);
  CHECK(text.find("output-node") == std::string::npos);
}

}  // namespace
}  // namespace builder
}  // namespace nnet3
