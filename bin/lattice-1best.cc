// lattice-1best: the best path of each compact lattice, as a linear compact
// lattice with the input's scale (Kaldi's tool of the same name).
#include <cstdint>
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "lat/kaldi-lattice.h"
#include "lat/lattice-best-path.h"

namespace {

const char *const kUsage =
    "Compute best path through lattices and write out as FSTs\n"
    "Note: differs from lattice-nbest with --n=1 because we won't\n"
    "append -1 to the utterance-ids.  Differs from lattice-best-path\n"
    "because output is FST.\n"
    "\n"
    "Usage: lattice-1best [options] <lattice-rspecifier> <lattice-wspecifier>\n"
    " e.g.: lattice-1best --acoustic-scale=0.1 ark:1.lats ark:1best.lats\n"
    "See also: lattice-best-path\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    float acoustic_scale = 1.0f, lm_scale = 1.0f, word_ins_penalty = 0.0f;
    po.Register("acoustic-scale", &acoustic_scale,
                "Scaling factor for acoustic likelihoods");
    po.Register("lm-scale", &lm_scale,
                "Scaling factor for language model scores.");
    po.Register("word-ins-penalty", &word_ins_penalty,
                "Word insertion penalty.");
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    SequentialCompactLatticeReader reader(po.GetArg(1));
    CompactLatticeWriter writer(po.GetArg(2));
    int64_t n_done = 0, n_err = 0;
    for (; !reader.Done(); reader.Next()) {
      const std::string key = reader.Key();
      CompactLattice best_path;
      if (!CompactLatticeOneBest(reader.Value(), lm_scale, acoustic_scale,
                                 word_ins_penalty, &best_path)) {
        NNET3_WARN << "Possibly empty lattice for utterance-id " << key
                   << "(no output)";
        ++n_err;
        continue;
      }
      writer.Write(key, best_path);
      ++n_done;
    }
    reader.Close();
    writer.Close();
    NNET3_LOG << "Done converting " << n_done << " to best path, " << n_err
              << " had errors.";
    return n_done != 0 ? 0 : 1;
  });
}
