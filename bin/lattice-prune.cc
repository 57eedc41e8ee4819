// lattice-prune: beam-prunes compact lattices after scaling their acoustic
// costs (Kaldi's tool of the same name); the output has the input's scale.
#include <cstdint>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "fstext/lattice-scale.h"
#include "lat/kaldi-lattice.h"
#include "lat/lattice-scale-options.h"
#include "lat/prune-lattice.h"

namespace {

const char *const kUsage =
    "Apply beam pruning to lattices\n"
    "Usage: lattice-prune [options] lattice-rspecifier lattice-wspecifier\n"
    " e.g.: lattice-prune --acoustic-scale=0.1 --beam=4.0 ark:1.lats "
    "ark:pruned.lats\n"
    "See also: lattice-determinize-pruned, lattice-scale\n";

int64_t NumArcs(const nnet3::CompactLattice &clat) {
  int64_t n = 0;
  for (int32_t s = 0; s < clat.NumStates(); ++s) n += clat.NumArcs(s);
  return n;
}

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    LatticeScaleOptions scale_opts;
    float beam = 10.0f;
    scale_opts.Register(&po, /*with_lm_terms=*/false);
    po.Register("beam", &beam, "Pruning beam [applied after acoustic scaling]");
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    const float acoustic_scale = scale_opts.AcousticScale();
    SequentialCompactLatticeReader reader(po.GetArg(1));
    CompactLatticeWriter writer(po.GetArg(2));
    if (acoustic_scale == 0.0f)
      NNET3_ERR << "Do not use a zero acoustic scale (cannot be inverted)";
    if (!(beam > 0.0f))
      NNET3_ERR << "--beam must be positive (got " << beam << ")";
    int64_t n_done = 0, arcs_in = 0, arcs_out = 0, states_in = 0,
            states_out = 0;
    for (; !reader.Done(); reader.Next(), ++n_done) {
      const std::string key = reader.Key();
      CompactLattice clat = reader.Value();
      ScaleLattice(AcousticLatticeScale(acoustic_scale), &clat);
      const int64_t num_arcs = NumArcs(clat), num_states = clat.NumStates();
      if (!PruneLattice(beam, &clat))
        NNET3_WARN << "Error pruning lattice for utterance " << key;
      NNET3_LOG << "For utterance " << key << ", pruned #states from "
                << num_states << " to " << clat.NumStates()
                << " and #arcs from " << num_arcs << " to " << NumArcs(clat);
      arcs_in += num_arcs;
      states_in += num_states;
      arcs_out += NumArcs(clat);
      states_out += clat.NumStates();
      ScaleLattice(AcousticLatticeScale(1.0 / acoustic_scale), &clat);
      writer.Write(key, clat);
    }
    reader.Close();
    writer.Close();
    const float den = n_done > 0 ? static_cast<float>(n_done) : 1.0f;
    NNET3_LOG << "Overall, pruned from on average " << (states_in / den)
              << " to " << (states_out / den) << " states, and from "
              << (arcs_in / den) << " to " << (arcs_out / den) << " arcs, over "
              << n_done << " utterances.";
    NNET3_LOG << "Done " << n_done << " lattices.";
    return n_done != 0 ? 0 : 1;
  });
}
