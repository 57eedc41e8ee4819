// CpuBackend: the fused LSTM cell (Kaldi's LstmNonlinearityComponent maths)
// and its backward pass. Rows are visited in order and the per-column sums
// (peephole derivatives, value and derivative stats) are accumulated in
// double, one accumulator per column.
#include <cmath>
#include <vector>

#include "base/error.h"
#include "device/cpu-backend.h"
#include "device/cpu-loops.h"

namespace nnet3 {

using cpu::CheckView;
using cpu::RowOf;

namespace {

inline float Sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// Shapes shared by the forward and backward passes; returns C.
int32_t CheckLstmShapes(const ConstMatView &in, const ConstMatView &params) {
  CheckView(in);
  CheckView(params);
  const int32_t cell_dim = params.cols;
  NNET3_ASSERT(params.rows == 3 && cell_dim > 0);
  NNET3_ASSERT(in.cols == 5 * cell_dim || in.cols == 5 * cell_dim + 3);
  return cell_dim;
}

// The forward quantities of one unit (row r, column c).
struct LstmUnit {
  float i_scale, f_scale, o_scale;
  float c_prev, i, f, tanh_c_part, c_t, o, tanh_c_t;
};

inline void ComputeUnit(const float *in_row, bool masks, int32_t cell_dim,
                        int32_t c, float w_ic, float w_fc, float w_oc,
                        LstmUnit *u) {
  u->i_scale = masks ? in_row[5 * cell_dim] : 1.0f;
  u->f_scale = masks ? in_row[5 * cell_dim + 1] : 1.0f;
  u->o_scale = masks ? in_row[5 * cell_dim + 2] : 1.0f;
  u->c_prev = in_row[c + 4 * cell_dim];
  u->i = Sigmoid(in_row[c] + w_ic * u->c_prev);
  u->f = Sigmoid(in_row[c + cell_dim] + w_fc * u->c_prev);
  u->tanh_c_part = std::tanh(in_row[c + 2 * cell_dim]);
  u->c_t = u->f * u->f_scale * u->c_prev + u->i * u->i_scale * u->tanh_c_part;
  u->o = Sigmoid(in_row[c + 3 * cell_dim] + w_oc * u->c_t);
  u->tanh_c_t = std::tanh(u->c_t);
}

}  // namespace

void CpuBackend::LstmNonlinearity(ConstMatView in, ConstMatView params,
                                  MatView out) {
  const int32_t cell_dim = CheckLstmShapes(in, params);
  CheckView(out);
  NNET3_ASSERT(out.rows == in.rows && out.cols == 2 * cell_dim);
  const bool masks = in.cols != 5 * cell_dim;
  const float *w_ic = RowOf(params, 0), *w_fc = RowOf(params, 1),
              *w_oc = RowOf(params, 2);
  LstmUnit u;
  for (int32_t r = 0; r < in.rows; r++) {
    const float *in_row = RowOf(in, r);
    float *out_row = RowOf(out, r);
    for (int32_t c = 0; c < cell_dim; c++) {
      ComputeUnit(in_row, masks, cell_dim, c, w_ic[c], w_fc[c], w_oc[c], &u);
      out_row[c] = u.c_t;
      out_row[c + cell_dim] = u.o * u.o_scale * u.tanh_c_t;
    }
  }
}

namespace {

// The backward pass of one unit. `rep` holds the self-repair scales of its
// five nonlinearities (0: not repaired).
struct LstmUnitDeriv {
  float d_i_in, d_f_in, d_c_part, d_o_in, d_c_prev;
  float derivs[5];  // of i, f, tanh(c_part), o, tanh(c_t)
};

inline void BackpropUnit(const LstmUnit &u, float w_ic, float w_fc, float w_oc,
                         float dc_out, float dm, const float rep[5],
                         LstmUnitDeriv *d) {
  d->derivs[0] = u.i * (1.0f - u.i);
  d->derivs[1] = u.f * (1.0f - u.f);
  d->derivs[2] = 1.0f - u.tanh_c_part * u.tanh_c_part;
  d->derivs[3] = u.o * (1.0f - u.o);
  d->derivs[4] = 1.0f - u.tanh_c_t * u.tanh_c_t;
  // Backwards through m_t = o o_scale tanh(c_t), o = sigmoid(.. + w_oc c_t),
  // c_t = f f_scale c_prev + i i_scale tanh(c_part), then i and f; each
  // repaired sigmoid adds -scale (2 sigmoid - 1), each tanh -scale tanh.
  d->d_o_in =
      d->derivs[3] * u.o_scale * u.tanh_c_t * dm - (2.0f * u.o - 1.0f) * rep[3];
  const float dc = d->derivs[4] * u.o * u.o_scale * dm + dc_out +
                   d->d_o_in * w_oc - u.tanh_c_t * rep[4];
  d->d_f_in =
      d->derivs[1] * dc * u.f_scale * u.c_prev - (2.0f * u.f - 1.0f) * rep[1];
  d->d_i_in = d->derivs[0] * dc * u.i_scale * u.tanh_c_part -
              (2.0f * u.i - 1.0f) * rep[0];
  d->d_c_part = d->derivs[2] * u.i * u.i_scale * dc - u.tanh_c_part * rep[2];
  d->d_c_prev = w_ic * d->d_i_in + w_fc * d->d_f_in + u.f * u.f_scale * dc;
}

void CheckDiffShapes(const ConstMatView &in, const ConstMatView &out_deriv,
                     const ConstMatView &deriv_sum_in,
                     const ConstMatView &self_repair_config,
                     const MatView &in_deriv, const MatView &params_deriv,
                     const MatView &value_sum_out, const MatView &deriv_sum_out,
                     const MatView &self_repair_sum_out, int32_t cell_dim) {
  NNET3_ASSERT(out_deriv.rows == in.rows && out_deriv.cols == 2 * cell_dim);
  NNET3_ASSERT(deriv_sum_in.rows == 5 && deriv_sum_in.cols == cell_dim);
  NNET3_ASSERT(self_repair_config.rows == 1 && self_repair_config.cols == 10);
  if (in_deriv.rows != 0 || in_deriv.cols != 0) {
    CheckView(in_deriv);
    NNET3_ASSERT(in_deriv.rows == in.rows && in_deriv.cols == in.cols);
  }
  if (params_deriv.rows == 0 && params_deriv.cols == 0) return;
  for (const MatView *m :
       {&params_deriv, &value_sum_out, &deriv_sum_out, &self_repair_sum_out})
    CheckView(*m);
  NNET3_ASSERT(params_deriv.rows == 3 && params_deriv.cols == cell_dim);
  for (const MatView *m :
       {&value_sum_out, &deriv_sum_out, &self_repair_sum_out})
    NNET3_ASSERT(m->rows == 5 && m->cols == cell_dim);
}

// Sums over rows, per column, of the peephole derivatives and the stats.
struct LstmSums {
  std::vector<double> w, values, derivs;  // 3 x C, 5 x C, 5 x C
  explicit LstmSums(int32_t cell_dim)
      : w(3 * static_cast<size_t>(cell_dim), 0.0),
        values(5 * static_cast<size_t>(cell_dim), 0.0),
        derivs(5 * static_cast<size_t>(cell_dim), 0.0) {}
  void Add(const LstmUnit &u, const LstmUnitDeriv &d, int32_t c,
           int32_t cell_dim) {
    w[c] += u.c_prev * d.d_i_in;
    w[c + cell_dim] += u.c_prev * d.d_f_in;
    w[c + 2 * cell_dim] += u.c_t * d.d_o_in;
    const float v[5] = {u.i, u.f, u.tanh_c_part, u.o, u.tanh_c_t};
    for (int32_t k = 0; k < 5; k++) {
      values[k * cell_dim + c] += v[k];
      derivs[k * cell_dim + c] += d.derivs[k];
    }
  }
};

// Writes params_deriv and self_repair_sum_out, adds to the stats.
void WriteLstmSums(const LstmSums &sums, const std::vector<char> &below,
                   int32_t rows, int32_t cell_dim, MatView params_deriv,
                   MatView value_sum_out, MatView deriv_sum_out,
                   MatView self_repair_sum_out) {
  for (int32_t k = 0; k < 5; k++) {
    float *p = k < 3 ? RowOf(params_deriv, k) : nullptr;
    float *repaired = RowOf(self_repair_sum_out, k),
          *values = RowOf(value_sum_out, k), *derivs = RowOf(deriv_sum_out, k);
    for (int32_t c = 0; c < cell_dim; c++) {
      const size_t j = static_cast<size_t>(k) * cell_dim + c;
      if (p != nullptr) p[c] = static_cast<float>(sums.w[j]);
      repaired[c] = below[j] ? static_cast<float>(rows) : 0.0f;
      values[c] += static_cast<float>(sums.values[j]);
      derivs[c] += static_cast<float>(sums.derivs[j]);
    }
  }
}

}  // namespace

void CpuBackend::DiffLstmNonlinearity(
    ConstMatView in, ConstMatView params, ConstMatView out_deriv,
    ConstMatView deriv_sum_in, ConstMatView self_repair_config, double count_in,
    MatView in_deriv, MatView params_deriv, MatView value_sum_out,
    MatView deriv_sum_out, MatView self_repair_sum_out) {
  const int32_t cell_dim = CheckLstmShapes(in, params), rows = in.rows;
  CheckDiffShapes(in, out_deriv, deriv_sum_in, self_repair_config, in_deriv,
                  params_deriv, value_sum_out, deriv_sum_out,
                  self_repair_sum_out, cell_dim);
  const bool masks = in.cols != 5 * cell_dim;
  const bool want_in_deriv = in_deriv.rows != 0 || in_deriv.cols != 0;
  const bool want_params = params_deriv.rows != 0 || params_deriv.cols != 0;
  // Unit (k, c) is repaired if its derivative average is below threshold k;
  // read before deriv_sum_out (which may be the same memory) changes.
  const float *sr = self_repair_config.data;
  const double count = 1.0 + count_in;
  std::vector<char> below(5 * static_cast<size_t>(cell_dim));
  for (int32_t k = 0; k < 5; k++)
    for (int32_t c = 0; c < cell_dim; c++)
      below[k * cell_dim + c] = RowOf(deriv_sum_in, k)[c] / count < sr[k];
  LstmSums sums(cell_dim);
  const float *w_ic = RowOf(params, 0), *w_fc = RowOf(params, 1),
              *w_oc = RowOf(params, 2);
  LstmUnit u;
  LstmUnitDeriv d;
  float rep[5];
  for (int32_t r = 0; r < rows; r++) {
    const float *in_row = RowOf(in, r), *od_row = RowOf(out_deriv, r);
    float *id_row = want_in_deriv ? RowOf(in_deriv, r) : nullptr;
    for (int32_t c = 0; c < cell_dim; c++) {
      ComputeUnit(in_row, masks, cell_dim, c, w_ic[c], w_fc[c], w_oc[c], &u);
      for (int32_t k = 0; k < 5; k++)
        rep[k] = below[k * cell_dim + c] ? sr[k + 5] : 0.0f;
      BackpropUnit(u, w_ic[c], w_fc[c], w_oc[c], od_row[c],
                   od_row[c + cell_dim], rep, &d);
      if (id_row != nullptr) {
        id_row[c] = d.d_i_in;
        id_row[c + cell_dim] = d.d_f_in;
        id_row[c + 2 * cell_dim] = d.d_c_part;
        id_row[c + 3 * cell_dim] = d.d_o_in;
        id_row[c + 4 * cell_dim] = d.d_c_prev;
      }
      if (want_params) sums.Add(u, d, c, cell_dim);
    }
    if (id_row != nullptr && masks)
      for (int32_t k = 0; k < 3; k++) id_row[5 * cell_dim + k] = 0.0f;
  }
  if (want_params)
    WriteLstmSums(sums, below, rows, cell_dim, params_deriv, value_sum_out,
                  deriv_sum_out, self_repair_sum_out);
}

}  // namespace nnet3
