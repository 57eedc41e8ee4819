// Shared device-side helpers of kernels/*.cu: launch shapes for 2-D loops
// over strided views, element addressing, the generic elementwise kernels
// (a functor applied to every element), and warp / block reductions.
//
// A 2-D loop covers rows with the y dimension and columns with the x
// dimension of the grid, in grid-stride loops, so any view size works with
// a bounded grid; the block's x size follows the number of columns (at
// least 1, at most 256 threads in all), so narrow matrices do not leave
// most threads idle.
#ifndef NNET3_KERNELS_KERNEL_UTILS_CUH_
#define NNET3_KERNELS_KERNEL_UTILS_CUH_

#include <cuda_runtime.h>

#include <cstdint>

#include "device/backend.h"

namespace nnet3 {
namespace kernels {

constexpr int kMaxGridY = 65535;

struct Launch2D {
  dim3 grid, block;
};

inline int CeilDiv(int64_t a, int64_t b) {
  return static_cast<int>((a + b - 1) / b);
}

inline Launch2D Config2D(int32_t rows, int32_t cols) {
  int bx = 1;
  while (bx < cols && bx < 256) bx <<= 1;
  const int by = 256 / bx;
  Launch2D l;
  l.block = dim3(bx, by);
  int gx = CeilDiv(cols, bx), gy = CeilDiv(rows, by);
  if (gx > 1024) gx = 1024;
  if (gy > kMaxGridY) gy = kMaxGridY;
  l.grid = dim3(gx, gy);
  return l;
}

inline bool IsEmpty(const ConstMatView &m) {
  return m.rows == 0 || m.cols == 0;
}

// The launch status, for launchers to return.
inline cudaError_t LaunchStatus() { return cudaGetLastError(); }

__device__ __forceinline__ int64_t At(int32_t r, int32_t stride, int32_t c) {
  return static_cast<int64_t>(r) * stride + c;
}

// for (r, c) over rows x cols in a grid-stride loop.
#define NNET3_FOR_2D(r, c, rows, cols)                                  \
  for (int32_t r = blockIdx.y * blockDim.y + threadIdx.y; r < (rows);   \
       r += gridDim.y * blockDim.y)                                     \
    for (int32_t c = blockIdx.x * blockDim.x + threadIdx.x; c < (cols); \
         c += gridDim.x * blockDim.x)

// out(r, c) = f(in(r, c)).
template <class F>
__global__ void MapKernel(ConstMatView in, MatView out, F f) {
  NNET3_FOR_2D(r, c, out.rows, out.cols) {
    out.data[At(r, out.stride, c)] = f(in.data[At(r, in.stride, c)]);
  }
}

// dst(r, c) = f(src(r, c), dst(r, c)).
template <class F>
__global__ void ZipKernel(ConstMatView src, MatView dst, F f) {
  NNET3_FOR_2D(r, c, dst.rows, dst.cols) {
    float *y = dst.data + At(r, dst.stride, c);
    *y = f(src.data[At(r, src.stride, c)], *y);
  }
}

// out(r, c) = f(a(r, c), b(r, c)); out's old contents are not read.
template <class F>
__global__ void Map2Kernel(ConstMatView a, ConstMatView b, MatView out, F f) {
  NNET3_FOR_2D(r, c, out.rows, out.cols) {
    out.data[At(r, out.stride, c)] =
        f(a.data[At(r, a.stride, c)], b.data[At(r, b.stride, c)]);
  }
}

// out(r, c) = f(a(r, c), b(r, c), out(r, c)).
template <class F>
__global__ void Zip3Kernel(ConstMatView a, ConstMatView b, MatView out, F f) {
  NNET3_FOR_2D(r, c, out.rows, out.cols) {
    float *y = out.data + At(r, out.stride, c);
    *y = f(a.data[At(r, a.stride, c)], b.data[At(r, b.stride, c)], *y);
  }
}

// m(r, c) = f(r, c, m(r, c)).
template <class F>
__global__ void IndexedKernel(MatView m, F f) {
  NNET3_FOR_2D(r, c, m.rows, m.cols) {
    float *y = m.data + At(r, m.stride, c);
    *y = f(r, c, *y);
  }
}

template <class F>
cudaError_t LaunchMap(cudaStream_t s, ConstMatView in, MatView out, F f) {
  if (IsEmpty(out)) return cudaSuccess;
  const Launch2D l = Config2D(out.rows, out.cols);
  MapKernel<<<l.grid, l.block, 0, s>>>(in, out, f);
  return LaunchStatus();
}

template <class F>
cudaError_t LaunchZip(cudaStream_t s, ConstMatView src, MatView dst, F f) {
  if (IsEmpty(dst)) return cudaSuccess;
  const Launch2D l = Config2D(dst.rows, dst.cols);
  ZipKernel<<<l.grid, l.block, 0, s>>>(src, dst, f);
  return LaunchStatus();
}

template <class F>
cudaError_t LaunchMap2(cudaStream_t s, ConstMatView a, ConstMatView b,
                       MatView out, F f) {
  if (IsEmpty(out)) return cudaSuccess;
  const Launch2D l = Config2D(out.rows, out.cols);
  Map2Kernel<<<l.grid, l.block, 0, s>>>(a, b, out, f);
  return LaunchStatus();
}

template <class F>
cudaError_t LaunchZip3(cudaStream_t s, ConstMatView a, ConstMatView b,
                       MatView out, F f) {
  if (IsEmpty(out)) return cudaSuccess;
  const Launch2D l = Config2D(out.rows, out.cols);
  Zip3Kernel<<<l.grid, l.block, 0, s>>>(a, b, out, f);
  return LaunchStatus();
}

template <class F>
cudaError_t LaunchIndexed(cudaStream_t s, MatView m, F f) {
  if (IsEmpty(m)) return cudaSuccess;
  const Launch2D l = Config2D(m.rows, m.cols);
  IndexedKernel<<<l.grid, l.block, 0, s>>>(m, f);
  return LaunchStatus();
}

// ---- reductions ----

template <class T>
__device__ __forceinline__ T WarpSum(T x) {
  for (int offset = 16; offset > 0; offset >>= 1)
    x += __shfl_down_sync(0xffffffffu, x, offset);
  return x;
}

__device__ __forceinline__ float WarpMax(float x) {
  for (int offset = 16; offset > 0; offset >>= 1)
    x = fmaxf(x, __shfl_down_sync(0xffffffffu, x, offset));
  return x;
}

__device__ __forceinline__ float WarpMin(float x) {
  for (int offset = 16; offset > 0; offset >>= 1)
    x = fminf(x, __shfl_down_sync(0xffffffffu, x, offset));
  return x;
}

// The sum over a 1-D block (blockDim.x a multiple of 32, at most 1024) of
// each thread's x, returned to every thread. `shared` holds 32 T. Ends
// with a barrier, so `shared` may be reused right after.
template <class T>
__device__ T BlockSum(T x, T *shared) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int num_warps = blockDim.x >> 5;
  x = WarpSum(x);
  if (lane == 0) shared[warp] = x;
  __syncthreads();
  T total = 0;
  for (int w = 0; w < num_warps; w++) total += shared[w];  // fixed order
  __syncthreads();
  return total;
}

// The maximum over a 1-D block, as BlockSum.
__device__ inline float BlockMax(float x, float *shared) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int num_warps = blockDim.x >> 5;
  x = WarpMax(x);
  if (lane == 0) shared[warp] = x;
  __syncthreads();
  float m = shared[0];
  for (int w = 1; w < num_warps; w++) m = fmaxf(m, shared[w]);
  __syncthreads();
  return m;
}

}  // namespace kernels
}  // namespace nnet3

#endif  // NNET3_KERNELS_KERNEL_UTILS_CUH_
