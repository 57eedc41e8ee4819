// Splitting an alignment (one transition-id per frame) into its phones
// (Kaldi's SplitToPhones, hmm-utils), what ali-to-phones, show-alignments
// and the word-alignment code build on.
//
//   CheckAlignment(trans_model, alignment, key);   // UserError if bad ids
//   std::vector<std::vector<int32_t>> phones;
//   bool plausible = SplitToPhones(trans_model, alignment, &phones);
//   int32_t phone = trans_model.TransitionIdToPhone(phones[0][0]);
//
// A phone ends at a transition-id that leaves its HMM (IsFinal); when the
// alignment is "reordered" (self-loops after the forward transition of
// their state, as Kaldi's --reorder=true graphs produce; told from the
// alignment itself) the self-loops that follow the final transition still
// belong to the phone. A phone change without a final transition, or an
// alignment that ends inside a phone, also ends a piece, and makes the
// result implausible (false), as does a piece that does not start in its
// phone's first HMM state when that state is emitting. The pieces always
// cover the whole alignment, in order.
#ifndef NNET3_HMM_SPLIT_TO_PHONES_H_
#define NNET3_HMM_SPLIT_TO_PHONES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "hmm/transition-model.h"

namespace nnet3 {

// UserError naming `key` and the frame unless every transition-id is in
// [1, NumTransitionIds()].
void CheckAlignment(const TransitionModel &trans_model,
                    const std::vector<int32_t> &alignment,
                    const std::string &key);

// The alignment's ids must be valid (CheckAlignment). UserError if a
// reordered alignment's self-loop follows a final transition of another
// state.
bool SplitToPhones(const TransitionModel &trans_model,
                   const std::vector<int32_t> &alignment,
                   std::vector<std::vector<int32_t>> *split);

}  // namespace nnet3

#endif  // NNET3_HMM_SPLIT_TO_PHONES_H_
