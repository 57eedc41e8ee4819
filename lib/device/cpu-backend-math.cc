// CpuBackend: elementwise functions, their derivatives, and row softmax.
#include <algorithm>
#include <cmath>
#include <limits>

#include "base/error.h"
#include "device/cpu-backend.h"
#include "device/cpu-loops.h"

namespace nnet3 {

using cpu::CheckView;
using cpu::RowOf;
using cpu::SameShape;

// The switch is outside the loops: each case instantiates its own loop.
void CpuBackend::Apply(Func f, ConstMatView in, MatView out) {
  switch (f) {
    case Func::kRelu:
      cpu::Map(in, out, [](float x) { return x > 0.0f ? x : 0.0f; });
      break;
    case Func::kSigmoid:
      cpu::Map(in, out, [](float x) { return 1.0f / (1.0f + std::exp(-x)); });
      break;
    case Func::kTanh:
      cpu::Map(in, out, [](float x) { return std::tanh(x); });
      break;
    case Func::kExp:
      cpu::Map(in, out, [](float x) { return std::exp(x); });
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

// ---- softmax ----

namespace {

float RowMax(const float *x, int32_t n) {
  float m = -std::numeric_limits<float>::infinity();
  for (int32_t c = 0; c < n; c++) m = std::max(m, x[c]);
  return m;
}

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
  for (int32_t r = 0; r < out.rows; r++) {
    const float *x = RowOf(in, r);
    float *y = RowOf(out, r);
    const float max = RowMax(x, out.cols);
    double sum = 0.0;
    for (int32_t c = 0; c < out.cols; c++) {
      y[c] = std::exp(x[c] - max);
      sum += y[c];
    }
    const float scale = static_cast<float>(1.0 / sum);
    for (int32_t c = 0; c < out.cols; c++) y[c] *= scale;
  }
}

// y = (x - max) - log(sum(exp(x - max))): subtracting the maximum first keeps
// the precision of the small differences when the inputs are large.
void CpuBackend::LogSoftmaxRows(ConstMatView in, MatView out) {
  CheckSoftmaxShapes(in, out, out);
  for (int32_t r = 0; r < out.rows; r++) {
    const float *x = RowOf(in, r);
    float *y = RowOf(out, r);
    const float max = RowMax(x, out.cols);
    double sum = 0.0;
    for (int32_t c = 0; c < out.cols; c++) sum += std::exp(x[c] - max);
    const float log_sum = static_cast<float>(std::log(sum));
    for (int32_t c = 0; c < out.cols; c++) y[c] = (x[c] - max) - log_sum;
  }
}

// in_deriv = y .* (out_deriv - rowsum(out_deriv .* y)); the row sum is
// taken before any write, so in_deriv may be out_deriv.
void CpuBackend::DiffSoftmax(ConstMatView y, ConstMatView out_deriv,
                             MatView in_deriv) {
  CheckSoftmaxShapes(y, out_deriv, in_deriv);
  for (int32_t r = 0; r < in_deriv.rows; r++) {
    const float *v = RowOf(y, r), *d = RowOf(out_deriv, r);
    float *g = RowOf(in_deriv, r);
    double dot = 0.0;
    for (int32_t c = 0; c < in_deriv.cols; c++)
      dot += static_cast<double>(v[c]) * d[c];
    const float s = static_cast<float>(dot);
    for (int32_t c = 0; c < in_deriv.cols; c++) g[c] = v[c] * (d[c] - s);
  }
}

// in_deriv = out_deriv - exp(y) * rowsum(out_deriv); in_deriv may be
// out_deriv.
void CpuBackend::DiffLogSoftmax(ConstMatView y, ConstMatView out_deriv,
                                MatView in_deriv) {
  CheckSoftmaxShapes(y, out_deriv, in_deriv);
  for (int32_t r = 0; r < in_deriv.rows; r++) {
    const float *v = RowOf(y, r), *d = RowOf(out_deriv, r);
    float *g = RowOf(in_deriv, r);
    double sum = 0.0;
    for (int32_t c = 0; c < in_deriv.cols; c++) sum += d[c];
    const float s = static_cast<float>(sum);
    for (int32_t c = 0; c < in_deriv.cols; c++)
      g[c] = d[c] - std::exp(v[c]) * s;
  }
}

}  // namespace nnet3
