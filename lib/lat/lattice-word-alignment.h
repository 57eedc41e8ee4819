// The words of a linear, word-aligned CompactLattice with their frames
// (Kaldi's CompactLatticeToWordAlignment): what nbest-to-ctm prints.
//
//   lattice-1best | lattice-align-words | ...   gives such lattices
//   std::vector<int32_t> words, begin_times, lengths;
//   if (CompactLatticeToWordAlignment(clat, &words, &begin_times, &lengths))
//     // word i covers frames [begin_times[i], begin_times[i] + lengths[i])
//
// Each arc gives one entry, word 0 (optional silence) included; its length
// is the number of transition-ids on the arc, its begin time the frames of
// the arcs before it.
#ifndef NNET3_LAT_LATTICE_WORD_ALIGNMENT_H_
#define NNET3_LAT_LATTICE_WORD_ALIGNMENT_H_

#include <cstdint>
#include <vector>

#include "lat/kaldi-lattice.h"

namespace nnet3 {

// Returns false with a warning for an empty or non-linear lattice (a state
// with a final weight and arcs, or with other than one arc). Warns, and
// returns true, when the final weight carries transition-ids (the lattice
// was not word-aligned: their frames are left out).
bool CompactLatticeToWordAlignment(const CompactLattice &clat,
                                   std::vector<int32_t> *words,
                                   std::vector<int32_t> *begin_times,
                                   std::vector<int32_t> *lengths);

}  // namespace nnet3

#endif  // NNET3_LAT_LATTICE_WORD_ALIGNMENT_H_
