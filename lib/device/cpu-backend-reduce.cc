// CpuBackend: vector-matrix operations, reductions (accumulated in double)
// and the counter-based random fills.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "base/error.h"
#include "device/cpu-backend.h"
#include "device/cpu-kernels.h"
#include "device/cpu-loops.h"

namespace nnet3 {

using cpu::CheckView;
using cpu::RowOf;
using cpu::SameShape;

namespace {

// A vector argument: a 1 x dim view (an empty vector may have no row).
void CheckVector(const ConstMatView &v, int32_t dim) {
  CheckView(v);
  NNET3_ASSERT(v.cols == dim && (v.rows == 1 || dim == 0));
}

}  // namespace

// ---- vectors against matrices ----

void CpuBackend::AddVecToRows(float alpha, ConstMatView v, MatView m) {
  CheckView(m);
  CheckVector(v, m.cols);
  for (int32_t r = 0; r < m.rows; r++) {
    float *y = RowOf(m, r);
    for (int32_t c = 0; c < m.cols; c++) y[c] += alpha * v.data[c];
  }
}

void CpuBackend::AddVecToCols(float alpha, ConstMatView v, MatView m) {
  CheckView(m);
  CheckVector(v, m.rows);
  for (int32_t r = 0; r < m.rows; r++) {
    float *y = RowOf(m, r);
    const float add = alpha * v.data[r];
    for (int32_t c = 0; c < m.cols; c++) y[c] += add;
  }
}

void CpuBackend::MulColsVec(ConstMatView v, MatView m) {
  CheckView(m);
  CheckVector(v, m.cols);
  for (int32_t r = 0; r < m.rows; r++) {
    float *y = RowOf(m, r);
    for (int32_t c = 0; c < m.cols; c++) y[c] *= v.data[c];
  }
}

void CpuBackend::MulRowsVec(ConstMatView v, MatView m) {
  CheckView(m);
  CheckVector(v, m.rows);
  for (int32_t r = 0; r < m.rows; r++) {
    float *y = RowOf(m, r);
    const float scale = v.data[r];
    for (int32_t c = 0; c < m.cols; c++) y[c] *= scale;
  }
}

// ---- fused inference passes ----

void CpuBackend::ScaleOffsetCols(bool rectify, ConstMatView scale,
                                 ConstMatView offset, ConstMatView in,
                                 MatView out) {
  CheckView(in);
  CheckView(out);
  NNET3_ASSERT(in.rows == out.rows && in.cols == out.cols);
  CheckVector(scale, out.cols);
  CheckVector(offset, out.cols);
  const float *s = scale.data, *o = offset.data;
  for (int32_t r = 0; r < out.rows; r++) {
    const float *x = in.data + int64_t(r) * in.stride;
    float *y = RowOf(out, r);
    if (rectify) {
      for (int32_t c = 0; c < out.cols; c++)
        y[c] = (x[c] > 0.0f ? x[c] : 0.0f) * s[c] + o[c];  // as Func::kRelu
    } else {
      for (int32_t c = 0; c < out.cols; c++) y[c] = x[c] * s[c] + o[c];
    }
  }
}

// ---- reductions ----

// Column sums accumulate row by row (contiguous reads) into doubles.
void CpuBackend::AddRowSumToVec(float alpha, ConstMatView m, float beta,
                                MatView v) {
  CheckView(m);
  CheckVector(v, m.cols);
  const cpu::Kernels &k = cpu::ActiveKernels();
  static thread_local std::vector<double> sum;
  sum.assign(m.cols, 0.0);
  for (int32_t r = 0; r < m.rows && m.cols > 0; r++)
    k.accumulate(RowOf(m, r), sum.data(), m.cols);
  for (int32_t c = 0; c < m.cols; c++) {
    const double old = beta == 0.0f ? 0.0 : beta * v.data[c];
    v.data[c] = static_cast<float>(old + alpha * sum[c]);
  }
}

void CpuBackend::AddColSumToVec(float alpha, ConstMatView m, float beta,
                                MatView v) {
  CheckView(m);
  CheckVector(v, m.rows);
  const cpu::Kernels &k = cpu::ActiveKernels();
  for (int32_t r = 0; r < m.rows; r++) {
    const double sum = k.sum(RowOf(m, r), m.cols);
    const double old = beta == 0.0f ? 0.0 : beta * v.data[r];
    v.data[r] = static_cast<float>(old + alpha * sum);
  }
}

double CpuBackend::Sum(ConstMatView m) {
  CheckView(m);
  const cpu::Kernels &k = cpu::ActiveKernels();
  if (m.rows > 1 && m.stride == m.cols)
    return k.sum(m.data, static_cast<int64_t>(m.rows) * m.cols);
  double sum = 0.0;
  for (int32_t r = 0; r < m.rows; r++) sum += k.sum(RowOf(m, r), m.cols);
  return sum;
}

double CpuBackend::DotProduct(ConstMatView a, ConstMatView b) {
  CheckView(a);
  CheckView(b);
  NNET3_ASSERT(SameShape(a, b));
  const cpu::Kernels &k = cpu::ActiveKernels();
  if (a.rows > 1 && a.stride == a.cols && b.stride == b.cols)
    return k.dot(a.data, b.data, static_cast<int64_t>(a.rows) * a.cols);
  double sum = 0.0;
  for (int32_t r = 0; r < a.rows; r++)
    sum += k.dot(RowOf(a, r), RowOf(b, r), a.cols);
  return sum;
}

float CpuBackend::Max(ConstMatView m) {
  CheckView(m);
  float max = -std::numeric_limits<float>::infinity();
  for (int32_t r = 0; r < m.rows; r++) {
    const float *x = RowOf(m, r);
    for (int32_t c = 0; c < m.cols; c++) max = std::max(max, x[c]);
  }
  return max;
}

float CpuBackend::Min(ConstMatView m) {
  CheckView(m);
  float min = std::numeric_limits<float>::infinity();
  for (int32_t r = 0; r < m.rows; r++) {
    const float *x = RowOf(m, r);
    for (int32_t c = 0; c < m.cols; c++) min = std::min(min, x[c]);
  }
  return min;
}

// ---- random fills: element (r, c) uses counter r * cols + c ----

void CpuBackend::RandUniform(uint64_t seed, MatView m) {
  CheckView(m);
  for (int32_t r = 0; r < m.rows; r++) {
    float *y = RowOf(m, r);
    const uint64_t base = static_cast<uint64_t>(r) * m.cols;
    for (int32_t c = 0; c < m.cols; c++)
      y[c] = UniformFromBits(RandomBits(seed, base + c));
  }
}

void CpuBackend::RandGaussian(uint64_t seed, MatView m) {
  CheckView(m);
  for (int32_t r = 0; r < m.rows; r++) {
    float *y = RowOf(m, r);
    const uint64_t base = static_cast<uint64_t>(r) * m.cols;
    for (int32_t c = 0; c < m.cols; c++) {
      const uint64_t k = base + c;
      y[c] = GaussianFromBits(RandomBits(seed, 2 * k),
                              RandomBits(seed, 2 * k + 1));
    }
  }
}

}  // namespace nnet3
