#include "lat/lattice-state-times.h"

#include <fst/topsort.h>

#include <algorithm>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {
namespace {

template <class Lat>
void CheckSortedFromZero(const Lat &lat, const char *what) {
  if (lat.Properties(fst::kTopSorted, true) == 0)
    NNET3_ERR << "The " << what << " is not topologically sorted (sort it "
              << "first, e.g. with lattice-copy)";
  if (lat.Start() != 0)
    NNET3_ERR << "The " << what << " starts at state " << lat.Start()
              << ", not 0";
}

// Records that `state` is reached at `time`; UserError if it was reached
// at another time before.
void SetTime(int32_t state, int32_t time, const char *what,
             std::vector<int32_t> *times) {
  int32_t &t = (*times)[state];
  if (t == -1)
    t = time;
  else if (t != time)
    NNET3_ERR << "The " << what << " reaches state " << state << " at frames "
              << t << " and " << time << " (not a lattice from a decoder?)";
}

template <class Lat>
void TopSortIfNeeded(Lat *lat, const char *what) {
  if (lat->Properties(fst::kTopSorted, true) == 0 && !fst::TopSort(lat))
    NNET3_ERR << "Cannot sort the " << what << " topologically: it has cycles";
}

}  // namespace

int32_t LatticeStateTimes(const Lattice &lat, std::vector<int32_t> *times) {
  times->clear();
  if (lat.NumStates() == 0) return 0;
  CheckSortedFromZero(lat, "lattice");
  const int32_t num_states = lat.NumStates();
  times->resize(num_states, -1);
  (*times)[0] = 0;
  for (int32_t s = 0; s < num_states; ++s) {
    const int32_t t = (*times)[s];
    for (fst::ArcIterator<Lattice> aiter(lat, s); !aiter.Done(); aiter.Next()) {
      const LatticeArc &arc = aiter.Value();
      SetTime(arc.nextstate, arc.ilabel != 0 ? t + 1 : t, "lattice", times);
    }
  }
  return *std::max_element(times->begin(), times->end());
}

int32_t CompactLatticeStateTimes(const CompactLattice &clat,
                                 std::vector<int32_t> *times) {
  times->clear();
  if (clat.NumStates() == 0) return 0;
  CheckSortedFromZero(clat, "compact lattice");
  const int32_t num_states = clat.NumStates();
  times->resize(num_states, -1);
  (*times)[0] = 0;
  int32_t length = -1;
  for (int32_t s = 0; s < num_states; ++s) {
    const int32_t t = (*times)[s];
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next()) {
      const CompactLatticeArc &arc = aiter.Value();
      SetTime(arc.nextstate,
              t + static_cast<int32_t>(arc.weight.String().size()),
              "compact lattice", times);
    }
    const CompactLatticeWeight &final_weight = clat.Final(s);
    if (final_weight == CompactLatticeWeight::Zero()) continue;
    const int32_t end = t + static_cast<int32_t>(final_weight.String().size());
    if (length != -1 && end != length)
      NNET3_WARN << "The compact lattice's final states end at different "
                    "frames ("
                 << length << " and " << end << ")";
    length = std::max(length, end);
  }
  if (length == -1) {
    NNET3_WARN << "The compact lattice has no final state";
    return 0;
  }
  return length;
}

void TopSortLatticeIfNeeded(Lattice *lat) { TopSortIfNeeded(lat, "lattice"); }

void TopSortCompactLatticeIfNeeded(CompactLattice *clat) {
  TopSortIfNeeded(clat, "compact lattice");
}

}  // namespace nnet3
