#include "nnet/attention.h"

#include "base/error.h"

namespace nnet3 {
namespace attention {
namespace {

// The row shift between successive context positions.
int32_t RowShift(int32_t num_in_rows, int32_t num_out_rows,
                 int32_t context_dim) {
  const int32_t extra = num_in_rows - num_out_rows;
  NNET3_ASSERT(context_dim > 1 && extra > 0 && extra % (context_dim - 1) == 0);
  return extra / (context_dim - 1);
}

}  // namespace

void GetAttentionDotProducts(float alpha, const MatrixView &A,
                             const MatrixView &B, MatrixView *C) {
  NNET3_ASSERT(A.NumCols() == B.NumCols() && A.NumRows() == C->NumRows());
  const int32_t rows = A.NumRows(), context_dim = C->NumCols();
  const int32_t shift = RowShift(B.NumRows(), rows, context_dim);
  // Row o of Cᵀ is contiguous: one row-diagonal product per position.
  Matrix c_trans(context_dim, rows, ResizeType::kUndefined,
                 MatrixStrideType::kDefaultStride, A.device());
  for (int32_t o = 0; o < context_dim; o++) {
    VectorView c_col = c_trans.Row(o);
    c_col.AddDiagMatMat(alpha, A, B.RowRange(o * shift, rows), 0.0f);
  }
  C->CopyFromMat(c_trans, Trans::kYes);
}

void ApplyScalesToOutput(float alpha, const MatrixView &B, const MatrixView &C,
                         MatrixView *A) {
  NNET3_ASSERT(A->NumCols() == B.NumCols() && A->NumRows() == C.NumRows());
  const int32_t rows = A->NumRows(), context_dim = C.NumCols();
  const int32_t shift = RowShift(B.NumRows(), rows, context_dim);
  const Matrix c_trans(C, Trans::kYes);
  for (int32_t o = 0; o < context_dim; o++)
    A->AddDiagVecMat(alpha, c_trans.Row(o), B.RowRange(o * shift, rows),
                     Trans::kNo, 1.0f);
}

void ApplyScalesToInput(float alpha, const MatrixView &A, const MatrixView &C,
                        MatrixView *B) {
  NNET3_ASSERT(A.NumCols() == B->NumCols() && A.NumRows() == C.NumRows());
  const int32_t rows = A.NumRows(), context_dim = C.NumCols();
  const int32_t shift = RowShift(B->NumRows(), rows, context_dim);
  const Matrix c_trans(C, Trans::kYes);
  for (int32_t o = 0; o < context_dim; o++) {
    MatrixView b_part = B->RowRange(o * shift, rows);
    b_part.AddDiagVecMat(alpha, c_trans.Row(o), A, Trans::kNo, 1.0f);
  }
}

void AttentionForward(float key_scale, const MatrixView &keys,
                      const MatrixView &queries, const MatrixView &values,
                      MatrixView *c, MatrixView *output) {
  const int32_t key_dim = keys.NumCols(), out_rows = queries.NumRows(),
                context_dim = queries.NumCols() - key_dim,
                value_dim = values.NumCols();
  NNET3_ASSERT(key_scale > 0.0f && values.NumRows() == keys.NumRows() &&
               c->NumRows() == out_rows && c->NumCols() == context_dim &&
               output->NumRows() == out_rows &&
               (output->NumCols() == value_dim ||
                output->NumCols() == value_dim + context_dim));
  GetAttentionDotProducts(key_scale, queries.ColRange(0, key_dim), keys, c);
  // The query's context part acts as a position-dependent bias.
  c->AddMat(1.0f, queries.ColRange(key_dim, context_dim));
  c->SoftmaxRows(*c);
  MatrixView output_values = output->ColRange(0, value_dim);
  ApplyScalesToOutput(1.0f, values, *c, &output_values);
  if (output->NumCols() == value_dim + context_dim) {
    // Added, like the values part (kPropagateAdds; Kaldi copies, which is
    // the same on the zeroed output the compiler provides).
    MatrixView output_context = output->ColRange(value_dim, context_dim);
    output_context.AddMat(1.0f, *c);
  }
}

void AttentionBackward(float key_scale, const MatrixView &keys,
                       const MatrixView &queries, const MatrixView &values,
                       const MatrixView &c, const MatrixView &output_deriv,
                       MatrixView *keys_deriv, MatrixView *queries_deriv,
                       MatrixView *values_deriv) {
  const int32_t key_dim = keys.NumCols(), out_rows = queries.NumRows(),
                context_dim = queries.NumCols() - key_dim,
                value_dim = values.NumCols();
  NNET3_ASSERT(key_scale > 0.0f && keys.SameShape(*keys_deriv) &&
               queries.SameShape(*queries_deriv) &&
               values.SameShape(*values_deriv) && c.NumRows() == out_rows &&
               c.NumCols() == context_dim &&
               output_deriv.NumRows() == out_rows);
  Matrix c_deriv(out_rows, context_dim, ResizeType::kUndefined,
                 MatrixStrideType::kDefaultStride, c.device());
  const MatrixView output_values_deriv = output_deriv.ColRange(0, value_dim);
  GetAttentionDotProducts(1.0f, output_values_deriv, values, &c_deriv);
  if (output_deriv.NumCols() == value_dim + context_dim)
    c_deriv.AddMat(1.0f, output_deriv.ColRange(value_dim, context_dim));
  // Through the softmax (in place): now the derivative w.r.t. b.
  c_deriv.DiffSoftmax(c, c_deriv);
  MatrixView queries_context_deriv =
      queries_deriv->ColRange(key_dim, context_dim);
  queries_context_deriv.AddMat(1.0f, c_deriv);
  MatrixView queries_key_deriv = queries_deriv->ColRange(0, key_dim);
  ApplyScalesToOutput(key_scale, keys, c_deriv, &queries_key_deriv);
  ApplyScalesToInput(key_scale, queries.ColRange(0, key_dim), c_deriv,
                     keys_deriv);
  ApplyScalesToInput(1.0f, output_values_deriv, c, values_deriv);
}

}  // namespace attention
}  // namespace nnet3
