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

void CpuBackend::DiffLstmNonlinearity(
    ConstMatView in, ConstMatView params, ConstMatView out_deriv,
    ConstMatView deriv_sum_in, ConstMatView self_repair_config, double count_in,
    MatView in_deriv, MatView params_deriv, MatView value_sum_out,
    MatView deriv_sum_out, MatView self_repair_sum_out) {
  const int32_t cell_dim = CheckLstmShapes(in, params), rows = in.rows;
  const bool masks = in.cols != 5 * cell_dim;
  NNET3_ASSERT(out_deriv.rows == rows && out_deriv.cols == 2 * cell_dim);
  NNET3_ASSERT(deriv_sum_in.rows == 5 && deriv_sum_in.cols == cell_dim);
  NNET3_ASSERT(self_repair_config.rows == 1 && self_repair_config.cols == 10);
  const bool want_in_deriv = in_deriv.rows != 0 || in_deriv.cols != 0;
  const bool want_params = params_deriv.rows != 0 || params_deriv.cols != 0;
  if (want_in_deriv) {
    CheckView(in_deriv);
    NNET3_ASSERT(in_deriv.rows == rows && in_deriv.cols == in.cols);
  }
  if (want_params) {
    for (const MatView *m :
         {&params_deriv, &value_sum_out, &deriv_sum_out, &self_repair_sum_out})
      CheckView(*m);
    NNET3_ASSERT(params_deriv.rows == 3 && params_deriv.cols == cell_dim);
    NNET3_ASSERT(value_sum_out.rows == 5 && value_sum_out.cols == cell_dim);
    NNET3_ASSERT(deriv_sum_out.rows == 5 && deriv_sum_out.cols == cell_dim);
    NNET3_ASSERT(self_repair_sum_out.rows == 5 &&
                 self_repair_sum_out.cols == cell_dim);
  }
  // Which units are repaired, and with what scale (0: not repaired).
  const float *sr = self_repair_config.data;
  const double count = 1.0 + count_in;
  std::vector<float> repair(5 * static_cast<size_t>(cell_dim));
  std::vector<char> below(5 * static_cast<size_t>(cell_dim));
  for (int32_t k = 0; k < 5; k++) {
    const float *sums = RowOf(deriv_sum_in, k);
    for (int32_t c = 0; c < cell_dim; c++) {
      below[k * cell_dim + c] = sums[c] / count < sr[k];
      repair[k * cell_dim + c] = below[k * cell_dim + c] ? sr[k + 5] : 0.0f;
    }
  }
  std::vector<double> w_sums(3 * static_cast<size_t>(cell_dim), 0.0),
      value_sums(5 * static_cast<size_t>(cell_dim), 0.0),
      deriv_sums(5 * static_cast<size_t>(cell_dim), 0.0);
  const float *w_ic = RowOf(params, 0), *w_fc = RowOf(params, 1),
              *w_oc = RowOf(params, 2);
  const float *rep_i = &repair[0], *rep_f = &repair[cell_dim],
              *rep_cp = &repair[2 * cell_dim], *rep_o = &repair[3 * cell_dim],
              *rep_ct = &repair[4 * cell_dim];
  LstmUnit u;
  for (int32_t r = 0; r < rows; r++) {
    const float *in_row = RowOf(in, r), *od_row = RowOf(out_deriv, r);
    float *id_row = want_in_deriv ? RowOf(in_deriv, r) : nullptr;
    for (int32_t c = 0; c < cell_dim; c++) {
      ComputeUnit(in_row, masks, cell_dim, c, w_ic[c], w_fc[c], w_oc[c], &u);
      const float i_d = u.i * (1.0f - u.i), f_d = u.f * (1.0f - u.f),
                  cp_d = 1.0f - u.tanh_c_part * u.tanh_c_part,
                  o_d = u.o * (1.0f - u.o),
                  ct_d = 1.0f - u.tanh_c_t * u.tanh_c_t;
      // Backwards through m_t = o o_scale tanh(c_t), o = sigmoid(..+w_oc c_t),
      // c_t = f f_scale c_prev + i i_scale tanh(c_part), i and f.
      const float dm = od_row[c + cell_dim];
      const float d_o_in =
          o_d * u.o_scale * u.tanh_c_t * dm - (2.0f * u.o - 1.0f) * rep_o[c];
      const float dc = ct_d * u.o * u.o_scale * dm + od_row[c] +
                       d_o_in * w_oc[c] - u.tanh_c_t * rep_ct[c];
      const float d_f_in =
          f_d * dc * u.f_scale * u.c_prev - (2.0f * u.f - 1.0f) * rep_f[c];
      const float d_i_in =
          i_d * dc * u.i_scale * u.tanh_c_part - (2.0f * u.i - 1.0f) * rep_i[c];
      const float d_c_part =
          cp_d * u.i * u.i_scale * dc - u.tanh_c_part * rep_cp[c];
      if (id_row != nullptr) {
        id_row[c] = d_i_in;
        id_row[c + cell_dim] = d_f_in;
        id_row[c + 2 * cell_dim] = d_c_part;
        id_row[c + 3 * cell_dim] = d_o_in;
        id_row[c + 4 * cell_dim] =
            w_ic[c] * d_i_in + w_fc[c] * d_f_in + u.f * u.f_scale * dc;
      }
      if (!want_params) continue;
      w_sums[c] += u.c_prev * d_i_in;
      w_sums[c + cell_dim] += u.c_prev * d_f_in;
      w_sums[c + 2 * cell_dim] += u.c_t * d_o_in;
      const float values[5] = {u.i, u.f, u.tanh_c_part, u.o, u.tanh_c_t};
      const float derivs[5] = {i_d, f_d, cp_d, o_d, ct_d};
      for (int32_t k = 0; k < 5; k++) {
        value_sums[k * cell_dim + c] += values[k];
        deriv_sums[k * cell_dim + c] += derivs[k];
      }
    }
    if (id_row != nullptr && masks)
      for (int32_t k = 0; k < 3; k++) id_row[5 * cell_dim + k] = 0.0f;
  }
  if (!want_params) return;
  for (int32_t k = 0; k < 3; k++) {
    float *row = RowOf(params_deriv, k);
    for (int32_t c = 0; c < cell_dim; c++)
      row[c] = static_cast<float>(w_sums[k * cell_dim + c]);
  }
  for (int32_t k = 0; k < 5; k++) {
    float *row = RowOf(self_repair_sum_out, k);
    for (int32_t c = 0; c < cell_dim; c++)
      row[c] = below[k * cell_dim + c] ? static_cast<float>(rows) : 0.0f;
  }
  for (int32_t k = 0; k < 5; k++) {
    float *values = RowOf(value_sum_out, k), *derivs = RowOf(deriv_sum_out, k);
    for (int32_t c = 0; c < cell_dim; c++) {
      values[c] += static_cast<float>(value_sums[k * cell_dim + c]);
      derivs[c] += static_cast<float>(deriv_sums[k * cell_dim + c]);
    }
  }
}

}  // namespace nnet3
