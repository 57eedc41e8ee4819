// Row and column gathers and scatters through device index vectors,
// device pointer lists and row ranges. One thread per destination (or
// source) element; consecutive threads take consecutive columns of a row,
// so each row is read and written in coalesced runs.
#include "kernels/kernel-utils.cuh"
#include "kernels/launchers.h"

namespace nnet3 {
namespace kernels {

namespace {

// dst row r = alpha * src row idx[r] (or +=); idx[r] < 0: zero row (or
// nothing added).
__global__ void GatherRowsKernel(float alpha, ConstMatView src,
                                 const int32_t *idx, MatView dst, bool add) {
  NNET3_FOR_2D(r, c, dst.rows, dst.cols) {
    const int32_t i = idx[r];
    float *y = dst.data + At(r, dst.stride, c);
    if (i < 0) {
      if (!add) *y = 0.0f;
    } else {
      const float x = src.data[At(i, src.stride, c)];
      if (add)
        *y += alpha * x;
      else
        *y = alpha == 1.0f ? x : alpha * x;
    }
  }
}

// dst row idx[r] = src row r (or += alpha * src row r); idx[r] < 0 skips.
__global__ void ScatterRowsKernel(float alpha, ConstMatView src,
                                  const int32_t *idx, MatView dst, bool add) {
  NNET3_FOR_2D(r, c, src.rows, src.cols) {
    const int32_t i = idx[r];
    if (i < 0) continue;
    float *y = dst.data + At(i, dst.stride, c);
    const float x = src.data[At(r, src.stride, c)];
    if (add)
      *y += alpha * x;
    else
      *y = x;
  }
}

__global__ void GatherRowPtrsKernel(float alpha, const float *const *ptrs,
                                    MatView dst, bool add) {
  NNET3_FOR_2D(r, c, dst.rows, dst.cols) {
    const float *p = ptrs[r];
    float *y = dst.data + At(r, dst.stride, c);
    if (p == nullptr) {
      if (!add) *y = 0.0f;
    } else if (add) {
      *y += alpha * p[c];
    } else {
      *y = alpha == 1.0f ? p[c] : alpha * p[c];
    }
  }
}

__global__ void ScatterRowPtrsKernel(float alpha, ConstMatView src,
                                     float *const *ptrs, bool add) {
  NNET3_FOR_2D(r, c, src.rows, src.cols) {
    float *p = ptrs[r];
    if (p == nullptr) continue;
    const float x = src.data[At(r, src.stride, c)];
    if (add)
      p[c] += alpha * x;
    else
      p[c] = x;
  }
}

// Each range is summed, then added once.
__global__ void AddRowRangesKernel(float alpha, ConstMatView src,
                                   const int32_t *ranges, MatView dst) {
  NNET3_FOR_2D(r, c, dst.rows, dst.cols) {
    const int32_t begin = ranges[2 * r], end = ranges[2 * r + 1];
    if (end <= begin) continue;
    // In float, row after row (as the CPU backend and Kaldi's kernel).
    float sum = 0.0f;
    for (int32_t i = begin; i < end; i++) sum += src.data[At(i, src.stride, c)];
    dst.data[At(r, dst.stride, c)] += alpha * sum;
  }
}

// dst(r, c) = src(r, idx[c]) (or +=); idx[c] < 0: zero (or nothing added).
__global__ void GatherColsKernel(ConstMatView src, const int32_t *idx,
                                 MatView dst, bool add) {
  NNET3_FOR_2D(r, c, dst.rows, dst.cols) {
    const int32_t j = idx[c];
    float *y = dst.data + At(r, dst.stride, c);
    if (j < 0) {
      if (!add) *y = 0.0f;
    } else if (add) {
      *y += src.data[At(r, src.stride, j)];
    } else {
      *y = src.data[At(r, src.stride, j)];
    }
  }
}

}  // namespace

cudaError_t GatherRows(cudaStream_t stream, float alpha, ConstMatView src,
                       const int32_t *idx, MatView dst, bool add) {
  if (IsEmpty(dst)) return cudaSuccess;
  const Launch2D l = Config2D(dst.rows, dst.cols);
  GatherRowsKernel<<<l.grid, l.block, 0, stream>>>(alpha, src, idx, dst, add);
  return LaunchStatus();
}

cudaError_t ScatterRows(cudaStream_t stream, float alpha, ConstMatView src,
                        const int32_t *idx, MatView dst, bool add) {
  if (IsEmpty(src)) return cudaSuccess;
  const Launch2D l = Config2D(src.rows, src.cols);
  ScatterRowsKernel<<<l.grid, l.block, 0, stream>>>(alpha, src, idx, dst, add);
  return LaunchStatus();
}

cudaError_t GatherRowPtrs(cudaStream_t stream, float alpha,
                          const float *const *ptrs, MatView dst, bool add) {
  if (IsEmpty(dst)) return cudaSuccess;
  const Launch2D l = Config2D(dst.rows, dst.cols);
  GatherRowPtrsKernel<<<l.grid, l.block, 0, stream>>>(alpha, ptrs, dst, add);
  return LaunchStatus();
}

cudaError_t ScatterRowPtrs(cudaStream_t stream, float alpha, ConstMatView src,
                           float *const *ptrs, bool add) {
  if (IsEmpty(src)) return cudaSuccess;
  const Launch2D l = Config2D(src.rows, src.cols);
  ScatterRowPtrsKernel<<<l.grid, l.block, 0, stream>>>(alpha, src, ptrs, add);
  return LaunchStatus();
}

cudaError_t AddRowRanges(cudaStream_t stream, float alpha, ConstMatView src,
                         const int32_t *ranges, MatView dst) {
  if (IsEmpty(dst)) return cudaSuccess;
  const Launch2D l = Config2D(dst.rows, dst.cols);
  AddRowRangesKernel<<<l.grid, l.block, 0, stream>>>(alpha, src, ranges, dst);
  return LaunchStatus();
}

cudaError_t GatherCols(cudaStream_t stream, ConstMatView src,
                       const int32_t *idx, MatView dst, bool add) {
  if (IsEmpty(dst)) return cudaSuccess;
  const Launch2D l = Config2D(dst.rows, dst.cols);
  GatherColsKernel<<<l.grid, l.block, 0, stream>>>(src, idx, dst, add);
  return LaunchStatus();
}

}  // namespace kernels
}  // namespace nnet3
