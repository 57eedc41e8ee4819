// Kaldi's RemoveEpsLocal: removes those epsilon arcs of an FST that can be
// merged with a neighbouring arc by looking one state ahead, never adding
// states or arcs in total. The FST stays equivalent; with
// RemoveEpsLocalSpecial, an FST stochastic in the log semiring stays so.
//
//   RemoveEpsLocal(&hmm_fsa);         // the H transducer's per-phone FSAs
//   RemoveEpsLocalSpecial(&hclga);    // fstrmepslocal's default
//
// Every arc s -> t that is not a self-loop is visited in state order and arc
// order (arcs added to s meanwhile included):
//  - when t has one arc in (the start state counts as one) and more than
//    one way out (its arcs, and being final): each way out of t that can be
//    joined with the arc (at most one of the two input labels non-epsilon,
//    and likewise the output labels) moves to s as the joined arc; if t
//    keeps some ways out, the arc is multiplied by kept/(kept+moved) and
//    t's remaining weights divided by that, else the arc is dropped;
//  - when t has exactly one way out: it is joined with the arc, which is
//    dropped (and t's way out too when the arc was t's only way in).
// Dropped arcs are pointed at an added dead state; Connect() removes it and
// every state left unreachable.
#ifndef NNET3_FSTEXT_REMOVE_EPS_LOCAL_H_
#define NNET3_FSTEXT_REMOVE_EPS_LOCAL_H_

#include <fst/arc.h>
#include <fst/mutable-fst.h>

namespace nnet3 {

// Defined for fst::StdArc and fst::LogArc (the semiring's own Plus).
template <class Arc>
void RemoveEpsLocal(fst::MutableFst<Arc> *fst);

// Tropical weights, but the totals of the reweighting are added in the log
// semiring, so that stochasticity in the log semiring is preserved.
void RemoveEpsLocalSpecial(fst::MutableFst<fst::StdArc> *fst);

}  // namespace nnet3

#endif  // NNET3_FSTEXT_REMOVE_EPS_LOCAL_H_
