// PushSpecial (Kaldi's fstpushspecial): reweights an FST so that every
// state's arcs and final weight sum (as probabilities) to the same amount,
// spreading any excess or deficit evenly over the graph instead of pushing
// it to the start, which an LM with back-off arcs cannot have anyway (its
// total weight need not be finite). Paths keep their weights up to one
// common factor... exactly: the weight of every complete path is unchanged
// (the potentials cancel along a path and at the final state).
//
//   PushSpecial(&lg, fst::kDelta);   // LG.fst's last step in mkgraph.sh
//
// Method (Hannemann and Povey, ICASSP 2013): with P the matrix of arc
// probabilities (final probabilities as arcs back to the start state), the
// power method on P + 0.1 I finds the top eigenvector v (unit length, start
// from a uniform vector) and eigenvalue lambda; checked every 5 iterations
// from the 5th, it stops when the state sums differ by at most `delta`
// (log of max/min), or after 200 iterations with a warning. Then every
// arc s -> t gets weight w - log v_t + log v_s, and every final weight
// w - log v_start + log v_s. Arithmetic is in double with float weights,
// in Kaldi's order, so the result is Kaldi's to the bit.
#ifndef NNET3_FSTEXT_PUSH_SPECIAL_H_
#define NNET3_FSTEXT_PUSH_SPECIAL_H_

#include <fst/vector-fst.h>

namespace nnet3 {

void PushSpecial(fst::VectorFst<fst::StdArc> *fst, float delta = fst::kDelta);

}  // namespace nnet3

#endif  // NNET3_FSTEXT_PUSH_SPECIAL_H_
