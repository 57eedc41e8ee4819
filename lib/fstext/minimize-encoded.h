// MinimizeEncoded (Kaldi's fstminimizeencoded): minimization that moves
// neither weights nor labels. Weights are quantized to multiples of `delta`
// (so that nearly equal weights count as equal), each arc's input label,
// output label and weight are encoded as one label of an acceptor, the
// acceptor is minimized (OpenFst's acceptor minimization), and the labels
// and weights are decoded again. The result is equivalent to the input
// and, for graphs whose labels and weights already sit where mkgraph.sh's
// steps put them, as small as fst::Minimize's.
//
//   MinimizeEncoded(&lg);             // after DeterminizeStar
//
// The input should be deterministic as an encoded acceptor (determinized
// first); OpenFst's errors become a UserError.
#ifndef NNET3_FSTEXT_MINIMIZE_ENCODED_H_
#define NNET3_FSTEXT_MINIMIZE_ENCODED_H_

#include <fst/vector-fst.h>

namespace nnet3 {

// Defined for fst::StdArc and fst::LogArc.
template <class Arc>
void MinimizeEncoded(fst::VectorFst<Arc> *fst, float delta = fst::kDelta);

}  // namespace nnet3

#endif  // NNET3_FSTEXT_MINIMIZE_ENCODED_H_
