#include "hmm/split-to-phones.h"

#include "base/error.h"

namespace nnet3 {
namespace {

// Whether self-loops come after their state's forward transition: decided
// by the first pair of neighbours in different transition states of which
// one is a self-loop, or else by the ends of the alignment.
bool IsReordered(const TransitionModel &tm,
                 const std::vector<int32_t> &alignment) {
  for (size_t i = 0; i + 1 < alignment.size(); ++i) {
    if (tm.TransitionIdToTransitionState(alignment[i]) ==
        tm.TransitionIdToTransitionState(alignment[i + 1]))
      continue;
    const bool loop1 = tm.IsSelfLoop(alignment[i]),
               loop2 = tm.IsSelfLoop(alignment[i + 1]);
    if (loop1 && loop2)
      NNET3_ERR << "Two self-loops of different states follow each other at "
                << "frame " << i << " of an alignment";
    if (loop1) return true;
    if (loop2) return false;
  }
  if (alignment.empty()) return false;
  if (tm.IsSelfLoop(alignment.front())) return false;
  return tm.IsSelfLoop(alignment.back());
}

// One past the last frame of each piece; *ok false on an implausible end.
std::vector<size_t> PhoneEnds(const TransitionModel &tm,
                              const std::vector<int32_t> &alignment,
                              bool reordered, bool *ok) {
  std::vector<size_t> ends;
  for (size_t i = 0; i < alignment.size(); ++i) {
    if (tm.IsFinal(alignment[i])) {
      while (reordered && i + 1 < alignment.size() &&
             tm.IsSelfLoop(alignment[i + 1])) {
        if (tm.TransitionIdToTransitionState(alignment[i]) !=
            tm.TransitionIdToTransitionState(alignment[i + 1]))
          NNET3_ERR << "A self-loop of another state follows the final "
                    << "transition at frame " << i << " of an alignment";
        ++i;
      }
      ends.push_back(i + 1);
    } else if (i + 1 == alignment.size()) {
      *ok = false;  // ends inside a phone
      ends.push_back(i + 1);
    } else {
      const int32_t state = tm.TransitionIdToTransitionState(alignment[i]),
                    next = tm.TransitionIdToTransitionState(alignment[i + 1]);
      if (state != next &&
          tm.TransitionStateToPhone(state) != tm.TransitionStateToPhone(next)) {
        *ok = false;  // the phone changed without leaving its HMM
        ends.push_back(i + 1);
      }
    }
  }
  return ends;
}

}  // namespace

void CheckAlignment(const TransitionModel &trans_model,
                    const std::vector<int32_t> &alignment,
                    const std::string &key) {
  for (size_t i = 0; i < alignment.size(); ++i) {
    if (alignment[i] < 1 || alignment[i] > trans_model.NumTransitionIds())
      NNET3_ERR << "The alignment of " << key << " has transition-id "
                << alignment[i] << " at frame " << i
                << ", but the model's transition-ids are 1.."
                << trans_model.NumTransitionIds()
                << " (an alignment made with another model?)";
  }
}

bool SplitToPhones(const TransitionModel &trans_model,
                   const std::vector<int32_t> &alignment,
                   std::vector<std::vector<int32_t>> *split) {
  split->clear();
  bool ok = true;
  const std::vector<size_t> ends = PhoneEnds(
      trans_model, alignment, IsReordered(trans_model, alignment), &ok);
  size_t begin = 0;
  for (size_t end : ends) {
    const int32_t state =
        trans_model.TransitionIdToTransitionState(alignment[begin]);
    const int32_t phone = trans_model.TransitionStateToPhone(state);
    const HmmTopology::TopologyEntry &entry =
        trans_model.GetTopo().TopologyForPhone(phone);
    if (entry[0].forward_pdf_class != HmmTopology::kNoPdf &&
        trans_model.TransitionStateToHmmState(state) != 0)
      ok = false;  // does not start in the phone's first state
    split->emplace_back(alignment.begin() + begin, alignment.begin() + end);
    begin = end;
  }
  return ok;
}

}  // namespace nnet3
