// DropoutMaskComponent and SpecAugmentTimeMaskComponent: the general checks
// (with the generator reset so masks are fixed), mask statistics and
// structure, test mode, seeding, golden files and config errors.
#include "nnet/components/random-mask-components.h"

#include <catch2/catch.hpp>

#include "../component-test-utils.h"
#include "../general-component-test-utils.h"
#include "nonlinear-test-utils.h"
#include "simple-components-test-utils.h"

using namespace nnet3;
using simple_test::CheckConfigError;

namespace {

RandomComponent &AsRandom(Component &c) {
  auto *r = dynamic_cast<RandomComponent *>(&c);
  REQUIRE(r != nullptr);
  return *r;
}

// The mask for `rows` rows (DropoutMask needs no input).
Matrix MaskOf(const Component &c, int32_t rows) {
  Matrix out(rows, c.OutputDim());
  c.DeleteMemo(c.Propagate(nullptr, Matrix(0, c.InputDim()), &out));
  return out;
}

}  // namespace

TEST_CASE("DropoutMaskComponent passes the general checks", "[random-mask]") {
  const char *configs[] = {
      "type=DropoutMaskComponent output-dim=4",
      "type=DropoutMaskComponent output-dim=2 dropout-proportion=0.3",
      "type=DropoutMaskComponent output-dim=3 continuous=true "
      "dropout-proportion=0.2",
      "type=DropoutMaskComponent output-dim=5 test-mode=true",
  };
  uint64_t seed = 7500;
  for (const char *config : configs) {
    INFO(config);
    auto c = ComponentFromConfig(config);
    CHECK(c->Properties() == kRandomComponent);
    GeneralComponentRun run;
    CheckGeneralComponent(*c, FrameGrid(2, 0, 5, 1, true), {}, seed++, {},
                          &run);
    CHECK(run.input_indexes.empty());
  }
}

TEST_CASE("DropoutMaskComponent masks", "[random-mask]") {
  auto c = ComponentFromConfig(
      "type=DropoutMaskComponent output-dim=10 dropout-proportion=0.3");
  AsRandom(*c).ResetGenerator(3);
  const std::vector<float> m = MaskOf(*c, 1000).ToHost();
  double zeros = 0;
  for (float f : m) {
    CHECK((f == 0.0f || f == 1.0f));
    zeros += (f == 0.0f);
  }
  CHECK(zeros / m.size() == Approx(0.3).margin(0.015));
  // Same seed, same mask; the next propagate another.
  AsRandom(*c).ResetGenerator(3);
  CHECK(MaskOf(*c, 1000).ToHost() == m);
  CHECK(MaskOf(*c, 1000).ToHost() != m);
  // Test mode: 1 - p; p = 0: ones.
  AsRandom(*c).SetTestMode(true);
  simple_test::CheckNear(MaskOf(*c, 2), {std::vector<float>(10, 0.7f),
                                         std::vector<float>(10, 0.7f)});
  auto *d = dynamic_cast<DropoutMaskComponent *>(c.get());
  d->SetDropoutProportion(0.0f);
  AsRandom(*c).SetTestMode(false);
  for (float f : MaskOf(*c, 5).ToHost()) CHECK(f == 1.0f);
  CHECK_THROWS_AS(d->SetDropoutProportion(1.5f), UserError);
  // Two columns (LSTM per-frame dropout): each zero with probability p,
  // never both when p <= 0.5.
  for (int32_t dim : {2, 3}) {
    auto two = ComponentFromConfig(
        "type=DropoutMaskComponent dropout-proportion=0.4 output-dim=" +
        std::to_string(dim));
    const Matrix mask = MaskOf(*two, 4000);
    double z0 = 0, z1 = 0, z2 = 0;
    for (int32_t r = 0; r < mask.NumRows(); r++) {
      const float a = mask.Get(r, 0), b = mask.Get(r, 1);
      CHECK((a == 0.0f || a == 1.0f));
      CHECK(a + b > 0.0f);
      z0 += (a == 0.0f);
      z1 += (b == 0.0f);
      if (dim == 3) z2 += (mask.Get(r, 2) == 0.0f);
    }
    CHECK(z0 / 4000 == Approx(0.4).margin(0.03));
    CHECK(z1 / 4000 == Approx(0.4).margin(0.03));
    if (dim == 3) CHECK(z2 / 4000 == Approx(0.4).margin(0.03));
  }
  // Continuous: 1 + 4p(u - 1/2), mean 1.
  auto cont = ComponentFromConfig(
      "type=DropoutMaskComponent output-dim=8 continuous=true "
      "dropout-proportion=0.25");
  double sum = 0;
  const std::vector<float> v = MaskOf(*cont, 500).ToHost();
  for (float f : v) {
    CHECK(f >= 0.5f);
    CHECK(f < 1.5f);
    sum += f;
  }
  CHECK(sum / v.size() == Approx(1.0).margin(0.01));
  AsRandom(*cont).SetTestMode(true);
  for (float f : MaskOf(*cont, 3).ToHost()) CHECK(f == 1.0f);
}

TEST_CASE("DropoutMaskComponent golden file and config errors",
          "[random-mask]") {
  auto c = nonlinear_test::CheckGolden("DropoutMaskComponent");
  CHECK(c->Info() ==
        "DropoutMaskComponent, output-dim=3, dropout-proportion=0.25, "
        "continuous=true");
  CheckConfigError("type=DropoutMaskComponent", "output-dim");
  CheckConfigError("type=DropoutMaskComponent output-dim=-2", "output-dim=-2");
  CheckConfigError(
      "type=DropoutMaskComponent output-dim=2 dropout-proportion=1.5",
      "dropout-proportion=1.5");
}

TEST_CASE("SpecAugmentTimeMaskComponent passes the general checks",
          "[random-mask]") {
  const char *configs[] = {
      "type=SpecAugmentTimeMaskComponent dim=6",
      "type=SpecAugmentTimeMaskComponent dim=3 zeroed-proportion=0.5 "
      "time-mask-max-frames=3",
      "type=SpecAugmentTimeMaskComponent dim=4 zeroed-proportion=0",
      "type=SpecAugmentTimeMaskComponent dim=4 test-mode=true",
  };
  uint64_t seed = 7600;
  for (const char *config : configs) {
    INFO(config);
    auto c = ComponentFromConfig(config);
    const std::vector<Index> frames = FrameGrid(3, 0, 12, 1, true);
    CheckGeneralComponent(*c, frames, frames, seed++);
    CheckComponent(*c, seed++);  // without indexes: one sequence
  }
}

TEST_CASE("SpecAugmentTimeMaskComponent masks whole frames in runs",
          "[random-mask]") {
  auto c = ComponentFromConfig(
      "type=SpecAugmentTimeMaskComponent dim=2 zeroed-proportion=0.25 "
      "time-mask-max-frames=10");
  // Three sequences of 2000 frames, t-major rows.
  const int32_t num_n = 3, num_t = 2000;
  const std::vector<Index> frames = FrameGrid(num_n, 0, num_t, 1, true);
  auto pre = c->PrecomputeIndexes(MiscComputationInfo(), frames, frames, true);
  Matrix in(num_n * num_t, 2);
  in.Set(1.0f);
  Matrix out(num_n * num_t, 2);
  AsRandom(*c).ResetGenerator(17);
  void *memo = c->Propagate(pre.get(), in, &out);
  REQUIRE(memo != nullptr);
  c->DeleteMemo(memo);
  const std::vector<float> y = out.ToHost();
  double zeros = 0;
  for (int32_t n = 0; n < num_n; n++) {
    // Runs along t: zeroed runs of 1..10 frames, kept runs of 1..30.
    int32_t run = 0;
    float prev = -1.0f;
    for (int32_t t = 0; t < num_t; t++) {
      const int32_t row = t * num_n + n;
      const float v = y[2 * row];
      CHECK(y[2 * row + 1] == v);  // whole rows
      CHECK((v == 0.0f || v == 1.0f));
      zeros += (v == 0.0f);
      if (v == prev) {
        run++;
      } else {
        run = 1;
        prev = v;
      }
      CHECK(run <= (v == 0.0f ? 10 : 60));  // a kept run may join two
    }
  }
  // Expected zeroed fraction 5.5 / (5.5 + 15.5).
  CHECK(zeros / (num_n * num_t) == Approx(5.5 / 21.0).margin(0.03));
  // The sequences differ; in test mode nothing is masked.
  std::vector<float> seq0, seq1;
  for (int32_t t = 0; t < num_t; t++) {
    seq0.push_back(y[2 * (t * num_n)]);
    seq1.push_back(y[2 * (t * num_n + 1)]);
  }
  CHECK(seq0 != seq1);
  AsRandom(*c).SetTestMode(true);
  CHECK(c->Propagate(pre.get(), in, &out) == nullptr);
  for (float f : out.ToHost()) CHECK(f == 1.0f);
}

TEST_CASE("SpecAugmentTimeMaskComponent golden file and config errors",
          "[random-mask]") {
  auto c = nonlinear_test::CheckGolden("SpecAugmentTimeMaskComponent");
  CHECK(AsRandom(*c).TestMode());
  CHECK(c->Info() ==
        "SpecAugmentTimeMaskComponent, dim=40, zeroed-proportion=0.2, "
        "time-mask-max-frames=8");
  CHECK(c->Properties() ==
        (kRandomComponent | kPropagateInPlace | kBackpropInPlace | kUsesMemo));
  CheckConfigError("type=SpecAugmentTimeMaskComponent", "dim=");
  CheckConfigError(
      "type=SpecAugmentTimeMaskComponent dim=4 "
      "time-mask-max-frames=1",
      "time-mask-max-frames=1");
  CheckConfigError(
      "type=SpecAugmentTimeMaskComponent dim=4 "
      "zeroed-proportion=1",
      "zeroed-proportion=1");
  // Kept runs would be empty: 10 * 0.05 / 0.95 < 1.
  CheckConfigError(
      "type=SpecAugmentTimeMaskComponent dim=4 "
      "zeroed-proportion=0.95",
      "zeroed-proportion=0.95");
}
