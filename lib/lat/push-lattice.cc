#include "lat/push-lattice.h"

#include <fst/topsort.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

namespace {

using StateId = CompactLatticeArc::StateId;
using Label = int32_t;

bool TopSortForPushing(fst::MutableFst<CompactLatticeArc> *clat) {
  if (clat->Properties(fst::kTopSorted, true) || fst::TopSort(clat))
    return true;
  NNET3_WARN << "Topological sorting of state-level lattice failed "
                "(probably your lexicon has empty words or your LM has "
                "epsilon cycles; this  is a bad idea.)";
  return false;
}

// Pushes transition-ids towards the start (see the header).
class StringPusher {
 public:
  explicit StringPusher(fst::MutableFst<CompactLatticeArc> *clat)
      : clat_(clat) {}

  void Push() {
    ComputeShifts();
    ApplyShifts();
  }

 private:
  // Writes into out[0..n) the first n labels of the strings met going
  // from `state` through arc `arc_index` (-1: the final weight if the
  // state is final, else its first arc) and then along first arcs.
  void GetString(StateId state, int arc_index, Label *out, size_t n) const {
    while (n > 0) {
      const CompactLatticeWeight final_weight = clat_->Final(state);
      if (arc_index < 0 && final_weight != CompactLatticeWeight::Zero()) {
        const std::vector<Label> &s = final_weight.String();
        NNET3_ASSERT(s.size() >= n &&
                     "lattice paths have inconsistent lengths");
        std::copy(s.begin(), s.begin() + n, out);
        return;
      }
      fst::ArcIterator<fst::Fst<CompactLatticeArc>> aiter(*clat_, state);
      aiter.Seek(arc_index < 0 ? 0 : arc_index);
      NNET3_ASSERT(!aiter.Done() && "lattice paths have inconsistent lengths");
      const CompactLatticeArc &arc = aiter.Value();
      const std::vector<Label> &s = arc.weight.String();
      const size_t k = std::min(n, s.size());
      std::copy(s.begin(), s.begin() + k, out);
      out += k;
      n -= k;
      state = arc.nextstate;
      arc_index = -1;
    }
  }

  // Lowers *shift to the longest prefix on which all ways out of the state
  // (final weight and arcs) agree.
  void LimitShiftToAgreement(StateId state, int32_t *shift) {
    const bool is_final = clat_->Final(state) != CompactLatticeWeight::Zero();
    const int num_arcs = static_cast<int>(clat_->NumArcs(state));
    if (num_arcs + (is_final ? 1 : 0) <= 1 || *shift == 0) return;
    first_.resize(*shift);
    other_.resize(*shift);
    // The final weight (if any) or the first arc is the reference.
    GetString(state, is_final ? -1 : 0, first_.data(), first_.size());
    for (int arc = is_final ? 0 : 1; arc < num_arcs; arc++) {
      GetString(state, arc, other_.data(), first_.size());
      const size_t agree =
          std::mismatch(first_.begin(), first_.end(), other_.begin()).first -
          first_.begin();
      first_.resize(agree);
    }
    *shift = static_cast<int32_t>(first_.size());
  }

  // shift_[s]: how many labels state s gives up to the arcs into it; the
  // start state gives up none.
  void ComputeShifts() {
    const StateId num_states = clat_->NumStates();
    shift_.assign(num_states, 0);
    for (StateId s = num_states - 1; s > clat_->Start(); s--) {
      const CompactLatticeWeight final_weight = clat_->Final(s);
      if (clat_->NumArcs(s) == 0) {
        shift_[s] = static_cast<int32_t>(final_weight.String().size());
        continue;
      }
      int32_t shift = std::numeric_limits<int32_t>::max();
      if (final_weight != CompactLatticeWeight::Zero())
        shift = static_cast<int32_t>(final_weight.String().size());
      for (fst::ArcIterator<fst::Fst<CompactLatticeArc>> aiter(*clat_, s);
           !aiter.Done(); aiter.Next()) {
        const CompactLatticeArc &arc = aiter.Value();
        shift = std::min(shift,
                         shift_[arc.nextstate] +
                             static_cast<int32_t>(arc.weight.String().size()));
      }
      LimitShiftToAgreement(s, &shift);
      shift_[s] = shift;
    }
  }

  // Each arc's string: its own plus what its destination gives up, less
  // what its source gives up. States are rewritten in increasing order, so
  // the later states read are still unchanged.
  void ApplyShifts() {
    const StateId num_states = clat_->NumStates();
    std::vector<Label> s;
    for (StateId state = 0; state < num_states; state++) {
      const size_t shift = shift_[state];
      for (fst::MutableArcIterator<fst::MutableFst<CompactLatticeArc>> aiter(
               clat_, state);
           !aiter.Done(); aiter.Next()) {
        CompactLatticeArc arc = aiter.Value();
        NNET3_ASSERT(arc.nextstate > state && "cyclic lattice");
        s = arc.weight.String();
        const size_t own = s.size();
        s.resize(own + shift_[arc.nextstate]);
        GetString(arc.nextstate, -1, s.data() + own, s.size() - own);
        arc.weight.SetString(std::vector<Label>(s.begin() + shift, s.end()));
        aiter.SetValue(arc);
      }
      CompactLatticeWeight final_weight = clat_->Final(state);
      if (final_weight != CompactLatticeWeight::Zero()) {
        const std::vector<Label> &f = final_weight.String();
        final_weight.SetString(std::vector<Label>(f.begin() + shift, f.end()));
        clat_->SetFinal(state, final_weight);
      }
    }
  }

  fst::MutableFst<CompactLatticeArc> *clat_;
  std::vector<int32_t> shift_;
  std::vector<Label> first_, other_;
};

}  // namespace

bool PushCompactLatticeStrings(fst::MutableFst<CompactLatticeArc> *clat) {
  if (!TopSortForPushing(clat)) return false;
  StringPusher(clat).Push();
  return true;
}

bool PushCompactLatticeWeights(fst::MutableFst<CompactLatticeArc> *clat) {
  if (!TopSortForPushing(clat)) return false;
  const StateId num_states = clat->NumStates();
  if (num_states == 0) {
    NNET3_WARN << "Pushing weights of empty compact lattice";
    return true;
  }
  // The best weight from each state to the end.
  std::vector<LatticeWeight> to_end(num_states);
  for (StateId s = num_states - 1; s >= 0; s--) {
    LatticeWeight w = clat->Final(s).Weight();
    for (fst::ArcIterator<fst::MutableFst<CompactLatticeArc>> aiter(*clat, s);
         !aiter.Done(); aiter.Next()) {
      const CompactLatticeArc &arc = aiter.Value();
      NNET3_ASSERT(arc.nextstate > s && "cyclic lattice");
      w = Plus(w, Times(arc.weight.Weight(), to_end[arc.nextstate]));
    }
    if (w == LatticeWeight::Zero())
      NNET3_WARN << "Lattice has non-coaccessible states.";
    to_end[s] = w;
  }
  // The start state keeps the total (state 0 is the start once sorted).
  to_end[0] = LatticeWeight::One();
  for (StateId s = 0; s < num_states; s++) {
    const LatticeWeight here = to_end[s];
    if (here == LatticeWeight::Zero()) continue;
    for (fst::MutableArcIterator<fst::MutableFst<CompactLatticeArc>> aiter(clat,
                                                                           s);
         !aiter.Done(); aiter.Next()) {
      CompactLatticeArc arc = aiter.Value();
      const LatticeWeight next = to_end[arc.nextstate];
      if (next == LatticeWeight::Zero()) continue;
      arc.weight.SetWeight(Times(arc.weight.Weight(), Divide(next, here)));
      aiter.SetValue(arc);
    }
    CompactLatticeWeight final_weight = clat->Final(s);
    if (final_weight != CompactLatticeWeight::Zero()) {
      final_weight.SetWeight(Divide(final_weight.Weight(), here));
      clat->SetFinal(s, final_weight);
    }
  }
  return true;
}

}  // namespace nnet3
