// The maths of restricted (local) self-attention, as Kaldi's attention.h
// defines it, on matrices whose rows are frames of a regular time grid
// (num_images rows per t, t slowest); used by RestrictedAttentionComponent.
//
// For one head with context_dim = C positions, the input has N_in rows and
// the output N_out = N_in - (C - 1) * shift rows, where shift (the rows per
// time step of the component's stride) = (N_in - N_out) / (C - 1). Output
// row i attends to input rows i + o * shift, o = 0 .. C-1:
//
//   b(i, o) = key_scale * q_key(i) . k(i + o shift) + q_context(i, o)
//   c(i, :) = softmax(b(i, :))
//   y(i)    = sum_o c(i, o) v(i + o shift)   [then c(i, :) if the output
//                                              has C more columns]
//
// where the query row q(i) = [q_key(i) | q_context(i)] (key-dim + C
// columns) belongs to output row i, and k, v are the input's key and value
// rows. Missing (padding) input rows are zero, so they still take part in
// the softmax through q_context. Everything is done with the Backend's
// row-diagonal products, one call per context position.
//
//   attention::AttentionForward(key_scale, keys, queries, values, &c, &out);
//   attention::AttentionBackward(key_scale, keys, queries, values, c,
//                                out_deriv, &keys_deriv, &queries_deriv,
//                                &values_deriv);      // all three added to
#ifndef NNET3_NNET_ATTENTION_H_
#define NNET3_NNET_ATTENTION_H_

#include "matrix/matrix.h"

namespace nnet3 {
namespace attention {

// C(i, o) = alpha * A.row(i) . B.row(i + o * shift) (C is overwritten);
// shift = (B.rows - A.rows) / (C.cols - 1).
void GetAttentionDotProducts(float alpha, const MatrixView &A,
                             const MatrixView &B, MatrixView *C);
// A.row(i) += alpha * sum_o C(i, o) B.row(i + o * shift).
void ApplyScalesToOutput(float alpha, const MatrixView &B, const MatrixView &C,
                         MatrixView *A);
// B.row(i + o * shift) += alpha * C(i, o) A.row(i), for all i, o.
void ApplyScalesToInput(float alpha, const MatrixView &A, const MatrixView &C,
                        MatrixView *B);

// The forward pass above: c (N_out x C) gets the softmax weights; `output`
// (values part, and context part if present) is added to. queries has
// N_out rows and key-dim + C columns.
void AttentionForward(float key_scale, const MatrixView &keys,
                      const MatrixView &queries, const MatrixView &values,
                      MatrixView *c, MatrixView *output);
// Its derivatives, added to keys_deriv, queries_deriv and values_deriv:
//   ∂f/∂c(i, o) = out_deriv_v(i) . v(i + o shift) [+ out_deriv_c(i, o)]
//   ∂f/∂b = softmax backprop of ∂f/∂c through c
//   ∂f/∂q_context = ∂f/∂b;  ∂f/∂q_key(i) = key_scale Σ_o ∂f/∂b(i,o) k(i+o s)
//   ∂f/∂k(i + o s) += key_scale ∂f/∂b(i, o) q_key(i)
//   ∂f/∂v(i + o s) += c(i, o) out_deriv_v(i)
void AttentionBackward(float key_scale, const MatrixView &keys,
                       const MatrixView &queries, const MatrixView &values,
                       const MatrixView &c, const MatrixView &output_deriv,
                       MatrixView *keys_deriv, MatrixView *queries_deriv,
                       MatrixView *values_deriv);

}  // namespace attention
}  // namespace nnet3

#endif  // NNET3_NNET_ATTENTION_H_
