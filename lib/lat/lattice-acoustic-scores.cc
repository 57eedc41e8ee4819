#include "lat/lattice-acoustic-scores.h"

#include <fst/mutable-fst.h>

#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "lat/lattice-state-times.h"

namespace nnet3 {

void ComputeAcousticScoresMap(const Lattice &lat, AcousticScoresMap *scores) {
  scores->clear();
  std::vector<int32_t> times;
  LatticeStateTimes(lat, &times);
  for (int32_t s = 0; s < lat.NumStates(); ++s) {
    for (fst::ArcIterator<Lattice> aiter(lat, s); !aiter.Done(); aiter.Next()) {
      const LatticeArc &arc = aiter.Value();
      if (arc.ilabel == 0) {
        if (arc.weight.Value2() != 0)
          NNET3_ERR << "An arc without a transition-id (out of state " << s
                    << ") has acoustic cost " << arc.weight.Value2()
                    << "; a decoder's lattice has 0 there";
        continue;
      }
      auto key = std::make_pair(times[s], static_cast<int32_t>(arc.ilabel));
      auto it = scores->find(key);
      if (it == scores->end()) {
        scores->emplace(key, std::make_pair(arc.weight.Value2(), 1));
        continue;
      }
      std::pair<float, int32_t> &sum = it->second;
      if (sum.second == 2 && sum.first / sum.second != arc.weight.Value2()) {
        NNET3_VLOG(2) << "Transitions on the same frame have different "
                      << "acoustic costs for tid " << arc.ilabel << "; "
                      << sum.first / sum.second << " vs "
                      << arc.weight.Value2();
      }
      sum.first += arc.weight.Value2();
      ++sum.second;
    }
  }
}

void ReplaceAcousticScoresFromMap(const AcousticScoresMap &scores,
                                  Lattice *lat) {
  TopSortLatticeIfNeeded(lat);
  std::vector<int32_t> times;
  LatticeStateTimes(*lat, &times);
  for (int32_t s = 0; s < lat->NumStates(); ++s) {
    for (fst::MutableArcIterator<Lattice> aiter(lat, s); !aiter.Done();
         aiter.Next()) {
      LatticeArc arc = aiter.Value();
      float acoustic = 0.0f;
      if (arc.ilabel != 0) {
        auto it = scores.find(std::make_pair(times[s], arc.ilabel));
        if (it == scores.end())
          NNET3_ERR << "Transition-id " << arc.ilabel << " at frame "
                    << times[s] << " is not in the acoustic scores map "
                    << "(not the lattice the map was made from?)";
        acoustic = it->second.first / it->second.second;
      }
      arc.weight.SetValue2(acoustic);
      aiter.SetValue(arc);
    }
    LatticeWeight final_weight = lat->Final(s);
    if (final_weight != LatticeWeight::Zero()) {
      final_weight.SetValue2(0.0f);
      lat->SetFinal(s, final_weight);
    }
  }
}

}  // namespace nnet3
