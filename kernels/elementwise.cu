// Whole-matrix and elementwise kernels: constants, scaled copies and sums,
// transposes, elementwise functions and their derivatives. Each computes
// what the CPU backend computes for the same primitive, in float, with
// CUDA's math functions (which may differ from libm by an ulp or two).
#include <cmath>

#include "kernels/kernel-utils.cuh"
#include "kernels/launchers.h"

namespace nnet3 {
namespace kernels {

namespace {

struct SetTo {
  float value;
  __device__ float operator()(int32_t, int32_t, float) const { return value; }
};
struct Scaled {
  float alpha;
  __device__ float operator()(float x) const { return alpha * x; }
};
struct Identity {
  __device__ float operator()(float x) const { return x; }
};
struct AddScaled {
  float alpha;
  __device__ float operator()(float x, float y) const { return y + alpha * x; }
};
struct PlusConst {
  float value;
  __device__ float operator()(int32_t, int32_t, float x) const {
    return x + value;
  }
};

// dst += alpha * src and src *= src_scale, one read of each element.
__global__ void AddMatAndScaleSrcKernel(float alpha, MatView src,
                                        float src_scale, MatView dst) {
  NNET3_FOR_2D(r, c, dst.rows, dst.cols) {
    float *x = src.data + At(r, src.stride, c);
    float *y = dst.data + At(r, dst.stride, c);
    const float v = *x;
    *y += alpha * v;
    *x = src_scale == 0.0f ? 0.0f : src_scale * v;
  }
}

// dst = beta * dst + alpha * src, one read of each element.
__global__ void ScaleAndAddMatKernel(float beta, float alpha, ConstMatView src,
                                     MatView dst) {
  NNET3_FOR_2D(r, c, dst.rows, dst.cols) {
    float *y = dst.data + At(r, dst.stride, c);
    const float x = alpha * src.data[At(r, src.stride, c)];
    *y = beta == 0.0f ? x : __fadd_rn(__fmul_rn(beta, *y), x);
  }
}

// dst = alpha * srcᵀ (or +=) through a 32 x 33 shared tile, so that both
// the reads and the writes are coalesced. Block 32 x 8.
__global__ void TransposeKernel(float alpha, ConstMatView src, MatView dst,
                                bool add) {
  __shared__ float tile[32][33];
  // The tile covers src rows [r0, r0 + 32) and columns [c0, c0 + 32).
  for (int32_t r0 = blockIdx.y * 32; r0 < src.rows; r0 += gridDim.y * 32) {
    for (int32_t c0 = blockIdx.x * 32; c0 < src.cols; c0 += gridDim.x * 32) {
      for (int i = threadIdx.y; i < 32; i += 8) {
        const int32_t r = r0 + i, c = c0 + threadIdx.x;
        if (r < src.rows && c < src.cols)
          tile[i][threadIdx.x] = src.data[At(r, src.stride, c)];
      }
      __syncthreads();
      // dst row = src column c0 + i, dst column = src row r0 + threadIdx.x.
      for (int i = threadIdx.y; i < 32; i += 8) {
        const int32_t r = c0 + i, c = r0 + threadIdx.x;
        if (r < dst.rows && c < dst.cols) {
          float *y = dst.data + At(r, dst.stride, c);
          const float v = alpha * tile[threadIdx.x][i];
          *y = add ? *y + v : v;
        }
      }
      __syncthreads();
    }
  }
}

struct ApplyFunc {
  Func f;
  __device__ float operator()(float x) const {
    switch (f) {
      case Func::kRelu:
        return x > 0.0f ? x : 0.0f;
      case Func::kSigmoid:
        return 1.0f / (1.0f + expf(-x));
      case Func::kTanh:
        return tanhf(x);
      case Func::kExp:
        return expf(x);
      case Func::kLog:
        return logf(x);
      case Func::kAbs:
        return fabsf(x);
      case Func::kSquare:
        return x * x;
      case Func::kSqrt:
        return sqrtf(x);
      case Func::kSign:
        return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f);
      case Func::kHeaviside:
        return x > 0.0f ? 1.0f : 0.0f;
      case Func::kFloor:
        return floorf(x);
    }
    return x;
  }
};

// One kernel per function, so that the switch is resolved at compile time.
template <Func kF>
struct ApplyFixed {
  __device__ float operator()(float x) const { return ApplyFunc{kF}(x); }
};

struct Pow {
  float power;
  __device__ float operator()(float x) const { return powf(x, power); }
};
struct Square {
  __device__ float operator()(float x) const { return x * x; }
};
struct Sqrt {
  __device__ float operator()(float x) const { return sqrtf(x); }
};
struct ClampTo {
  float lower, upper;
  __device__ float operator()(float x) const {
    // As std::min(std::max(x, lower), upper): NaN stays NaN.
    const float y = (x < lower) ? lower : x;
    return (upper < y) ? upper : y;
  }
};

// std::max(y, x) = (y < x) ? x : y; std::min(y, x) = (x < y) ? x : y.
template <Binary kOp>
struct BinaryOp {
  __device__ float operator()(float x, float y) const {
    switch (kOp) {
      case Binary::kMul:
        return y * x;
      case Binary::kDiv:
        return y / x;
      case Binary::kMax:
        return (y < x) ? x : y;
      case Binary::kMin:
        return (x < y) ? x : y;
    }
    return y;
  }
};

struct ScaledProduct {
  float alpha;
  __device__ float operator()(float x, float z) const { return alpha * x * z; }
};
struct ScaledProductPlus {
  float alpha, beta;
  __device__ float operator()(float x, float z, float y) const {
    return alpha * x * z + beta * y;
  }
};
struct EqualMask {
  __device__ float operator()(float x, float z) const {
    return x == z ? 1.0f : 0.0f;
  }
};

template <Diff kKind>
struct DiffOp {
  __device__ float operator()(float v, float d) const {
    switch (kKind) {
      case Diff::kSigmoid:
        return d * v * (1.0f - v);
      case Diff::kTanh:
        return d * (1.0f - v * v);
      case Diff::kRelu:
        return v > 0.0f ? d : 0.0f;
    }
    return d;
  }
};

}  // namespace

cudaError_t SetConst(cudaStream_t stream, MatView m, float value) {
  return LaunchIndexed(stream, m, SetTo{value});
}

cudaError_t ScaleCopy(cudaStream_t stream, float alpha, ConstMatView src,
                      MatView dst, bool add) {
  if (add) return LaunchZip(stream, src, dst, AddScaled{alpha});
  if (alpha == 1.0f) return LaunchMap(stream, src, dst, Identity());
  return LaunchMap(stream, src, dst, Scaled{alpha});
}

cudaError_t Transpose(cudaStream_t stream, float alpha, ConstMatView src,
                      MatView dst, bool add) {
  if (IsEmpty(src)) return cudaSuccess;
  int gx = CeilDiv(src.cols, 32), gy = CeilDiv(src.rows, 32);
  if (gx > 1024) gx = 1024;
  if (gy > kMaxGridY) gy = kMaxGridY;
  TransposeKernel<<<dim3(gx, gy), dim3(32, 8), 0, stream>>>(alpha, src, dst,
                                                            add);
  return LaunchStatus();
}

cudaError_t AddConst(cudaStream_t stream, float value, MatView m) {
  return LaunchIndexed(stream, m, PlusConst{value});
}

cudaError_t AddMatAndScaleSrc(cudaStream_t stream, float alpha, MatView src,
                              float src_scale, MatView dst) {
  if (IsEmpty(dst)) return cudaSuccess;
  const Launch2D l = Config2D(dst.rows, dst.cols);
  AddMatAndScaleSrcKernel<<<l.grid, l.block, 0, stream>>>(alpha, src, src_scale,
                                                          dst);
  return LaunchStatus();
}

cudaError_t ScaleAndAddMat(cudaStream_t stream, float beta, float alpha,
                           ConstMatView src, MatView dst) {
  if (IsEmpty(dst)) return cudaSuccess;
  const Launch2D l = Config2D(dst.rows, dst.cols);
  ScaleAndAddMatKernel<<<l.grid, l.block, 0, stream>>>(beta, alpha, src, dst);
  return LaunchStatus();
}

cudaError_t Apply(cudaStream_t stream, Func f, ConstMatView in, MatView out) {
  switch (f) {
    case Func::kRelu:
      return LaunchMap(stream, in, out, ApplyFixed<Func::kRelu>());
    case Func::kSigmoid:
      return LaunchMap(stream, in, out, ApplyFixed<Func::kSigmoid>());
    case Func::kTanh:
      return LaunchMap(stream, in, out, ApplyFixed<Func::kTanh>());
    case Func::kExp:
      return LaunchMap(stream, in, out, ApplyFixed<Func::kExp>());
    default:  // the rarer functions share one kernel
      return LaunchMap(stream, in, out, ApplyFunc{f});
  }
}

cudaError_t ApplyPow(cudaStream_t stream, float power, ConstMatView in,
                     MatView out) {
  if (power == 1.0f) return LaunchMap(stream, in, out, Identity());
  if (power == 2.0f) return LaunchMap(stream, in, out, Square());
  if (power == 0.5f) return LaunchMap(stream, in, out, Sqrt());
  return LaunchMap(stream, in, out, Pow{power});
}

cudaError_t Clamp(cudaStream_t stream, float lower, float upper,
                  ConstMatView in, MatView out) {
  return LaunchMap(stream, in, out, ClampTo{lower, upper});
}

cudaError_t BinaryElements(cudaStream_t stream, Binary op, ConstMatView src,
                           MatView dst) {
  switch (op) {
    case Binary::kMul:
      return LaunchZip(stream, src, dst, BinaryOp<Binary::kMul>());
    case Binary::kDiv:
      return LaunchZip(stream, src, dst, BinaryOp<Binary::kDiv>());
    case Binary::kMax:
      return LaunchZip(stream, src, dst, BinaryOp<Binary::kMax>());
    default:
      return LaunchZip(stream, src, dst, BinaryOp<Binary::kMin>());
  }
}

cudaError_t AddMatMatElements(cudaStream_t stream, float alpha, ConstMatView a,
                              ConstMatView b, float beta, MatView dst) {
  if (beta == 0.0f) return LaunchMap2(stream, a, b, dst, ScaledProduct{alpha});
  return LaunchZip3(stream, a, b, dst, ScaledProductPlus{alpha, beta});
}

cudaError_t EqualElementMask(cudaStream_t stream, ConstMatView a,
                             ConstMatView b, MatView dst) {
  return LaunchMap2(stream, a, b, dst, EqualMask());
}

cudaError_t DiffNonlinearity(cudaStream_t stream, Diff kind, ConstMatView y,
                             ConstMatView out_deriv, MatView in_deriv) {
  switch (kind) {
    case Diff::kSigmoid:
      return LaunchMap2(stream, y, out_deriv, in_deriv,
                        DiffOp<Diff::kSigmoid>());
    case Diff::kTanh:
      return LaunchMap2(stream, y, out_deriv, in_deriv, DiffOp<Diff::kTanh>());
    default:
      return LaunchMap2(stream, y, out_deriv, in_deriv, DiffOp<Diff::kRelu>());
  }
}

}  // namespace kernels
}  // namespace nnet3
