// Making every state's neighbouring input symbols fall in one class, by
// adding epsilon states (Kaldi's MakePrecedingInputSymbolsSameClass and
// MakeFollowingInputSymbolsSameClass). add-self-loops uses them, with
// transition-ids classed by transition state, so that each state of a graph
// needs at most one self-loop.
//
//   struct Classes { using Result = int32_t;
//                    int32_t operator()(int32_t label) const; };
//   MakePrecedingInputSymbolsSameClass(true, &fst, Classes());
//
// `f` maps a label to its class; f(fst::kNoLabel) must be a class no real
// label has ("no class yet"), and f(0) is the class of epsilon.
//
// Preceding: afterwards all arcs into a state have input labels of one
// class (the start state counting as an epsilon arc in when
// start_is_epsilon). Each arc with a non-epsilon input into a state whose
// arcs in disagree is sent instead to a new state, one per (state, class),
// that has a single epsilon arc on to the old one.
//
// Following: afterwards all arcs out of a state have input labels of one
// class (being final counting as an epsilon arc out when end_is_epsilon).
// In each state whose arcs disagree, every arc with a non-epsilon input
// label becomes an arc with epsilon input (same output and weight) to a
// new state, from which one arc with that input label (epsilon output, unit
// weight) goes on.
//
// New states are numbered after the old ones, in the order of the arcs
// changed; the FST stays equivalent.
#ifndef NNET3_FSTEXT_INPUT_SYMBOL_CLASSES_H_
#define NNET3_FSTEXT_INPUT_SYMBOL_CLASSES_H_

#include <fst/mutable-fst.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace nnet3 {

template <class Arc, class F>
void MakePrecedingInputSymbolsSameClass(bool start_is_epsilon,
                                        fst::MutableFst<Arc> *fst, const F &f) {
  using StateId = typename Arc::StateId;
  using Class = typename F::Result;
  const Class no_class = f(fst::kNoLabel);
  std::vector<Class> classes;  // the class into each state so far
  if (start_is_epsilon) {
    const StateId start = fst->Start();
    if (start == fst::kNoStateId) return;
    classes.resize(start + 1, no_class);
    classes[start] = f(0);
  }
  std::vector<bool> is_bad;
  bool any_bad = false;
  for (fst::StateIterator<fst::Fst<Arc>> siter(*fst); !siter.Done();
       siter.Next()) {
    for (fst::ArcIterator<fst::Fst<Arc>> it(*fst, siter.Value()); !it.Done();
         it.Next()) {
      const Arc &arc = it.Value();
      const size_t t = arc.nextstate;
      if (classes.size() <= t) classes.resize(t + 1, no_class);
      const Class c = f(arc.ilabel);
      if (classes[t] == no_class) {
        classes[t] = c;
      } else if (classes[t] != c) {
        if (is_bad.size() <= t) is_bad.resize(t + 1, false);
        is_bad[t] = any_bad = true;
      }
    }
  }
  if (!any_bad) return;
  // All the arcs to change, found before any state is added.
  std::vector<std::pair<StateId, size_t>> to_change;
  for (fst::StateIterator<fst::Fst<Arc>> siter(*fst); !siter.Done();
       siter.Next()) {
    for (fst::ArcIterator<fst::Fst<Arc>> it(*fst, siter.Value()); !it.Done();
         it.Next()) {
      const Arc &arc = it.Value();
      const size_t t = arc.nextstate;
      if (arc.ilabel != 0 && t < is_bad.size() && is_bad[t])
        to_change.emplace_back(siter.Value(), it.Position());
    }
  }
  std::map<std::pair<StateId, Class>, StateId> new_state_of;
  {
    // Room for the new states up front (large graphs: no doubling).
    std::set<std::pair<StateId, Class>> keys;
    for (const auto &change : to_change) {
      fst::ArcIterator<fst::Fst<Arc>> it(*fst, change.first);
      it.Seek(change.second);
      keys.emplace(it.Value().nextstate, f(it.Value().ilabel));
    }
    fst->ReserveStates(fst->NumStates() + keys.size());
  }
  for (const auto &change : to_change) {
    fst::MutableArcIterator<fst::MutableFst<Arc>> it(fst, change.first);
    it.Seek(change.second);
    Arc arc = it.Value();
    const std::pair<StateId, Class> key(arc.nextstate, f(arc.ilabel));
    auto found = new_state_of.find(key);
    if (found == new_state_of.end()) {
      const StateId added = fst->AddState();
      fst->AddArc(added, Arc(0, 0, Arc::Weight::One(), arc.nextstate));
      found = new_state_of.emplace(key, added).first;
    }
    arc.nextstate = found->second;
    // A fresh iterator: adding a state may have moved the old one's data.
    fst::MutableArcIterator<fst::MutableFst<Arc>> set_it(fst, change.first);
    set_it.Seek(change.second);
    set_it.SetValue(arc);
  }
}

template <class Arc, class F>
void MakeFollowingInputSymbolsSameClass(bool end_is_epsilon,
                                        fst::MutableFst<Arc> *fst, const F &f) {
  using StateId = typename Arc::StateId;
  using Class = typename F::Result;
  const Class no_class = f(fst::kNoLabel), eps_class = f(0);
  std::vector<StateId> bad_states;
  for (fst::StateIterator<fst::Fst<Arc>> siter(*fst); !siter.Done();
       siter.Next()) {
    const StateId s = siter.Value();
    Class c = no_class;
    bool bad = false;
    for (fst::ArcIterator<fst::Fst<Arc>> it(*fst, s); !it.Done(); it.Next()) {
      const Class this_class = f(it.Value().ilabel);
      if (c == no_class) {
        c = this_class;
      } else if (c != this_class) {
        bad = true;
        break;
      }
    }
    if (end_is_epsilon && c != no_class && c != eps_class &&
        fst->Final(s) != Arc::Weight::Zero())
      bad = true;
    if (bad) bad_states.push_back(s);
  }
  std::vector<Arc> arcs;
  StateId num_new = 0;
  for (StateId s : bad_states)
    for (fst::ArcIterator<fst::Fst<Arc>> it(*fst, s); !it.Done(); it.Next())
      num_new += it.Value().ilabel != 0;
  fst->ReserveStates(fst->NumStates() + num_new);
  for (StateId s : bad_states) {
    arcs.clear();
    for (fst::ArcIterator<fst::Fst<Arc>> it(*fst, s); !it.Done(); it.Next())
      arcs.push_back(it.Value());
    for (size_t j = 0; j < arcs.size(); j++) {
      const Arc &arc = arcs[j];
      if (arc.ilabel == 0) continue;
      const StateId added = fst->AddState();
      fst->AddArc(added, Arc(arc.ilabel, 0, Arc::Weight::One(), arc.nextstate));
      fst::MutableArcIterator<fst::MutableFst<Arc>> it(fst, s);
      it.Seek(j);
      it.SetValue(Arc(0, arc.olabel, arc.weight, added));
    }
  }
}

}  // namespace nnet3

#endif  // NNET3_FSTEXT_INPUT_SYMBOL_CLASSES_H_
