#include "nnet/components/nonlinear-common.h"

#include <algorithm>
#include <cmath>
#include <iomanip>

namespace nnet3 {

bool BlockView::NeedsTemp(const MatrixView &m, int32_t block) {
  return block != m.NumCols() && m.NumRows() > 1 && m.Stride() != m.NumCols();
}

MatrixView BlockView::MakeView(const MatrixView &m, const Matrix &temp,
                               bool use_temp, int32_t block) {
  NNET3_ASSERT(block > 0 && m.NumCols() % block == 0);
  if (block == m.NumCols()) return m;
  const MatrixView &src = use_temp ? static_cast<const MatrixView &>(temp) : m;
  int32_t rows = m.NumRows() * (m.NumCols() / block);
  return MatrixView(src.device(), src.Data(), rows, block, block);
}

BlockView::BlockView(const MatrixView &m, int32_t block, bool copy_in)
    : orig_(m),
      use_temp_(NeedsTemp(m, block)),
      temp_(use_temp_
                ? Matrix(m.NumRows(), m.NumCols(), ResizeType::kUndefined,
                         MatrixStrideType::kStrideEqualNumCols, m.device())
                : Matrix(m.device())),
      view_(MakeView(m, temp_, use_temp_, block)) {
  if (use_temp_ && copy_in) temp_.CopyFromMat(m);
}

void BlockView::WriteBack() {
  if (use_temp_) orig_.CopyFromMat(temp_);
}

void AddRowDotProducts(float alpha, const MatrixView &a, const MatrixView &b,
                       float beta, VectorView *v) {
  Matrix prod(a.NumRows(), a.NumCols(), ResizeType::kUndefined,
              MatrixStrideType::kDefaultStride, a.device());
  prod.AddMatMatElements(1.0f, a, b, 0.0f);
  v->AddColSumMat(alpha, prod, beta);
}

void AddColDotProducts(float alpha, const MatrixView &a, const MatrixView &b,
                       float beta, VectorView *v) {
  Matrix prod(a.NumRows(), a.NumCols(), ResizeType::kUndefined,
              MatrixStrideType::kDefaultStride, a.device());
  prod.AddMatMatElements(1.0f, a, b, 0.0f);
  v->AddRowSumMat(alpha, prod, beta);
}

void ResizeIfNeeded(int32_t dim, Vector *v) {
  if (v->Dim() != dim) v->Resize(dim);
}

}  // namespace nnet3
