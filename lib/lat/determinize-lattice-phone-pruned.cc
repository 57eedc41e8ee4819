#include "lat/determinize-lattice-phone-pruned.h"

#include <fst/arcsort.h>
#include <fst/connect.h>
#include <fst/invert.h>
#include <fst/topsort.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "fstext/lattice-convert.h"
#include "lat/determinize-lattice-pruned.h"
#include "lat/minimize-lattice.h"
#include "lat/push-lattice.h"

namespace nnet3 {

namespace {

using StateId = LatticeArc::StateId;

int32_t HighestInputLabel(const fst::Fst<LatticeArc> &fst) {
  int32_t highest = 0;
  for (fst::StateIterator<fst::Fst<LatticeArc>> siter(fst); !siter.Done();
       siter.Next())
    for (fst::ArcIterator<fst::Fst<LatticeArc>> aiter(fst, siter.Value());
         !aiter.Done(); aiter.Next())
      highest = std::max(highest, aiter.Value().ilabel);
  return highest;
}

// The phone that starts at transition-id tid, or 0 if none does.
int32_t PhoneStartedBy(const TransitionModel &trans_model, int32_t tid) {
  if (tid == 0) return 0;
  if (tid < 0 || tid > trans_model.NumTransitionIds())
    NNET3_ERR << "The lattice has transition-id " << tid
              << ", but the model has " << trans_model.NumTransitionIds()
              << " (do the lattice and the model belong together?)";
  if (!trans_model.TransitionIdIsStartOfPhone(tid) ||
      trans_model.IsSelfLoop(tid))
    return 0;
  const int32_t phone = trans_model.TransitionIdToPhone(tid);
  NNET3_ASSERT(phone != 0);
  return phone;
}

}  // namespace

int32_t DeterminizeLatticeInsertPhones(const TransitionModel &trans_model,
                                       fst::MutableFst<LatticeArc> *fst) {
  const int32_t first_phone_label = HighestInputLabel(*fst) + 1;
  // Arcs that carry a word get the phone on a new arc after them, through
  // a new state.
  std::vector<std::pair<StateId, int32_t>> splits;  // (old nextstate, label)
  const StateId num_states = fst->NumStates();
  for (StateId s = 0; s < num_states; s++) {
    if (s == fst->Start()) continue;
    for (fst::MutableArcIterator<fst::MutableFst<LatticeArc>> aiter(fst, s);
         !aiter.Done(); aiter.Next()) {
      LatticeArc arc = aiter.Value();
      const int32_t phone = PhoneStartedBy(trans_model, arc.olabel);
      if (phone == 0) continue;
      if (arc.ilabel == 0) {
        arc.ilabel = first_phone_label + phone;
      } else {
        splits.emplace_back(arc.nextstate, first_phone_label + phone);
        arc.nextstate = num_states + static_cast<StateId>(splits.size()) - 1;
      }
      aiter.SetValue(arc);
    }
  }
  for (const auto &split : splits) {
    const StateId added = fst->AddState();
    fst->AddArc(added,
                LatticeArc(split.second, 0, LatticeWeight::One(), split.first));
  }
  return first_phone_label;
}

void DeterminizeLatticeDeletePhones(int32_t first_phone_label,
                                    fst::MutableFst<LatticeArc> *fst) {
  for (fst::StateIterator<fst::MutableFst<LatticeArc>> siter(*fst);
       !siter.Done(); siter.Next()) {
    for (fst::MutableArcIterator<fst::MutableFst<LatticeArc>> aiter(
             fst, siter.Value());
         !aiter.Done(); aiter.Next()) {
      LatticeArc arc = aiter.Value();
      if (arc.ilabel < first_phone_label) continue;
      arc.ilabel = 0;
      aiter.SetValue(arc);
    }
  }
}

bool DeterminizeLatticePhonePrunedFirstPass(
    const TransitionModel &trans_model, double beam,
    fst::MutableFst<LatticeArc> *fst,
    const DeterminizeLatticePrunedOptions &opts) {
  const int32_t first_phone_label =
      DeterminizeLatticeInsertPhones(trans_model, fst);
  fst::TopSort(fst);
  const bool complete = DeterminizeLatticePruned(*fst, beam, fst, opts);
  DeterminizeLatticeDeletePhones(first_phone_label, fst);
  fst::TopSort(fst);
  return complete;
}

bool DeterminizeLatticePhonePruned(
    const TransitionModel &trans_model, fst::MutableFst<LatticeArc> *ifst,
    double beam, fst::MutableFst<CompactLatticeArc> *ofst,
    const DeterminizeLatticePhonePrunedOptions &opts) {
  if (!opts.phone_determinize && !opts.word_determinize) {
    NNET3_WARN << "Both --phone-determinize and --word-determinize are set "
                  "to false, copying lattice without determinization.";
    ConvertLattice(*ifst, ofst, false);
    return true;
  }
  DeterminizeLatticePrunedOptions det_opts;
  det_opts.delta = opts.delta;
  det_opts.max_mem = opts.max_mem;
  bool complete = true;
  if (opts.phone_determinize) {
    NNET3_VLOG(3) << "Doing first pass of determinization on phone + word "
                     "lattices.";
    complete = DeterminizeLatticePhonePrunedFirstPass(trans_model, beam, ifst,
                                                      det_opts);
    if (!opts.word_determinize) {
      ConvertLattice(*ifst, ofst, false);
      return complete;
    }
  }
  NNET3_VLOG(3) << "Doing second pass of determinization on word lattices.";
  complete = DeterminizeLatticePruned(*ifst, beam, ofst, det_opts) && complete;
  if (opts.minimize) {
    NNET3_VLOG(3) << "Pushing and minimizing on word lattices.";
    complete = PushCompactLatticeStrings(ofst) && complete;
    complete = PushCompactLatticeWeights(ofst) && complete;
    complete = MinimizeCompactLattice(ofst) && complete;
  }
  return complete;
}

bool DeterminizeLatticePhonePruned(
    const TransitionModel &trans_model,
    const fst::ExpandedFst<LatticeArc> &ifst, double beam,
    fst::MutableFst<CompactLatticeArc> *ofst,
    const DeterminizeLatticePhonePrunedOptions &opts) {
  Lattice copy(ifst);
  return DeterminizeLatticePhonePruned(trans_model, &copy, beam, ofst, opts);
}

bool DeterminizeLatticePhonePrunedWrapper(
    const TransitionModel &trans_model, fst::MutableFst<LatticeArc> *ifst,
    double beam, fst::MutableFst<CompactLatticeArc> *ofst,
    const DeterminizeLatticePhonePrunedOptions &opts) {
  fst::Invert(ifst);
  if (!ifst->Properties(fst::kTopSorted, true) && !fst::TopSort(ifst))
    NNET3_ERR << "Topological sorting of state-level lattice failed "
                 "(probably your lexicon has empty words or your LM has "
                 "epsilon cycles).";
  fst::ArcSort(ifst, fst::ILabelCompare<LatticeArc>());
  const bool complete =
      DeterminizeLatticePhonePruned(trans_model, ifst, beam, ofst, opts);
  fst::Connect(ofst);
  return complete;
}

}  // namespace nnet3
