// GetLinearSymbolSequence: reads the labels and total weight off an FST
// that is a single path (a best path, as ShortestPath or
// CompactLatticeShortestPath return it) -- Kaldi's way of turning a
// decoder's best path into an alignment and a word sequence.
//
//   Lattice best_path;
//   decoder.GetBestPath(&best_path);
//   std::vector<int32_t> alignment, words;
//   LatticeWeight weight;
//   if (!GetLinearSymbolSequence(best_path, &alignment, &words, &weight))
//     ...  // not a single path
//   double cost = weight.Value1() + weight.Value2();
//
// Epsilon (0) labels are left out of both sequences. An empty FST (no
// start state) gives empty sequences and weight Zero.
#ifndef NNET3_FSTEXT_LINEAR_SYMBOL_SEQUENCE_H_
#define NNET3_FSTEXT_LINEAR_SYMBOL_SEQUENCE_H_

#include <fst/fst.h>

#include <unordered_set>
#include <vector>

namespace nnet3 {

// Returns false, leaving the outputs untouched, unless every state on the
// path from the start has exactly one arc and no final weight, and the last
// has a final weight and no arcs (a cycle is not a path). Any output may be
// null.
template <class Arc, class I>
bool GetLinearSymbolSequence(const fst::Fst<Arc> &fst, std::vector<I> *isymbols,
                             std::vector<I> *osymbols,
                             typename Arc::Weight *total_weight) {
  using Weight = typename Arc::Weight;
  auto s = fst.Start();
  if (s == fst::kNoStateId) {
    if (isymbols) isymbols->clear();
    if (osymbols) osymbols->clear();
    if (total_weight) *total_weight = Weight::Zero();
    return true;
  }
  std::vector<I> ilabels, olabels;
  Weight weight = Weight::One();
  std::unordered_set<typename Arc::StateId> visited;  // a cycle is no path
  while (visited.insert(s).second) {
    const Weight final_weight = fst.Final(s);
    if (final_weight != Weight::Zero()) {
      if (fst.NumArcs(s) != 0) return false;
      if (isymbols) *isymbols = ilabels;
      if (osymbols) *osymbols = olabels;
      if (total_weight) *total_weight = Times(weight, final_weight);
      return true;
    }
    if (fst.NumArcs(s) != 1) return false;
    fst::ArcIterator<fst::Fst<Arc>> aiter(fst, s);
    const Arc &arc = aiter.Value();
    weight = Times(weight, arc.weight);
    if (arc.ilabel != 0) ilabels.push_back(arc.ilabel);
    if (arc.olabel != 0) olabels.push_back(arc.olabel);
    s = arc.nextstate;
  }
  return false;
}

}  // namespace nnet3

#endif  // NNET3_FSTEXT_LINEAR_SYMBOL_SEQUENCE_H_
