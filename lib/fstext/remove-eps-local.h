// Local epsilon removal (Kaldi's RemoveEpsLocal): removes some of an FST's
// epsilon arcs, never adding states or arcs in total, by merging an arc
// with the arcs after it where that is safe without looking further than
// one state ahead. The FST stays equivalent (in the tropical semiring, or
// in the log semiring for LogArc) and, with RemoveEpsLocalSpecial, an FST
// that was stochastic in the log semiring stays so.
//
//   fst::StdVectorFst g = ...;
//   RemoveEpsLocal(&g);           // arpa2fst's last step
//   RemoveEpsLocalSpecial(&hclga);  // fstrmepslocal's default
//
// Each arc s -> t (not a self-loop) is tried in state order, arcs in order
// (arcs appended meanwhile are tried too):
//  - if t has one arc in (and is not the start) and more than one way out
//    (arcs plus being final), every arc (and the final weight) of t that
//    can be joined to it (not both input labels and not both output labels
//    non-epsilon) is moved to s as the joined arc; if t keeps some, the arc
//    is scaled by kept/(kept+moved) and t's remaining weights divided by
//    that, else the arc goes;
//  - if t has exactly one way out, that one is joined to the arc (and t's
//    copy dropped when the arc was t's only way in).
// Dropped arcs are first pointed at a dead state; Connect() then removes
// them with every state that became unreachable.
#ifndef NNET3_FSTEXT_REMOVE_EPS_LOCAL_H_
#define NNET3_FSTEXT_REMOVE_EPS_LOCAL_H_

#include <fst/arc.h>
#include <fst/mutable-fst.h>

namespace nnet3 {

// Defined for fst::StdArc and fst::LogArc (the semiring's own Plus).
template <class Arc>
void RemoveEpsLocal(fst::MutableFst<Arc> *fst);

// Tropical weights, but the reweighting adds in the log semiring, so that
// stochasticity in the log semiring is preserved.
void RemoveEpsLocalSpecial(fst::MutableFst<fst::StdArc> *fst);

}  // namespace nnet3

#endif  // NNET3_FSTEXT_REMOVE_EPS_LOCAL_H_
