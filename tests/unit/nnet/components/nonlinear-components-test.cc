// The NonlinearComponent family (Sigmoid, Tanh, RectifiedLinear, Softmax,
// LogSoftmax): generic component checks, hand-computed values, stats
// (stored as sums, written as averages), self-repair, golden files and
// config errors.
#include "nnet/components/nonlinear-components.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "../component-test-utils.h"
#include "base/error.h"
#include "nnet/component-registry.h"
#include "nonlinear-test-utils.h"

using namespace nnet3;
using namespace nnet3::nonlinear_test;
using Catch::Matchers::Contains;

namespace {

const std::vector<std::vector<float>> kSmallInput = {{-2.0f, 0.0f, 1.5f},
                                                     {3.0f, -0.5f, 0.25f}};

NonlinearComponent *AsNonlinear(const std::unique_ptr<Component> &c) {
  auto *n = dynamic_cast<NonlinearComponent *>(c.get());
  REQUIRE(n != nullptr);
  return n;
}

// Propagates `in` and returns the output.
Matrix Forward(const Component &c, const MatrixView &in) {
  Matrix out(in.NumRows(), c.OutputDim());
  c.DeleteMemo(c.Propagate(nullptr, in, &out));
  return out;
}

// Stores stats of one minibatch `in` into c.
void StoreStatsOf(Component *c, const MatrixView &in) {
  Matrix out(in.NumRows(), c->OutputDim());
  void *memo = c->Propagate(nullptr, in, &out);
  c->StoreStats(in, out, memo);
  c->DeleteMemo(memo);
}

// Stores stats of `in` into c once: the first call always stores, later
// ones store on Kaldi's random share of minibatches, so this retries until
// the count changes.
void StoreStatsOnce(Component *c, const MatrixView &in) {
  auto *n = dynamic_cast<NonlinearComponent *>(c);
  REQUIRE(n != nullptr);
  const double before = n->Count();
  for (int32_t i = 0; i < 64 && n->Count() == before; i++) StoreStatsOf(c, in);
  REQUIRE(n->Count() != before);
}

// Backprop of a zero output derivative with `to_update`: what remains in
// in_deriv is the self-repair term.
Matrix RepairTerm(const Component &c, const MatrixView &in,
                  Component *to_update) {
  Matrix out = Forward(c, in);
  Matrix out_deriv(in.NumRows(), c.OutputDim());
  Matrix in_deriv(in.NumRows(), c.InputDim());
  c.Backprop("test", nullptr, in, out, out_deriv, nullptr, to_update,
             &in_deriv);
  return in_deriv;
}

}  // namespace

TEST_CASE("Nonlinear components pass the generic checks", "[nonlinear]") {
  const char *configs[] = {
      "type=SigmoidComponent dim=10",
      "type=SigmoidComponent dim=6 self-repair-scale=1e-05",
      "type=TanhComponent dim=7",
      "type=TanhComponent dim=8 block-dim=4 self-repair-lower-threshold=0.3 "
      "self-repair-scale=1e-5",
      "type=SoftmaxComponent dim=5",
      "type=SoftmaxComponent dim=20",
      "type=LogSoftmaxComponent dim=5",
      "type=LogSoftmaxComponent dim=13",
  };
  uint64_t seed = 120;
  for (const char *config : configs) {
    INFO(config);
    CheckComponent(*ComponentFromConfig(config), seed++);
  }
  // ReLU: a smaller perturbation keeps the random inputs off the kink.
  ComponentCheckOptions opts;
  opts.perturb_scale = 1e-4f;
  const char *relu_configs[] = {
      "type=RectifiedLinearComponent dim=10",
      "type=RectifiedLinearComponent dim=12 block-dim=4 "
      "self-repair-scale=1e-5 self-repair-upper-threshold=0.9",
      "type=RectifiedLinearComponent dim=6 block-dim=3",
  };
  for (const char *config : relu_configs) {
    INFO(config);
    CheckComponent(*ComponentFromConfig(config), seed++, opts);
  }
}

TEST_CASE("Nonlinear components compute the right values", "[nonlinear]") {
  Matrix in = MatrixFromRows(kSmallInput);
  std::vector<float> x = in.ToHost();
  Matrix out_deriv = MatrixFromRows({{1.0f, -2.0f, 0.5f}, {0.0f, 3.0f, 1.0f}});
  std::vector<float> e = out_deriv.ToHost();

  auto check = [&](const char *config, auto value, auto deriv) {
    INFO(config);
    auto c = ComponentFromConfig(config);
    Matrix out = Forward(*c, in);
    std::vector<float> y = out.ToHost();
    Matrix in_deriv(2, 3);
    c->Backprop("test", nullptr, in, out, out_deriv, nullptr, nullptr,
                &in_deriv);
    std::vector<float> d = in_deriv.ToHost();
    for (int r = 0; r < 2; r++) {
      for (int i = 0; i < 3; i++) {
        int k = 3 * r + i;
        CHECK(y[k] == Approx(value(r, i)).margin(1e-6));
        CHECK(d[k] == Approx(deriv(r, i, y)).margin(1e-6));
      }
    }
  };
  check(
      "type=SigmoidComponent dim=3",
      [&](int r, int i) { return 1.0 / (1.0 + std::exp(-x[3 * r + i])); },
      [&](int r, int i, const std::vector<float> &y) {
        double s = y[3 * r + i];
        return e[3 * r + i] * s * (1 - s);
      });
  check(
      "type=TanhComponent dim=3",
      [&](int r, int i) { return std::tanh(x[3 * r + i]); },
      [&](int r, int i, const std::vector<float> &y) {
        double t = y[3 * r + i];
        return e[3 * r + i] * (1 - t * t);
      });
  check(
      "type=RectifiedLinearComponent dim=3",
      [&](int r, int i) { return std::max(0.0f, x[3 * r + i]); },
      [&](int r, int i, const std::vector<float> &) {
        return x[3 * r + i] > 0 ? e[3 * r + i] : 0.0f;
      });
  auto softmax = [&](int r, int i) {
    double sum = 0;
    for (int j = 0; j < 3; j++) sum += std::exp(x[3 * r + j]);
    return std::exp(x[3 * r + i]) / sum;
  };
  check("type=SoftmaxComponent dim=3", softmax,
        [&](int r, int i, const std::vector<float> &) {
          double dot = 0;
          for (int j = 0; j < 3; j++) dot += e[3 * r + j] * softmax(r, j);
          return softmax(r, i) * (e[3 * r + i] - dot);
        });
  check(
      "type=LogSoftmaxComponent dim=3",
      [&](int r, int i) { return std::log(softmax(r, i)); },
      [&](int r, int i, const std::vector<float> &) {
        double sum = 0;
        for (int j = 0; j < 3; j++) sum += e[3 * r + j];
        return e[3 * r + i] - softmax(r, i) * sum;
      });

  // The softmax output is floored at 1e-20.
  auto softmax_c = ComponentFromConfig("type=SoftmaxComponent dim=2");
  Matrix extreme = MatrixFromRows({{0.0f, -100.0f}});
  CHECK(Forward(*softmax_c, extreme).Get(0, 1) == 1e-20f);
}

TEST_CASE("Nonlinear stats are kept as sums and written as averages",
          "[nonlinear]") {
  auto c = ComponentFromConfig("type=RectifiedLinearComponent dim=3");
  Matrix batch1 = MatrixFromRows(kSmallInput);
  Matrix batch2 = MatrixFromRows({{1.0f, 2.0f, -1.0f}});
  StoreStatsOnce(c.get(), batch1);
  StoreStatsOnce(c.get(), batch2);
  // Over the 3 rows: relu values and (y > 0).
  std::vector<float> value_avg = {(0 + 3 + 1) / 3.0f, (0 + 0 + 2) / 3.0f,
                                  (1.5f + 0.25f + 0) / 3.0f};
  std::vector<float> deriv_avg = {2 / 3.0f, 1 / 3.0f, 2 / 3.0f};
  std::string text = WriteComponent(*c, false);
  INFO(text);
  CHECK(TextScalarField(text, "<Count>") == 3);
  std::vector<float> written_value = TextVectorField(text, "<ValueAvg>");
  std::vector<float> written_deriv = TextVectorField(text, "<DerivAvg>");
  REQUIRE(written_value.size() == 3);
  REQUIRE(written_deriv.size() == 3);
  for (int i = 0; i < 3; i++) {
    CHECK(written_value[i] == Approx(value_avg[i]).epsilon(1e-5));
    CHECK(written_deriv[i] == Approx(deriv_avg[i]).epsilon(1e-5));
  }
  // Scale acts on the sums: the averages stay, the count changes.
  auto scaled = c->Copy();
  scaled->Scale(2.0f);
  CHECK(AsNonlinear(scaled)->Count() == 6);
  CHECK(TextVectorField(WriteComponent(*scaled, false), "<ValueAvg>") ==
        written_value);
  // Add pools the sums: c + 0.5 * (stats of batch2 alone).
  auto other = ComponentFromConfig("type=RectifiedLinearComponent dim=3");
  StoreStatsOf(other.get(), batch2);
  auto sum = c->Copy();
  sum->Add(0.5f, *other);
  CHECK(AsNonlinear(sum)->Count() == 3.5);
  std::vector<float> pooled = AsNonlinear(sum)->ValueAvg().ToHost();
  CHECK(pooled[1] == Approx((2.0f + 0.5f * 2.0f) / 3.5f));
  // Read back: the same bytes, and Scale(0) / ZeroStats give zeros.
  CHECK(WriteComponent(*ReadComponent(text, false), false) == text);
  std::string bin = WriteComponent(*c, true);
  CHECK(WriteComponent(*ReadComponent(bin, true), true) == bin);
  scaled->Scale(0.0f);
  std::string zeroed = WriteComponent(*scaled, false);
  CHECK(TextScalarField(zeroed, "<Count>") == 0);
  CHECK(TextVectorField(zeroed, "<ValueAvg>") == std::vector<float>{0, 0, 0});
  c->ZeroStats();
  CHECK(AsNonlinear(c)->Count() == 0);
  CHECK(AsNonlinear(c)->ValueAvg().Sum() == 0);

  // Softmax stores values only.
  auto s = ComponentFromConfig("type=SoftmaxComponent dim=3");
  StoreStatsOf(s.get(), batch1);
  std::string stext = WriteComponent(*s, false);
  CHECK(TextVectorField(stext, "<ValueAvg>").size() == 3);
  CHECK(TextVectorField(stext, "<DerivAvg>").empty());
  // A fresh component writes empty vectors and zero counts.
  CHECK(
      WriteComponent(*ComponentFromConfig("type=TanhComponent dim=2"), false) ==
      "<TanhComponent> <Dim> 2 <ValueAvg>  [ ]\n<DerivAvg>  [ ]\n"
      "<Count> 0 <OderivRms>  [ ]\n<OderivCount> 0 "
      "<NumDimsSelfRepaired> 0 <NumDimsProcessed> 0 </TanhComponent> ");
}

TEST_CASE("Nonlinear stats are stored on Kaldi's share of minibatches",
          "[nonlinear]") {
  // Kaldi: sigmoid, tanh and ReLU store value stats on the first minibatch
  // and then on about one in two; softmax on every one; log-softmax never.
  // Backprop stats: the first, then about three in four (all five types).
  // The choice is random, from a generator that ResetGenerator reseeds.
  Matrix row = MatrixFromRows({{0.5f, -1.0f, 2.0f}});
  Matrix out_deriv = MatrixFromRows({{1.0f, -2.0f, 0.5f}});
  const int32_t kMinibatches = 400;
  struct Expected {
    const char *type;
    int32_t min_count, max_count;
  };
  for (const Expected &e : {Expected{"SigmoidComponent", 160, 240},
                            Expected{"TanhComponent", 160, 240},
                            Expected{"RectifiedLinearComponent", 160, 240},
                            Expected{"SoftmaxComponent", 400, 400},
                            Expected{"LogSoftmaxComponent", 0, 0}}) {
    INFO(e.type);
    auto run = [&](uint64_t seed) {
      auto c = ComponentFromConfig(std::string("type=") + e.type + " dim=3");
      c->ResetGenerator(seed);
      for (int32_t i = 0; i < kMinibatches; i++) {
        StoreStatsOf(c.get(), row);
        Matrix out = Forward(*c, row);
        Matrix in_deriv(1, 3);
        // Softmax and log-softmax store even without an in_deriv.
        const bool want_in_deriv =
            i % 2 == 0 ||
            std::string(e.type).find("Softmax") == std::string::npos;
        c->Backprop("test", nullptr, row, out, out_deriv, nullptr, c.get(),
                    want_in_deriv ? &in_deriv : nullptr);
      }
      return std::make_pair(AsNonlinear(c)->Count(),
                            AsNonlinear(c)->OderivCount());
    };
    const auto counts = run(7);
    CHECK(counts.first >= e.min_count);
    CHECK(counts.first <= e.max_count);
    CHECK(counts.second >= 260);
    CHECK(counts.second <= 340);
    CHECK(run(7) == counts);  // the same seed, the same minibatches
    CHECK(run(8) != counts);
  }
  // Log-softmax never stores values: its written value stats stay empty.
  auto log_softmax = ComponentFromConfig("type=LogSoftmaxComponent dim=3");
  StoreStatsOf(log_softmax.get(), row);
  const std::string text = WriteComponent(*log_softmax, false);
  CHECK(TextVectorField(text, "<ValueAvg>").empty());
  CHECK(TextScalarField(text, "<Count>") == 0);
  // The first minibatch always stores, whatever the seed.
  for (uint64_t seed = 0; seed < 20; seed++) {
    auto relu = ComponentFromConfig("type=RectifiedLinearComponent dim=3");
    relu->ResetGenerator(seed);
    StoreStatsOf(relu.get(), row);
    CHECK(AsNonlinear(relu)->Count() == 1);
  }
}

TEST_CASE("Backprop stores output-derivative stats into to_update",
          "[nonlinear]") {
  for (const char *config :
       {"type=SigmoidComponent dim=3", "type=SoftmaxComponent dim=3",
        "type=LogSoftmaxComponent dim=3"}) {
    INFO(config);
    auto c = ComponentFromConfig(config);
    auto to_update = c->Copy();
    Matrix in = MatrixFromRows(kSmallInput);
    Matrix out = Forward(*c, in);
    Matrix out_deriv =
        MatrixFromRows({{1.0f, -2.0f, 0.5f}, {3.0f, 0.0f, -0.5f}});
    Matrix in_deriv(2, 3);
    c->Backprop("test", nullptr, in, out, out_deriv, nullptr, to_update.get(),
                &in_deriv);
    // Stats go to to_update, not to c.
    CHECK(AsNonlinear(c)->OderivCount() == 0);
    CHECK(AsNonlinear(to_update)->OderivCount() == 2);
    std::vector<float> rms =
        TextVectorField(WriteComponent(*to_update, false), "<OderivRms>");
    REQUIRE(rms.size() == 3);
    CHECK(rms[0] == Approx(std::sqrt((1.0 + 9.0) / 2)));
    CHECK(rms[1] == Approx(std::sqrt(4.0 / 2)));
    CHECK(rms[2] == Approx(0.5));
  }
}

TEST_CASE("Sigmoid and tanh self-repair push saturated inputs towards 0",
          "[nonlinear]") {
  // Dims 0 and 1 are saturated (|x| = 8), dims 2 and 3 are near 0.
  Matrix in =
      MatrixFromRows({{8.0f, -8.0f, 0.1f, -0.1f}, {8.5f, -7.5f, -0.2f, 0.2f}});
  for (const char *type : {"SigmoidComponent", "TanhComponent"}) {
    INFO(type);
    std::string config =
        std::string("type=") + type + " dim=4 self-repair-scale=0.01";
    auto c = ComponentFromConfig(config);
    // No stats yet: nothing to repair, but the dims are counted.
    auto to_update = c->Copy();
    CHECK(RepairTerm(*c, in, to_update.get()).FrobeniusNorm() == 0);
    CHECK(AsNonlinear(to_update)->NumDimsProcessed() == 4);
    StoreStatsOf(c.get(), in);
    // Without to_update (no training) there is no repair.
    CHECK(RepairTerm(*c, in, nullptr).FrobeniusNorm() == 0);
    to_update = c->Copy();
    to_update->ZeroStats();
    Matrix term = RepairTerm(*c, in, to_update.get());
    Matrix out = Forward(*c, in);
    for (int r = 0; r < 2; r++) {
      // -scale * (2y - 1) for sigmoid, -scale * y for tanh: pushes x down
      // where x > 0 and up where x < 0.
      for (int j = 0; j < 2; j++) {
        float y = out.Get(r, j);
        float expected = std::string(type) == "SigmoidComponent"
                             ? -0.01f * (2 * y - 1)
                             : -0.01f * y;
        CHECK(term.Get(r, j) == Approx(expected).epsilon(1e-4));
        CHECK(term.Get(r, j) * in.Get(r, j) < 0);
      }
      CHECK(term.Get(r, 2) == 0);
      CHECK(term.Get(r, 3) == 0);
    }
    CHECK(AsNonlinear(to_update)->NumDimsSelfRepaired() == 2);
    CHECK(AsNonlinear(to_update)->NumDimsProcessed() == 4);
    // The upper threshold is meaningless here: an error once repair runs.
    auto bad = ComponentFromConfig(config + " self-repair-upper-threshold=0.5");
    StoreStatsOf(bad.get(), in);
    CHECK_THROWS_AS(RepairTerm(*bad, in, bad.get()), UserError);
  }
}

TEST_CASE("Sigmoid and tanh self-repair default to Kaldi's lower thresholds",
          "[nonlinear]") {
  // One dimension whose derivative is 0.1: above sigmoid's default lower
  // threshold (0.05), below tanh's (0.2).
  struct Case {
    const char *type;
    float x;
    double repaired;
  } cases[] = {{"SigmoidComponent", -2.0634f, 0},
               {"TanhComponent", 1.8184f, 1}};
  for (const Case &k : cases) {
    INFO(k.type);
    auto c = ComponentFromConfig(std::string("type=") + k.type +
                                 " dim=1 self-repair-scale=0.01");
    Matrix in = MatrixFromRows({{k.x}});
    StoreStatsOf(c.get(), in);
    CHECK(AsNonlinear(c)->DerivAvg().ToHost()[0] == Approx(0.1).epsilon(1e-3));
    auto to_update = c->Copy();
    to_update->ZeroStats();
    RepairTerm(*c, in, to_update.get());
    CHECK(AsNonlinear(to_update)->NumDimsSelfRepaired() == k.repaired);
  }
}

TEST_CASE("ReLU self-repair revives dead units and tames always-on ones",
          "[nonlinear]") {
  // Dim 0 never active, dim 1 always active, dims 2 and 3 half the time.
  Matrix in =
      MatrixFromRows({{-1.0f, 2.0f, 1.0f, -1.0f}, {-2.0f, 1.0f, -1.0f, 1.0f}});
  auto c = ComponentFromConfig(
      "type=RectifiedLinearComponent dim=4 self-repair-scale=0.02");
  StoreStatsOf(c.get(), in);
  auto to_update = c->Copy();
  to_update->ZeroStats();
  Matrix term = RepairTerm(*c, in, to_update.get());
  for (int r = 0; r < 2; r++) {
    CHECK(term.Get(r, 0) == Approx(0.02f));   // dead: pushed up
    CHECK(term.Get(r, 1) == Approx(-0.02f));  // always on: pushed down
    CHECK(term.Get(r, 2) == 0);
    CHECK(term.Get(r, 3) == 0);
  }
  CHECK(AsNonlinear(to_update)->NumDimsSelfRepaired() == 2);
  CHECK(AsNonlinear(to_update)->NumDimsProcessed() == 4);

  // With block-dim 2 the active fractions are averaged over the blocks:
  // column 0 of the blocks = dims 0 and 2 (0 and 0.5 -> 0.25, fine),
  // column 1 = dims 1 and 3 (1 and 0.5 -> 0.75, fine) with the default
  // thresholds; with lower=0.3, upper=0.7 both are repaired.
  auto b = ComponentFromConfig(
      "type=RectifiedLinearComponent dim=4 block-dim=2 self-repair-scale=0.02 "
      "self-repair-lower-threshold=0.3 self-repair-upper-threshold=0.7");
  StoreStatsOf(b.get(), in);
  auto b_update = b->Copy();
  b_update->ZeroStats();
  Matrix bterm = RepairTerm(*b, in, b_update.get());
  for (int r = 0; r < 2; r++) {
    CHECK(bterm.Get(r, 0) == Approx(0.02f));
    CHECK(bterm.Get(r, 2) == Approx(0.02f));
    CHECK(bterm.Get(r, 1) == Approx(-0.02f));
    CHECK(bterm.Get(r, 3) == Approx(-0.02f));
  }
  CHECK(AsNonlinear(b_update)->NumDimsSelfRepaired() == 2);
  CHECK(AsNonlinear(b_update)->NumDimsProcessed() == 2);
}

TEST_CASE("Nonlinear golden files read and re-write byte for byte",
          "[nonlinear]") {
  for (const char *name :
       {"SigmoidComponent", "TanhComponent", "RectifiedLinearComponent",
        "SoftmaxComponent", "LogSoftmaxComponent"}) {
    CheckGolden(name);
  }
  auto relu = CheckGolden("RectifiedLinearComponent");
  auto *n = AsNonlinear(relu);
  CHECK(n->BlockDim() == 2);
  CHECK(n->Count() == 16);
  CHECK(n->OderivMeanSquare().Get(3) == 9.0f);
  CHECK(relu->Info() ==
        "RectifiedLinearComponent, dim=4, block-dim=2, "
        "self-repair-lower-threshold=0.1, self-repair-upper-threshold=0.9, "
        "self-repair-scale=2e-05, count=16, self-repaired-proportion=0.0625, "
        "value-avg=[ 0.50 0 1.5 0.25 ], deriv-avg=[ 0.50 0 1.0 0.25 ], "
        "oderiv-rms=[ 0.12 0.25 1.0 3.0 ], oderiv-count=16");
}

TEST_CASE("Nonlinear components read older model files", "[nonlinear]") {
  // No <BlockDim>, no <OderivRms>, no repair counters.
  std::string old_text =
      "<SigmoidComponent> <Dim> 2 <ValueAvg>  [ 0.5 0.25 ]\n"
      "<DerivAvg>  [ 0.25 0.125 ]\n<Count> 4 </SigmoidComponent> ";
  auto c = ReadComponent(old_text, false);
  CHECK(WriteComponent(*c, false) ==
        "<SigmoidComponent> <Dim> 2 <ValueAvg>  [ 0.5 0.25 ]\n"
        "<DerivAvg>  [ 0.25 0.125 ]\n<Count> 4 <OderivRms>  [ ]\n"
        "<OderivCount> 0 <NumDimsSelfRepaired> 0 <NumDimsProcessed> 0 "
        "</SigmoidComponent> ");
  // A zero count makes the stored sums zero, as in Kaldi.
  auto z = ReadComponent(
      "<TanhComponent> <Dim> 2 <ValueAvg>  [ 1 2 ]\n<DerivAvg>  [ ]\n"
      "<Count> 0 </TanhComponent> ",
      false);
  CHECK(TextVectorField(WriteComponent(*z, false), "<ValueAvg>") ==
        std::vector<float>{0, 0});
  CHECK_THROWS_AS(ReadComponent("<TanhComponent> <Dim> 2 <ValueAvg>  [ ]\n"
                                "<DerivAvg>  [ ]\n<Count> 0 <Bogus> ",
                                false),
                  UserError);
}

TEST_CASE("Nonlinear config errors name the key", "[nonlinear]") {
  auto init = [](const std::string &line) {
    ConfigLine cfl;
    REQUIRE(cfl.ParseLine(line));
    std::string type;
    REQUIRE(cfl.GetValue("type", &type));
    auto c = Component::NewComponentOfType(type);
    REQUIRE(c != nullptr);
    c->InitFromConfig(&cfl);
    return cfl.UnusedValues();
  };
  CHECK_THROWS_WITH(init("type=SigmoidComponent"), Contains("'dim'"));
  CHECK_THROWS_WITH(init("type=TanhComponent dim=0"), Contains("dim=0"));
  CHECK_THROWS_WITH(init("type=RectifiedLinearComponent dim=10 block-dim=3"),
                    Contains("block-dim=3"));
  CHECK_THROWS_WITH(init("type=SoftmaxComponent dim=4 self-repair-scale=-1"),
                    Contains("self-repair-scale=-1"));
  CHECK_THROWS_AS(init("type=SigmoidComponent dim=x"), UserError);
  // Unknown keys are left for the caller, who reports them.
  CHECK(init("type=SigmoidComponent dim=4 bogus-key=1") == "bogus-key=1");
  // Every type of the group is registered.
  for (const std::string &type : NonlinearComponentTypes()) {
    INFO(type);
    auto c = Component::NewComponentOfType(type);
    REQUIRE(c != nullptr);
    CHECK(c->Type() == type);
  }
  CHECK(NewNonlinearComponentOfType("AffineComponent") == nullptr);
}

TEST_CASE("Nonlinear properties and Info follow Kaldi", "[nonlinear]") {
  auto props = [](const char *config) {
    return ComponentFromConfig(config)->Properties();
  };
  int32_t s_bno_pip_st = kSimpleComponent | kBackpropNeedsOutput |
                         kPropagateInPlace | kStoresStats;
  CHECK(props("type=SigmoidComponent dim=4") == s_bno_pip_st);
  CHECK(props("type=TanhComponent dim=4") == s_bno_pip_st);
  CHECK(props("type=RectifiedLinearComponent dim=4") == s_bno_pip_st);
  CHECK(props("type=RectifiedLinearComponent dim=4 block-dim=2") ==
        (s_bno_pip_st | kInputContiguous));
  CHECK(props("type=SoftmaxComponent dim=4") ==
        (s_bno_pip_st | kBackpropInPlace));
  CHECK(props("type=LogSoftmaxComponent dim=4") ==
        (kSimpleComponent | kBackpropNeedsOutput | kStoresStats));
  CHECK(
      ComponentFromConfig("type=SigmoidComponent dim=4 self-repair-scale=1e-5")
          ->Info() == "SigmoidComponent, dim=4, self-repair-scale=1e-05");
}
