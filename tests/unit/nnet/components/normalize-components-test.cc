// NormalizeComponent and BatchNormComponent: generic checks, values,
// batch-norm stats and test mode, golden files, properties, config errors.
#include "nnet/components/normalize-components.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "base/error.h"
#include "../component-test-utils.h"
#include "nonlinear-test-utils.h"

using namespace nnet3;
using namespace nnet3::nonlinear_test;
using Catch::Matchers::Contains;

namespace {

Matrix Forward(const Component &c, const MatrixView &in, void **memo) {
  Matrix out(in.NumRows(), c.OutputDim());
  *memo = c.Propagate(nullptr, in, &out);
  return out;
}

BatchNormComponent *AsBatchNorm(const std::unique_ptr<Component> &c) {
  auto *b = dynamic_cast<BatchNormComponent *>(c.get());
  REQUIRE(b != nullptr);
  return b;
}

// Column means and (biased) variances of the block columns of `m`.
void BlockColumnStats(const MatrixView &m, int block, std::vector<double> *mean,
                      std::vector<double> *var) {
  std::vector<float> x = m.ToHost();
  int cols = m.NumCols(), n = static_cast<int>(x.size()) / block;
  mean->assign(block, 0.0);
  var->assign(block, 0.0);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < block; j++) (*mean)[j] += x[i * block + j] / n;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < block; j++) {
      double d = x[i * block + j] - (*mean)[j];
      (*var)[j] += d * d / n;
    }
  (void)cols;
}

}  // namespace

TEST_CASE("NormalizeComponent passes the generic checks", "[nonlinear]") {
  const char *configs[] = {
      "type=NormalizeComponent dim=10",
      "type=NormalizeComponent dim=6 block-dim=3",
      "type=NormalizeComponent dim=8 block-dim=4 add-log-stddev=true "
      "target-rms=0.5",
      "type=NormalizeComponent input-dim=5 add-log-stddev=true",
      "type=NormalizeComponent dim=6 block-dim=2 add-log-stddev=true",
  };
  uint64_t seed = 320;
  for (const char *config : configs) {
    INFO(config);
    CheckComponent(*ComponentFromConfig(config), seed++);
  }
}

TEST_CASE("NormalizeComponent values", "[nonlinear]") {
  auto c = ComponentFromConfig(
      "type=NormalizeComponent dim=4 block-dim=2 add-log-stddev=true "
      "target-rms=2");
  REQUIRE(c->OutputDim() == 6);
  Matrix in = MatrixFromRows({{3.0f, 4.0f, 0.0f, 0.0f}});
  void *memo;
  Matrix out = Forward(*c, in, &memo);
  // Block [3 4]: p = 25 / (2 * 4), y = x / sqrt(p), log = log(2 sqrt(p)).
  double p = 25.0 / 8.0;
  CHECK(out.Get(0, 0) == Approx(3 / std::sqrt(p)));
  CHECK(out.Get(0, 1) == Approx(4 / std::sqrt(p)));
  CHECK(out.Get(0, 2) == Approx(std::log(2 * std::sqrt(p))));
  // Block [0 0]: floored at 2^-66, log = log(2) - 33 log(2).
  CHECK(out.Get(0, 3) == 0.0f);
  CHECK(out.Get(0, 4) == 0.0f);
  CHECK(out.Get(0, 5) == Approx(std::log(2.0) - 33 * std::log(2.0)));
  // Backprop adds to in_deriv, and is finite at the floor.
  Matrix out_deriv = MatrixFromRows({{1, 1, 1, 1, 1, 1}});
  Matrix in_deriv = MatrixFromRows({{10, 10, 10, 10}});
  c->Backprop("t", nullptr, in, out, out_deriv, nullptr, nullptr, &in_deriv);
  CHECK(in_deriv.IsFinite());
  // d/dx of [y1 + y2 + log] at x = (3, 4): f = 1/sqrt(p), c = 8.
  double f = 1 / std::sqrt(p), dot = 7.0;
  double d0 = f - f * f * f * dot * 3 / 8 + 3.0 / 25;
  CHECK(in_deriv.Get(0, 0) == Approx(10 + d0).epsilon(1e-4));
  CHECK(in_deriv.Get(0, 3) == Approx(10 + std::pow(2.0, 33)).epsilon(1e-4));
}

TEST_CASE("BatchNormComponent passes the generic checks", "[nonlinear]") {
  const char *configs[] = {
      "type=BatchNormComponent dim=6",
      "type=BatchNormComponent dim=8 block-dim=4 target-rms=2",
      "type=BatchNormComponent dim=6 block-dim=2 epsilon=0.1",
  };
  uint64_t seed = 400;
  for (const char *config : configs) {
    INFO(config);
    auto c = ComponentFromConfig(config);
    CheckComponent(*c, seed++);
    // Test mode with stats from a few minibatches.
    for (int i = 0; i < 3; i++) {
      Matrix in(12, c->InputDim());
      in.SetRandn(seed + 10 * i);
      in.Scale(2.0f);
      in.Add(static_cast<float>(i));
      void *memo;
      Matrix out = Forward(*c, in, &memo);
      c->StoreStats(in, out, memo);
      c->DeleteMemo(memo);
    }
    AsBatchNorm(c)->SetTestMode(true);
    CHECK(!(c->Properties() & kUsesMemo));
    CheckComponent(*c, seed++);
  }
  // Test mode straight from the config (no stats: mean 0, variance 1).
  CheckComponent(
      *ComponentFromConfig("type=BatchNormComponent dim=4 test-mode=true"),
      seed);
}

TEST_CASE("BatchNormComponent normalizes and accumulates stats",
          "[nonlinear]") {
  auto c = ComponentFromConfig(
      "type=BatchNormComponent dim=6 block-dim=3 epsilon=0.01 target-rms=2");
  Matrix batch1(5, 6), batch2(7, 6);
  batch1.SetRandn(7);
  batch1.Add(1.5f);
  batch2.SetRandn(8);
  batch2.Scale(3.0f);
  // Training output: per block column mean 0, variance 4 var / (var + eps).
  void *memo;
  Matrix out = Forward(*c, batch1, &memo);
  std::vector<double> in_mean, in_var, out_mean, out_var;
  BlockColumnStats(batch1, 3, &in_mean, &in_var);
  BlockColumnStats(out, 3, &out_mean, &out_var);
  for (int j = 0; j < 3; j++) {
    CHECK(out_mean[j] == Approx(0).margin(1e-5));
    CHECK(out_var[j] ==
          Approx(4 * in_var[j] / (in_var[j] + 0.01)).epsilon(1e-4));
  }
  c->StoreStats(batch1, out, memo);
  c->DeleteMemo(memo);
  out = Forward(*c, batch2, &memo);
  c->StoreStats(batch2, out, memo);
  c->DeleteMemo(memo);
  // The stats are those of both batches together.
  Matrix both(12, 6);
  both.RowRange(0, 5).CopyFromMat(batch1);
  both.RowRange(5, 7).CopyFromMat(batch2);
  std::vector<double> mean, var;
  BlockColumnStats(both, 3, &mean, &var);
  BatchNormComponent *bn = AsBatchNorm(c);
  CHECK(bn->Count() == 24);
  std::string text = WriteComponent(*c, false);
  std::vector<float> written_mean = TextVectorField(text, "<StatsMean>");
  std::vector<float> written_var = TextVectorField(text, "<StatsVar>");
  REQUIRE(written_mean.size() == 3);
  for (int j = 0; j < 3; j++) {
    CHECK(written_mean[j] == Approx(mean[j]).epsilon(1e-4).margin(1e-5));
    CHECK(written_var[j] == Approx(var[j]).epsilon(1e-4));
  }
  // Test mode uses them: y = 2 (x - mean) / sqrt(var + eps).
  auto test = c->Copy();
  AsBatchNorm(test)->SetTestMode(true);
  Matrix y = Forward(*test, batch1, &memo);
  CHECK(memo == nullptr);
  for (int r = 0; r < 5; r++)
    for (int col = 0; col < 6; col++) {
      int j = col % 3;
      double expected =
          2 * (batch1.Get(r, col) - mean[j]) / std::sqrt(var[j] + 0.01);
      CHECK(y.Get(r, col) == Approx(expected).epsilon(1e-4).margin(1e-5));
    }
  // ZeroStats keeps the stats in test mode, clears them in training mode.
  test->ZeroStats();
  CHECK(AsBatchNorm(test)->Count() == 24);
  // Add pools, Scale(0) clears; the round trips are exact.
  auto pooled = c->Copy();
  pooled->Add(1.0f, *c);
  CHECK(AsBatchNorm(pooled)->Count() == 48);
  CHECK(AsBatchNorm(pooled)->Mean().ApproxEqual(bn->Mean(), 1e-5f));
  CHECK(AsBatchNorm(pooled)->Var().ApproxEqual(bn->Var(), 1e-5f));
  CHECK(WriteComponent(*ReadComponent(text, false), false) == text);
  pooled->Scale(0.0f);
  CHECK(AsBatchNorm(pooled)->Count() == 0);
  CHECK(AsBatchNorm(pooled)->Mean().Sum() == 0);
  c->ZeroStats();
  CHECK(bn->Count() == 0);
}

TEST_CASE("Normalize golden files and properties", "[nonlinear]") {
  auto n = CheckGolden("NormalizeComponent");
  CHECK(n->OutputDim() == 8);
  CHECK(n->Info() ==
        "NormalizeComponent, input-dim=6, output-dim=8, target-rms=0.5, "
        "add-log-stddev=true, block-dim=3");
  CHECK(n->Properties() ==
        (kSimpleComponent | kBackpropNeedsInput | kBackpropAdds |
         kInputContiguous | kOutputContiguous));
  CHECK(ComponentFromConfig("type=NormalizeComponent dim=4")->Properties() ==
        (kSimpleComponent | kBackpropNeedsInput | kPropagateInPlace |
         kBackpropAdds | kBackpropInPlace));
  auto b = CheckGolden("BatchNormComponent");
  CHECK(AsBatchNorm(b)->Count() == 20);
  CHECK(b->Info() ==
        "BatchNormComponent, dim=4, block-dim=2, epsilon=0.001, "
        "target-rms=1, count=20, test-mode=false, data-mean=[ 0.50 -1.0 ], "
        "data-stddev=[ 1.4 0.50 ]");
  int32_t bn_props = kSimpleComponent | kBackpropNeedsOutput |
                     kPropagateInPlace | kBackpropInPlace;
  CHECK(b->Properties() == (bn_props | kInputContiguous | kOutputContiguous |
                            kUsesMemo | kStoresStats));
  AsBatchNorm(b)->SetTestMode(true);
  CHECK(b->Properties() == (bn_props | kInputContiguous | kOutputContiguous));
  // Older files: <Dim> for <InputDim>, no target-rms, legacy stats.
  auto old = ReadComponent(
      "<NormalizeComponent> <Dim> 3 <ValueAvg>  [ ]\n<DerivAvg>  [ ]\n"
      "<Count> 0 </NormalizeComponent> ",
      false);
  CHECK(WriteComponent(*old, false) ==
        "<NormalizeComponent> <InputDim> 3 <TargetRms> 1 <AddLogStddev> F "
        "</NormalizeComponent> ");
}

TEST_CASE("Normalize config errors name the key", "[nonlinear]") {
  auto init = [](const std::string &line) {
    ConfigLine cfl;
    REQUIRE(cfl.ParseLine(line));
    std::string type;
    REQUIRE(cfl.GetValue("type", &type));
    auto c = Component::NewComponentOfType(type);
    c->InitFromConfig(&cfl);
    return cfl.UnusedValues();
  };
  CHECK_THROWS_WITH(init("type=NormalizeComponent"), Contains("'dim'"));
  CHECK_THROWS_WITH(init("type=NormalizeComponent dim=6 block-dim=4"),
                    Contains("block-dim=4"));
  CHECK_THROWS_WITH(init("type=NormalizeComponent dim=6 target-rms=0"),
                    Contains("target-rms=0"));
  CHECK_THROWS_WITH(init("type=BatchNormComponent block-dim=2"),
                    Contains("'dim'"));
  CHECK_THROWS_WITH(init("type=BatchNormComponent dim=6 block-dim=4"),
                    Contains("block-dim=4"));
  CHECK_THROWS_WITH(init("type=BatchNormComponent dim=6 epsilon=0"),
                    Contains("epsilon=0"));
  // As Kaldi, input-dim is not read when dim is given: left unused.
  CHECK(init("type=NormalizeComponent dim=6 input-dim=6") == "input-dim=6");
  CHECK(init("type=BatchNormComponent dim=6 colour=blue") == "colour=blue");
}

// Test mode's scale and offset are rounded as Kaldi derives them (from its
// double sums count * mean and count * (var + mean^2), in float): the
// values below are what Kaldi's nnet3-compute gave for this component
// (outputs for inputs 0 and 2^40). Computed directly from the mean and
// variance, each of them differs in its last bits.
TEST_CASE("BatchNormComponent test mode rounds as Kaldi", "[nonlinear]") {
  auto c = ReadComponent(
      "<BatchNormComponent> <Dim> 4 <BlockDim> 4 <Epsilon> 0.001 "
      "<TargetRms> 1 <TestMode> F <Count> 37 "
      "<StatsMean> [ -1.2509765625 -2.9130859375 2.841796875 -2.751953125 ] "
      "<StatsVar> [ 0.1884765625 1.392578125 1.6044921875 0.0517578125 ] "
      "</BatchNormComponent>",
      false);
  BatchNormComponent *b = AsBatchNorm(c);
  b->SetTestMode(true);
  CHECK(b->TestScale().ToHost() == std::vector<float>{2.29732323f, 0.847099006f,
                                                      0.789215803f,
                                                      4.35366154f});
  CHECK(b->TestOffset().ToHost() == std::vector<float>{2.87389755f, 2.46767211f,
                                                       -2.24279094f,
                                                       11.9810724f});
}
