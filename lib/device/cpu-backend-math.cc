// CpuBackend: elementwise functions, their derivatives, and row softmax.
#include <algorithm>
#include <cmath>
#include <limits>

#include "base/error.h"
#include "device/cpu-backend.h"
#include "device/cpu-kernels.h"
#include "device/cpu-loops.h"

namespace nnet3 {

using cpu::CheckView;
using cpu::RowOf;
using cpu::SameShape;

namespace {

// out = f(in) row by row through a vectorised kernel (cpu-kernels.h).
void MapRows(void (*f)(const float *, float *, int64_t), ConstMatView in,
             MatView out) {
  CheckView(in);
  CheckView(out);
  NNET3_ASSERT(SameShape(in, out));
  if (out.cols == 0) return;
  if (in.rows > 1 && in.stride == in.cols && out.stride == out.cols) {
    f(in.data, out.data, static_cast<int64_t>(out.rows) * out.cols);
    return;
  }
  for (int32_t r = 0; r < out.rows; r++)
    f(RowOf(in, r), RowOf(out, r), out.cols);
}

}  // namespace

// The switch is outside the loops: each case instantiates its own loop.
void CpuBackend::Apply(Func f, ConstMatView in, MatView out) {
  const cpu::Kernels &k = cpu::ActiveKernels();
  switch (f) {
    case Func::kRelu:
      cpu::Map(in, out, [](float x) { return x > 0.0f ? x : 0.0f; });
      break;
    case Func::kSigmoid:
      MapRows(k.sigmoid, in, out);
      break;
    case Func::kTanh:
      MapRows(k.tanh, in, out);
      break;
    case Func::kExp:
      MapRows(k.exp, in, out);
      break;
    case Func::kLog:
      cpu::Map(in, out, [](float x) { return std::log(x); });
      break;
    case Func::kAbs:
      cpu::Map(in, out, [](float x) { return std::fabs(x); });
      break;
    case Func::kSquare:
      cpu::Map(in, out, [](float x) { return x * x; });
      break;
    case Func::kSqrt:
      cpu::Map(in, out, [](float x) { return std::sqrt(x); });
      break;
    case Func::kSign:
      cpu::Map(in, out, [](float x) {
        return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f);
      });
      break;
    case Func::kHeaviside:
      cpu::Map(in, out, [](float x) { return x > 0.0f ? 1.0f : 0.0f; });
      break;
    case Func::kFloor:
      cpu::Map(in, out, [](float x) { return std::floor(x); });
      break;
    default:
      NNET3_INTERNAL_ERR << "Apply: unknown Func " << static_cast<int>(f);
  }
}

// std::pow semantics (Kaldi's ApplyPow), with exact shortcuts for the
// common powers.
void CpuBackend::ApplyPow(float power, ConstMatView in, MatView out) {
  if (power == 1.0f) {
    cpu::Map(in, out, [](float x) { return x; });
  } else if (power == 2.0f) {
    cpu::Map(in, out, [](float x) { return x * x; });
  } else if (power == 0.5f) {
    cpu::Map(in, out, [](float x) { return std::sqrt(x); });
  } else {
    cpu::Map(in, out, [power](float x) { return std::pow(x, power); });
  }
}

void CpuBackend::Clamp(float lower, float upper, ConstMatView in, MatView out) {
  cpu::Map(in, out, [lower, upper](float x) {
    return std::min(std::max(x, lower), upper);
  });
}

void CpuBackend::MulElements(ConstMatView src, MatView dst) {
  cpu::Zip(src, dst, [](float x, float y) { return y * x; });
}

void CpuBackend::DivElements(ConstMatView src, MatView dst) {
  cpu::Zip(src, dst, [](float x, float y) { return y / x; });
}

void CpuBackend::MaxElements(ConstMatView src, MatView dst) {
  cpu::Zip(src, dst, [](float x, float y) { return std::max(y, x); });
}

void CpuBackend::MinElements(ConstMatView src, MatView dst) {
  cpu::Zip(src, dst, [](float x, float y) { return std::min(y, x); });
}

void CpuBackend::AddMatMatElements(float alpha, ConstMatView a, ConstMatView b,
                                   float beta, MatView dst) {
  if (beta == 0.0f) {
    cpu::Map2(a, b, dst, [alpha](float x, float z) { return alpha * x * z; });
  } else {
    cpu::Zip3(a, b, dst, [alpha, beta](float x, float z, float y) {
      return alpha * x * z + beta * y;
    });
  }
}

// ---- nonlinearity derivatives (in_deriv may be out_deriv) ----

void CpuBackend::DiffSigmoid(ConstMatView y, ConstMatView out_deriv,
                             MatView in_deriv) {
  cpu::Map2(y, out_deriv, in_deriv,
            [](float v, float d) { return d * v * (1.0f - v); });
}

void CpuBackend::DiffTanh(ConstMatView y, ConstMatView out_deriv,
                          MatView in_deriv) {
  cpu::Map2(y, out_deriv, in_deriv,
            [](float v, float d) { return d * (1.0f - v * v); });
}

void CpuBackend::DiffRelu(ConstMatView y, ConstMatView out_deriv,
                          MatView in_deriv) {
  cpu::Map2(y, out_deriv, in_deriv,
            [](float v, float d) { return v > 0.0f ? d : 0.0f; });
}

// ---- softmax (one kernel call per row, cpu-kernels.h) ----

namespace {

void CheckSoftmaxShapes(const ConstMatView &a, const ConstMatView &b,
                        const ConstMatView &c) {
  CheckView(a);
  CheckView(b);
  CheckView(c);
  NNET3_ASSERT(SameShape(a, b) && SameShape(a, c));
}

}  // namespace

// y = exp(x - max) / sum(exp(x - max)); the sum is in double.
void CpuBackend::SoftmaxRows(ConstMatView in, MatView out) {
  CheckSoftmaxShapes(in, out, out);
  if (out.cols == 0) return;
  const cpu::Kernels &k = cpu::ActiveKernels();
  for (int32_t r = 0; r < out.rows; r++)
    k.softmax_row(RowOf(in, r), RowOf(out, r), out.cols);
}

// y = (x - max) - log(sum(exp(x - max))): subtracting the maximum first keeps
// the precision of the small differences when the inputs are large.
void CpuBackend::LogSoftmaxRows(ConstMatView in, MatView out) {
  CheckSoftmaxShapes(in, out, out);
  if (out.cols == 0) return;
  const cpu::Kernels &k = cpu::ActiveKernels();
  for (int32_t r = 0; r < out.rows; r++)
    k.log_softmax_row(RowOf(in, r), RowOf(out, r), out.cols);
}

// in_deriv = y .* (out_deriv - rowsum(out_deriv .* y)); the row sum is
// taken before any write, so in_deriv may be out_deriv.
void CpuBackend::DiffSoftmax(ConstMatView y, ConstMatView out_deriv,
                             MatView in_deriv) {
  CheckSoftmaxShapes(y, out_deriv, in_deriv);
  if (in_deriv.cols == 0) return;
  const cpu::Kernels &k = cpu::ActiveKernels();
  for (int32_t r = 0; r < in_deriv.rows; r++)
    k.diff_softmax_row(RowOf(y, r), RowOf(out_deriv, r), RowOf(in_deriv, r),
                       in_deriv.cols);
}

// in_deriv = out_deriv - exp(y) * rowsum(out_deriv); in_deriv may be
// out_deriv.
void CpuBackend::DiffLogSoftmax(ConstMatView y, ConstMatView out_deriv,
                                MatView in_deriv) {
  CheckSoftmaxShapes(y, out_deriv, in_deriv);
  if (in_deriv.cols == 0) return;
  const cpu::Kernels &k = cpu::ActiveKernels();
  for (int32_t r = 0; r < in_deriv.rows; r++)
    k.diff_log_softmax_row(RowOf(y, r), RowOf(out_deriv, r), RowOf(in_deriv, r),
                           in_deriv.cols);
}

}  // namespace nnet3
