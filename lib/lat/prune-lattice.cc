#include "lat/prune-lattice.h"

#include <fst/connect.h>
#include <fst/topsort.h>

#include <limits>
#include <vector>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Forward (Viterbi) costs of a topologically sorted lattice; returns the
// best total cost through a final state.
template <class Lat>
double ForwardCosts(const Lat &lat, std::vector<double> *forward) {
  using Arc = typename Lat::Arc;
  const int num_states = lat.NumStates();
  forward->assign(num_states, kInfinity);
  (*forward)[lat.Start()] = 0.0;
  double best = kInfinity;
  for (int s = 0; s < num_states; ++s) {
    const double cost = (*forward)[s];
    for (fst::ArcIterator<Lat> aiter(lat, s); !aiter.Done(); aiter.Next()) {
      const Arc &arc = aiter.Value();
      if (arc.nextstate <= s || arc.nextstate >= num_states)
        NNET3_ERR << "The lattice is marked topologically sorted but has an "
                  << "arc from state " << s << " to " << arc.nextstate
                  << " (corrupted file?)";
      double &next = (*forward)[arc.nextstate];
      next = std::min(next, cost + ConvertToCost(arc.weight));
    }
    best = std::min(best, cost + ConvertToCost(lat.Final(s)));
  }
  return best;
}

}  // namespace

template <class Lat>
bool PruneLattice(float beam, Lat *lat) {
  using Arc = typename Lat::Arc;
  using Weight = typename Arc::Weight;
  NNET3_ASSERT(beam > 0.0);
  if (lat->Properties(fst::kTopSorted, true) == 0 && !fst::TopSort(lat)) {
    NNET3_WARN << "Cannot prune a lattice with cycles";
    return false;
  }
  const int num_states = lat->NumStates();
  if (num_states == 0) return false;
  std::vector<double> forward;
  const double cutoff = ForwardCosts(*lat, &forward) + beam;
  // Pruned arcs are sent to a new non-final state; Connect removes them.
  const int dead_end = lat->AddState();
  std::vector<double> backward(num_states, kInfinity);
  for (int s = num_states - 1; s >= 0; --s) {
    double best_backward = ConvertToCost(lat->Final(s));
    if (best_backward != kInfinity && forward[s] + best_backward > cutoff)
      lat->SetFinal(s, Weight::Zero());
    for (fst::MutableArcIterator<Lat> aiter(lat, s); !aiter.Done();
         aiter.Next()) {
      Arc arc = aiter.Value();
      const double arc_backward =
          ConvertToCost(arc.weight) + backward[arc.nextstate];
      best_backward = std::min(best_backward, arc_backward);
      if (forward[s] + arc_backward > cutoff) {
        arc.nextstate = dead_end;
        aiter.SetValue(arc);
      }
    }
    backward[s] = best_backward;
  }
  fst::Connect(lat);
  return lat->NumStates() > 0;
}

template bool PruneLattice(float beam, Lattice *lat);
template bool PruneLattice(float beam, CompactLattice *lat);

}  // namespace nnet3
