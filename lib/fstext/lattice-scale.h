// Scaling the two costs of lattice weights (Kaldi's ScaleLattice with its
// 2x2 scale matrices), and dropping the transition-id strings of a
// CompactLattice.
//
//   ScaleLattice(AcousticLatticeScale(0.1), &lat);  // acoustic costs * 0.1
//   ScaleLattice(LatticeScale(lmwt, acwt), &clat);  // graph * lmwt,
//                                                   // acoustic * acwt
//   RemoveAlignmentsFromCompactLattice(&clat);       // strings emptied
//
// A scale is a 2x2 matrix S applied to the cost pair as a column vector:
// (graph, acoustic) <- S * (graph, acoustic); Zero weights stay Zero (see
// ScaleTupleWeight). The identity matrix leaves the lattice untouched.
#ifndef NNET3_FSTEXT_LATTICE_SCALE_H_
#define NNET3_FSTEXT_LATTICE_SCALE_H_

#include <fst/arc.h>
#include <fst/expanded-fst.h>
#include <fst/mutable-fst.h>

#include <vector>

#include "base/error.h"
#include "fstext/lattice-weight.h"

namespace nnet3 {

using LatticeScaleMatrix = std::vector<std::vector<double>>;

// [[graph_scale, 0], [0, acoustic_scale]].
inline LatticeScaleMatrix LatticeScale(double graph_scale,
                                       double acoustic_scale) {
  return {{graph_scale, 0.0}, {0.0, acoustic_scale}};
}
inline LatticeScaleMatrix DefaultLatticeScale() { return LatticeScale(1, 1); }
inline LatticeScaleMatrix AcousticLatticeScale(double acoustic_scale) {
  return LatticeScale(1, acoustic_scale);
}
inline LatticeScaleMatrix GraphLatticeScale(double graph_scale) {
  return LatticeScale(graph_scale, 1);
}

// Scales every arc and final weight of a Lattice or CompactLattice.
template <class Weight, class ScaleFloat>
void ScaleLattice(const std::vector<std::vector<ScaleFloat>> &scale,
                  fst::MutableFst<fst::ArcTpl<Weight>> *fst) {
  NNET3_ASSERT(scale.size() == 2 && scale[0].size() == 2 &&
               scale[1].size() == 2);
  if (scale[0][0] == 1 && scale[0][1] == 0 && scale[1][0] == 0 &&
      scale[1][1] == 1)
    return;
  using Arc = fst::ArcTpl<Weight>;
  for (int s = 0; s < fst->NumStates(); ++s) {
    for (fst::MutableArcIterator<fst::MutableFst<Arc>> aiter(fst, s);
         !aiter.Done(); aiter.Next()) {
      Arc arc = aiter.Value();
      arc.weight = ScaleTupleWeight(arc.weight, scale);
      aiter.SetValue(arc);
    }
    const Weight final_weight = fst->Final(s);
    if (final_weight != Weight::Zero())
      fst->SetFinal(s, ScaleTupleWeight(final_weight, scale));
  }
}

// Empties the string of every weight, keeping the costs.
template <class Weight, class Int>
void RemoveAlignmentsFromCompactLattice(
    fst::MutableFst<fst::ArcTpl<CompactLatticeWeightTpl<Weight, Int>>> *fst) {
  using W = CompactLatticeWeightTpl<Weight, Int>;
  using Arc = fst::ArcTpl<W>;
  for (int s = 0; s < fst->NumStates(); ++s) {
    for (fst::MutableArcIterator<fst::MutableFst<Arc>> aiter(fst, s);
         !aiter.Done(); aiter.Next()) {
      Arc arc = aiter.Value();
      arc.weight = W(arc.weight.Weight(), {});
      aiter.SetValue(arc);
    }
    const W final_weight = fst->Final(s);
    if (final_weight != W::Zero())
      fst->SetFinal(s, W(final_weight.Weight(), {}));
  }
}

// Whether any arc or final weight carries a non-empty string.
template <class Weight, class Int>
bool CompactLatticeHasAlignment(
    const fst::ExpandedFst<fst::ArcTpl<CompactLatticeWeightTpl<Weight, Int>>>
        &fst) {
  using Arc = fst::ArcTpl<CompactLatticeWeightTpl<Weight, Int>>;
  for (int s = 0; s < fst.NumStates(); ++s) {
    if (!fst.Final(s).String().empty()) return true;
    for (fst::ArcIterator<fst::ExpandedFst<Arc>> aiter(fst, s); !aiter.Done();
         aiter.Next()) {
      if (!aiter.Value().weight.String().empty()) return true;
    }
  }
  return false;
}

}  // namespace nnet3

#endif  // NNET3_FSTEXT_LATTICE_SCALE_H_
