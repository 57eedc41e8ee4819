// Net over a Scope: forward against a direct computation, the loss and its
// gradient against numeric differences, op ranges, Adam training, and bad
// scopes.
#include "builder/net.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "base/error.h"
#include "builder/net-builder.h"

namespace nnet3 {
namespace builder {
namespace {

using namespace args;

Matrix HostRandn(int32_t rows, int32_t cols, uint64_t seed) {
  Matrix m(rows, cols, ResizeType::kSetZero, CpuDevice());
  m.SetRandn(seed);
  return m;
}

Matrix OneHot(int32_t rows, int32_t cols) {
  Matrix m(rows, cols, ResizeType::kSetZero, CpuDevice());
  for (int32_t r = 0; r < rows; ++r) m.Set(r, (3 * r + 1) % cols, 1.0f);
  return m;
}

// image (6) -> fc 5 Tanh -> fc 3 <activation> -> cross_entropy, mean.
std::unique_ptr<Net> SmallNet(const std::string &act, bool optimize,
                              const std::string &optimizer = "adam") {
  NetBuilder b;
  Variable *x = b.AddInput("image", 6);
  Variable *y = b.AddLabel("label", 3);
  Variable *h = b.AddOp("fc", input = x, size = 5, activation = "Tanh",
                        bias_stddev = 0.5);
  Variable *p = b.AddOp("fc", input = h, size = 3, activation = act,
                        bias_stddev = 0.5);
  Variable *loss = b.AddOp("cross_entropy", input = p, label = y);
  b.AddOp("mean", input = loss, name = "avg_loss");
  if (optimize) b.AddOptimization(0.01, optimizer);
  return Net::Create(b.Desc());
}

double Loss(Net *net, Scope *scope) {
  net->Run(scope, nullptr, 0, 2);  // forward and loss only
  return scope->Get("avg_loss").Get(0, 0);
}

TEST_CASE("Forward equals a direct computation", "[net]") {
  std::unique_ptr<Net> net = SmallNet("Softmax", false);
  CHECK(net->NumOps() == 3);  // forward, loss, backward
  Scope scope;
  scope.Set("image", HostRandn(4, 6, 7));
  net->Run(&scope, nullptr, 0, 1);
  net->ExportParameters(&scope);
  const std::vector<float> w1 = scope.Get("param:fc1.affine").ToHost(),
                           w2 = scope.Get("param:fc2.affine").ToHost();
  const std::vector<float> x = scope.Get("image").ToHost();
  const Matrix &out = scope.Get("output");
  REQUIRE(out.NumRows() == 4);
  REQUIRE(out.NumCols() == 3);
  CHECK(scope.Get("fc2.softmax").ApproxEqual(out, 1e-6f));  // the alias
  // Vectorized AffineComponent: the linear part row by row, then the bias.
  for (int32_t r = 0; r < 4; ++r) {
    double h[5], z[3], sum = 0.0;
    for (int i = 0; i < 5; ++i) {
      double a = w1[30 + i];
      for (int j = 0; j < 6; ++j) a += w1[i * 6 + j] * x[r * 6 + j];
      h[i] = std::tanh(a);
    }
    for (int i = 0; i < 3; ++i) {
      z[i] = w2[15 + i];
      for (int j = 0; j < 5; ++j) z[i] += w2[i * 5 + j] * h[j];
      sum += std::exp(z[i]);
    }
    for (int i = 0; i < 3; ++i)
      CHECK(out.Get(r, i) == Approx(std::exp(z[i]) / sum).margin(1e-5));
  }
}

TEST_CASE("Loss gradients equal numeric differences", "[net]") {
  for (const char *act : {"Softmax", "Sigmoid", "LogSoftmax"}) {
    INFO("activation " << act);
    std::unique_ptr<Net> net = SmallNet(act, false);
    Scope scope;
    scope.Set("image", HostRandn(5, 6, 11));
    scope.Set("label", OneHot(5, 3));
    net->Run(&scope);  // forward, loss, backward
    net->ExportGradients(&scope);
    net->ExportParameters(&scope);
    const double loss0 = scope.Get("avg_loss").Get(0, 0);
    CHECK(Loss(net.get(), &scope) == Approx(loss0));
    for (const char *component : {"fc1.affine", "fc2.affine"}) {
      const std::string pname = std::string("param:") + component;
      Matrix params(scope.Get(pname), CpuDevice());
      const Matrix grad(scope.Get(std::string("grad:") + component),
                        CpuDevice());
      for (int32_t i = 0; i < params.NumCols(); i += 3) {
        const float p = params.Get(0, i), eps = 1e-2f;
        double l[2];
        for (int s = 0; s < 2; ++s) {
          Matrix moved(params);
          moved.Set(0, i, p + (s == 0 ? eps : -eps));
          Scope ps;
          ps.Set(pname, std::move(moved));
          net->ImportParameters(ps);
          l[s] = Loss(net.get(), &scope);
        }
        Scope restore;
        restore.Set(pname, Matrix(params));
        net->ImportParameters(restore);
        // The gradient is of the objective, i.e. of minus the loss.
        const double numeric = -(l[0] - l[1]) / (2 * eps);
        INFO(component << " parameter " << i);
        CHECK(grad.Get(0, i) == Approx(numeric).margin(2e-3).epsilon(0.02));
      }
    }
  }
}

TEST_CASE("Adam training lowers the loss; op ranges", "[net]") {
  std::unique_ptr<Net> net = SmallNet("Softmax", true);
  REQUIRE(net->NumOps() == 4);
  CHECK(net->Op(3) == Net::kOptimize);
  Scope scope;
  scope.Set("image", HostRandn(16, 6, 3));
  scope.Set("label", OneHot(16, 3));
  const double before = Loss(net.get(), &scope);
  for (int step = 0; step < 100; ++step) net->Run(&scope);
  const double after = Loss(net.get(), &scope);
  INFO("loss " << before << " -> " << after);
  CHECK(after < 0.5 * before);
  // A pass in two ranges is the same as one.
  net->Run(&scope, nullptr, 0, 2);
  CHECK_THROWS_WITH(net->Run(&scope, nullptr, 2, 4),
                    Catch::Contains("ran without derivatives"));
  CHECK_THROWS_WITH(net->Run(&scope, nullptr, 3, 4),
                    Catch::Contains("must follow op 2"));
  CHECK_THROWS_WITH(net->Run(&scope, nullptr, 0, 5),
                    Catch::Contains("are not a range"));
}

TEST_CASE("Inference runs in test mode, training in training mode",
          "[net]") {
  NetBuilder b;
  Variable *x = b.AddInput("image", 6);
  Variable *y = b.AddLabel("label", 3);
  Variable *h = b.AddOp("fc", input = x, size = 8, activation = "Relu");
  Variable *d = b.AddOp("dropout", input = h, proportion = 0.5);
  Variable *bn = b.AddOp("batchnorm", input = d);
  Variable *p = b.AddOp("fc", input = bn, size = 3, activation = "Softmax");
  b.AddOp("cross_entropy", input = p, label = y);
  b.AddOptimization(0.001, "sgd");
  std::unique_ptr<Net> net = Net::Create(b.Desc());
  Scope scope;
  scope.Set("image", HostRandn(8, 6, 2));
  scope.Set("label", OneHot(8, 3));
  OpContext context;
  net->Run(&scope, &context);  // training: batch-norm gathers stats
  const double train1 = scope.Get("cross_entropy1").Get(0, 0);
  net->Run(&scope, &context, 0, 2);
  const Matrix test1(scope.Get("output"));
  const double test_loss1 = scope.Get("cross_entropy1").Get(0, 0);
  context.seed += 1000;  // other dropout masks
  net->Run(&scope, &context, 0, 2);
  // No dropout in test mode: the same output whatever the seed.
  CHECK(scope.Get("output").ApproxEqual(test1, 1e-6f));
  CHECK(scope.Get("cross_entropy1").Get(0, 0) == Approx(test_loss1));
  // Training passes draw masks: two of them differ.
  net->Run(&scope, &context);
  CHECK(scope.Get("cross_entropy1").Get(0, 0) != Approx(train1).epsilon(1e-6));
}

TEST_CASE("Bad scopes are UserErrors naming the variable", "[net]") {
  std::unique_ptr<Net> net = SmallNet("Softmax", true);
  Scope scope;
  CHECK_THROWS_WITH(net->Run(&scope),
                    Catch::Contains("Scope has no variable 'image'"));
  scope.Set("image", HostRandn(4, 7, 1));
  CHECK_THROWS_WITH(net->Run(&scope),
                    Catch::Contains("'image' has 7 columns but the network's "
                                    "input 'image' has dim 6"));
  scope.Set("image", HostRandn(4, 6, 1));
  scope.Set("label", OneHot(3, 3));
  CHECK_THROWS_WITH(net->Run(&scope),
                    Catch::Contains("label 'label' is 3 x 3 but output "
                                    "'output' is 4 x 3"));
  CHECK_THROWS_WITH(scope.Set("x", HostRandn(5, 2, 1), 2),
                    Catch::Contains("5 rows cannot be 2 sequences"));
}

TEST_CASE("Frames with context: a tdnn over sequences", "[net]") {
  NetBuilder b;
  Variable *x = b.AddInput("input", 3);
  Variable *y = b.AddLabel("label", 2);
  Variable *t = b.AddOp("tdnn", input = x, size = 4);  // context -1..1
  Variable *p = b.AddOp("fc", input = t, size = 2, activation = "LogSoftmax");
  b.AddOp("cross_entropy", input = p, label = y);
  std::unique_ptr<Net> net = Net::Create(b.Desc());
  Scope scope;
  scope.Set("input", HostRandn(2 * 6, 3, 5), /*num_sequences=*/2);
  net->Run(&scope, nullptr, 0, 1);
  // 6 frames with one frame of context each side: frames 1..4 per sequence.
  CHECK(scope.Get("output").NumRows() == 2 * 4);
  CHECK(scope.NumSequences("output") == 2);
  scope.Set("input", HostRandn(2 * 2, 3, 5), 2);
  CHECK_THROWS_WITH(net->Run(&scope, nullptr, 0, 1),
                    Catch::Contains("give at least 3 frames each"));
}

}  // namespace
}  // namespace builder
}  // namespace nnet3
