// DeterminizeStar (Kaldi's determinization with epsilon removal, the
// "star"): makes an FST in which no state has two arcs with the same input
// label and, in the output's own form, no input epsilons except on the
// chains of arcs that spell out several output labels at once. Used on
// L o G and H o CLG in graph building (fstdeterminizestar).
//
//   fst::StdVectorFst det;
//   DeterminizeStar(lg, &det);                 // tropical semiring
//   DeterminizeStarInLog(&lg, fst::kDelta, -1);  // log semiring, in place
//
// The algorithm: subset construction where a determinized state is a set
// of (input state, leftover output string, leftover weight) triples, kept
// after following input-epsilon arcs (the epsilon closure, whose weights
// are propagated until they change by less than `delta`). Arcs with the
// same input label are grouped; their strings' common prefix and the sum of
// their weights go on the new arc and the rest stays in the next subset.
// Subsets whose weights agree within `delta` are the same state. States are
// numbered in the order they are found, processing the newest first (or
// breadth-first with allow_partial). A final weight or arc whose string has
// more than one label becomes a chain of new states, the weight on its
// first arc. The result is Kaldi's, state for state and arc for arc.
//
// Errors (UserError): the FST is not functional (two paths with the same
// input have different outputs; the message gives both strings where it
// can), hence not determinizable; more than `max_states` (> 0) states made
// (unless allow_partial, which stops there with a warning and returns true);
// an epsilon closure that loops more than max_states times.
#ifndef NNET3_FSTEXT_DETERMINIZE_STAR_H_
#define NNET3_FSTEXT_DETERMINIZE_STAR_H_

#include <fst/arc.h>
#include <fst/fst.h>
#include <fst/mutable-fst.h>
#include <fst/vector-fst.h>

namespace nnet3 {

// Defined for fst::StdArc and fst::LogArc. Returns true when allow_partial
// stopped it at max_states (the result is then partial), else false.
template <class Arc>
bool DeterminizeStar(const fst::Fst<Arc> &ifst, fst::MutableFst<Arc> *ofst,
                     float delta = fst::kDelta, int max_states = -1,
                     bool allow_partial = false);

// Sorts `fst` on input labels and determinizes it in the log semiring
// (tropical weights read as log weights), in place.
void DeterminizeStarInLog(fst::VectorFst<fst::StdArc> *fst,
                          float delta = fst::kDelta, int max_states = -1);

}  // namespace nnet3

#endif  // NNET3_FSTEXT_DETERMINIZE_STAR_H_
