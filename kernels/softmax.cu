// Row-wise kernels: softmax and log-softmax with their derivatives (one
// block per row), and per-row sums and dot products (one warp per row).
// Row sums are accumulated in double, as the CPU backend does.
#include <cmath>

#include "kernels/kernel-utils.cuh"
#include "kernels/launchers.h"

namespace nnet3 {
namespace kernels {

namespace {

constexpr int kRowThreads = 128;
constexpr int kMaxRowBlocks = 1 << 20;

// y = exp(x - max) / sum(exp(x - max)), or (x - max) - log(sum) for log.
__global__ void SoftmaxKernel(ConstMatView in, MatView out, bool log) {
  __shared__ double dshared[32];
  __shared__ float fshared[32];
  for (int32_t r = blockIdx.x; r < out.rows; r += gridDim.x) {
    const float *x = in.data + At(r, in.stride, 0);
    float *y = out.data + At(r, out.stride, 0);
    float max = -INFINITY;
    for (int32_t c = threadIdx.x; c < out.cols; c += blockDim.x)
      max = fmaxf(max, x[c]);
    max = BlockMax(max, fshared);
    double sum = 0.0;
    for (int32_t c = threadIdx.x; c < out.cols; c += blockDim.x)
      sum += expf(x[c] - max);
    sum = BlockSum(sum, dshared);
    if (log) {
      const float log_sum = static_cast<float>(::log(sum));
      for (int32_t c = threadIdx.x; c < out.cols; c += blockDim.x)
        y[c] = (x[c] - max) - log_sum;
    } else {
      const float scale = static_cast<float>(1.0 / sum);
      for (int32_t c = threadIdx.x; c < out.cols; c += blockDim.x)
        y[c] = expf(x[c] - max) * scale;
    }
  }
}

// softmax: g = y .* (d - rowsum(d .* y)); log-softmax: g = d - exp(y) *
// rowsum(d). The row sum is complete before any write, so g may be d.
__global__ void DiffSoftmaxKernel(ConstMatView y, ConstMatView out_deriv,
                                  MatView in_deriv, bool log) {
  __shared__ double dshared[32];
  for (int32_t r = blockIdx.x; r < in_deriv.rows; r += gridDim.x) {
    const float *v = y.data + At(r, y.stride, 0);
    const float *d = out_deriv.data + At(r, out_deriv.stride, 0);
    float *g = in_deriv.data + At(r, in_deriv.stride, 0);
    double sum = 0.0;
    for (int32_t c = threadIdx.x; c < in_deriv.cols; c += blockDim.x)
      sum += log ? static_cast<double>(d[c]) : static_cast<double>(v[c]) * d[c];
    const float s = static_cast<float>(BlockSum(sum, dshared));
    for (int32_t c = threadIdx.x; c < in_deriv.cols; c += blockDim.x)
      g[c] = log ? d[c] - expf(v[c]) * s : v[c] * (d[c] - s);
  }
}

// v(r) = beta v(r) + alpha sum_c a(r, c) [* b(r, c)], one warp per row.
__global__ void RowSumKernel(float alpha, ConstMatView a, const float *b_data,
                             int32_t b_stride, float beta, float *v) {
  const int lane = threadIdx.x & 31;
  const int32_t warps_per_grid = gridDim.x * (blockDim.x >> 5);
  for (int32_t r = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
       r < a.rows; r += warps_per_grid) {
    const float *x = a.data + At(r, a.stride, 0);
    double sum = 0.0;
    if (b_data == nullptr) {
      for (int32_t c = lane; c < a.cols; c += 32) sum += x[c];
    } else {
      const float *z = b_data + At(r, b_stride, 0);
      for (int32_t c = lane; c < a.cols; c += 32)
        sum += static_cast<double>(x[c]) * z[c];
    }
    sum = WarpSum(sum);
    if (lane == 0) {
      const double old = beta == 0.0f ? 0.0 : beta * v[r];
      v[r] = static_cast<float>(old + alpha * sum);
    }
  }
}

cudaError_t LaunchRowSum(cudaStream_t stream, float alpha, ConstMatView a,
                         const float *b_data, int32_t b_stride, float beta,
                         MatView v) {
  if (a.rows == 0) return cudaSuccess;
  // An empty row sums to 0: v = beta v (or 0) still has to be written.
  int blocks = CeilDiv(a.rows, 8);
  if (blocks > kMaxRowBlocks) blocks = kMaxRowBlocks;
  RowSumKernel<<<blocks, 256, 0, stream>>>(alpha, a, b_data, b_stride, beta,
                                           v.data);
  return LaunchStatus();
}

int RowBlocks(int32_t rows) {
  return rows < kMaxRowBlocks ? rows : kMaxRowBlocks;
}

}  // namespace

cudaError_t SoftmaxRows(cudaStream_t stream, ConstMatView in, MatView out,
                        bool log) {
  if (IsEmpty(out)) return cudaSuccess;
  SoftmaxKernel<<<RowBlocks(out.rows), kRowThreads, 0, stream>>>(in, out, log);
  return LaunchStatus();
}

cudaError_t DiffSoftmax(cudaStream_t stream, ConstMatView y,
                        ConstMatView out_deriv, MatView in_deriv, bool log) {
  if (IsEmpty(in_deriv)) return cudaSuccess;
  DiffSoftmaxKernel<<<RowBlocks(in_deriv.rows), kRowThreads, 0, stream>>>(
      y, out_deriv, in_deriv, log);
  return LaunchStatus();
}

cudaError_t AddColSumToVec(cudaStream_t stream, float alpha, ConstMatView m,
                           float beta, MatView v) {
  return LaunchRowSum(stream, alpha, m, nullptr, 0, beta, v);
}

cudaError_t AddRowDotProducts(cudaStream_t stream, float alpha, ConstMatView a,
                              ConstMatView b, float beta, MatView v) {
  return LaunchRowSum(stream, alpha, a, b.data, b.stride, beta, v);
}

}  // namespace kernels
}  // namespace nnet3
