#include "lat/minimize-lattice.h"

#include <fst/connect.h>
#include <fst/topsort.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

namespace {

using StateId = CompactLatticeArc::StateId;

uint64_t Mix(uint64_t h) {
  h ^= h >> 31;
  h *= 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

uint64_t StringHash(const std::vector<int32_t> &s) {
  uint64_t h = 0x2545F4914F6CDD1Dull + s.size();
  for (int32_t label : s) h = Mix(h + static_cast<uint32_t>(label));
  return h;
}

class LatticeMinimizer {
 public:
  LatticeMinimizer(fst::MutableFst<CompactLatticeArc> *clat, float delta)
      : clat_(clat), delta_(delta) {}

  void Minimize() {
    ComputeHashes();
    ComputeStateMap();
    Apply();
  }

 private:
  // A hash that equivalent states share: it depends on the final string,
  // and, summed over the arcs (so independent of their order), on each
  // arc's label, string and destination's hash. Weights are left out: they
  // need only be approximately equal.
  void ComputeHashes() {
    const StateId num_states = clat_->NumStates();
    hashes_.assign(num_states, 0);
    for (StateId s = num_states - 1; s >= 0; s--) {
      const CompactLatticeWeight final_weight = clat_->Final(s);
      uint64_t h = final_weight == CompactLatticeWeight::Zero()
                       ? 0x51ED270B27A3Bull
                       : Mix(StringHash(final_weight.String()) + 1);
      for (fst::ArcIterator<fst::MutableFst<CompactLatticeArc>> aiter(*clat_,
                                                                      s);
           !aiter.Done(); aiter.Next()) {
        const CompactLatticeArc &arc = aiter.Value();
        NNET3_ASSERT(arc.nextstate >= s && "lattice not topologically sorted");
        const uint64_t next = arc.nextstate == s ? 1 : hashes_[arc.nextstate];
        if (arc.nextstate == s)
          NNET3_WARN << "Minimizing lattice with self-loops "
                        "(lattices should not have self-loops)";
        h += Mix(Mix(static_cast<uint32_t>(arc.ilabel) + 7) ^
                 Mix(StringHash(arc.weight.String()) + next));
      }
      hashes_[s] = h;
    }
  }

  // The arcs of `state` with destinations mapped to their classes (self-
  // loops left out), sorted on label then destination.
  void MappedArcs(StateId state, std::vector<CompactLatticeArc> *arcs) const {
    arcs->clear();
    for (fst::ArcIterator<fst::MutableFst<CompactLatticeArc>> aiter(*clat_,
                                                                    state);
         !aiter.Done(); aiter.Next()) {
      CompactLatticeArc arc = aiter.Value();
      if (arc.nextstate == state) continue;
      arc.nextstate = state_map_[arc.nextstate];
      arcs->push_back(arc);
    }
    std::sort(arcs->begin(), arcs->end(),
              [](const CompactLatticeArc &a, const CompactLatticeArc &b) {
                if (a.ilabel != b.ilabel) return a.ilabel < b.ilabel;
                return a.nextstate < b.nextstate;
              });
  }

  // Whether s and t have the same future, given that the later states are
  // already merged into classes.
  bool Equivalent(StateId s, StateId t) {
    if (!ApproxEqual(clat_->Final(s), clat_->Final(t), delta_)) return false;
    if (clat_->NumArcs(s) != clat_->NumArcs(t)) return false;
    MappedArcs(s, &s_arcs_);
    MappedArcs(t, &t_arcs_);
    if (s_arcs_.size() != t_arcs_.size()) return false;
    for (size_t i = 0; i < s_arcs_.size(); i++) {
      const CompactLatticeArc &a = s_arcs_[i], &b = t_arcs_[i];
      if (a.nextstate != b.nextstate || a.ilabel != b.ilabel ||
          !ApproxEqual(a.weight, b.weight))
        return false;
    }
    return true;
  }

  void ComputeStateMap() {
    const StateId num_states = clat_->NumStates();
    // States grouped by hash, each group in increasing order.
    std::vector<std::pair<uint64_t, StateId>> by_hash(num_states);
    for (StateId s = 0; s < num_states; s++) by_hash[s] = {hashes_[s], s};
    std::sort(by_hash.begin(), by_hash.end());
    std::vector<size_t> position(num_states);
    size_t largest_group = 0;
    for (size_t i = 0, group_start = 0; i < by_hash.size(); i++) {
      position[by_hash[i].second] = i;
      if (i > 0 && by_hash[i].first != by_hash[i - 1].first) group_start = i;
      largest_group = std::max(largest_group, i + 1 - group_start);
    }
    if (largest_group > 1000)
      NNET3_WARN << "Largest equivalence group (using hash) is "
                 << largest_group << ", minimization might be slow.";
    state_map_.resize(num_states);
    for (StateId s = 0; s < num_states; s++) state_map_[s] = s;
    for (StateId s = num_states - 1; s >= 0; s--) {
      // The later members of s's group follow it in by_hash.
      for (size_t i = position[s] + 1;
           i < by_hash.size() && by_hash[i].first == hashes_[s]; i++) {
        const StateId t = by_hash[i].second;
        if (state_map_[t] == t && Equivalent(s, t)) {
          state_map_[s] = t;
          break;
        }
      }
    }
  }

  void Apply() {
    const StateId num_states = clat_->NumStates();
    StateId num_removed = 0;
    for (StateId s = 0; s < num_states; s++)
      if (state_map_[s] != s) num_removed++;
    NNET3_VLOG(3) << "Removing " << num_removed << " of " << num_states
                  << " states.";
    if (num_removed == 0) return;
    clat_->SetStart(state_map_[clat_->Start()]);
    for (StateId s = 0; s < num_states; s++) {
      if (state_map_[s] != s) continue;
      for (fst::MutableArcIterator<fst::MutableFst<CompactLatticeArc>> aiter(
               clat_, s);
           !aiter.Done(); aiter.Next()) {
        CompactLatticeArc arc = aiter.Value();
        if (state_map_[arc.nextstate] == arc.nextstate) continue;
        arc.nextstate = state_map_[arc.nextstate];
        aiter.SetValue(arc);
      }
    }
    fst::Connect(clat_);
  }

  fst::MutableFst<CompactLatticeArc> *clat_;
  float delta_;
  std::vector<uint64_t> hashes_;
  std::vector<StateId> state_map_;
  std::vector<CompactLatticeArc> s_arcs_, t_arcs_;
};

}  // namespace

bool MinimizeCompactLattice(fst::MutableFst<CompactLatticeArc> *clat,
                            float delta) {
  if (!clat->Properties(fst::kTopSorted, true) && !fst::TopSort(clat)) {
    NNET3_WARN << "Topological sorting of state-level lattice failed "
                  "(probably your lexicon has empty words or your LM has "
                  "epsilon cycles; this  is a bad idea.)";
    return false;
  }
  LatticeMinimizer(clat, delta).Minimize();
  return true;
}

}  // namespace nnet3
