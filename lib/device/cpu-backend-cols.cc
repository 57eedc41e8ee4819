// CpuBackend: column gathers through index vectors (the patches of
// convolution and pooling) and the equality mask of max-pooling's backprop.
// On the CPU, device memory is host memory, so index vectors are read
// directly.
#include "base/error.h"
#include "device/cpu-backend.h"
#include "device/cpu-loops.h"

namespace nnet3 {

using cpu::CheckView;
using cpu::RowOf;

namespace {

// Every entry of idx (dst_cols of them) is -1 or a column of src.
void CheckColumnIndexes(const int32_t *idx, int32_t dst_cols,
                        int32_t src_cols) {
  for (int32_t c = 0; c < dst_cols; c++)
    NNET3_ASSERT(idx[c] >= -1 && idx[c] < src_cols);
}

}  // namespace

void CpuBackend::CopyCols(ConstMatView src, const int32_t *idx, MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.rows == dst.rows);
  if (dst.rows == 0 || dst.cols == 0) return;
  CheckColumnIndexes(idx, dst.cols, src.cols);
  for (int32_t r = 0; r < dst.rows; r++) {
    const float *x = RowOf(src, r);
    float *y = RowOf(dst, r);
    for (int32_t c = 0; c < dst.cols; c++) y[c] = idx[c] < 0 ? 0.0f : x[idx[c]];
  }
}

void CpuBackend::AddCols(ConstMatView src, const int32_t *idx, MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.rows == dst.rows);
  if (dst.rows == 0 || dst.cols == 0) return;
  CheckColumnIndexes(idx, dst.cols, src.cols);
  for (int32_t r = 0; r < dst.rows; r++) {
    const float *x = RowOf(src, r);
    float *y = RowOf(dst, r);
    for (int32_t c = 0; c < dst.cols; c++)
      if (idx[c] >= 0) y[c] += x[idx[c]];
  }
}

void CpuBackend::EqualElementMask(ConstMatView a, ConstMatView b, MatView dst) {
  cpu::Map2(a, b, dst, [](float x, float y) { return x == y ? 1.0f : 0.0f; });
}

}  // namespace nnet3
