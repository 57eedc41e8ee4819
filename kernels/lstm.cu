// The fused LSTM cell of Backend::LstmNonlinearity and its backward pass,
// with the same per-unit formulas as the CPU backend (cpu-backend-lstm.cc).
// Forward: one thread per unit (row, column). Backward: blocks of 32 columns
// x 8 row lanes over chunks of rows; each thread computes its units' input
// derivatives and accumulates the 13 per-column sums (3 peephole
// derivatives, 5 values, 5 derivatives) in double; a second pass adds the
// chunks in order and writes the outputs, so the sums are deterministic.
#include <cmath>

#include "kernels/kernel-utils.cuh"
#include "kernels/launchers.h"

namespace nnet3 {
namespace kernels {

namespace {

constexpr int kTile = 32, kLanes = 8, kSums = 13, kMaxChunks = 128;
constexpr int kMinChunkRows = 32, kTargetBlocks = 256;

__device__ __forceinline__ float Sigmoid(float x) {
  return 1.0f / (1.0f + expf(-x));
}

struct Unit {
  float i_scale, f_scale, o_scale;
  float c_prev, i, f, tanh_c_part, c_t, o, tanh_c_t;
};

__device__ __forceinline__ void ComputeUnit(const float *in_row, bool masks,
                                            int32_t C, int32_t c, float w_ic,
                                            float w_fc, float w_oc, Unit *u) {
  u->i_scale = masks ? in_row[5 * C] : 1.0f;
  u->f_scale = masks ? in_row[5 * C + 1] : 1.0f;
  u->o_scale = masks ? in_row[5 * C + 2] : 1.0f;
  u->c_prev = in_row[c + 4 * C];
  u->i = Sigmoid(in_row[c] + w_ic * u->c_prev);
  u->f = Sigmoid(in_row[c + C] + w_fc * u->c_prev);
  u->tanh_c_part = tanhf(in_row[c + 2 * C]);
  u->c_t = u->f * u->f_scale * u->c_prev + u->i * u->i_scale * u->tanh_c_part;
  u->o = Sigmoid(in_row[c + 3 * C] + w_oc * u->c_t);
  u->tanh_c_t = tanhf(u->c_t);
}

struct UnitDeriv {
  float d_i_in, d_f_in, d_c_part, d_o_in, d_c_prev;
  float derivs[5];
};

__device__ __forceinline__ void BackpropUnit(const Unit &u, float w_ic,
                                             float w_fc, float w_oc,
                                             float dc_out, float dm,
                                             const float rep[5], UnitDeriv *d) {
  d->derivs[0] = u.i * (1.0f - u.i);
  d->derivs[1] = u.f * (1.0f - u.f);
  d->derivs[2] = 1.0f - u.tanh_c_part * u.tanh_c_part;
  d->derivs[3] = u.o * (1.0f - u.o);
  d->derivs[4] = 1.0f - u.tanh_c_t * u.tanh_c_t;
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

__global__ void LstmKernel(ConstMatView in, ConstMatView params, MatView out) {
  const int32_t C = params.cols;
  const bool masks = in.cols != 5 * C;
  NNET3_FOR_2D(r, c, in.rows, C) {
    Unit u;
    ComputeUnit(in.data + At(r, in.stride, 0), masks, C, c, params.data[c],
                params.data[At(1, params.stride, c)],
                params.data[At(2, params.stride, c)], &u);
    float *y = out.data + At(r, out.stride, 0);
    y[c] = u.c_t;
    y[c + C] = u.o * u.o_scale * u.tanh_c_t;
  }
}

int NumChunks(int32_t rows, int32_t cell_dim) {
  int chunks = CeilDiv(kTargetBlocks, CeilDiv(cell_dim, kTile));
  const int by_rows = CeilDiv(rows, kMinChunkRows);
  if (chunks > by_rows) chunks = by_rows;
  if (chunks > kMaxChunks) chunks = kMaxChunks;
  return chunks < 1 ? 1 : chunks;
}

// Whether unit (k, c) is repaired, from deriv_sum_in, as the CPU backend.
__device__ __forceinline__ bool Below(ConstMatView deriv_sum_in,
                                      const float *sr, double count, int k,
                                      int32_t c) {
  return deriv_sum_in.data[At(k, deriv_sum_in.stride, c)] / count < sr[k];
}

// Pass 1. partial is chunks x 13 x C doubles.
__global__ void DiffLstmPartialKernel(ConstMatView in, ConstMatView params,
                                      ConstMatView out_deriv,
                                      ConstMatView deriv_sum_in,
                                      const float *sr, double count,
                                      MatView in_deriv, bool want_params,
                                      double *partial) {
  __shared__ double sums[kSums][kLanes][kTile + 1];
  const int32_t C = params.cols;
  const bool masks = in.cols != 5 * C;
  const int32_t c = blockIdx.x * kTile + threadIdx.x;
  const int32_t chunk_rows = (in.rows + gridDim.y - 1) / gridDim.y;
  const int32_t begin = blockIdx.y * chunk_rows;
  const int32_t end = min(in.rows, begin + chunk_rows);
  double acc[kSums];
  for (int k = 0; k < kSums; k++) acc[k] = 0.0;
  if (c < C) {
    const float w_ic = params.data[c],
                w_fc = params.data[At(1, params.stride, c)],
                w_oc = params.data[At(2, params.stride, c)];
    float rep[5];
    for (int k = 0; k < 5; k++)
      rep[k] = Below(deriv_sum_in, sr, count, k, c) ? sr[k + 5] : 0.0f;
    for (int32_t r = begin + threadIdx.y; r < end; r += kLanes) {
      Unit u;
      UnitDeriv d;
      ComputeUnit(in.data + At(r, in.stride, 0), masks, C, c, w_ic, w_fc, w_oc,
                  &u);
      const float *od = out_deriv.data + At(r, out_deriv.stride, 0);
      BackpropUnit(u, w_ic, w_fc, w_oc, od[c], od[c + C], rep, &d);
      if (in_deriv.rows != 0) {
        float *g = in_deriv.data + At(r, in_deriv.stride, 0);
        g[c] = d.d_i_in;
        g[c + C] = d.d_f_in;
        g[c + 2 * C] = d.d_c_part;
        g[c + 3 * C] = d.d_o_in;
        g[c + 4 * C] = d.d_c_prev;
        if (masks && c == 0)
          for (int k = 0; k < 3; k++) g[5 * C + k] = 0.0f;
      }
      acc[0] += u.c_prev * d.d_i_in;
      acc[1] += u.c_prev * d.d_f_in;
      acc[2] += u.c_t * d.d_o_in;
      const float v[5] = {u.i, u.f, u.tanh_c_part, u.o, u.tanh_c_t};
      for (int k = 0; k < 5; k++) {
        acc[3 + k] += v[k];
        acc[8 + k] += d.derivs[k];
      }
    }
  }
  if (!want_params) return;
  for (int k = 0; k < kSums; k++) sums[k][threadIdx.y][threadIdx.x] = acc[k];
  __syncthreads();
  if (threadIdx.y != 0 || c >= C) return;
  for (int k = 0; k < kSums; k++) {
    double total = 0.0;
    for (int i = 0; i < kLanes; i++) total += sums[k][i][threadIdx.x];
    partial[(static_cast<int64_t>(blockIdx.y) * kSums + k) * C + c] = total;
  }
}

// Pass 2: one thread per column adds the chunks and writes the outputs.
__global__ void DiffLstmFinalKernel(int chunks, int32_t rows,
                                    ConstMatView deriv_sum_in, const float *sr,
                                    double count, const double *partial,
                                    MatView params_deriv, MatView value_sum_out,
                                    MatView deriv_sum_out,
                                    MatView self_repair_sum_out) {
  const int32_t C = params_deriv.cols;
  for (int32_t c = blockIdx.x * blockDim.x + threadIdx.x; c < C;
       c += gridDim.x * blockDim.x) {
    bool below[5];  // read before deriv_sum_out (maybe the same) changes
    for (int k = 0; k < 5; k++) below[k] = Below(deriv_sum_in, sr, count, k, c);
    double total[kSums];
    for (int k = 0; k < kSums; k++) {
      total[k] = 0.0;
      for (int j = 0; j < chunks; j++)
        total[k] += partial[(static_cast<int64_t>(j) * kSums + k) * C + c];
    }
    for (int k = 0; k < 3; k++)
      params_deriv.data[At(k, params_deriv.stride, c)] =
          static_cast<float>(total[k]);
    for (int k = 0; k < 5; k++) {
      self_repair_sum_out.data[At(k, self_repair_sum_out.stride, c)] =
          below[k] ? static_cast<float>(rows) : 0.0f;
      value_sum_out.data[At(k, value_sum_out.stride, c)] +=
          static_cast<float>(total[3 + k]);
      deriv_sum_out.data[At(k, deriv_sum_out.stride, c)] +=
          static_cast<float>(total[8 + k]);
    }
  }
}

}  // namespace

cudaError_t LstmNonlinearity(cudaStream_t stream, ConstMatView in,
                             ConstMatView params, MatView out) {
  if (in.rows == 0 || params.cols == 0) return cudaSuccess;
  const Launch2D l = Config2D(in.rows, params.cols);
  LstmKernel<<<l.grid, l.block, 0, stream>>>(in, params, out);
  return LaunchStatus();
}

size_t DiffLstmScratchBytes(int32_t rows, int32_t cell_dim) {
  return sizeof(double) * kSums * static_cast<size_t>(cell_dim) *
         static_cast<size_t>(NumChunks(rows, cell_dim));
}

cudaError_t DiffLstmNonlinearity(cudaStream_t stream, ConstMatView in,
                                 ConstMatView params, ConstMatView out_deriv,
                                 ConstMatView deriv_sum_in,
                                 ConstMatView self_repair_config,
                                 double count_in, MatView in_deriv,
                                 MatView params_deriv, MatView value_sum_out,
                                 MatView deriv_sum_out,
                                 MatView self_repair_sum_out, void *scratch) {
  const int32_t C = params.cols;
  const bool want_params = params_deriv.rows != 0 || params_deriv.cols != 0;
  if (C == 0) return cudaSuccess;
  const int chunks = NumChunks(in.rows, C);
  const double count = 1.0 + count_in;
  double *partial = static_cast<double *>(scratch);
  if (in.rows > 0) {
    DiffLstmPartialKernel<<<dim3(CeilDiv(C, kTile), chunks),
                            dim3(kTile, kLanes), 0, stream>>>(
        in, params, out_deriv, deriv_sum_in, self_repair_config.data, count,
        in_deriv, want_params, partial);
  } else if (want_params) {
    cudaError_t e =
        cudaMemsetAsync(partial, 0, DiffLstmScratchBytes(in.rows, C), stream);
    if (e != cudaSuccess) return e;
  }
  if (want_params) {
    int blocks = CeilDiv(C, 128);
    DiffLstmFinalKernel<<<blocks, 128, 0, stream>>>(
        chunks, in.rows, deriv_sum_in, self_repair_config.data, count, partial,
        params_deriv, value_sum_out, deriv_sum_out, self_repair_sum_out);
  }
  return LaunchStatus();
}

}  // namespace kernels
}  // namespace nnet3
