// Phone-then-word pruned lattice determinization (Kaldi's
// DeterminizeLatticePhonePruned and its wrapper), what the decoders run on
// each utterance's raw lattice and lattice-determinize-phone-pruned runs on
// archives.
//
//   Lattice raw = ...;              // transition-ids in, words out
//   CompactLattice clat;
//   bool complete = DeterminizeLatticePhonePrunedWrapper(
//       trans_model, &raw, lattice_beam, &clat, opts);   // raw is modified
//
// The first pass inserts a phone symbol at each phone start (an arc whose
// transition-id leaves a phone's first HMM state and is not a self-loop;
// not on arcs out of the start state) as an extra input label, determinizes
// on words and phones together (DeterminizeLatticePruned, Lattice output),
// and removes the phone symbols again. This keeps the determinized
// lattice's paths apart by phone sequence, so it stays small for deep
// lattices; the second pass determinizes on words alone. The result is the
// same as word determinization alone in general (the best path of each word
// sequence within the beam), reached with less memory. With `minimize`,
// strings and weights are pushed and the lattice minimized.
//
// Returns false if either pass stopped at a limit (max_mem) before the beam
// (the output is then pruned tighter). If both passes are off, the lattice
// is converted without determinizing, with a warning.
//
// The wrapper inverts the lattice (words to the input side), sorts it
// topologically (UserError if it has cycles) and on input labels, and
// trims the output (Connect); the output is not sorted topologically.
#ifndef NNET3_LAT_DETERMINIZE_LATTICE_PHONE_PRUNED_H_
#define NNET3_LAT_DETERMINIZE_LATTICE_PHONE_PRUNED_H_

#include <fst/mutable-fst.h>

#include <cstdint>

#include "hmm/transition-model.h"
#include "lat/determinize-lattice-options.h"
#include "lat/kaldi-lattice.h"

namespace nnet3 {

// Inserts the phone symbols (first_phone_label + phone, where
// first_phone_label is one more than the largest input label) into a
// lattice with words on the input side and transition-ids on the output
// side; returns first_phone_label. UserError for a transition-id the model
// does not have.
int32_t DeterminizeLatticeInsertPhones(const TransitionModel &trans_model,
                                       fst::MutableFst<LatticeArc> *fst);

// Turns every input label >= first_phone_label into epsilon.
void DeterminizeLatticeDeletePhones(int32_t first_phone_label,
                                    fst::MutableFst<LatticeArc> *fst);

// The first pass alone, in place: the result is not deterministic on words.
bool DeterminizeLatticePhonePrunedFirstPass(
    const TransitionModel &trans_model, double beam,
    fst::MutableFst<LatticeArc> *fst,
    const DeterminizeLatticePrunedOptions &opts);

// Words on the input side, topologically sorted; *ifst is modified.
bool DeterminizeLatticePhonePruned(
    const TransitionModel &trans_model, fst::MutableFst<LatticeArc> *ifst,
    double beam, fst::MutableFst<CompactLatticeArc> *ofst,
    const DeterminizeLatticePhonePrunedOptions &opts =
        DeterminizeLatticePhonePrunedOptions());

// The same on a copy of ifst.
bool DeterminizeLatticePhonePruned(
    const TransitionModel &trans_model,
    const fst::ExpandedFst<LatticeArc> &ifst, double beam,
    fst::MutableFst<CompactLatticeArc> *ofst,
    const DeterminizeLatticePhonePrunedOptions &opts =
        DeterminizeLatticePhonePrunedOptions());

// A raw lattice as the decoder makes it (transition-ids in, words out);
// *ifst is modified.
bool DeterminizeLatticePhonePrunedWrapper(
    const TransitionModel &trans_model, fst::MutableFst<LatticeArc> *ifst,
    double beam, fst::MutableFst<CompactLatticeArc> *ofst,
    const DeterminizeLatticePhonePrunedOptions &opts =
        DeterminizeLatticePhonePrunedOptions());

}  // namespace nnet3

#endif  // NNET3_LAT_DETERMINIZE_LATTICE_PHONE_PRUNED_H_
