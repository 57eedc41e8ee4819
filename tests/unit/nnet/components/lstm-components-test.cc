// LstmNonlinearityComponent: the generic component checks, the cell against
// a plain step-by-step formula written here, dropout masks, the stats and
// self-repair that Backprop accumulates, Kaldi's parameter count, the golden
// model fragment and config errors.
#include "nnet/components/lstm-components.h"

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

double Sig(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// The LSTM cell of one frame, step by step (Kaldi's equations (1)-(5)).
void CellByFormula(const std::vector<float> &x, const std::vector<float> &w,
                   int32_t C, bool masks, std::vector<double> *out) {
  out->assign(2 * C, 0.0);
  for (int32_t c = 0; c < C; c++) {
    double i_part = x[c], f_part = x[C + c], c_part = x[2 * C + c],
           o_part = x[3 * C + c], c_prev = x[4 * C + c];
    double i_scale = masks ? x[5 * C] : 1.0, f_scale = masks ? x[5 * C + 1] : 1,
           o_scale = masks ? x[5 * C + 2] : 1.0;
    double i_t = Sig(i_part + w[c] * c_prev);      // (1)
    double f_t = Sig(f_part + w[C + c] * c_prev);  // (2)
    double c_t =
        f_t * f_scale * c_prev + i_t * i_scale * std::tanh(c_part);  // (3)
    double o_t = Sig(o_part + w[2 * C + c] * c_t);                   // (4)
    double m_t = o_t * o_scale * std::tanh(c_t);                     // (5)
    (*out)[c] = c_t;
    (*out)[C + c] = m_t;
  }
}

LstmNonlinearityComponent *AsLstm(const std::unique_ptr<Component> &c) {
  auto *l = dynamic_cast<LstmNonlinearityComponent *>(c.get());
  REQUIRE(l != nullptr);
  return l;
}

Matrix Forward(const Component &c, const MatrixView &in) {
  Matrix out(in.NumRows(), c.OutputDim());
  c.Propagate(nullptr, in, &out);
  return out;
}

}  // namespace

TEST_CASE("LstmNonlinearityComponent passes the generic checks", "[lstm]") {
  // Self-repair off: its extra derivative terms are not derivatives.
  auto c = ComponentFromConfig(
      "type=LstmNonlinearityComponent cell-dim=5 self-repair-scale=0 "
      "param-stddev=0.5 learning-rate=0.01");
  CheckComponent(*c, 1510);
  auto d = ComponentFromConfig(
      "type=LstmNonlinearityComponent cell-dim=3 self-repair-scale=0 "
      "max-change=0.75 l2-regularize=0.01");
  CheckComponent(*d, 1511);
  CHECK(d->InputDim() == 15);
  CHECK(d->OutputDim() == 6);
  CHECK(AsLstm(d)->NumParameters() == 9);  // 3 C peepholes
}

TEST_CASE("LstmNonlinearityComponent equals the cell formula", "[lstm]") {
  const uint64_t seed = 1512;
  INFO("seed " << seed);
  for (bool masks : {false, true}) {
    auto c = ComponentFromConfig(
        std::string("type=LstmNonlinearityComponent cell-dim=4 ") +
        (masks ? "use-dropout=true" : ""));
    const int32_t C = 4, rows = 7;
    CHECK(c->InputDim() == 5 * C + (masks ? 3 : 0));
    Matrix in(rows, c->InputDim());
    in.SetRandn(seed);
    if (masks)
      for (int32_t r = 0; r < rows; r++)
        for (int32_t k = 0; k < 3; k++) in.Set(r, 5 * C + k, (r + k) % 2);
    Matrix out = Forward(*c, in);
    std::vector<float> w = AsLstm(c)->Params().ToHost(), x = in.ToHost();
    std::vector<double> want;
    for (int32_t r = 0; r < rows; r++) {
      std::vector<float> row(x.begin() + r * in.NumCols(),
                             x.begin() + (r + 1) * in.NumCols());
      CellByFormula(row, w, C, masks, &want);
      for (int32_t j = 0; j < 2 * C; j++)
        CHECK(out.Get(r, j) == Approx(want[j]).margin(1e-5));
    }
  }
}

TEST_CASE("LstmNonlinearityComponent with dropout masks: derivatives",
          "[lstm]") {
  // The masks get no derivative (as Kaldi); the rest is checked
  // numerically.
  const uint64_t seed = 1513;
  INFO("seed " << seed);
  auto c = ComponentFromConfig(
      "type=LstmNonlinearityComponent cell-dim=3 use-dropout=true "
      "self-repair-scale=0");
  const int32_t rows = 5, cols = c->InputDim();
  Matrix in(rows, cols), out_deriv(rows, c->OutputDim());
  in.SetRandn(seed);
  out_deriv.SetRandn(seed + 1);
  for (int32_t r = 0; r < rows; r++)
    for (int32_t k = 15; k < 18; k++) in.Set(r, k, 0.5f + 0.25f * (r % 3));
  Matrix in_deriv(rows, cols);
  in_deriv.Set(1.0f);  // must be overwritten
  c->Backprop("test", nullptr, in, Matrix(), out_deriv, nullptr, nullptr,
              &in_deriv);
  const double f0 = DotProduct(Forward(*c, in), out_deriv);
  for (int32_t trial = 0; trial < 3; trial++) {
    Matrix delta(rows, cols);
    delta.SetRandn(seed + 10 + trial);
    delta.Scale(1e-3f);
    for (int32_t r = 0; r < rows; r++)
      for (int32_t k = 15; k < 18; k++) delta.Set(r, k, 0.0f);
    Matrix in2(in);
    in2.AddMat(1.0f, delta);
    double measured = DotProduct(Forward(*c, in2), out_deriv) - f0;
    double predicted = DotProduct(in_deriv, delta);
    CHECK(predicted == Approx(measured).epsilon(0.02).margin(1e-6));
  }
  for (int32_t r = 0; r < rows; r++)
    for (int32_t k = 15; k < 18; k++) CHECK(in_deriv.Get(r, k) == 0.0f);
}

TEST_CASE("LstmNonlinearityComponent stats and self-repair", "[lstm]") {
  const uint64_t seed = 1514;
  INFO("seed " << seed);
  auto c = ComponentFromConfig(
      "type=LstmNonlinearityComponent cell-dim=2 param-stddev=0.3");
  auto stats = c->Copy();
  const int32_t rows = 6;
  Matrix in(rows, 10), out_deriv(rows, 4), in_deriv(rows, 10);
  in.SetRandn(seed);
  out_deriv.SetRandn(seed + 1);
  c->Backprop("test", nullptr, in, Matrix(), out_deriv, nullptr, stats.get(),
              &in_deriv);
  auto *l = AsLstm(stats);
  CHECK(l->Count() == rows);
  // Row 0 of the value average is the mean of i = σ(i_part + w_ic c_prev).
  std::vector<float> w = AsLstm(c)->Params().ToHost();
  for (int32_t cell = 0; cell < 2; cell++) {
    double sum = 0.0;
    for (int32_t r = 0; r < rows; r++)
      sum += Sig(in.Get(r, cell) + w[cell] * in.Get(r, 8 + cell));
    CHECK(l->ValueAvg().Get(0, cell) == Approx(sum / rows).epsilon(1e-5));
  }
  // No derivative stats before: every unit was repaired (proportion 1).
  std::vector<float> prob = l->SelfRepairProb().ToHost();
  for (float p : prob) CHECK(p == Approx(1.0f));
  // The peepholes moved (learning rate 0.001).
  CHECK(l->DotProduct(*l) != Approx(AsLstm(c)->DotProduct(*AsLstm(c))));
  CheckComponentIo(*stats);
  CHECK_THAT(stats->Info(), Contains("i_t_sigmoid={ self-repair-lower-"
                                     "threshold=0.05, self-repair-scale=1e-05"
                                     ", self-repaired-proportion=1"));
  // Scale / Add keep averages: adding a copy doubles the count only.
  auto sum = stats->Copy();
  sum->Add(1.0f, *stats);
  CHECK(AsLstm(sum)->Count() == 2 * rows);
  CHECK(AsLstm(sum)->ValueAvg().Get(0, 1) ==
        Approx(l->ValueAvg().Get(0, 1)).epsilon(1e-5));
  sum->ZeroStats();
  CHECK(AsLstm(sum)->Count() == 0.0);
  // Self-repair changes in_deriv only through the repaired units: with
  // self-repair-scale=0 the same backprop gives a different in_deriv.
  auto no_repair = ComponentFromConfig(
      "type=LstmNonlinearityComponent cell-dim=2 self-repair-scale=0");
  Vector peepholes(6);
  AsLstm(c)->Vectorize(&peepholes);
  AsLstm(no_repair)->UnVectorize(peepholes);
  Matrix in_deriv2(rows, 10);
  no_repair->Backprop("test", nullptr, in, Matrix(), out_deriv, nullptr,
                      nullptr, &in_deriv2);
  Matrix in_deriv3(rows, 10);
  c->Backprop("test", nullptr, in, Matrix(), out_deriv, nullptr, nullptr,
              &in_deriv3);
  CHECK(!in_deriv2.ApproxEqual(in_deriv3, 1e-7f));
  CHECK(in_deriv2.ApproxEqual(in_deriv3, 1e-3f));
}

TEST_CASE("LstmNonlinearityComponent golden file and config errors", "[lstm]") {
  auto c = CheckGolden("LstmNonlinearityComponent");
  CHECK(c->InputDim() == 10);
  CHECK(c->Info().find("count=4") != std::string::npos);
  // With dropout masks (<UseDropout> written) and a gradient flag.
  std::string text = WriteComponent(*c, false);
  text.replace(text.find("<Count>"), 0, "<UseDropout> T ");
  auto d = ReadComponent(text, false);
  CHECK(d->InputDim() == 13);
  CHECK(WriteComponent(*d, false) == text);
  for (const char *bad :
       {"type=LstmNonlinearityComponent",
        "type=LstmNonlinearityComponent "
        "cell-dim=0",
        "type=LstmNonlinearityComponent cell-dim=4 self-repair-scale=0.5",
        "type=LstmNonlinearityComponent cell-dim=4 "
        "sigmoid-self-repair-threshold=0.3"}) {
    INFO(bad);
    ConfigLine cfl;
    REQUIRE(cfl.ParseLine(bad));
    auto e = Component::NewComponentOfType("LstmNonlinearityComponent");
    CHECK_THROWS_AS(e->InitFromConfig(&cfl), UserError);
  }
}
