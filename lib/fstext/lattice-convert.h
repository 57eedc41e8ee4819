// Conversions between lattice forms (Kaldi's ConvertLattice family):
//
//   Lattice -> CompactLattice   chains of arcs become one arc whose weight
//                               carries the chain's input labels
//                               (transition-ids) and whose label is the
//                               output label (word); invert=false swaps the
//                               roles of input and output labels.
//   CompactLattice -> Lattice   each arc becomes a chain of arcs, one per
//                               element of its string (the weight on the
//                               first; an empty string gives one arc with
//                               input label 0 when inverted); final weights
//                               with strings get chains too.
//   float <-> double, Lattice -> tropical (total cost), tropical -> Lattice
//   (the cost becomes the graph cost).
//
//   CompactLattice clat;
//   ConvertLattice(lat, &clat);          // invert = true, as Kaldi
//   Lattice back;
//   ConvertLattice(clat, &back);
//
// State numbers follow Kaldi's exactly (Lattice -> CompactLattice: Factor,
// then OpenFst's TopSort; CompactLattice -> Lattice: the original states
// keep their numbers and chain states are appended state by state, final
// weight's chain first), so converted lattices are written byte for byte
// as Kaldi writes them.
#ifndef NNET3_FSTEXT_LATTICE_CONVERT_H_
#define NNET3_FSTEXT_LATTICE_CONVERT_H_

#include <fst/arc.h>
#include <fst/expanded-fst.h>
#include <fst/invert.h>
#include <fst/mutable-fst.h>
#include <fst/topsort.h>
#include <fst/vector-fst.h>

#include <utility>
#include <vector>

#include "fstext/factor.h"
#include "fstext/lattice-weight.h"

namespace nnet3 {

template <class Weight, class Int>
void ConvertLattice(
    const fst::ExpandedFst<fst::ArcTpl<Weight>> &ifst,
    fst::MutableFst<fst::ArcTpl<CompactLatticeWeightTpl<Weight, Int>>> *ofst,
    bool invert = true) {
  using Arc = fst::ArcTpl<Weight>;
  using CWeight = CompactLatticeWeightTpl<Weight, Int>;
  using CArc = fst::ArcTpl<CWeight>;
  fst::VectorFst<Arc> factored;
  std::vector<std::vector<Int>> sequences;
  if (invert) {
    Factor(ifst, &factored, &sequences);
  } else {
    fst::VectorFst<Arc> inverted(ifst);
    fst::Invert(&inverted);
    Factor(inverted, &factored, &sequences);
  }
  fst::TopSort(&factored);
  ofst->DeleteStates();
  for (int s = 0; s < factored.NumStates(); ++s) ofst->AddState();
  ofst->SetStart(factored.Start());
  for (int s = 0; s < factored.NumStates(); ++s) {
    if (factored.Final(s) != Weight::Zero())
      ofst->SetFinal(s, CWeight(factored.Final(s), {}));
    for (fst::ArcIterator<fst::VectorFst<Arc>> aiter(factored, s);
         !aiter.Done(); aiter.Next()) {
      const Arc &arc = aiter.Value();
      ofst->AddArc(
          s, CArc(arc.olabel, arc.olabel,
                  CWeight(arc.weight, sequences[arc.ilabel]), arc.nextstate));
    }
  }
}

namespace lattice_internal {

// Adds the chain from `from` to `to` that spells `string` (at least one
// arc): the first arc has `label` and `weight`, the others label 0 and
// weight One; the string goes on the output side (input side if invert).
template <class Weight, class Int>
void AddStringChain(typename fst::ArcTpl<Weight>::Label label,
                    const Weight &weight, const std::vector<Int> &string,
                    int from, int to, bool invert,
                    fst::MutableFst<fst::ArcTpl<Weight>> *ofst) {
  using Arc = fst::ArcTpl<Weight>;
  const size_t n = string.empty() ? 1 : string.size();
  int cur = from;
  for (size_t i = 0; i < n; ++i) {
    const int next = i + 1 == n ? to : ofst->AddState();
    Arc arc(i == 0 ? label : 0, string.empty() ? 0 : string[i],
            i == 0 ? weight : Weight::One(), next);
    if (invert) std::swap(arc.ilabel, arc.olabel);
    ofst->AddArc(cur, arc);
    cur = next;
  }
}

}  // namespace lattice_internal

template <class Weight, class Int>
void ConvertLattice(
    const fst::ExpandedFst<fst::ArcTpl<CompactLatticeWeightTpl<Weight, Int>>>
        &ifst,
    fst::MutableFst<fst::ArcTpl<Weight>> *ofst, bool invert = true) {
  using CWeight = CompactLatticeWeightTpl<Weight, Int>;
  using CArc = fst::ArcTpl<CWeight>;
  ofst->DeleteStates();
  const int num_states = ifst.NumStates();
  for (int s = 0; s < num_states; ++s) ofst->AddState();
  ofst->SetStart(ifst.Start());
  for (int s = 0; s < num_states; ++s) {
    const CWeight final_weight = ifst.Final(s);
    if (final_weight != CWeight::Zero()) {
      if (final_weight.String().empty()) {
        ofst->SetFinal(s, final_weight.Weight());
      } else {
        int cur = s;
        const std::vector<Int> &string = final_weight.String();
        for (size_t i = 0; i < string.size(); ++i) {
          const int next = ofst->AddState();
          fst::ArcTpl<Weight> arc(
              0, string[i], i == 0 ? final_weight.Weight() : Weight::One(),
              next);
          if (invert) std::swap(arc.ilabel, arc.olabel);
          ofst->AddArc(cur, arc);
          cur = next;
        }
        ofst->SetFinal(cur, Weight::One());
      }
    }
    for (fst::ArcIterator<fst::ExpandedFst<CArc>> aiter(ifst, s); !aiter.Done();
         aiter.Next()) {
      const CArc &arc = aiter.Value();
      lattice_internal::AddStringChain(arc.ilabel, arc.weight.Weight(),
                                       arc.weight.String(), s, arc.nextstate,
                                       invert, ofst);
    }
  }
}

// Between precisions (LatticeWeight <-> LatticeWeight, CompactLatticeWeight
// <-> CompactLatticeWeight) and from LatticeWeight to TropicalWeight: the
// same states and arcs, weights converted with ConvertLatticeWeight.
template <class WeightIn, class WeightOut>
void ConvertLattice(const fst::ExpandedFst<fst::ArcTpl<WeightIn>> &ifst,
                    fst::MutableFst<fst::ArcTpl<WeightOut>> *ofst) {
  using ArcIn = fst::ArcTpl<WeightIn>;
  using ArcOut = fst::ArcTpl<WeightOut>;
  ofst->DeleteStates();
  const int num_states = ifst.NumStates();
  for (int s = 0; s < num_states; ++s) ofst->AddState();
  ofst->SetStart(ifst.Start());
  for (int s = 0; s < num_states; ++s) {
    if (ifst.Final(s) != WeightIn::Zero()) {
      WeightOut w;
      ConvertLatticeWeight(ifst.Final(s), &w);
      ofst->SetFinal(s, w);
    }
    for (fst::ArcIterator<fst::ExpandedFst<ArcIn>> aiter(ifst, s);
         !aiter.Done(); aiter.Next()) {
      const ArcIn &arc = aiter.Value();
      ArcOut out;
      ConvertLatticeWeight(arc.weight, &out.weight);
      out.ilabel = arc.ilabel;
      out.olabel = arc.olabel;
      out.nextstate = arc.nextstate;
      ofst->AddArc(s, out);
    }
  }
}

// A tropical FST as a lattice: each cost becomes the graph cost, acoustic
// cost 0 (Zero stays Zero).
template <class Real>
void ConvertFstToLattice(
    const fst::ExpandedFst<fst::StdArc> &ifst,
    fst::MutableFst<fst::ArcTpl<LatticeWeightTpl<Real>>> *ofst) {
  using W = LatticeWeightTpl<Real>;
  auto to_lattice = [](const fst::TropicalWeight &w) {
    return w == fst::TropicalWeight::Zero() ? W::Zero() : W(w.Value(), 0);
  };
  ofst->DeleteStates();
  const int num_states = ifst.NumStates();
  for (int s = 0; s < num_states; ++s) ofst->AddState();
  ofst->SetStart(ifst.Start());
  for (int s = 0; s < num_states; ++s) {
    ofst->SetFinal(s, to_lattice(ifst.Final(s)));
    for (fst::ArcIterator<fst::ExpandedFst<fst::StdArc>> aiter(ifst, s);
         !aiter.Done(); aiter.Next()) {
      const fst::StdArc &arc = aiter.Value();
      ofst->AddArc(s, fst::ArcTpl<W>(arc.ilabel, arc.olabel,
                                     to_lattice(arc.weight), arc.nextstate));
    }
  }
}

}  // namespace nnet3

#endif  // NNET3_FSTEXT_LATTICE_CONVERT_H_
