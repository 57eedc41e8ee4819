// NnetTrainer: training steps against hand computations (plain SGD,
// momentum, backstitch, two outputs), max-change enforcement and its
// statistics, L2 regularization, determinism with dropout, option checks,
// the report lines, and bad egs.
#include "train/nnet-training.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "base/error.h"
#include "nnet/nnet-utils.h"
#include "train-test-utils.h"
#include "train/nnet-training-utils.h"

namespace nnet3 {
namespace {

using namespace train_test;

// input (2) -> affine a (2 -> 1) -> quadratic output.
const char *const kTinyConfig =
    "input-node name=input dim=2\n"
    "component name=a type=AffineComponent input-dim=2 output-dim=1 "
    "learning-rate=0.1 MAXCHANGE L2\n"
    "component-node name=a component=a input=input\n"
    "output-node name=output input=a objective=quadratic\n";

std::string Substitute(std::string s, const std::string &from,
                       const std::string &to) {
  s.replace(s.find(from), from.size(), to);
  return s;
}

Nnet TinyNnet(const std::string &max_change = "", const std::string &l2 = "") {
  Nnet nnet = NnetFromConfig(
      Substitute(Substitute(kTinyConfig, "MAXCHANGE", max_change), "L2", l2));
  SetAffine(&nnet, "a", {{0.5, -0.3}}, {0.1});
  return nnet;
}

struct Params {
  std::vector<double> w;  // the 1 x 2 linear part
  double b = 0.0;
};

Params GetParams(Nnet *nnet, const std::string &name = "a") {
  const Rows w = ToRows(Affine(nnet, name).LinearParams());
  return {w[0], Affine(nnet, name).BiasParams().Get(0)};
}

// The quadratic objective at p on (x, s) and its gradient w.r.t. p.
double Gradient(const Rows &x, const Rows &s, const Params &p, Params *grad) {
  *grad = Params{{0.0, 0.0}, 0.0};
  double objf = 0.0;
  for (size_t r = 0; r < x.size(); r++) {
    const double y = p.w[0] * x[r][0] + p.w[1] * x[r][1] + p.b;
    const double d = s[r][0] - y;  // d objf / d y
    objf -= 0.5 * d * d;
    grad->w[0] += d * x[r][0];
    grad->w[1] += d * x[r][1];
    grad->b += d;
  }
  return objf;
}

// p += scale * q.
void AddTo(double scale, const Params &q, Params *p) {
  p->w[0] += scale * q.w[0];
  p->w[1] += scale * q.w[1];
  p->b += scale * q.b;
}

void CheckClose(const Params &got, const Params &want) {
  CHECK(got.w[0] == Approx(want.w[0]).margin(1e-5));
  CHECK(got.w[1] == Approx(want.w[1]).margin(1e-5));
  CHECK(got.b == Approx(want.b).margin(1e-5));
}

double Norm(const Params &p) {
  return std::sqrt(p.w[0] * p.w[0] + p.w[1] * p.w[1] + p.b * p.b);
}

const Rows kX1 = {{1.0, 2.0}, {0.5, -1.0}, {-2.0, 0.25}};
const Rows kS1 = {{1.0}, {0.0}, {-0.5}};
const Rows kX2 = {{0.0, 1.0}, {3.0, 1.0}};
const Rows kS2 = {{2.0}, {-1.0}};

NnetExample Eg(const Rows &x, const Rows &s, int32_t num_n = 1) {
  return MakeExample(x, GeneralMatrix(HostMatrix(s)), num_n);
}

NnetTrainerOptions PlainOptions() {
  NnetTrainerOptions opts;
  opts.max_param_change = 0.0f;  // no global limit
  return opts;
}

TEST_CASE("Two SGD steps with momentum match the hand computation",
          "[trainer]") {
  for (double momentum : {0.0, 0.5}) {
    INFO("momentum " << momentum);
    Nnet nnet = TinyNnet();
    NnetTrainerOptions opts = PlainOptions();
    opts.momentum = static_cast<float>(momentum);
    NnetTrainer trainer(opts, &nnet);
    trainer.SetReportSink([](const std::string &) {});
    trainer.Train(Eg(kX1, kS1));
    trainer.Train(Eg(kX2, kS2));

    // delta += lr·g; p += (1 − m)·delta; delta *= m.
    const double lr = 0.1;
    Params p{{0.5, -0.3}, 0.1}, delta{{0.0, 0.0}, 0.0}, g;
    double objf = 0.0;
    for (const auto &xs :
         {std::make_pair(kX1, kS1), std::make_pair(kX2, kS2)}) {
      objf += Gradient(xs.first, xs.second, p, &g);
      AddTo(lr, g, &delta);
      AddTo(1.0 - momentum, delta, &p);
      delta.w[0] *= momentum, delta.w[1] *= momentum, delta.b *= momentum;
    }
    CheckClose(GetParams(&nnet), p);
    Nnet delta_nnet(trainer.DeltaNnet());
    CheckClose(GetParams(&delta_nnet), delta);
    const ObjectiveFunctionInfo &info = trainer.ObjectiveInfo().at("output");
    CHECK(info.tot_weight == 5.0);  // quadratic: the number of rows
    CHECK(info.tot_objf == Approx(objf).epsilon(1e-5));
    CHECK(trainer.NumMinibatchesProcessed() == 2);
  }
}

TEST_CASE("Two Adam steps match the hand computation", "[trainer][adam]") {
  for (double weight_decay : {0.0, 0.25}) {
    INFO("weight decay " << weight_decay);
    Nnet nnet = TinyNnet();
    NnetTrainerOptions opts = PlainOptions();
    opts.optimizer_config.optimizer = "adam";
    opts.optimizer_config.adam_weight_decay = static_cast<float>(weight_decay);
    NnetTrainer trainer(opts, &nnet);
    trainer.SetReportSink([](const std::string &) {});
    trainer.Train(Eg(kX1, kS1));
    trainer.Train(Eg(kX2, kS2));

    const double lr = 0.1, b1 = 0.9, b2 = 0.999, eps = 1e-8;
    Params p{{0.5, -0.3}, 0.1}, g;
    std::vector<double> m(3, 0.0), v(3, 0.0);
    int t = 0;
    for (const auto &xs :
         {std::make_pair(kX1, kS1), std::make_pair(kX2, kS2)}) {
      Gradient(xs.first, xs.second, p, &g);
      ++t;
      double *param[3] = {&p.w[0], &p.w[1], &p.b};
      const double grad[3] = {g.w[0], g.w[1], g.b};
      for (int i = 0; i < 3; i++) {
        m[i] = b1 * m[i] + (1 - b1) * grad[i];
        v[i] = b2 * v[i] + (1 - b2) * grad[i] * grad[i];
        const double step = lr * (m[i] / (1 - std::pow(b1, t))) /
                            (std::sqrt(v[i] / (1 - std::pow(b2, t))) + eps);
        *param[i] += step - lr * weight_decay * *param[i];
      }
    }
    CheckClose(GetParams(&nnet), p);
  }
}

TEST_CASE("Adam option checks", "[trainer][adam]") {
  Nnet nnet = TinyNnet();
  NnetTrainerOptions opts = PlainOptions();
  opts.optimizer_config.optimizer = "adagrad";
  CHECK_THROWS_WITH(NnetTrainer(opts, &nnet),
                    Catch::Contains("--optimizer must be 'sgd' or 'adam'"));
  opts.optimizer_config.optimizer = "adam";
  opts.momentum = 0.5f;
  CHECK_THROWS_WITH(NnetTrainer(opts, &nnet),
                    Catch::Contains("--adam-beta1 instead of --momentum"));
  opts.momentum = 0.0f;
  opts.backstitch_training_scale = 0.3f;
  CHECK_THROWS_WITH(NnetTrainer(opts, &nnet), Catch::Contains("backstitch"));
  opts.backstitch_training_scale = 0.0f;
  opts.optimizer_config.adam_beta2 = 1.0f;
  CHECK_THROWS_WITH(NnetTrainer(opts, &nnet),
                    Catch::Contains("--adam-beta2 must be in [0, 1)"));
}

TEST_CASE("Backstitch: a step back, then (1 + alpha) steps forward",
          "[trainer]") {
  Nnet nnet = TinyNnet();
  NnetTrainerOptions opts = PlainOptions();
  opts.backstitch_training_scale = 0.3f;
  NnetTrainer trainer(opts, &nnet);
  trainer.SetReportSink([](const std::string &) {});
  trainer.Train(Eg(kX1, kS1));
  const double lr = 0.1, alpha = 0.3;
  Params p{{0.5, -0.3}, 0.1}, g;
  const double objf1 = Gradient(kX1, kS1, p, &g);
  AddTo(-alpha * lr, g, &p);
  const double objf2 = Gradient(kX1, kS1, p, &g);
  AddTo((1.0 + alpha) * lr, g, &p);
  CheckClose(GetParams(&nnet), p);
  CHECK(trainer.ObjectiveInfo().at("output").tot_objf ==
        Approx(objf1).epsilon(1e-5));
  CHECK(trainer.ObjectiveInfo().at("output_backstitch").tot_objf ==
        Approx(objf2).epsilon(1e-5));
}

TEST_CASE("Two outputs of an unoptimized computation both train", "[trainer]") {
  Nnet nnet = NnetFromConfig(
      "input-node name=input dim=2\n"
      "component name=a type=AffineComponent input-dim=2 output-dim=1 "
      "learning-rate=0.1\n"
      "component-node name=a component=a input=input\n"
      "component name=b type=AffineComponent input-dim=2 output-dim=1 "
      "learning-rate=0.1\n"
      "component-node name=b component=b input=input\n"
      "output-node name=output input=a objective=quadratic\n"
      "output-node name=output2 input=b objective=quadratic\n");
  SetAffine(&nnet, "a", {{0.5, -0.3}}, {0.1});
  SetAffine(&nnet, "b", {{-1.0, 0.25}}, {0.0});
  NnetExample eg = Eg(kX1, kS1);
  NnetIo second = eg.io[1];
  second.name = "output2";
  second.features = GeneralMatrix(HostMatrix({{0.0}, {1.0}, {2.0}}));
  eg.io.push_back(second);
  NnetTrainer trainer(PlainOptions(), &nnet);
  trainer.SetReportSink([](const std::string &) {});
  trainer.Train(eg);
  Params pa{{0.5, -0.3}, 0.1}, pb{{-1.0, 0.25}, 0.0}, g;
  Gradient(kX1, kS1, pa, &g);
  AddTo(0.1, g, &pa);
  Gradient(kX1, {{0.0}, {1.0}, {2.0}}, pb, &g);
  AddTo(0.1, g, &pb);
  CheckClose(GetParams(&nnet, "a"), pa);
  CheckClose(GetParams(&nnet, "b"), pb);
  CHECK(trainer.ObjectiveInfo().size() == 2);
}

TEST_CASE("Max-change limits and counts the change", "[trainer]") {
  const Params start{{0.5, -0.3}, 0.1};
  SECTION("per-component") {
    Nnet nnet = TinyNnet("max-change=0.5");
    Affine(&nnet, "a").SetActualLearningRate(1000.0f);
    NnetTrainer trainer(PlainOptions(), &nnet);
    std::vector<std::string> lines;
    trainer.SetReportSink([&](const std::string &l) { lines.push_back(l); });
    trainer.Train(Eg(kX1, kS1));
    Params change = GetParams(&nnet);
    AddTo(-1.0, start, &change);
    CHECK(Norm(change) == Approx(0.5).epsilon(1e-4));
    REQUIRE(trainer.NumMaxChangePerComponentApplied().size() == 1);
    CHECK(trainer.NumMaxChangePerComponentApplied()[0] == 1);
    CHECK(trainer.NumMaxChangeGlobalApplied() == 0);
    // A second step with a zero gradient (zero inputs, targets equal to
    // the bias): enforced 1 time in 2.
    const double bias = GetParams(&nnet).b;
    trainer.Train(Eg({{0, 0}, {0, 0}}, {{bias}, {bias}}));
    trainer.PrintMaxChangeStats();
    REQUIRE(lines.size() == 1);
    CHECK(lines[0] ==
          "For a, per-component max-change was enforced 50 % of the time.");
  }
  SECTION("global") {
    Nnet nnet = TinyNnet();
    Affine(&nnet, "a").SetActualLearningRate(1000.0f);
    NnetTrainerOptions opts;
    opts.max_param_change = 0.3f;
    NnetTrainer trainer(opts, &nnet);
    std::vector<std::string> lines;
    trainer.SetReportSink([&](const std::string &l) { lines.push_back(l); });
    trainer.Train(Eg(kX1, kS1));
    Params change = GetParams(&nnet);
    AddTo(-1.0, start, &change);
    CHECK(Norm(change) == Approx(0.3).epsilon(1e-4));
    CHECK(trainer.NumMaxChangeGlobalApplied() == 1);
    CHECK(trainer.NumMaxChangePerComponentApplied()[0] == 0);
    trainer.PrintMaxChangeStats();
    REQUIRE(lines.size() == 1);
    CHECK(lines[0] == "The global max-change was enforced 100 % of the time.");
  }
}

// One updatable component of each kind with its own finiteness test, and
// one (PerElementScaleComponent) with the default.
const char *const kKindsConfig =
    "input-node name=input dim=3\n"
    "component name=affine type=AffineComponent input-dim=3 output-dim=4\n"
    "component-node name=affine component=affine input=input\n"
    "component name=ng type=NaturalGradientAffineComponent input-dim=4 "
    "output-dim=4\n"
    "component-node name=ng component=ng input=affine\n"
    "component name=linear type=LinearComponent input-dim=4 output-dim=4\n"
    "component-node name=linear component=linear input=ng\n"
    "component name=tdnn type=TdnnComponent input-dim=4 output-dim=4 "
    "time-offsets=0\n"
    "component-node name=tdnn component=tdnn input=linear\n"
    "component name=scale type=PerElementScaleComponent dim=4\n"
    "component-node name=scale component=scale input=tdnn\n"
    "output-node name=output input=scale objective=quadratic\n";

// Sets parameter `index` of component `name` (in Vectorize order).
void SetParam(Nnet *nnet, const std::string &name, int32_t index, float v) {
  auto *uc = dynamic_cast<UpdatableComponent *>(
      nnet->GetComponent(nnet->GetComponentIndex(name)));
  REQUIRE(uc != nullptr);
  Vector params(uc->NumParameters(), ResizeType::kSetZero, CpuDevice());
  uc->Vectorize(&params);
  std::vector<float> host = params.ToHost();
  host.at(index) = v;
  params.CopyFromHost(host);
  uc->UnVectorize(params);
}

TEST_CASE("A change with inf or NaN is refused, whatever the max-changes",
          "[trainer]") {
  const Nnet nnet = NnetFromConfig(kKindsConfig);
  const float inf = std::numeric_limits<float>::infinity();
  for (const std::string name : {"affine", "ng", "linear", "tdnn", "scale"}) {
    const auto &uc = dynamic_cast<const UpdatableComponent &>(
        *nnet.GetComponent(nnet.GetComponentIndex(name)));
    CHECK(uc.ParamsAreFinite());
    const int32_t n = uc.NumParameters();
    for (const float bad : {inf, -inf, std::nanf("")}) {
      for (const int32_t index : {0, n / 2, n - 1}) {  // linear ... bias
        INFO(name << " parameter " << index << " of " << n << " = " << bad);
        Nnet delta(nnet);
        SetParam(&delta, name, index, bad);
        const auto &bad_uc = dynamic_cast<const UpdatableComponent &>(
            *delta.GetComponent(delta.GetComponentIndex(name)));
        CHECK_FALSE(bad_uc.ParamsAreFinite());
        // Refused with no max-change, a global one, and per-component ones;
        // the model is left as it was.
        for (const float global : {0.0f, 10.0f}) {
          for (const float per_component : {0.0f, 10.0f}) {
            for (int32_t c = 0; c < delta.NumComponents(); ++c)
              if (auto *u =
                      dynamic_cast<UpdatableComponent *>(delta.GetComponent(c)))
                u->SetMaxChange(per_component);
            Nnet model(nnet);
            std::vector<int32_t> counts;
            int32_t global_count = 0;
            CHECK_FALSE(UpdateNnetWithMaxChange(
                delta, global, 1.0f, 1.0f, &model, &counts, &global_count));
            CHECK(DotProduct(model, model) == DotProduct(nnet, nnet));
          }
        }
      }
    }
  }
}

TEST_CASE("L2 regularization adds -2 lr l2 factor N params", "[trainer]") {
  struct Case {
    float factor;
    int32_t num_n;
  };
  for (const Case &c : {Case{1.0f, 1}, Case{2.0f, 1}, Case{1.0f, 3}}) {
    INFO("factor " << c.factor << ", sequences " << c.num_n);
    Nnet plain = TinyNnet(), l2 = TinyNnet("", "l2-regularize=0.5");
    NnetTrainerOptions opts = PlainOptions();
    opts.l2_regularize_factor = c.factor;
    NnetTrainer plain_trainer(opts, &plain), l2_trainer(opts, &l2);
    plain_trainer.SetReportSink([](const std::string &) {});
    l2_trainer.SetReportSink([](const std::string &) {});
    plain_trainer.Train(Eg(kX1, kS1, c.num_n));
    l2_trainer.Train(Eg(kX1, kS1, c.num_n));
    Params want = GetParams(&plain);
    const double scale = -2.0 * 0.1 * 0.5 * c.factor * c.num_n;
    AddTo(scale, Params{{0.5, -0.3}, 0.1}, &want);
    CheckClose(GetParams(&l2), want);
  }
}

// A small classifier with natural gradient and dropout.
Nnet DropoutNnet() {
  Nnet nnet = NnetFromConfig(
      "input-node name=input dim=4\n"
      "component name=a type=NaturalGradientAffineComponent input-dim=4 "
      "output-dim=6 learning-rate=0.05\n"
      "component-node name=a component=a input=input\n"
      "component name=r type=RectifiedLinearComponent dim=6\n"
      "component-node name=r component=r input=a\n"
      "component name=d type=DropoutComponent dim=6 dropout-proportion=0.5\n"
      "component-node name=d component=d input=r\n"
      "component name=b type=NaturalGradientAffineComponent input-dim=6 "
      "output-dim=3 learning-rate=0.05\n"
      "component-node name=b component=b input=d\n"
      "component name=s type=LogSoftmaxComponent dim=3\n"
      "component-node name=s component=s input=b\n"
      "output-node name=output input=s\n");
  return nnet;
}

std::vector<NnetExample> ClassifierEgs(int32_t num_minibatches) {
  std::vector<NnetExample> egs;
  uint64_t seed = 7;  // fixed
  for (int32_t k = 0; k < num_minibatches; k++) {
    Matrix x(8, 4, ResizeType::kSetZero, CpuDevice());
    x.SetRandn(seed++);
    std::vector<int32_t> labels;
    for (int32_t r = 0; r < 8; r++) labels.push_back((r * 7 + k) % 3);
    egs.push_back(
        MakeExample(ToRows(x), GeneralMatrix(SparseMatrix(labels, 3)), 8));
  }
  return egs;
}

std::string TrainedBytes(const Nnet &initial, uint32_t srand_seed) {
  Nnet nnet(initial);
  NnetTrainer trainer(NnetTrainerOptions(), &nnet, srand_seed);
  trainer.SetReportSink([](const std::string &) {});
  for (const NnetExample &eg : ClassifierEgs(4)) trainer.Train(eg);
  return NnetBytes(nnet);
}

TEST_CASE("Training is deterministic given --srand", "[trainer]") {
  const Nnet initial = DropoutNnet();
  const std::string a = TrainedBytes(initial, 1), b = TrainedBytes(initial, 1),
                    c = TrainedBytes(initial, 2);
  CHECK((a == b));
  CHECK((a != c));  // different dropout masks
  CHECK((a != NnetBytes(initial)));
}

TEST_CASE("Trainer report lines", "[trainer]") {
  Nnet nnet = TinyNnet();
  NnetTrainerOptions opts = PlainOptions();
  opts.print_interval = 2;
  NnetTrainer trainer(opts, &nnet);
  std::vector<std::string> lines;
  trainer.SetReportSink([&](const std::string &l) { lines.push_back(l); });
  for (int i = 0; i < 3; i++) trainer.Train(Eg(kX1, kS1));
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].rfind("Average objective function for 'output' for "
                       "minibatches 0-1 is -",
                       0) == 0);
  CHECK(lines[0].find(" over 6 frames.") != std::string::npos);
  lines.clear();
  CHECK(trainer.PrintTotalStats());
  REQUIRE(lines.size() == 2);
  const ObjectiveFunctionInfo &info = trainer.ObjectiveInfo().at("output");
  std::ostringstream want;
  want << "Overall average objective function for 'output' is "
       << info.tot_objf / info.tot_weight << " over 9 frames.";
  CHECK(lines[0] == want.str());
  CHECK(lines[1].rfind(
            "[this line is to be parsed by a script:] log-prob-per-frame=-",
            0) == 0);
}

TEST_CASE("Trainer option checks and bad egs", "[trainer]") {
  Nnet nnet = TinyNnet();
  NnetTrainerOptions opts;
  opts.backstitch_training_scale = 0.3f;
  opts.momentum = 0.5f;
  CHECK_THROWS_WITH(NnetTrainer(opts, &nnet),
                    Catch::Contains("incompatible with momentum"));
  NnetTrainer trainer(PlainOptions(), &nnet);
  // Input dimension 3 against the network's 2.
  CHECK_THROWS_WITH(trainer.Train(Eg({{1, 2, 3}}, {{1}})),
                    Catch::Contains("input 'input' has dimension 3") &&
                        Catch::Contains("'input' has dimension 2"));
  CHECK_THROWS_WITH(
      trainer.Train(Eg({{1, 2}}, {{1, 2}})),
      Catch::Contains("Nnet versus example output dimension (num-classes) "
                      "mismatch for 'output': 1 (nnet) vs. 2 (egs)"));
  CHECK_THROWS_AS(trainer.Train(Eg({{1, 2}}, {{1, 2}})), UserError);
}

}  // namespace
}  // namespace nnet3
