// CpuBackend: row-diagonal products, diag(a bᵀ) and diag(v) m, which the
// attention component applies once per context offset.
#include "base/error.h"
#include "device/cpu-backend.h"
#include "device/cpu-loops.h"

namespace nnet3 {

using cpu::CheckView;
using cpu::RowOf;
using cpu::SameShape;

// Each dot product accumulates in double, as the other reductions do.
void CpuBackend::AddRowDotProducts(float alpha, ConstMatView a, ConstMatView b,
                                   float beta, MatView v) {
  CheckView(a);
  CheckView(b);
  CheckView(v);
  NNET3_ASSERT(SameShape(a, b));
  NNET3_ASSERT(v.cols == a.rows && (v.rows == 1 || a.rows == 0));
  for (int32_t r = 0; r < a.rows; r++) {
    const float *x = RowOf(a, r), *y = RowOf(b, r);
    double sum = 0.0;
    for (int32_t c = 0; c < a.cols; c++)
      sum += static_cast<double>(x[c]) * y[c];
    const double old = beta == 0.0f ? 0.0 : beta * v.data[r];
    v.data[r] = static_cast<float>(old + alpha * sum);
  }
}

void CpuBackend::AddDiagVecMat(float alpha, ConstMatView v, ConstMatView m,
                               float beta, MatView dst) {
  CheckView(v);
  CheckView(m);
  CheckView(dst);
  NNET3_ASSERT(SameShape(m, dst));
  NNET3_ASSERT(v.cols == m.rows && (v.rows == 1 || m.rows == 0));
  for (int32_t r = 0; r < m.rows; r++) {
    const float *x = RowOf(m, r);
    float *y = RowOf(dst, r);
    const float scale = alpha * v.data[r];
    if (beta == 0.0f) {
      for (int32_t c = 0; c < m.cols; c++) y[c] = scale * x[c];
    } else {
      for (int32_t c = 0; c < m.cols; c++) y[c] = beta * y[c] + scale * x[c];
    }
  }
}

}  // namespace nnet3
