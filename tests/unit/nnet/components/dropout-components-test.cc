// DropoutComponent and GeneralDropoutComponent: generic checks (with the
// generator reset so masks are fixed), mask statistics, test mode, masks
// shared through precomputed indexes, golden files, config errors.
#include "nnet/components/dropout-components.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "base/error.h"
#include "../component-test-utils.h"
#include "nonlinear-test-utils.h"

using namespace nnet3;
using namespace nnet3::nonlinear_test;
using Catch::Matchers::Contains;

namespace {

std::vector<float> ForwardOnes(
    const Component &c, int rows,
    const ComponentPrecomputedIndexes *indexes = nullptr) {
  Matrix in(rows, c.InputDim());
  in.Set(1.0f);
  Matrix out(rows, c.OutputDim());
  c.DeleteMemo(c.Propagate(indexes, in, &out));
  return out.ToHost();
}

double FractionEqual(const std::vector<float> &v, float value) {
  double n = 0;
  for (float f : v) n += (f == value);
  return n / v.size();
}

RandomComponent *AsRandom(const std::unique_ptr<Component> &c) {
  auto *r = dynamic_cast<RandomComponent *>(c.get());
  REQUIRE(r != nullptr);
  return r;
}

}  // namespace

TEST_CASE("Dropout components pass the generic checks", "[nonlinear]") {
  const char *configs[] = {
      "type=DropoutComponent dim=10 dropout-proportion=0.5",
      "type=DropoutComponent dim=7 dropout-proportion=0.2 "
      "dropout-per-frame=true",
      "type=DropoutComponent dim=6 dropout-proportion=0.3 test-mode=true",
      "type=GeneralDropoutComponent dim=8",
      "type=GeneralDropoutComponent dim=8 block-dim=4 dropout-proportion=0.25",
      "type=GeneralDropoutComponent dim=6 block-dim=3 continuous=true "
      "dropout-proportion=0.4",
      "type=GeneralDropoutComponent dim=10 dropout-proportion=0 "
      "specaugment-max-proportion=0.5 specaugment-max-regions=2",
      "type=GeneralDropoutComponent dim=8 test-mode=true",
  };
  uint64_t seed = 500;
  for (const char *config : configs) {
    INFO(config);
    CheckComponent(*ComponentFromConfig(config), seed++);
  }
}

TEST_CASE("DropoutComponent masks", "[nonlinear]") {
  auto c = ComponentFromConfig(
      "type=DropoutComponent dim=50 "
      "dropout-proportion=0.3");
  AsRandom(c)->ResetGenerator(11);
  std::vector<float> y = ForwardOnes(*c, 200);
  // Values in {0, 1} (no 1/(1-p) rescaling), a proportion p of zeros.
  CHECK(FractionEqual(y, 0.0f) + FractionEqual(y, 1.0f) == 1.0);
  CHECK(FractionEqual(y, 0.0f) == Approx(0.3).margin(0.015));
  // The same seed gives the same mask; the next propagate another.
  AsRandom(c)->ResetGenerator(11);
  CHECK(ForwardOnes(*c, 200) == y);
  CHECK(ForwardOnes(*c, 200) != y);
  // Backprop multiplies by the mask (recovered from in and out).
  Matrix in(4, 50);
  in.SetRandn(3);
  in.Set(0, 0, 0.0f);  // in == 0: out_deriv passes unchanged
  Matrix out(4, 50);
  c->Propagate(nullptr, in, &out);
  Matrix out_deriv(4, 50);
  out_deriv.SetRandn(4);
  Matrix in_deriv(4, 50);
  c->Backprop("t", nullptr, in, out, out_deriv, nullptr, nullptr, &in_deriv);
  for (int r = 0; r < 4; r++)
    for (int j = 0; j < 50; j++) {
      if (r == 0 && j == 0) {
        CHECK(in_deriv.Get(0, 0) == out_deriv.Get(0, 0));
        continue;
      }
      float mask = out.Get(r, j) / in.Get(r, j);
      CHECK(in_deriv.Get(r, j) == Approx(out_deriv.Get(r, j) * mask));
    }
  // Test mode scales by 1 - p.
  AsRandom(c)->SetTestMode(true);
  CHECK(FractionEqual(ForwardOnes(*c, 3), 0.7f) == 1.0);
  // Per frame: whole rows are kept or dropped.
  auto f = ComponentFromConfig(
      "type=DropoutComponent dim=5 "
      "dropout-proportion=0.5 dropout-per-frame=true");
  std::vector<float> rows = ForwardOnes(*f, 400);
  for (int r = 0; r < 400; r++)
    for (int j = 1; j < 5; j++) CHECK(rows[5 * r + j] == rows[5 * r]);
  CHECK(FractionEqual(rows, 0.0f) == Approx(0.5).margin(0.06));
  // SetDropoutProportion.
  auto *d = dynamic_cast<DropoutComponent *>(c.get());
  d->SetDropoutProportion(0.1f);
  CHECK(d->DropoutProportion() == 0.1f);
  CHECK_THROWS_AS(d->SetDropoutProportion(1.5f), UserError);
}

TEST_CASE("GeneralDropoutComponent masks", "[nonlinear]") {
  auto c = ComponentFromConfig(
      "type=GeneralDropoutComponent dim=40 "
      "dropout-proportion=0.25");
  AsRandom(c)->ResetGenerator(5);
  std::vector<float> y = ForwardOnes(*c, 200);
  // Values 0 or 1/(1-p).
  double zeros = FractionEqual(y, 0.0f), kept = FractionEqual(y, 1 / 0.75f);
  CHECK(zeros + kept == 1.0);
  CHECK(zeros == Approx(0.25).margin(0.015));
  // Continuous: 1 + 4p(u - 1/2), in [1-2p, 1+2p) with mean 1.
  auto cont = ComponentFromConfig(
      "type=GeneralDropoutComponent dim=40 "
      "dropout-proportion=0.25 continuous=true");
  std::vector<float> v = ForwardOnes(*cont, 200);
  double sum = 0;
  for (float f : v) {
    CHECK(f >= 0.5f);
    CHECK(f < 1.5f);
    sum += f;
  }
  CHECK(sum / v.size() == Approx(1.0).margin(0.01));
  // Test mode is the identity.
  AsRandom(c)->SetTestMode(true);
  CHECK(FractionEqual(ForwardOnes(*c, 3), 1.0f) == 1.0);
  // SpecAugment: up to 50% of each row zeroed in at most 2 bands.
  auto spec = ComponentFromConfig(
      "type=GeneralDropoutComponent dim=20 dropout-proportion=0 "
      "specaugment-max-proportion=0.5 specaugment-max-regions=2");
  std::vector<float> s = ForwardOnes(*spec, 300);
  double total_zeros = 0;
  for (int r = 0; r < 300; r++) {
    int row_zeros = 0, bands = 0;
    for (int j = 0; j < 20; j++) {
      float f = s[20 * r + j];
      CHECK((f == 0.0f || f == 1.0f));
      if (f == 0.0f) {
        row_zeros++;
        if (j == 0 || s[20 * r + j - 1] != 0.0f) bands++;
      }
    }
    CHECK(row_zeros <= 10);
    CHECK(bands <= 2);
    total_zeros += row_zeros;
  }
  CHECK(total_zeros / 300 == Approx(5.0).margin(0.6));  // mean of U{0..10}
}

TEST_CASE("GeneralDropoutComponent shares masks through its indexes",
          "[nonlinear]") {
  auto c = ComponentFromConfig(
      "type=GeneralDropoutComponent dim=8 block-dim=4 time-period=2 "
      "dropout-proportion=0.5");
  // Rows: n = 0..2, t = -2..3.
  std::vector<Index> indexes;
  for (int t = -2; t <= 3; t++)
    for (int n = 0; n < 3; n++) indexes.push_back(Index(n, t));
  std::unique_ptr<ComponentPrecomputedIndexes> pre =
      c->PrecomputeIndexes(MiscComputationInfo(), indexes, indexes, true);
  REQUIRE(pre != nullptr);
  auto *gd =
      dynamic_cast<GeneralDropoutComponentPrecomputedIndexes *>(pre.get());
  REQUIRE(gd != nullptr);
  // 3 n-values times 3 time blocks ({-2,-1}, {0,1}, {2,3}), times the
  // 2 blocks per row (Kaldi's row count; only the first 9 are used).
  CHECK(gd->num_mask_rows == 18);
  CHECK(gd->indexes.Dim() == 36);
  int rows = static_cast<int>(indexes.size());
  std::vector<float> y = ForwardOnes(*c, rows, pre.get());
  auto row = [&](int i) {
    return std::vector<float>(y.begin() + 8 * i, y.begin() + 8 * i + 8);
  };
  std::set<std::vector<float>> distinct;
  for (int i = 0; i < rows; i++) {
    std::vector<float> r = row(i);
    // The 4-value mask repeats over the two blocks.
    for (int j = 0; j < 4; j++) CHECK(r[j] == r[j + 4]);
    distinct.insert(r);
    for (int k = 0; k < rows; k++) {
      bool same_group =
          indexes[i].n == indexes[k].n &&
          std::floor(indexes[i].t / 2.0) == std::floor(indexes[k].t / 2.0);
      if (same_group) CHECK(row(k) == r);
    }
  }
  CHECK(distinct.size() > 1);
  // The indexes round-trip through their Kaldi form.
  for (bool binary : {false, true}) {
    std::ostringstream os;
    pre->Write(os, binary);
    std::istringstream is(os.str());
    auto back = ComponentPrecomputedIndexes::ReadNew(is, binary);
    REQUIRE(back != nullptr);
    std::ostringstream os2;
    back->Write(os2, binary);
    CHECK(os2.str() == os.str());
    if (!binary)
      CHECK(os.str().find("<GeneralDropoutComponentPrecomputedIndexes> "
                          "<NumMaskRows> 18 <Indexes> [ 0 0 1 1 2 2 0 0") == 0);
  }
  // Backprop applies the same mask with the same indexes.
  Matrix in(rows, 8);
  in.SetRandn(9);
  Matrix out(rows, 8);
  void *memo = c->Propagate(pre.get(), in, &out);
  Matrix in_deriv(rows, 8);
  c->Backprop("t", pre.get(), in, out, in, memo, nullptr, &in_deriv);
  c->DeleteMemo(memo);
  CHECK(in_deriv.ApproxEqual(out, 1e-6f));
}

TEST_CASE("Dropout golden files, properties and config errors", "[nonlinear]") {
  auto d = CheckGolden("DropoutComponent");
  CHECK(d->Info() ==
        "DropoutComponent, dim=8, dropout-proportion=0.25, "
        "dropout-per-frame=false");
  CHECK(d->Properties() ==
        (kSimpleComponent | kBackpropInPlace | kBackpropNeedsInput |
         kBackpropNeedsOutput | kRandomComponent));
  auto g = CheckGolden("GeneralDropoutComponent");
  CHECK(AsRandom(g)->TestMode());
  CHECK(g->Properties() ==
        (kRandomComponent | kPropagateInPlace | kBackpropInPlace | kUsesMemo |
         kInputContiguous | kOutputContiguous));
  CHECK(
      ComponentFromConfig("type=GeneralDropoutComponent dim=4")->Properties() ==
      (kRandomComponent | kPropagateInPlace | kBackpropInPlace | kUsesMemo));
  CHECK(WriteComponent(*ComponentFromConfig("type=GeneralDropoutComponent "
                                            "dim=4"),
                       false) ==
        "<GeneralDropoutComponent> <Dim> 4 <BlockDim> 4 <TimePeriod> 0 "
        "<DropoutProportion> 0.5 </GeneralDropoutComponent> ");
  // An old DropoutComponent without the optional fields.
  auto old = ReadComponent(
      "<DropoutComponent> <Dim> 3 <DropoutProportion> 0.5 "
      "</DropoutComponent> ",
      false);
  CHECK(WriteComponent(*old, false) ==
        "<DropoutComponent> <Dim> 3 <DropoutProportion> 0.5 "
        "<DropoutPerFrame> F <TestMode> F </DropoutComponent> ");

  auto init = [](const std::string &line) {
    ConfigLine cfl;
    REQUIRE(cfl.ParseLine(line));
    std::string type;
    REQUIRE(cfl.GetValue("type", &type));
    auto c = Component::NewComponentOfType(type);
    c->InitFromConfig(&cfl);
    return cfl.UnusedValues();
  };
  CHECK_THROWS_WITH(init("type=DropoutComponent dropout-proportion=0.5"),
                    Contains("'dim'"));
  CHECK_THROWS_WITH(init("type=DropoutComponent dim=4"),
                    Contains("'dropout-proportion'"));
  CHECK_THROWS_WITH(init("type=DropoutComponent dim=4 dropout-proportion=1.5"),
                    Contains("dropout-proportion=1.5"));
  CHECK_THROWS_WITH(init("type=DropoutComponent dim=4 dropout-proportion=-0.1"),
                    Contains("dropout-proportion=-0.1"));
  CHECK_THROWS_WITH(init("type=GeneralDropoutComponent dim=6 block-dim=4"),
                    Contains("block-dim=4"));
  CHECK_THROWS_WITH(
      init("type=GeneralDropoutComponent dim=6 dropout-proportion=1"),
      Contains("dropout-proportion=1"));
  CHECK_THROWS_WITH(init("type=GeneralDropoutComponent dim=6 time-period=-1"),
                    Contains("time-period=-1"));
  CHECK(init("type=DropoutComponent dim=4 dropout-proportion=0.5 x=1") ==
        "x=1");
}
