#include "lat/word-insertion-penalty.h"

#include <fst/mutable-fst.h>

namespace nnet3 {

void AddWordInsPenToCompactLattice(float word_ins_penalty,
                                   CompactLattice *clat) {
  for (int32_t s = 0; s < clat->NumStates(); ++s) {
    for (fst::MutableArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next()) {
      CompactLatticeArc arc = aiter.Value();
      if (arc.ilabel == 0) continue;
      LatticeWeight weight = arc.weight.Weight();
      weight.SetValue1(weight.Value1() + word_ins_penalty);
      arc.weight.SetWeight(weight);
      aiter.SetValue(arc);
    }
  }
}

}  // namespace nnet3
