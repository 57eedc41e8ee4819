// Reductions: column sums (Backend::AddRowSumToVec) and whole-matrix sum,
// dot product, maximum and minimum. Each is two passes with a fixed split
// of the work (partial results in a scratch buffer, then one ordered final
// pass), so results do not depend on thread scheduling: the same input
// gives the same bits on every run. Sums accumulate in double.
#include <cmath>

#include "kernels/kernel-utils.cuh"
#include "kernels/launchers.h"

namespace nnet3 {
namespace kernels {

namespace {

// ---- column sums ----

constexpr int kColTile = 32;       // columns per block
constexpr int kRowLanes = 8;       // threads per column in a block
constexpr int kMaxChunks = 256;    // row chunks (blocks along y)
constexpr int kMinChunkRows = 64;  // rows per chunk at least
constexpr int kTargetBlocks = 512;

int NumChunks(int32_t rows, int32_t cols) {
  const int col_blocks = CeilDiv(cols, kColTile);
  int chunks = CeilDiv(kTargetBlocks, col_blocks);
  const int by_rows = CeilDiv(rows, kMinChunkRows);
  if (chunks > by_rows) chunks = by_rows;
  if (chunks > kMaxChunks) chunks = kMaxChunks;
  return chunks < 1 ? 1 : chunks;
}

// Pass 1: block (32, 8) sums rows [chunk begin, end) of 32 columns;
// partial[chunk * cols + c] = the chunk's sum. With one chunk, writes v.
__global__ void ColSumPartialKernel(float alpha, ConstMatView m, float beta,
                                    float *v, double *partial) {
  __shared__ double tile[kRowLanes][kColTile + 1];
  const int32_t c = blockIdx.x * kColTile + threadIdx.x;
  const int32_t chunk_rows = (m.rows + gridDim.y - 1) / gridDim.y;
  const int32_t begin = blockIdx.y * chunk_rows;
  const int32_t end = min(m.rows, begin + chunk_rows);
  double sum = 0.0;
  if (c < m.cols)
    for (int32_t r = begin + threadIdx.y; r < end; r += kRowLanes)
      sum += m.data[At(r, m.stride, c)];
  tile[threadIdx.y][threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.y != 0 || c >= m.cols) return;
  double total = 0.0;
  for (int i = 0; i < kRowLanes; i++) total += tile[i][threadIdx.x];
  if (gridDim.y == 1) {
    const double old = beta == 0.0f ? 0.0 : beta * v[c];
    v[c] = static_cast<float>(old + alpha * total);
  } else {
    partial[static_cast<int64_t>(blockIdx.y) * m.cols + c] = total;
  }
}

// Pass 2: v(c) = beta v(c) + alpha * sum over chunks, in chunk order.
__global__ void ColSumFinalKernel(float alpha, int32_t cols, int chunks,
                                  const double *partial, float beta, float *v) {
  for (int32_t c = blockIdx.x * blockDim.x + threadIdx.x; c < cols;
       c += gridDim.x * blockDim.x) {
    double total = 0.0;
    for (int k = 0; k < chunks; k++)
      total += partial[static_cast<int64_t>(k) * cols + c];
    const double old = beta == 0.0f ? 0.0 : beta * v[c];
    v[c] = static_cast<float>(old + alpha * total);
  }
}

// ---- whole-matrix reductions ----

constexpr int kReduceThreads = 256;
constexpr int kReduceBlocks = 512;

template <Reduce kOp>
struct Acc;
template <>
struct Acc<Reduce::kSum> {
  using T = double;
  static __device__ T Init() { return 0.0; }
  static __device__ T Get(const float *a, const float *, int64_t ia, int64_t) {
    return a[ia];
  }
  static __device__ T Combine(T x, T y) { return x + y; }
};
template <>
struct Acc<Reduce::kDot> {
  using T = double;
  static __device__ T Init() { return 0.0; }
  static __device__ T Get(const float *a, const float *b, int64_t ia,
                          int64_t ib) {
    return static_cast<double>(a[ia]) * b[ib];
  }
  static __device__ T Combine(T x, T y) { return x + y; }
};
template <>
struct Acc<Reduce::kMax> {
  using T = float;
  static __device__ T Init() { return -INFINITY; }
  static __device__ T Get(const float *a, const float *, int64_t ia, int64_t) {
    return a[ia];
  }
  static __device__ T Combine(T x, T y) { return fmaxf(x, y); }
};
template <>
struct Acc<Reduce::kMin> {
  using T = float;
  static __device__ T Init() { return INFINITY; }
  static __device__ T Get(const float *a, const float *, int64_t ia, int64_t) {
    return a[ia];
  }
  static __device__ T Combine(T x, T y) { return fminf(x, y); }
};

// Reduces the values of a shared array of n (a power of two) in a fixed
// tree order; the result is in shared[0].
template <class A, class T>
__device__ void TreeReduce(T *shared, int n) {
  for (int half = n / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half)
      shared[threadIdx.x] =
          A::Combine(shared[threadIdx.x], shared[threadIdx.x + half]);
    __syncthreads();
  }
}

// Pass 1: the blocks form a grid of row groups x column groups (block b
// takes column group b % col_groups and row group b / col_groups, striding
// over the rows of its group); partial[b] = the block's result.
template <Reduce kOp>
__global__ void ReducePartialKernel(ConstMatView a, ConstMatView b,
                                    int col_groups,
                                    typename Acc<kOp>::T *partial) {
  using A = Acc<kOp>;
  using T = typename A::T;
  __shared__ T shared[kReduceThreads];
  const int row_groups = gridDim.x / col_groups;
  const int cg = blockIdx.x % col_groups, rg = blockIdx.x / col_groups;
  T acc = A::Init();
  for (int32_t r = rg; r < a.rows; r += row_groups)
    for (int32_t c = cg * blockDim.x + threadIdx.x; c < a.cols;
         c += col_groups * blockDim.x)
      acc = A::Combine(
          acc, A::Get(a.data, b.data, At(r, a.stride, c), At(r, b.stride, c)));
  shared[threadIdx.x] = acc;
  __syncthreads();
  TreeReduce<A>(shared, kReduceThreads);
  if (threadIdx.x == 0) partial[blockIdx.x] = shared[0];
}

// Pass 2: one block combines the partials in a fixed order.
template <Reduce kOp>
__global__ void ReduceFinalKernel(const typename Acc<kOp>::T *partial, int n,
                                  typename Acc<kOp>::T *result) {
  using A = Acc<kOp>;
  using T = typename A::T;
  __shared__ T shared[kReduceThreads];
  T acc = A::Init();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    acc = A::Combine(acc, partial[i]);
  shared[threadIdx.x] = acc;
  __syncthreads();
  TreeReduce<A>(shared, kReduceThreads);
  if (threadIdx.x == 0) *result = shared[0];
}

template <Reduce kOp>
cudaError_t LaunchReduce(cudaStream_t stream, ConstMatView a, ConstMatView b,
                         void *scratch, void *result) {
  using T = typename Acc<kOp>::T;
  // Empty views still write the identity (0, -inf or +inf) to *result.
  int col_groups = CeilDiv(a.cols, kReduceThreads);
  if (col_groups > kReduceBlocks) col_groups = kReduceBlocks;
  if (col_groups < 1) col_groups = 1;
  int row_groups = kReduceBlocks / col_groups;
  if (row_groups > a.rows) row_groups = a.rows;
  if (row_groups < 1) row_groups = 1;
  const int blocks = col_groups * row_groups;
  T *partial = static_cast<T *>(scratch);
  ReducePartialKernel<kOp>
      <<<blocks, kReduceThreads, 0, stream>>>(a, b, col_groups, partial);
  ReduceFinalKernel<kOp><<<1, kReduceThreads, 0, stream>>>(
      partial, blocks, static_cast<T *>(result));
  return LaunchStatus();
}

}  // namespace

size_t AddRowSumToVecScratchBytes(int32_t rows, int32_t cols) {
  return sizeof(double) * static_cast<size_t>(NumChunks(rows, cols)) *
         static_cast<size_t>(cols);
}

cudaError_t AddRowSumToVec(cudaStream_t stream, float alpha, ConstMatView m,
                           float beta, MatView v, void *scratch) {
  if (m.cols == 0) return cudaSuccess;
  const int chunks = NumChunks(m.rows, m.cols);
  double *partial = static_cast<double *>(scratch);
  ColSumPartialKernel<<<dim3(CeilDiv(m.cols, kColTile), chunks),
                        dim3(kColTile, kRowLanes), 0, stream>>>(
      alpha, m, beta, v.data, partial);
  if (chunks > 1) {
    int blocks = CeilDiv(m.cols, 256);
    if (blocks > 1024) blocks = 1024;
    ColSumFinalKernel<<<blocks, 256, 0, stream>>>(alpha, m.cols, chunks,
                                                  partial, beta, v.data);
  }
  return LaunchStatus();
}

size_t ReduceScratchBytes() { return sizeof(double) * kReduceBlocks; }

cudaError_t ReduceAll(cudaStream_t stream, Reduce op, ConstMatView a,
                      ConstMatView b, void *scratch, void *result) {
  switch (op) {
    case Reduce::kSum:
      return LaunchReduce<Reduce::kSum>(stream, a, a, scratch, result);
    case Reduce::kDot:
      return LaunchReduce<Reduce::kDot>(stream, a, b, scratch, result);
    case Reduce::kMax:
      return LaunchReduce<Reduce::kMax>(stream, a, a, scratch, result);
    default:
      return LaunchReduce<Reduce::kMin>(stream, a, a, scratch, result);
  }
}

}  // namespace kernels
}  // namespace nnet3
