#include "lat/lattice-word-alignment.h"

#include "base/log.h"

namespace nnet3 {

bool CompactLatticeToWordAlignment(const CompactLattice &clat,
                                   std::vector<int32_t> *words,
                                   std::vector<int32_t> *begin_times,
                                   std::vector<int32_t> *lengths) {
  words->clear();
  begin_times->clear();
  lengths->clear();
  CompactLatticeArc::StateId state = clat.Start();
  if (state == fst::kNoStateId) {
    NNET3_WARN << "Empty lattice.";
    return false;
  }
  int32_t time = 0;
  // A linear lattice visits each state once; more steps mean a cycle.
  for (int64_t steps = 0; steps <= clat.NumStates(); ++steps) {
    const CompactLatticeWeight final_weight = clat.Final(state);
    const size_t num_arcs = clat.NumArcs(state);
    if (final_weight != CompactLatticeWeight::Zero()) {
      if (num_arcs != 0) {
        NNET3_WARN << "Lattice is not linear.";
        return false;
      }
      if (!final_weight.String().empty())
        NNET3_WARN << "Lattice has alignments on final-weight: probably was "
                   << "not word-aligned (alignments will be approximate)";
      return true;
    }
    if (num_arcs != 1) {
      NNET3_WARN << "Lattice is not linear: num-arcs = " << num_arcs;
      return false;
    }
    fst::ArcIterator<CompactLattice> aiter(clat, state);
    const CompactLatticeArc &arc = aiter.Value();
    const int32_t length = static_cast<int32_t>(arc.weight.String().size());
    words->push_back(arc.ilabel);
    begin_times->push_back(time);
    lengths->push_back(length);
    time += length;
    state = arc.nextstate;
  }
  NNET3_WARN << "Lattice is not linear: it has a cycle.";
  return false;
}

}  // namespace nnet3
