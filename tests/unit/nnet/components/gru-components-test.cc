// GruNonlinearityComponent and OutputGruNonlinearityComponent: the generic
// component checks (projected and plain GRU), the forward pass against the
// GRU equations written out here, stats and self-repair, golden model
// fragments and config errors.
#include "nnet/components/gru-components.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "../component-test-utils.h"
#include "base/error.h"
#include "nonlinear-test-utils.h"

using namespace nnet3;
using namespace nnet3::nonlinear_test;
using Catch::Matchers::Contains;

namespace {

Matrix Forward(const Component &c, const MatrixView &in) {
  Matrix out(in.NumRows(), c.OutputDim());
  c.Propagate(nullptr, in, &out);
  return out;
}

}  // namespace

TEST_CASE("GRU components pass the generic checks", "[gru]") {
  const char *configs[] = {
      "type=GruNonlinearityComponent cell-dim=4 self-repair-scale=0",
      "type=GruNonlinearityComponent cell-dim=6 recurrent-dim=2 "
      "self-repair-scale=0 learning-rate=0.01 max-change=0.75",
      "type=OutputGruNonlinearityComponent cell-dim=5 self-repair-scale=0",
      "type=OutputGruNonlinearityComponent cell-dim=3 self-repair-scale=0 "
      "param-mean=0.5 param-stddev=0.1 rank=2 update-period=3",
  };
  uint64_t seed = 1520;
  for (const char *config : configs) {
    INFO(config);
    auto c = ComponentFromConfig(config);
    CheckComponent(*c, seed++);
  }
  auto g = ComponentFromConfig(configs[1]);
  CHECK(g->InputDim() == 3 * 6 + 2 * 2);
  CHECK(g->OutputDim() == 12);
  CHECK(dynamic_cast<UpdatableComponent &>(*g).NumParameters() == 12);
  auto plain = ComponentFromConfig(configs[0]);
  CHECK(plain->InputDim() == 16);
  auto o = ComponentFromConfig(configs[2]);
  CHECK(o->InputDim() == 15);
  CHECK(dynamic_cast<UpdatableComponent &>(*o).NumParameters() == 5);
}

TEST_CASE("GruNonlinearityComponent equals the GRU equations", "[gru]") {
  const uint64_t seed = 1525;
  INFO("seed " << seed);
  auto c = ComponentFromConfig(
      "type=GruNonlinearityComponent cell-dim=3 recurrent-dim=2");
  auto *g = dynamic_cast<GruNonlinearityComponent *>(c.get());
  const int32_t C = 3, R = 2, rows = 4, cols = 3 * C + 2 * R;
  Matrix in(rows, cols);
  in.SetRandn(seed);
  Matrix out = Forward(*c, in);
  std::vector<float> w = g->WeightH().ToHost();  // C x R
  for (int32_t r = 0; r < rows; r++) {
    for (int32_t i = 0; i < C; i++) {
      // h = tanh(hpart + W^h (s∘r)); c = (1-z) h + z c_prev.
      double a = in.Get(r, C + R + i);
      for (int32_t j = 0; j < R; j++)
        a += w[i * R + j] * in.Get(r, C + j) * in.Get(r, 3 * C + R + j);
      double h = std::tanh(a), z = in.Get(r, i),
             c_prev = in.Get(r, 2 * C + R + i);
      CHECK(out.Get(r, i) == Approx(h).margin(1e-5));
      CHECK(out.Get(r, C + i) == Approx((1 - z) * h + z * c_prev).margin(1e-5));
    }
  }
}

TEST_CASE("OutputGruNonlinearityComponent equals the OGRU equations", "[gru]") {
  const uint64_t seed = 1526;
  INFO("seed " << seed);
  auto c = ComponentFromConfig(
      "type=OutputGruNonlinearityComponent cell-dim=4 param-mean=0.2");
  auto *g = dynamic_cast<OutputGruNonlinearityComponent *>(c.get());
  const int32_t C = 4, rows = 3;
  Matrix in(rows, 3 * C);
  in.SetRandn(seed);
  Matrix out = Forward(*c, in);
  std::vector<float> w = g->WeightH().ToHost();
  for (int32_t r = 0; r < rows; r++)
    for (int32_t i = 0; i < C; i++) {
      double c_prev = in.Get(r, 2 * C + i);
      double h = std::tanh(in.Get(r, C + i) + w[i] * c_prev), z = in.Get(r, i);
      CHECK(out.Get(r, i) == Approx(h).margin(1e-5));
      CHECK(out.Get(r, C + i) == Approx((1 - z) * h + z * c_prev).margin(1e-5));
    }
}

TEST_CASE("GRU stats and self-repair", "[gru]") {
  const uint64_t seed = 1527;
  INFO("seed " << seed);
  for (const char *config :
       {"type=GruNonlinearityComponent cell-dim=3 self-repair-threshold=1.1",
        "type=OutputGruNonlinearityComponent cell-dim=3 "
        "self-repair-threshold=1.1"}) {
    INFO(config);
    // Threshold 1.1 > any tanh derivative: every unit is repaired.
    auto c = ComponentFromConfig(config);
    auto stats = c->Copy();
    stats->ZeroStats();
    const int32_t rows = 5;
    Matrix in(rows, c->InputDim()), out_deriv(rows, c->OutputDim());
    in.SetRandn(seed);
    Matrix out = Forward(*c, in);
    Matrix d_plain(rows, c->InputDim()), d_repair(rows, c->InputDim());
    c->Backprop("test", nullptr, in, out, out_deriv, nullptr, nullptr,
                &d_plain);
    c->Backprop("test", nullptr, in, out, out_deriv, nullptr, stats.get(),
                &d_repair);
    // out_deriv is zero: what remains is the self-repair term on hpart,
    // -1e-5 · h, so the hpart derivative is -1e-5 h.
    const int32_t C = 3, hpart = (c->InputDim() == 4 * C) ? 2 * C : C;
    for (int32_t r = 0; r < rows; r++)
      for (int32_t i = 0; i < C; i++) {
        CHECK(d_plain.Get(r, hpart + i) == 0.0f);
        CHECK(d_repair.Get(r, hpart + i) ==
              Approx(-1e-5 * out.Get(r, i)).margin(1e-9));
      }
    std::string text = WriteComponent(*stats, false);
    CHECK(TextScalarField(text, "<Count>") == rows);
    CHECK(TextScalarField(text, "<SelfRepairTotal>") == 3);
    std::vector<float> value_avg = TextVectorField(text, "<ValueAvg>");
    double sum0 = 0.0;
    for (int32_t r = 0; r < rows; r++) sum0 += out.Get(r, 0);
    CHECK(value_avg.at(0) == Approx(sum0 / rows).epsilon(1e-4));
    CHECK_THAT(stats->Info(), Contains("self-repaired-proportion=0.2"));
    CheckComponentIo(*stats);
  }
}

TEST_CASE("GRU golden files and config errors", "[gru]") {
  auto g = CheckGolden("GruNonlinearityComponent");
  CHECK(g->InputDim() == 3 * 2 + 2 * 1);
  CHECK_THAT(g->Info(), Contains("count=8, self-repaired-proportion=0.1875"));
  auto o = CheckGolden("OutputGruNonlinearityComponent");
  CHECK(o->InputDim() == 9);
  for (const char *bad :
       {"type=GruNonlinearityComponent",
        "type=GruNonlinearityComponent cell-dim=4 recurrent-dim=5",
        "type=GruNonlinearityComponent cell-dim=4 recurrent-dim=0",
        "type=OutputGruNonlinearityComponent cell-dim=-1",
        "type=OutputGruNonlinearityComponent cell-dim=3 rank=0"}) {
    INFO(bad);
    ConfigLine cfl;
    REQUIRE(cfl.ParseLine(bad));
    std::string type;
    REQUIRE(cfl.GetValue("type", &type));
    auto e = Component::NewComponentOfType(type);
    CHECK_THROWS_AS(e->InitFromConfig(&cfl), UserError);
  }
}
