#include "fstext/remove-eps-local.h"

#include <fst/connect.h>
#include <fst/float-weight.h>

#include <vector>

namespace nnet3 {

namespace {

template <class Weight>
struct SemiringPlus {
  Weight operator()(const Weight &a, const Weight &b) const {
    return fst::Plus(a, b);
  }
};

// Tropical weights added as log weights.
struct LogPlus {
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
    for (StateId s = 0; s < num_states; s++)
      for (size_t pos = 0; pos < fst_->NumArcs(s); pos++) Visit(s, pos);
    fst::Connect(fst_);
  }

 private:
  // Ways in (arcs, plus one for the start state) and out (arcs, plus one
  // for being final) of each state; dropped arcs are not counted.
  void CountArcs() {
    const StateId num_states = fst_->NumStates();
    ways_in_.assign(num_states, 0);
    ways_out_.assign(num_states, 0);
    ways_in_[fst_->Start()]++;
    for (StateId s = 0; s < num_states; s++) {
      if (fst_->Final(s) != Weight::Zero()) ways_out_[s]++;
      for (fst::ArcIterator<fst::MutableFst<Arc>> it(*fst_, s); !it.Done();
           it.Next()) {
        ways_in_[it.Value().nextstate]++;
        ways_out_[s]++;
      }
    }
  }

  static bool Join(const Arc &a, const Arc &b, Arc *joined) {
    if ((a.ilabel != 0 && b.ilabel != 0) || (a.olabel != 0 && b.olabel != 0))
      return false;
    joined->ilabel = a.ilabel != 0 ? a.ilabel : b.ilabel;
    joined->olabel = a.olabel != 0 ? a.olabel : b.olabel;
    joined->weight = fst::Times(a.weight, b.weight);
    joined->nextstate = b.nextstate;
    return true;
  }

  static bool JoinFinal(const Arc &a, const Weight &final_weight,
                        Weight *joined) {
    if (a.ilabel != 0 || a.olabel != 0) return false;
    *joined = fst::Times(a.weight, final_weight);
    return true;
  }

  Arc GetArc(StateId s, size_t pos) const {
    fst::ArcIterator<fst::MutableFst<Arc>> it(*fst_, s);
    it.Seek(pos);
    return it.Value();
  }

  void SetArc(StateId s, size_t pos, const Arc &arc) {
    fst::MutableArcIterator<fst::MutableFst<Arc>> it(fst_, s);
    it.Seek(pos);
    it.SetValue(arc);
  }

  // Arc `pos` of s ends here: it goes to the dead state.
  void DropArc(StateId s, size_t pos, Arc arc) {
    ways_out_[s]--;
    ways_in_[arc.nextstate]--;
    arc.nextstate = dead_;
    SetArc(s, pos, arc);
  }

  void AddFinal(StateId s, const Weight &weight) {
    if (fst_->Final(s) == Weight::Zero()) ways_out_[s]++;
    fst_->SetFinal(s, fst::Plus(fst_->Final(s), weight));
  }

  void AddJoinedArc(StateId s, const Arc &arc) {
    ways_out_[s]++;
    ways_in_[arc.nextstate]++;
    fst_->AddArc(s, arc);
  }

  void Visit(StateId s, size_t pos) {
    const Arc arc = GetArc(s, pos);
    const StateId t = arc.nextstate;
    if (t == dead_ || t == s) return;
    if (ways_in_[t] == 1 && ways_out_[t] > 1)
      MoveJoinableWays(s, pos, arc);
    else if (ways_out_[t] == 1)
      JoinSingleWay(s, pos, arc);
  }

  // t = arc.nextstate has one way in and several out.
  void MoveJoinableWays(StateId s, size_t pos, const Arc &arc) {
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
        ways_out_[t]--;
        ways_in_[next.nextstate]--;
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
        ways_out_[t]--;
        fst_->SetFinal(t, Weight::Zero());
      } else {
        kept = plus_(kept, t_final);
      }
    }
    if (moved != Weight::Zero()) {
      if (kept == Weight::Zero())
        DropArc(s, pos, arc);
      else
        Reweight(s, pos,
                 fst::Divide(kept, plus_(moved, kept), fst::DIVIDE_LEFT));
    }
    for (const Arc &a : to_add) AddJoinedArc(s, a);
  }

  // Multiplies arc `pos` of s by `factor` and divides every way out of its
  // destination (which has no other way in) by it.
  void Reweight(StateId s, size_t pos, const Weight &factor) {
    Arc arc = GetArc(s, pos);
    arc.weight = fst::Times(arc.weight, factor);
    SetArc(s, pos, arc);
    const StateId t = arc.nextstate;
    for (fst::MutableArcIterator<fst::MutableFst<Arc>> it(fst_, t); !it.Done();
         it.Next()) {
      Arc next = it.Value();
      if (next.nextstate == dead_) continue;
      next.weight = fst::Divide(next.weight, factor, fst::DIVIDE_LEFT);
      it.SetValue(next);
    }
    const Weight t_final = fst_->Final(t);
    if (t_final != Weight::Zero())
      fst_->SetFinal(t, fst::Divide(t_final, factor, fst::DIVIDE_LEFT));
  }

  // t = arc.nextstate has exactly one way out.
  void JoinSingleWay(StateId s, size_t pos, const Arc &arc) {
    const StateId t = arc.nextstate;
    const bool t_loses_it = ways_in_[t] == 1;
    bool joined_any = false;
    const Weight t_final = fst_->Final(t);
    if (t_final != Weight::Zero()) {
      Weight joined;
      if (JoinFinal(arc, t_final, &joined)) {
        AddFinal(s, joined);
        joined_any = true;
        if (t_loses_it) {
          ways_out_[t]--;
          fst_->SetFinal(t, Weight::Zero());
        }
      }
    } else {
      fst::MutableArcIterator<fst::MutableFst<Arc>> it(fst_, t);
      while (it.Value().nextstate == dead_) it.Next();
      Arc next = it.Value();
      Arc joined;
      if (Join(arc, next, &joined)) {
        joined_any = true;
        if (t_loses_it) {
          ways_out_[t]--;
          ways_in_[next.nextstate]--;
          next.nextstate = dead_;
          it.SetValue(next);
        }
        AddJoinedArc(s, joined);
      }
    }
    if (joined_any) DropArc(s, pos, arc);
  }

  fst::MutableFst<Arc> *fst_;
  StateId dead_ = fst::kNoStateId;
  std::vector<StateId> ways_in_, ways_out_;
  ReweightPlus plus_;
};

}  // namespace

template <class Arc>
void RemoveEpsLocal(fst::MutableFst<Arc> *fst) {
  LocalEpsilonRemover<Arc, SemiringPlus<typename Arc::Weight>>(fst).Run();
}

template void RemoveEpsLocal<fst::StdArc>(fst::MutableFst<fst::StdArc> *);
template void RemoveEpsLocal<fst::LogArc>(fst::MutableFst<fst::LogArc> *);

void RemoveEpsLocalSpecial(fst::MutableFst<fst::StdArc> *fst) {
  LocalEpsilonRemover<fst::StdArc, LogPlus>(fst).Run();
}

}  // namespace nnet3
