// CpuBackend: row gathers and scatters through index vectors, row-pointer
// lists and row ranges. On the CPU, device memory is host memory, so the
// index vectors and pointer lists are read directly.
#include <algorithm>
#include <vector>

#include "base/error.h"
#include "device/cpu-backend.h"
#include "device/cpu-loops.h"

namespace nnet3 {

using cpu::CheckView;
using cpu::RowOf;

namespace {

// y = alpha * x over n floats (a plain copy when alpha == 1).
inline void SetRow(float alpha, const float *x, int32_t n, float *y) {
  if (alpha == 1.0f) {
    std::copy(x, x + n, y);
  } else {
    for (int32_t c = 0; c < n; c++) y[c] = alpha * x[c];
  }
}

// y += alpha * x over n floats.
inline void AddRow(float alpha, const float *x, int32_t n, float *y) {
  for (int32_t c = 0; c < n; c++) y[c] += alpha * x[c];
}

// The row `i` of `m`, which must exist.
inline int32_t CheckedRow(int32_t i, const ConstMatView &m) {
  NNET3_ASSERT(i < m.rows);
  return i;
}

}  // namespace

// ---- index vectors ----

void CpuBackend::CopyRows(float alpha, ConstMatView src, const int32_t *idx,
                          MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.cols == dst.cols);
  if (dst.cols == 0) return;
  for (int32_t r = 0; r < dst.rows; r++) {
    float *y = RowOf(dst, r);
    if (idx[r] < 0)
      std::fill(y, y + dst.cols, 0.0f);
    else
      SetRow(alpha, RowOf(src, CheckedRow(idx[r], src)), dst.cols, y);
  }
}

void CpuBackend::AddRows(float alpha, ConstMatView src, const int32_t *idx,
                         MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.cols == dst.cols);
  if (dst.cols == 0) return;
  for (int32_t r = 0; r < dst.rows; r++) {
    if (idx[r] >= 0)
      AddRow(alpha, RowOf(src, CheckedRow(idx[r], src)), dst.cols,
             RowOf(dst, r));
  }
}

void CpuBackend::CopyToRows(ConstMatView src, const int32_t *idx, MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.cols == dst.cols);
  if (dst.cols == 0) return;
  for (int32_t r = 0; r < src.rows; r++) {
    if (idx[r] >= 0)
      SetRow(1.0f, RowOf(src, r), dst.cols,
             RowOf(dst, CheckedRow(idx[r], dst)));
  }
}

void CpuBackend::AddToRows(float alpha, ConstMatView src, const int32_t *idx,
                           MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.cols == dst.cols);
  if (dst.cols == 0) return;
  for (int32_t r = 0; r < src.rows; r++) {
    if (idx[r] >= 0)
      AddRow(alpha, RowOf(src, r), dst.cols,
             RowOf(dst, CheckedRow(idx[r], dst)));
  }
}

// ---- pointer lists ----

void CpuBackend::CopyRowsFromPtrs(float alpha, const float *const *ptrs,
                                  MatView dst) {
  CheckView(dst);
  if (dst.cols == 0) return;
  for (int32_t r = 0; r < dst.rows; r++) {
    float *y = RowOf(dst, r);
    if (ptrs[r] == nullptr)
      std::fill(y, y + dst.cols, 0.0f);
    else
      SetRow(alpha, ptrs[r], dst.cols, y);
  }
}

void CpuBackend::AddRowsFromPtrs(float alpha, const float *const *ptrs,
                                 MatView dst) {
  CheckView(dst);
  if (dst.cols == 0) return;
  for (int32_t r = 0; r < dst.rows; r++) {
    if (ptrs[r] != nullptr) AddRow(alpha, ptrs[r], dst.cols, RowOf(dst, r));
  }
}

void CpuBackend::CopyToRowPtrs(ConstMatView src, float *const *ptrs) {
  CheckView(src);
  if (src.cols == 0) return;
  for (int32_t r = 0; r < src.rows; r++) {
    if (ptrs[r] != nullptr) SetRow(1.0f, RowOf(src, r), src.cols, ptrs[r]);
  }
}

void CpuBackend::AddToRowPtrs(float alpha, ConstMatView src,
                              float *const *ptrs) {
  CheckView(src);
  if (src.cols == 0) return;
  for (int32_t r = 0; r < src.rows; r++) {
    if (ptrs[r] != nullptr) AddRow(alpha, RowOf(src, r), src.cols, ptrs[r]);
  }
}

// ---- row ranges ----

// Each range is summed in double (ranges can be long, e.g. statistics
// pooling), then added once.
void CpuBackend::AddRowRanges(float alpha, ConstMatView src,
                              const int32_t *ranges, MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.cols == dst.cols);
  const int32_t cols = dst.cols;
  if (cols == 0) return;
  // Each column summed in float, row after row (Kaldi's CPU and CUDA
  // AddRowRanges): statistics pooling's variances, E[x^2] - E[x]^2, keep
  // the rounding of those sums, so a more exact sum would not give Kaldi's.
  static thread_local std::vector<float> sum;
  sum.resize(cols);
  for (int32_t r = 0; r < dst.rows; r++) {
    const int32_t begin = ranges[2 * r], end = ranges[2 * r + 1];
    if (end <= begin) continue;
    NNET3_ASSERT(begin >= 0 && end <= src.rows);
    std::fill(sum.begin(), sum.end(), 0.0f);
    for (int32_t i = begin; i < end; i++) {
      const float *x = RowOf(src, i);
      for (int32_t c = 0; c < cols; c++) sum[c] += x[c];
    }
    float *y = RowOf(dst, r);
    for (int32_t c = 0; c < cols; c++) y[c] += alpha * sum[c];
  }
}

}  // namespace nnet3
