// The options of pruned lattice determinization, with Kaldi's names and
// defaults (lat/determinize-lattice-pruned.h):
//
//   DeterminizeLatticePrunedOptions      one pass, on words
//     (DeterminizeLatticePruned; lattice-determinize-pruned registers
//     --delta, --max-mem, --max-loop, --max-states, --max-arcs,
//     --retry-cutoff)
//   DeterminizeLatticePhonePrunedOptions phone pass then word pass
//     (DeterminizeLatticePhonePrunedWrapper; the decoders register
//     --delta, --max-mem, --phone-determinize, --word-determinize,
//     --minimize)
//
//   DeterminizeLatticePhonePrunedOptions opts;   // max-mem 50000000
//   opts.Register(&po);
//
// max_mem is in bytes of the determinizer's own estimate (the strings, the
// output arcs and the subset elements it holds, counted as Kaldi counts
// them), not of the process: real use may be several times larger.
#ifndef NNET3_LAT_DETERMINIZE_LATTICE_OPTIONS_H_
#define NNET3_LAT_DETERMINIZE_LATTICE_OPTIONS_H_

#include <cstdint>

#include "base/options.h"

namespace nnet3 {

// OpenFst's kDelta: the tolerance under which two weights are equal.
constexpr float kDeterminizeDelta = 1.0f / 1024.0f;

struct DeterminizeLatticePrunedOptions {
  float delta = kDeterminizeDelta;
  // If > 0, stop (keeping what was determinized so far, which is the best
  // part) when the memory estimate stays above this after the string
  // repository is rebuilt.
  int32_t max_mem = -1;
  // If > 0, fail when one epsilon closure visits more states than this
  // (input that cannot be determinized).
  int32_t max_loop = -1;
  // If > 0, stop once the output has more states (arcs) than this.
  int32_t max_states = -1;
  int32_t max_arcs = -1;
  // When a stop left an effective beam below retry_cutoff times the beam,
  // prune the input with a smaller beam and determinize again.
  float retry_cutoff = 0.5f;

  void Register(OptionsRegistry *po);
};

struct DeterminizeLatticePhonePrunedOptions {
  float delta = kDeterminizeDelta;
  int32_t max_mem = 50000000;
  // A first pass on words and phones (phone symbols inserted at phone
  // starts), then a second on words alone.
  bool phone_determinize = true;
  bool word_determinize = true;
  // Push strings and weights and minimize after determinizing.
  bool minimize = false;

  void Register(OptionsRegistry *po);
};

}  // namespace nnet3

#endif  // NNET3_LAT_DETERMINIZE_LATTICE_OPTIONS_H_
