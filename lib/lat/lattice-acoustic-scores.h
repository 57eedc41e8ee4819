// The acoustic cost of each (frame, transition-id) of a state-level lattice,
// kept aside while the lattice is determinized and put back afterwards
// (Kaldi's ComputeAcousticScoresMap and ReplaceAcousticScoresFromMap, what
// lattice-determinize-pruned --write-compact=false uses to give its
// state-level output frame-level acoustic costs again).
//
//   AcousticScoresMap scores;
//   ComputeAcousticScoresMap(raw_lat, &scores);   // before determinizing
//   ... determinize, ConvertLattice(det_clat, &out_lat) ...
//   ReplaceAcousticScoresFromMap(scores, &out_lat);
//
// Where several arcs carry the same transition-id on the same frame their
// costs are averaged (summed in float, in state and arc order, then divided
// by the count). Replacing sets every arc with a transition-id to the average
// of its (frame, transition-id), every other arc's and every final weight's
// acoustic cost to 0; graph costs are kept.
#ifndef NNET3_LAT_LATTICE_ACOUSTIC_SCORES_H_
#define NNET3_LAT_LATTICE_ACOUSTIC_SCORES_H_

#include <cstdint>
#include <map>
#include <utility>

#include "lat/kaldi-lattice.h"

namespace nnet3 {

// (frame, transition-id) -> (sum of acoustic costs, number of arcs).
using AcousticScoresMap =
    std::map<std::pair<int32_t, int32_t>, std::pair<float, int32_t>>;

// lat must be topologically sorted with start state 0 (UserError
// otherwise, see lattice-state-times.h); an arc without a transition-id must
// have acoustic cost 0 (UserError naming the state otherwise).
void ComputeAcousticScoresMap(const Lattice &lat, AcousticScoresMap *scores);

// Sorts lat topologically if it is not (UserError for cycles). UserError
// for a (frame, transition-id) the map does not have.
void ReplaceAcousticScoresFromMap(const AcousticScoresMap &scores,
                                  Lattice *lat);

}  // namespace nnet3

#endif  // NNET3_LAT_LATTICE_ACOUSTIC_SCORES_H_
