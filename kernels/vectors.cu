// Kernels that combine a vector (a 1 x dim view) with a matrix: adding it
// to every row or column, scaling columns or rows, and diag(v) m.
#include "kernels/kernel-utils.cuh"
#include "kernels/launchers.h"

namespace nnet3 {
namespace kernels {

namespace {

struct AddToRow {
  float alpha;
  const float *v;
  __device__ float operator()(int32_t, int32_t c, float y) const {
    return y + alpha * v[c];
  }
};
struct AddToCol {
  float alpha;
  const float *v;
  __device__ float operator()(int32_t r, int32_t, float y) const {
    return y + alpha * v[r];
  }
};
struct MulCol {
  const float *v;
  __device__ float operator()(int32_t, int32_t c, float y) const {
    return y * v[c];
  }
};
struct MulRow {
  const float *v;
  __device__ float operator()(int32_t r, int32_t, float y) const {
    return y * v[r];
  }
};

// dst(r, c) = alpha v(r) m(r, c) (+ beta dst(r, c)); beta == 0 ignores dst.
__global__ void DiagVecMatKernel(float alpha, const float *v, ConstMatView m,
                                 float beta, MatView dst) {
  NNET3_FOR_2D(r, c, dst.rows, dst.cols) {
    const float scale = alpha * v[r];
    float *y = dst.data + At(r, dst.stride, c);
    const float x = m.data[At(r, m.stride, c)];
    *y = beta == 0.0f ? scale * x : beta * *y + scale * x;
  }
}

// out(r, c) = g(in(r, c)) * scale(c) + offset(c); in may be out.
__global__ void ScaleOffsetColsKernel(bool rectify, const float *scale,
                                      const float *offset, ConstMatView in,
                                      MatView out) {
  NNET3_FOR_2D(r, c, out.rows, out.cols) {
    float x = in.data[At(r, in.stride, c)];
    if (rectify) x = x > 0.0f ? x : 0.0f;  // as Func::kRelu (NaN gives 0)
    out.data[At(r, out.stride, c)] =
        __fadd_rn(__fmul_rn(x, scale[c]), offset[c]);
  }
}

}  // namespace

cudaError_t ScaleOffsetCols(cudaStream_t stream, bool rectify,
                            ConstMatView scale, ConstMatView offset,
                            ConstMatView in, MatView out) {
  if (IsEmpty(out)) return cudaSuccess;
  const Launch2D l = Config2D(out.rows, out.cols);
  ScaleOffsetColsKernel<<<l.grid, l.block, 0, stream>>>(rectify, scale.data,
                                                        offset.data, in, out);
  return LaunchStatus();
}

cudaError_t AddVecToRows(cudaStream_t stream, float alpha, ConstMatView v,
                         MatView m) {
  return LaunchIndexed(stream, m, AddToRow{alpha, v.data});
}

cudaError_t AddVecToCols(cudaStream_t stream, float alpha, ConstMatView v,
                         MatView m) {
  return LaunchIndexed(stream, m, AddToCol{alpha, v.data});
}

cudaError_t MulColsVec(cudaStream_t stream, ConstMatView v, MatView m) {
  return LaunchIndexed(stream, m, MulCol{v.data});
}

cudaError_t MulRowsVec(cudaStream_t stream, ConstMatView v, MatView m) {
  return LaunchIndexed(stream, m, MulRow{v.data});
}

cudaError_t AddDiagVecMat(cudaStream_t stream, float alpha, ConstMatView v,
                          ConstMatView m, float beta, MatView dst) {
  if (IsEmpty(dst)) return cudaSuccess;
  const Launch2D l = Config2D(dst.rows, dst.cols);
  DiagVecMatKernel<<<l.grid, l.block, 0, stream>>>(alpha, v.data, m, beta, dst);
  return LaunchStatus();
}

}  // namespace kernels
}  // namespace nnet3
