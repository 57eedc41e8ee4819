// Factor: collapses the chains of an FST into single arcs whose input label
// stands for the sequence of input labels along the chain (Kaldi's
// fst::Factor, the first step of turning a Lattice into a CompactLattice).
//
//   std::vector<std::vector<int32_t>> sequences;
//   fst::VectorFst<Arc> factored;
//   Factor(fst, &factored, &sequences);
//   // factored's arc with ilabel k stands for input labels sequences[k];
//   // sequences[0] is empty (epsilon).
//
// A state is collapsed into the arc that enters it when it has exactly one
// arc in and one arc out, is neither initial nor final, and its arc out
// has output label 0; weights along a chain are multiplied, the chain's
// output label is that of its first arc. Kept states are numbered in the
// order a depth-first search from the start first reaches them (OpenFst's
// DfsVisit, which then visits unreachable states), sequence ids in the order
// sequences first appear: the numbering Kaldi's Factor produces, so that
// converted lattices match Kaldi's state for state.
#ifndef NNET3_FSTEXT_FACTOR_H_
#define NNET3_FSTEXT_FACTOR_H_

#include <fst/dfs-visit.h>
#include <fst/mutable-fst.h>

#include <algorithm>
#include <map>
#include <vector>

namespace nnet3 {

// Records states in the order a depth-first search discovers them.
template <class Arc>
class DiscoveryOrderVisitor {
 public:
  using StateId = typename Arc::StateId;
  explicit DiscoveryOrderVisitor(std::vector<StateId> *order) : order_(order) {
    order_->clear();
  }
  void InitVisit(const fst::Fst<Arc> &) {}
  bool InitState(StateId s, StateId) {
    order_->push_back(s);
    return true;
  }
  bool TreeArc(StateId, const Arc &) { return true; }
  bool BackArc(StateId, const Arc &) { return true; }
  bool ForwardOrCrossArc(StateId, const Arc &) { return true; }
  void FinishState(StateId, StateId, const Arc *) {}
  void FinishVisit() {}

 private:
  std::vector<StateId> *order_;
};

// Which states Factor folds into the arc that enters them.
template <class Arc>
std::vector<bool> FactorableStates(const fst::Fst<Arc> &fst,
                                   typename Arc::StateId num_states) {
  using StateId = typename Arc::StateId;
  std::vector<int> arcs_in(num_states, 0), arcs_out(num_states, 0);
  std::vector<bool> olabel_out(num_states, false);
  for (StateId s = 0; s < num_states; ++s) {
    for (fst::ArcIterator<fst::Fst<Arc>> aiter(fst, s); !aiter.Done();
         aiter.Next()) {
      const Arc &arc = aiter.Value();
      ++arcs_out[s];
      ++arcs_in[arc.nextstate];
      if (arc.olabel != 0) olabel_out[s] = true;
    }
  }
  std::vector<bool> factorable(num_states);
  for (StateId s = 0; s < num_states; ++s) {
    factorable[s] = arcs_in[s] == 1 && arcs_out[s] == 1 && !olabel_out[s] &&
                    s != fst.Start() && fst.Final(s) == Arc::Weight::Zero();
  }
  return factorable;
}

template <class Arc, class I>
void Factor(const fst::Fst<Arc> &fst, fst::MutableFst<Arc> *ofst,
            std::vector<std::vector<I>> *sequences) {
  using StateId = typename Arc::StateId;
  ofst->DeleteStates();
  sequences->assign(1, std::vector<I>());  // id 0: epsilon
  if (fst.Start() == fst::kNoStateId) return;
  std::vector<StateId> order;
  DiscoveryOrderVisitor<Arc> visitor(&order);
  fst::DfsVisit(fst, &visitor);
  const StateId num_states = *std::max_element(order.begin(), order.end()) + 1;
  const std::vector<bool> folded = FactorableStates(fst, num_states);
  std::vector<StateId> new_id(num_states, fst::kNoStateId);
  auto map_state = [&new_id, ofst](StateId s) {
    if (new_id[s] == fst::kNoStateId) new_id[s] = ofst->AddState();
    return new_id[s];
  };
  std::map<std::vector<I>, typename Arc::Label> sequence_ids;
  sequence_ids[std::vector<I>()] = 0;
  for (StateId s : order) {
    if (folded[s]) continue;
    const StateId from = map_state(s);
    for (fst::ArcIterator<fst::Fst<Arc>> aiter(fst, s); !aiter.Done();
         aiter.Next()) {
      Arc arc = aiter.Value();
      std::vector<I> sequence;
      if (arc.ilabel != 0) sequence.push_back(arc.ilabel);
      while (folded[arc.nextstate]) {
        fst::ArcIterator<fst::Fst<Arc>> next(fst, arc.nextstate);
        const Arc &next_arc = next.Value();
        arc.weight = Times(arc.weight, next_arc.weight);
        if (next_arc.ilabel != 0) sequence.push_back(next_arc.ilabel);
        arc.nextstate = next_arc.nextstate;
      }
      arc.nextstate = map_state(arc.nextstate);
      auto inserted = sequence_ids.emplace(sequence, sequences->size());
      if (inserted.second) sequences->push_back(sequence);
      arc.ilabel = inserted.first->second;
      ofst->AddArc(from, arc);
    }
    if (fst.Final(s) != Arc::Weight::Zero()) ofst->SetFinal(from, fst.Final(s));
  }
  ofst->SetStart(new_id[fst.Start()]);
}

}  // namespace nnet3

#endif  // NNET3_FSTEXT_FACTOR_H_
