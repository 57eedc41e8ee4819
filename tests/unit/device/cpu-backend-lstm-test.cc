// Tests of the CPU backend's fused LSTM cell against the cell written out
// step by step in double precision here: the forward values, the input and
// peephole derivatives against numeric differences of that reference, the
// self-repair terms, the stats, dropout masks and strided views.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "device/cpu-backend.h"
#include "test-views.h"

namespace nnet3 {
namespace {

using test::CheckMat;
using test::Ref;
using test::Rng;
using test::TestMat;

double Sig(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// The cell for one row, in double: returns (c_t, m_t) for unit c.
void RefCell(const std::vector<double> &x, const std::vector<double> &w,
             int32_t cell_dim, bool masks, int32_t c, double *c_t,
             double *m_t) {
  const int32_t C = cell_dim;
  double i_scale = masks ? x[5 * C] : 1.0, f_scale = masks ? x[5 * C + 1] : 1.0,
         o_scale = masks ? x[5 * C + 2] : 1.0;
  double c_prev = x[4 * C + c];
  double i = Sig(x[c] + w[c] * c_prev);
  double f = Sig(x[C + c] + w[C + c] * c_prev);
  *c_t = f * f_scale * c_prev + i * i_scale * std::tanh(x[2 * C + c]);
  double o = Sig(x[3 * C + c] + w[2 * C + c] * *c_t);
  *m_t = o * o_scale * std::tanh(*c_t);
}

// sum over the row of out_deriv .* (c_t, m_t), in double.
double RowObjective(const std::vector<double> &x, const std::vector<double> &w,
                    const std::vector<double> &od, int32_t cell_dim,
                    bool masks) {
  double sum = 0.0;
  for (int32_t c = 0; c < cell_dim; c++) {
    double c_t, m_t;
    RefCell(x, w, cell_dim, masks, c, &c_t, &m_t);
    sum += od[c] * c_t + od[cell_dim + c] * m_t;
  }
  return sum;
}

std::vector<double> RowOf(const TestMat &m, int32_t r) {
  std::vector<double> v(m.cols());
  for (int32_t c = 0; c < m.cols(); c++) v[c] = m(r, c);
  return v;
}

struct LstmCase {
  int32_t rows, cell_dim;
  bool masks;
  TestMat in, params, out_deriv;
  LstmCase(int32_t r, int32_t c, bool m, Rng *rng)
      : rows(r),
        cell_dim(c),
        masks(m),
        in(r, 5 * c + (m ? 3 : 0), rng),
        params(3, c, rng),
        out_deriv(r, 2 * c, rng) {
    in.FillView(rng, -2.0f, 2.0f);
    params.FillView(rng, -1.0f, 1.0f);
    out_deriv.FillView(rng, -1.0f, 1.0f);
    if (masks)
      for (int32_t i = 0; i < rows; i++)
        for (int32_t k = 0; k < 3; k++)
          in(i, 5 * c + k) = test::RandFloat(rng, 0.0f, 2.0f);
  }
};

TEST_CASE("CpuBackend LstmNonlinearity forward", "[device][lstm]") {
  CpuBackend cpu;
  const uint32_t seed = 1501;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 12; trial++) {
    const int32_t rows = test::RandInt(&rng, 0, 9),
                  cell_dim = test::RandInt(&rng, 1, 7);
    const bool masks = trial % 3 == 2;
    INFO("trial " << trial << " rows " << rows << " cell-dim " << cell_dim
                  << " masks " << masks);
    LstmCase k(rows, cell_dim, masks, &rng);
    TestMat out(rows, 2 * cell_dim, &rng), before(out);
    cpu.LstmNonlinearity(k.in.cview(), k.params.cview(), out.view());
    Ref want(rows, 2 * cell_dim);
    std::vector<double> w(3 * cell_dim);
    for (int32_t j = 0; j < 3 * cell_dim; j++)
      w[j] = k.params(j / cell_dim, j % cell_dim);
    for (int32_t r = 0; r < rows; r++)
      for (int32_t c = 0; c < cell_dim; c++)
        RefCell(RowOf(k.in, r), w, cell_dim, masks, c, &want(r, c),
                &want(r, cell_dim + c));
    CheckMat(out, before, want, 1e-5);
  }
}

TEST_CASE("CpuBackend DiffLstmNonlinearity derivatives and stats",
          "[device][lstm]") {
  CpuBackend cpu;
  const uint32_t seed = 1502;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 10; trial++) {
    const int32_t rows = test::RandInt(&rng, 1, 6),
                  cell_dim = test::RandInt(&rng, 1, 5);
    const bool masks = trial % 2 == 1;
    INFO("trial " << trial << " rows " << rows << " cell-dim " << cell_dim);
    LstmCase k(rows, cell_dim, masks, &rng);
    TestMat in_deriv(rows, k.in.cols(), &rng), params_deriv(3, cell_dim, &rng),
        value_sum(5, cell_dim, &rng), deriv_sum(5, cell_dim, &rng),
        sr_sum(5, cell_dim, &rng), zero_sums(5, cell_dim, &rng);
    TestMat value_before(value_sum), deriv_before(deriv_sum);
    zero_sums.SetView(1.0e6f);  // high derivative averages: no self-repair
    std::vector<float> config = {0.05f, 0.05f, 0.2f, 0.05f, 0.2f,
                                 0.0f,  0.0f,  0.0f, 0.0f,  0.0f};
    ConstMatView config_view(config.data(), 1, 10, 10);
    cpu.DiffLstmNonlinearity(
        k.in.cview(), k.params.cview(), k.out_deriv.cview(), zero_sums.cview(),
        config_view, 0.0, in_deriv.view(), params_deriv.view(),
        value_sum.view(), deriv_sum.view(), sr_sum.view());
    std::vector<double> w(3 * cell_dim);
    for (int32_t j = 0; j < 3 * cell_dim; j++)
      w[j] = k.params(j / cell_dim, j % cell_dim);
    const double h = 1e-5;
    Ref want_params(3, cell_dim);
    for (int32_t r = 0; r < rows; r++) {
      std::vector<double> x = RowOf(k.in, r), od = RowOf(k.out_deriv, r);
      for (int32_t j = 0; j < 5 * cell_dim; j++) {
        std::vector<double> xp = x, xm = x;
        xp[j] += h;
        xm[j] -= h;
        double numeric = (RowObjective(xp, w, od, cell_dim, masks) -
                          RowObjective(xm, w, od, cell_dim, masks)) /
                         (2 * h);
        INFO("row " << r << " input column " << j);
        CHECK(in_deriv(r, j) == Approx(numeric).margin(1e-4).epsilon(1e-3));
      }
      for (int32_t j = 0; j < 3 * cell_dim; j++) {
        std::vector<double> wp = w, wm = w;
        wp[j] += h;
        wm[j] -= h;
        want_params(j / cell_dim, j % cell_dim) +=
            (RowObjective(x, wp, od, cell_dim, masks) -
             RowObjective(x, wm, od, cell_dim, masks)) /
            (2 * h);
      }
      if (masks)
        for (int32_t j = 5 * cell_dim; j < 5 * cell_dim + 3; j++)
          CHECK(in_deriv(r, j) == 0.0f);
    }
    for (int32_t j = 0; j < 3 * cell_dim; j++)
      CHECK(params_deriv(j / cell_dim, j % cell_dim) ==
            Approx(want_params(j / cell_dim, j % cell_dim))
                .margin(1e-4)
                .epsilon(1e-3));
    // Stats: value sums of i, f, tanh(c_part), o, tanh(c_t) were added.
    for (int32_t c = 0; c < cell_dim; c++) {
      double sum_i = 0.0, sum_tanh_ct = 0.0;
      for (int32_t r = 0; r < rows; r++) {
        std::vector<double> x = RowOf(k.in, r);
        sum_i += Sig(x[c] + w[c] * x[4 * cell_dim + c]);
        double c_t, m_t;
        RefCell(x, w, cell_dim, masks, c, &c_t, &m_t);
        sum_tanh_ct += std::tanh(c_t);
      }
      CHECK(value_sum(0, c) - value_before(0, c) == Approx(sum_i).margin(1e-4));
      CHECK(value_sum(4, c) - value_before(4, c) ==
            Approx(sum_tanh_ct).margin(1e-4));
      for (int32_t kk = 0; kk < 5; kk++) {
        CHECK(sr_sum(kk, c) == 0.0f);  // nothing below threshold
        CHECK(deriv_sum(kk, c) > deriv_before(kk, c));
      }
    }
  }
}

TEST_CASE("CpuBackend DiffLstmNonlinearity self-repair", "[device][lstm]") {
  CpuBackend cpu;
  const uint32_t seed = 1503;
  INFO("seed " << seed);
  Rng rng(seed);
  const int32_t rows = 4, cell_dim = 3;
  LstmCase k(rows, cell_dim, false, &rng);
  // Unit (0, 1) (sigmoid i of cell 1) and unit (4, 2) (tanh c_t of cell 2)
  // have low derivative averages.
  TestMat sums(5, cell_dim, &rng, false);
  sums.SetView(100.0f);
  sums(0, 1) = 0.0f;
  sums(4, 2) = 0.0f;
  std::vector<float> off = {0.05f, 0.05f, 0.2f, 0.05f, 0.2f, 0, 0, 0, 0, 0};
  std::vector<float> on = {0.05f, 0.05f, 0.2f, 0.05f, 0.2f,
                           0.1f,  0.1f,  0.1f, 0.1f,  0.1f};
  TestMat d_off(rows, 5 * cell_dim, &rng), d_on(rows, 5 * cell_dim, &rng);
  TestMat pd(3, cell_dim, &rng), vs(5, cell_dim, &rng), ds(5, cell_dim, &rng),
      srs(5, cell_dim, &rng);
  cpu.DiffLstmNonlinearity(k.in.cview(), k.params.cview(), k.out_deriv.cview(),
                           sums.cview(), ConstMatView(off.data(), 1, 10, 10),
                           9.0, d_off.view(), MatView(), MatView(), MatView(),
                           MatView());
  cpu.DiffLstmNonlinearity(k.in.cview(), k.params.cview(), k.out_deriv.cview(),
                           sums.cview(), ConstMatView(on.data(), 1, 10, 10),
                           9.0, d_on.view(), pd.view(), vs.view(), ds.view(),
                           srs.view());
  for (int32_t r = 0; r < rows; r++) {
    std::vector<double> x = RowOf(k.in, r);
    double i = Sig(x[1] + k.params(0, 1) * x[4 * cell_dim + 1]);
    // i_part of unit 1 gets -0.1 (2 i - 1).
    CHECK(d_on(r, 1) - d_off(r, 1) == Approx(-0.1 * (2 * i - 1)).margin(1e-5));
    // Cell 0 is not repaired; cell 1 only at its i_part; cell 2's c_t
    // repair changes the derivatives it flows into (here c_part).
    for (int32_t k5 = 0; k5 < 5; k5++)
      CHECK(d_on(r, k5 * cell_dim) == d_off(r, k5 * cell_dim));
    CHECK(d_on(r, cell_dim + 1) == d_off(r, cell_dim + 1));
    CHECK(d_on(r, 2 * cell_dim + 2) != d_off(r, 2 * cell_dim + 2));
  }
  for (int32_t c = 0; c < cell_dim; c++)
    for (int32_t kk = 0; kk < 5; kk++)
      CHECK(srs(kk, c) ==
            (((c == 1 && kk == 0) || (c == 2 && kk == 4)) ? rows : 0.0f));
}

}  // namespace
}  // namespace nnet3
