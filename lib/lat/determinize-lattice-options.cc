#include "lat/determinize-lattice-options.h"

namespace nnet3 {

void DeterminizeLatticePrunedOptions::Register(OptionsRegistry *po) {
  po->Register("delta", &delta,
               "Weights closer than this count as equal when determinizing");
  po->Register("max-mem", &max_mem,
               "Stop determinizing when its estimated memory (bytes) exceeds "
               "this; the output is then pruned tighter than the beam (<= 0: "
               "no limit; the process may use several times this)");
  po->Register("max-arcs", &max_arcs,
               "Stop determinizing once the output has this many arcs in "
               "all (<= 0: no limit)");
  po->Register("max-states", &max_states,
               "Stop determinizing once the output has this many states "
               "(<= 0: no limit)");
  po->Register("max-loop", &max_loop,
               "Fail when one epsilon closure visits more states than this, "
               "which detects input that cannot be determinized (<= 0: no "
               "check)");
  po->Register("retry-cutoff", &retry_cutoff,
               "When determinization stopped early with an effective beam "
               "below retry-cutoff times the beam, prune the input lattice "
               "with a smaller beam and determinize again");
}

void DeterminizeLatticePhonePrunedOptions::Register(OptionsRegistry *po) {
  po->Register("delta", &delta,
               "Weights closer than this count as equal when determinizing");
  po->Register("max-mem", &max_mem,
               "Stop determinizing when its estimated memory (bytes) exceeds "
               "this; the output is then pruned tighter than the beam (<= 0: "
               "no limit; the process may use several times this)");
  po->Register("phone-determinize", &phone_determinize,
               "First determinize on words and phones together (see also "
               "--word-determinize)");
  po->Register("word-determinize", &word_determinize,
               "Then determinize on words alone (see also "
               "--phone-determinize)");
  po->Register("minimize", &minimize,
               "Push and minimize the lattice after determinizing it");
}

}  // namespace nnet3
