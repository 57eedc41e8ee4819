// Self-loops that carry disambiguation symbols through an FST (Kaldi's
// fstaddselfloops, used on the lexicon in prepare_lang.sh): every state that
// is final or has an arc with a non-epsilon output label gets, for each i,
// a loop arc in_labels[i]:out_labels[i] with weight One. In
// L_disambig.fst that lets the word-level disambiguation symbol #0 of G
// (out_labels) pass through L as its phone-level #0 (in_labels).
//
//   AddDisambigSelfLoops({phone_hash0}, {word_hash0}, &lexicon);
//
// The two lists have the same length, hold no 0 and no repeats, and none of
// their labels may already be on the FST's arcs (each is a UserError).
// Loops are appended to each state's arcs in state order.
#ifndef NNET3_FSTEXT_DISAMBIG_SELF_LOOPS_H_
#define NNET3_FSTEXT_DISAMBIG_SELF_LOOPS_H_

#include <fst/mutable-fst.h>

#include <cstdint>
#include <vector>

namespace nnet3 {

void AddDisambigSelfLoops(const std::vector<int32_t> &in_labels,
                          const std::vector<int32_t> &out_labels,
                          fst::MutableFst<fst::StdArc> *fst);

}  // namespace nnet3

#endif  // NNET3_FSTEXT_DISAMBIG_SELF_LOOPS_H_
