#include "lat/prune-lattice.h"

#include <fst/connect.h>
#include <fst/topsort.h>

#include <limits>
#include <vector>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

namespace {

// The best cost from the start to each state (the lattice is sorted).
template <class Fst>
std::vector<double> ForwardCosts(const Fst &lat, double *best_final_cost) {
  const int32_t num_states = lat.NumStates();
  std::vector<double> cost(num_states, std::numeric_limits<double>::infinity());
  cost[lat.Start()] = 0.0;
  *best_final_cost = std::numeric_limits<double>::infinity();
  for (int32_t s = 0; s < num_states; s++) {
    for (fst::ArcIterator<Fst> aiter(lat, s); !aiter.Done(); aiter.Next()) {
      const auto &arc = aiter.Value();
      NNET3_ASSERT(arc.nextstate > s && arc.nextstate < num_states);
      const double next_cost = cost[s] + ConvertToCost(arc.weight);
      if (next_cost < cost[arc.nextstate]) cost[arc.nextstate] = next_cost;
    }
    const double final_cost = cost[s] + ConvertToCost(lat.Final(s));
    if (final_cost < *best_final_cost) *best_final_cost = final_cost;
  }
  return cost;
}

template <class Fst>
bool PruneLatticeTpl(float beam, Fst *lat) {
  using Weight = typename Fst::Weight;
  NNET3_ASSERT(beam > 0.0);
  if (!lat->Properties(fst::kTopSorted, true) && !fst::TopSort(lat)) {
    NNET3_WARN << "Cycles detected in lattice";
    return false;
  }
  const int32_t num_states = lat->NumStates();
  if (num_states == 0 || lat->Start() < 0) return false;
  double best_final_cost;
  const std::vector<double> forward = ForwardCosts(*lat, &best_final_cost);
  const double cutoff = best_final_cost + beam;
  // Pruned arcs go to a new dead-end state, which Connect then removes with
  // them.
  const int32_t dead_end = lat->AddState();
  std::vector<double> backward(num_states);
  for (int32_t s = num_states - 1; s >= 0; s--) {
    double cost = ConvertToCost(lat->Final(s));
    if (cost != std::numeric_limits<double>::infinity() &&
        forward[s] + cost > cutoff)
      lat->SetFinal(s, Weight::Zero());
    for (fst::MutableArcIterator<Fst> aiter(lat, s); !aiter.Done();
         aiter.Next()) {
      auto arc = aiter.Value();
      const double arc_backward =
          ConvertToCost(arc.weight) + backward[arc.nextstate];
      if (arc_backward < cost) cost = arc_backward;
      if (forward[s] + arc_backward > cutoff) {
        arc.nextstate = dead_end;
        aiter.SetValue(arc);
      }
    }
    backward[s] = cost;
  }
  fst::Connect(lat);
  return lat->NumStates() > 0;
}

}  // namespace

bool PruneLattice(float beam, Lattice *lat) {
  return PruneLatticeTpl(beam, lat);
}

bool PruneLattice(float beam, CompactLattice *lat) {
  return PruneLatticeTpl(beam, lat);
}

}  // namespace nnet3
