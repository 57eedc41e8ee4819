// Word alignment of lattices (Kaldi's WordAlignLattice): rewrites a
// CompactLattice so that each arc carries one word together with exactly
// the transition-ids of that word's phones, using the phones' positions in
// words (word-boundary-info.h). Silence between words becomes arcs without
// a word (or with --silence-label). After this the frames an arc covers
// are the word's frames, which is what CTM output (nbest-to-ctm,
// lattice-to-ctm-conf) and MBR times need.
//
//   WordBoundaryInfo info(opts, "data/lang/phones/word_boundary.int");
//   CompactLattice aligned;
//   bool ok = WordAlignLattice(clat, trans_model, info, 0, &aligned);
//
// How: every path's transition-ids and words are re-cut at word ends, with
// a pending (transition-ids, words) state carried along each path; equal
// (input state, pending state) pairs share an output state. The output
// keeps each path's words and total weight; its state numbering, arc order
// and weights are Kaldi's (same expansion order, then OpenFst's RmEpsilon),
// so a written aligned lattice is byte-identical to Kaldi's.
//
// Returns false (after a warning) when the lattice does not fit the word
// boundaries: a phone inside a word that should not be there, a word that
// ends without its final phone (a forced-out lattice: its partial word gets
// --partial-word-label), an empty input, or more than max_states output
// states (max_states > 0). The output is still the best attempt (for an
// empty input, or when max_states stopped it, possibly partial or empty).
// UserError for transition-ids the model lacks and phones the
// word-boundary file does not cover.
#ifndef NNET3_LAT_WORD_ALIGN_LATTICE_H_
#define NNET3_LAT_WORD_ALIGN_LATTICE_H_

#include <cstdint>

#include "hmm/transition-model.h"
#include "lat/kaldi-lattice.h"
#include "lat/word-boundary-info.h"

namespace nnet3 {

bool WordAlignLattice(const CompactLattice &lat,
                      const TransitionModel &trans_model,
                      const WordBoundaryInfo &info, int32_t max_states,
                      CompactLattice *lat_out);

// lattice-align-words --test: checks that every arc of `aligned_lat` is a
// whole word, a silence or an empty arc, that final weights carry no
// transition-ids, and that `aligned_lat` (silence labels removed) and `lat`
// have the same paths on a few random paths. UserError on a failure. Only
// meaningful when WordAlignLattice returned true.
void TestWordAlignedLattice(const CompactLattice &lat,
                            const TransitionModel &trans_model,
                            const WordBoundaryInfo &info,
                            const CompactLattice &aligned_lat);

}  // namespace nnet3

#endif  // NNET3_LAT_WORD_ALIGN_LATTICE_H_
