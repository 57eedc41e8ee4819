// Whether an FST is stochastic: at every state the arc weights and the
// final weight sum to One (Kaldi's fstisstochastic; mkgraph.sh reports it
// for LG, CLG and HCLG, format_lm.sh for G).
//
//   float min_sum, max_sum;
//   bool ok = IsStochasticFstInLog(g, 0.01, &min_sum, &max_sum);
//
// The sums are taken in the log semiring (IsStochasticFstInLog: tropical
// weights read as -log probabilities, which is what a graph's weights
// are) or in the tropical semiring (IsStochasticFst). A state passes when
// its sum is within delta of One (cost 0). *min_sum and *max_sum receive
// the extreme per-state sums, as costs, with Kaldi's naming: for the
// tropical test min_sum is the smallest cost and max_sum the largest; for
// the log test they are swapped (min_sum the largest cost, i.e. the least
// probability mass). An FST without states gives 0 and 0.
#ifndef NNET3_FSTEXT_STOCHASTIC_H_
#define NNET3_FSTEXT_STOCHASTIC_H_

#include <fst/fst.h>

namespace nnet3 {

bool IsStochasticFstInLog(const fst::Fst<fst::StdArc> &fst, float delta,
                          float *min_sum, float *max_sum);

bool IsStochasticFst(const fst::Fst<fst::StdArc> &fst, float delta,
                     float *min_sum, float *max_sum);

}  // namespace nnet3

#endif  // NNET3_FSTEXT_STOCHASTIC_H_
