#include "fstext/remove-eps-local.h"

#include <fst/connect.h>

#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

// The semiring's own Plus.
template <class Weight>
struct SemiringPlus {
  Weight operator()(const Weight &a, const Weight &b) const {
    return fst::Plus(a, b);
  }
};

// Tropical weights added as log weights.
struct LogPlusOfTropical {
  fst::TropicalWeight operator()(const fst::TropicalWeight &a,
                                 const fst::TropicalWeight &b) const {
    return fst::TropicalWeight(
        fst::Plus(fst::LogWeight(a.Value()), fst::LogWeight(b.Value()))
            .Value());
  }
};

template <class Arc, class ReweightPlus>
class LocalEpsilonRemover {
 public:
  using StateId = typename Arc::StateId;
  using Weight = typename Arc::Weight;

  explicit LocalEpsilonRemover(fst::MutableFst<Arc> *fst) : fst_(fst) {}

  void Run() {
    if (fst_->Start() == fst::kNoStateId) return;
    dead_ = fst_->AddState();
    CountArcs();
    const StateId num_states = fst_->NumStates();
    for (StateId s = 0; s < num_states; ++s)
      for (size_t pos = 0; pos < fst_->NumArcs(s); ++pos) TryArc(s, pos);
    fst::Connect(fst_);
  }

 private:
  // ways_in_[s]: arcs into s, plus one for the start state; ways_out_[s]:
  // arcs out of s, plus one if s is final. Arcs to dead_ are not counted.
  void CountArcs() {
    const StateId n = fst_->NumStates();
    ways_in_.assign(n, 0);
    ways_out_.assign(n, 0);
    ++ways_in_[fst_->Start()];
    for (StateId s = 0; s < n; ++s) {
      if (fst_->Final(s) != Weight::Zero()) ++ways_out_[s];
      for (fst::ArcIterator<fst::MutableFst<Arc>> it(*fst_, s); !it.Done();
           it.Next()) {
        ++ways_in_[it.Value().nextstate];
        ++ways_out_[s];
      }
    }
  }

  // a followed by b as one arc, if at most one of them has a non-epsilon
  // label on each side.
  static bool Join(const Arc &a, const Arc &b, Arc *joined) {
    if (a.ilabel != 0 && b.ilabel != 0) return false;
    if (a.olabel != 0 && b.olabel != 0) return false;
    joined->ilabel = a.ilabel != 0 ? a.ilabel : b.ilabel;
    joined->olabel = a.olabel != 0 ? a.olabel : b.olabel;
    joined->weight = fst::Times(a.weight, b.weight);
    joined->nextstate = b.nextstate;
    return true;
  }

  // a followed by a final weight, if a has no labels.
  static bool JoinFinal(const Arc &a, const Weight &final, Weight *joined) {
    if (a.ilabel != 0 || a.olabel != 0) return false;
    *joined = fst::Times(a.weight, final);
    return true;
  }

  Arc ArcAt(StateId s, size_t pos) const {
    fst::ArcIterator<fst::MutableFst<Arc>> it(*fst_, s);
    it.Seek(pos);
    return it.Value();
  }

  void SetArcAt(StateId s, size_t pos, const Arc &arc) {
    fst::MutableArcIterator<fst::MutableFst<Arc>> it(fst_, s);
    it.Seek(pos);
    it.SetValue(arc);
  }

  // Adds `extra` to s's final weight (semiring Plus).
  void AddFinal(StateId s, const Weight &extra) {
    if (fst_->Final(s) == Weight::Zero()) ++ways_out_[s];
    fst_->SetFinal(s, fst::Plus(fst_->Final(s), extra));
  }

  void AddArc(StateId s, const Arc &arc) {
    ++ways_out_[s];
    ++ways_in_[arc.nextstate];
    fst_->AddArc(s, arc);
  }

  // Points the arc at (s, pos) at the dead state.
  void DropArc(StateId s, size_t pos, Arc arc) {
    --ways_out_[s];
    --ways_in_[arc.nextstate];
    arc.nextstate = dead_;
    SetArcAt(s, pos, arc);
  }

  void TryArc(StateId s, size_t pos) {
    const Arc arc = ArcAt(s, pos);
    const StateId t = arc.nextstate;
    if (t == dead_ || t == s) return;
    if (ways_in_[t] == 1 && ways_out_[t] > 1) {
      PullForward(s, pos, arc);
    } else if (ways_out_[t] == 1) {
      JoinWithOnlyWayOut(s, pos, arc);
    }
  }

  // t = arc.nextstate has one way in and several out: moves to s what can
  // be joined to the arc.
  void PullForward(StateId s, size_t pos, const Arc &arc) {
    const StateId t = arc.nextstate;
    Weight moved = Weight::Zero(), kept = Weight::Zero();
    std::vector<Arc> to_add;
    for (fst::MutableArcIterator<fst::MutableFst<Arc>> it(fst_, t); !it.Done();
         it.Next()) {
      Arc next = it.Value();
      if (next.nextstate == dead_) continue;
      Arc joined;
      if (Join(arc, next, &joined)) {
        moved = plus_(moved, next.weight);
        --ways_out_[t];
        --ways_in_[next.nextstate];
        next.nextstate = dead_;
        it.SetValue(next);
        to_add.push_back(joined);
      } else {
        kept = plus_(kept, next.weight);
      }
    }
    const Weight t_final = fst_->Final(t);
    if (t_final != Weight::Zero()) {
      Weight joined;
      if (JoinFinal(arc, t_final, &joined)) {
        moved = plus_(moved, t_final);
        AddFinal(s, joined);
        --ways_out_[t];
        fst_->SetFinal(t, Weight::Zero());
      } else {
        kept = plus_(kept, t_final);
      }
    }
    if (moved != Weight::Zero()) {
      if (kept == Weight::Zero()) {
        DropArc(s, pos, arc);
      } else {
        const Weight total = plus_(moved, kept);
        Rescale(s, pos, fst::Divide(kept, total, fst::DIVIDE_LEFT));
      }
    }
    for (const Arc &joined : to_add) AddArc(s, joined);
  }

  // Multiplies the arc at (s, pos) by `scale` and divides everything out of
  // its next state (which has no other way in) by it.
  void Rescale(StateId s, size_t pos, const Weight &scale) {
    fst::MutableArcIterator<fst::MutableFst<Arc>> it(fst_, s);
    it.Seek(pos);
    Arc arc = it.Value();
    arc.weight = fst::Times(arc.weight, scale);
    it.SetValue(arc);
    const StateId t = arc.nextstate;
    for (fst::MutableArcIterator<fst::MutableFst<Arc>> jt(fst_, t); !jt.Done();
         jt.Next()) {
      Arc next = jt.Value();
      if (next.nextstate == dead_) continue;
      next.weight = fst::Divide(next.weight, scale, fst::DIVIDE_LEFT);
      jt.SetValue(next);
    }
    const Weight t_final = fst_->Final(t);
    if (t_final != Weight::Zero())
      fst_->SetFinal(t, fst::Divide(t_final, scale, fst::DIVIDE_LEFT));
  }

  // t = arc.nextstate has exactly one way out: joins it to the arc.
  void JoinWithOnlyWayOut(StateId s, size_t pos, const Arc &arc) {
    const StateId t = arc.nextstate;
    const bool only_way_in = ways_in_[t] == 1;
    bool joined_arc = false;
    const Weight t_final = fst_->Final(t);
    if (t_final != Weight::Zero()) {
      Weight joined;
      if (JoinFinal(arc, t_final, &joined)) {
        AddFinal(s, joined);
        joined_arc = true;
        if (only_way_in) {
          --ways_out_[t];
          fst_->SetFinal(t, Weight::Zero());
        }
      }
    } else {
      fst::MutableArcIterator<fst::MutableFst<Arc>> it(fst_, t);
      while (!it.Done() && it.Value().nextstate == dead_) it.Next();
      NNET3_ASSERT(!it.Done());  // ways_out_[t] == 1 and t is not final
      Arc next = it.Value();
      Arc joined;
      if (Join(arc, next, &joined)) {
        joined_arc = true;
        if (only_way_in) {
          --ways_out_[t];
          --ways_in_[next.nextstate];
          next.nextstate = dead_;
          it.SetValue(next);
        }
        AddArc(s, joined);
      }
    }
    if (joined_arc) DropArc(s, pos, arc);
  }

  fst::MutableFst<Arc> *fst_;
  StateId dead_ = fst::kNoStateId;
  std::vector<StateId> ways_in_;
  std::vector<StateId> ways_out_;
  ReweightPlus plus_;
};

}  // namespace

template <class Arc>
void RemoveEpsLocal(fst::MutableFst<Arc> *fst) {
  LocalEpsilonRemover<Arc, SemiringPlus<typename Arc::Weight>>(fst).Run();
}

template void RemoveEpsLocal(fst::MutableFst<fst::StdArc> *fst);
template void RemoveEpsLocal(fst::MutableFst<fst::LogArc> *fst);

void RemoveEpsLocalSpecial(fst::MutableFst<fst::StdArc> *fst) {
  LocalEpsilonRemover<fst::StdArc, LogPlusOfTropical>(fst).Run();
}

}  // namespace nnet3
