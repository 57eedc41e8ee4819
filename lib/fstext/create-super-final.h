// CreateSuperFinal (Kaldi's fstext function of that name): makes an FST
// have a single final state, with weight One and no arcs, by moving every
// final weight onto an epsilon arc into a new state. Algorithms that want
// one end (word alignment, MBR decoding) call it first.
//
//   StateId final_state = CreateSuperFinal(&clat);
//
// If the FST already has exactly one final state, with weight One and no
// arcs, nothing changes and that state is returned. Otherwise the new state
// is numbered last, so a topologically sorted FST stays sorted. The edits
// are made in Kaldi's order (new state, then per old final state: final
// weight cleared, arc added), so OpenFst's cached properties, which decide
// whether later steps re-sort, come out as in Kaldi.
#ifndef NNET3_FSTEXT_CREATE_SUPER_FINAL_H_
#define NNET3_FSTEXT_CREATE_SUPER_FINAL_H_

#include <fst/mutable-fst.h>

#include <vector>

namespace nnet3 {

template <class Arc>
typename Arc::StateId CreateSuperFinal(fst::MutableFst<Arc> *fst) {
  using StateId = typename Arc::StateId;
  using Weight = typename Arc::Weight;
  std::vector<StateId> finals;
  for (StateId s = 0; s < fst->NumStates(); ++s)
    if (fst->Final(s) != Weight::Zero()) finals.push_back(s);
  if (finals.size() == 1 && fst->Final(finals[0]) == Weight::One() &&
      fst->NumArcs(finals[0]) == 0)
    return finals[0];
  const StateId super_final = fst->AddState();
  fst->SetFinal(super_final, Weight::One());
  for (StateId s : finals) {
    const Weight weight = fst->Final(s);
    fst->SetFinal(s, Weight::Zero());
    fst->AddArc(s, Arc(0, 0, weight, super_final));
  }
  return super_final;
}

}  // namespace nnet3

#endif  // NNET3_FSTEXT_CREATE_SUPER_FINAL_H_
