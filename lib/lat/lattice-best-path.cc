#include "lat/lattice-best-path.h"

#include <fst/topsort.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "fstext/lattice-convert.h"
#include "fstext/lattice-scale.h"
#include "fstext/linear-symbol-sequence.h"
#include "lat/word-insertion-penalty.h"

namespace nnet3 {
namespace {

// The states of the best path of a sorted lattice, start first; empty if
// no final state can be reached at finite cost.
std::vector<int> BestPathStates(const CompactLattice &clat) {
  const int num_states = clat.NumStates(), super_final = num_states;
  std::vector<double> cost(num_states + 1,
                           std::numeric_limits<double>::infinity());
  std::vector<int> predecessor(num_states + 1, fst::kNoStateId);
  cost[clat.Start()] = 0.0;
  for (int s = 0; s < num_states; ++s) {
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next()) {
      const CompactLatticeArc &arc = aiter.Value();
      const double next = cost[s] + ConvertToCost(arc.weight);
      if (next < cost[arc.nextstate]) {
        cost[arc.nextstate] = next;
        predecessor[arc.nextstate] = s;
      }
    }
    const double total = cost[s] + ConvertToCost(clat.Final(s));
    if (total < cost[super_final]) {
      cost[super_final] = total;
      predecessor[super_final] = s;
    }
  }
  std::vector<int> states;
  for (int s = super_final; s != clat.Start();) {
    s = predecessor[s];
    if (s == fst::kNoStateId) return {};
    states.push_back(s);
  }
  std::reverse(states.begin(), states.end());
  return states;
}

// The cheapest arc from `from` to `to` (the first of equals).
CompactLatticeArc CheapestArc(const CompactLattice &clat, int from, int to) {
  bool found = false;
  CompactLatticeArc best;
  for (fst::ArcIterator<CompactLattice> aiter(clat, from); !aiter.Done();
       aiter.Next()) {
    const CompactLatticeArc &arc = aiter.Value();
    if (arc.nextstate == to &&
        (!found || ConvertToCost(arc.weight) < ConvertToCost(best.weight))) {
      best = arc;
      found = true;
    }
  }
  NNET3_ASSERT(found);
  return best;
}

}  // namespace

void CompactLatticeShortestPath(const CompactLattice &clat,
                                CompactLattice *shortest_path) {
  if (clat.Properties(fst::kTopSorted, true) == 0) {
    CompactLattice sorted(clat);
    if (!fst::TopSort(&sorted))
      NNET3_ERR << "Cannot find the best path of a lattice with cycles";
    CompactLatticeShortestPath(sorted, shortest_path);
    return;
  }
  shortest_path->DeleteStates();
  if (clat.Start() == fst::kNoStateId) return;
  const std::vector<int> states = BestPathStates(clat);
  if (states.empty()) {
    NNET3_WARN << "The lattice has no path of finite cost; its best path is "
                  "empty";
    return;
  }
  for (size_t i = 0; i < states.size(); ++i) shortest_path->AddState();
  shortest_path->SetStart(0);
  for (size_t i = 0; i + 1 < states.size(); ++i) {
    CompactLatticeArc arc = CheapestArc(clat, states[i], states[i + 1]);
    arc.nextstate = static_cast<int>(i + 1);
    shortest_path->AddArc(static_cast<int>(i), arc);
  }
  shortest_path->SetFinal(static_cast<int>(states.size() - 1),
                          clat.Final(states.back()));
}

bool CompactLatticeBestPath(const CompactLattice &clat, double lm_scale,
                            double acoustic_scale, LatticeBestPath *best) {
  CompactLattice scaled(clat);
  ScaleLattice(LatticeScale(lm_scale, acoustic_scale), &scaled);
  CompactLattice best_clat;
  CompactLatticeShortestPath(scaled, &best_clat);
  Lattice best_lat;
  ConvertLattice(best_clat, &best_lat);
  if (best_lat.Start() == fst::kNoStateId) return false;
  const bool linear = GetLinearSymbolSequence(best_lat, &best->alignment,
                                              &best->words, &best->weight);
  NNET3_ASSERT(linear);
  return true;
}

bool CompactLatticeOneBest(const CompactLattice &clat, float lm_scale,
                           float acoustic_scale, float word_ins_penalty,
                           CompactLattice *best_path) {
  if (lm_scale == 0.0f || acoustic_scale == 0.0f)
    NNET3_ERR << "Do not use exactly zero acoustic or LM scale (cannot be "
                 "inverted)";
  CompactLattice scaled(clat);
  ScaleLattice(LatticeScale(lm_scale, acoustic_scale), &scaled);
  if (word_ins_penalty > 0.0f)
    AddWordInsPenToCompactLattice(word_ins_penalty, &scaled);
  CompactLatticeShortestPath(scaled, best_path);
  if (best_path->Start() == fst::kNoStateId) return false;
  if (word_ins_penalty > 0.0f)
    AddWordInsPenToCompactLattice(-word_ins_penalty, best_path);
  ScaleLattice(LatticeScale(1.0 / lm_scale, 1.0 / acoustic_scale), best_path);
  return true;
}

}  // namespace nnet3
