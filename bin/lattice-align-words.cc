// lattice-align-words: word-aligns lattices so that each CompactLattice arc
// holds one word and exactly its transition-ids (Kaldi's tool of the same
// name; lat/word-align-lattice.h).
#include <cstdint>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "compute/am-nnet-simple.h"
#include "hmm/transition-model.h"
#include "lat/kaldi-lattice.h"
#include "lat/lattice-state-times.h"
#include "lat/word-align-lattice.h"
#include "lat/word-boundary-info.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Convert lattices so that the arcs in the CompactLattice format "
    "correspond with\n"
    "words (i.e. aligned with word boundaries).  Note: it will generally be "
    "more\n"
    "efficient if you apply 'lattice-push' before this program.\n"
    "Usage: lattice-align-words [options] <word-boundary-file> <model> "
    "<lattice-rspecifier> <lattice-wspecifier>\n"
    " e.g.: lattice-align-words  --silence-label=4320 "
    "--partial-word-label=4324 \\\n"
    "   data/lang/phones/word_boundary.int final.mdl ark:1.lats "
    "ark:aligned.lats\n"
    "Note: word-boundary file has format (on each line):\n"
    "<integer-phone-id> [begin|end|singleton|internal|nonword]\n"
    "See also: lattice-align-words-lexicon, for use in cases where phones\n"
    "don't have word-position information.\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    float max_expand = 0.0f;
    bool output_if_error = true, do_test = false;
    po.Register("output-error-lats", &output_if_error,
                "Output lattices that aligned with errors (e.g. due to "
                "force-out)");
    po.Register("test", &do_test, "Test the algorithm while running it.");
    po.Register("max-expand", &max_expand,
                "If >0, the maximum amount by which this program will expand "
                "lattices before refusing to continue.  E.g. 10. This can be "
                "used to prevent this program consuming excessive memory if "
                "there is a mismatch on the command-line or a 'problem' "
                "lattice.");
    WordBoundaryInfoOptions opts;
    opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 4) {
      po.PrintUsage();
      return 1;
    }
    TransitionModel trans_model;
    ReadTransitionModel(po.GetArg(2), &trans_model);
    SequentialCompactLatticeReader reader(po.GetArg(3));
    CompactLatticeWriter writer(po.GetArg(4));
    const WordBoundaryInfo info(opts, po.GetArg(1));
    int32_t num_done = 0, num_err = 0;
    for (; !reader.Done(); reader.Next()) {
      const std::string key = reader.Key();
      const CompactLattice &clat = reader.Value();
      const int32_t max_states =
          max_expand > 0 ? 1000 + max_expand * clat.NumStates() : 0;
      CompactLattice aligned;
      bool ok = false;
      try {
        ok = WordAlignLattice(clat, trans_model, info, max_states, &aligned);
        if (do_test && ok)
          TestWordAlignedLattice(clat, trans_model, info, aligned);
      } catch (const UserError &e) {
        RethrowWithContext(e, "Word-aligning the lattice for " + key);
      }
      const bool empty = aligned.Start() == fst::kNoStateId;
      if (!ok) {
        ++num_err;
        if (!output_if_error) {
          NNET3_WARN << "Lattice for " << key
                     << " did not align correctly, producing no output.";
          continue;
        }
        if (empty) {
          NNET3_WARN << "Empty aligned lattice for " << key
                     << ", producing no output.";
          continue;
        }
        NNET3_WARN << "Outputting partial lattice for " << key;
      } else if (empty) {
        ++num_err;
        NNET3_WARN << "Lattice was empty for key " << key;
        continue;
      } else {
        ++num_done;
        NNET3_VLOG(2) << "Aligned lattice for " << key;
      }
      TopSortCompactLatticeIfNeeded(&aligned);
      writer.Write(key, aligned);
    }
    writer.Close();
    NNET3_LOG << "Successfully aligned " << num_done << " lattices; " << num_err
              << " had errors.";
    return num_done > num_err ? 0 : 1;
  });
}
