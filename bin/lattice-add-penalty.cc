// lattice-add-penalty: adds a word insertion penalty to the graph cost of
// every word of compact lattices (Kaldi's tool of the same name).
#include <cstdint>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "lat/kaldi-lattice.h"
#include "lat/word-insertion-penalty.h"

namespace {

const char *const kUsage =
    "Add word insertion penalty to the lattice.\n"
    "Note: penalties are negative log-probs, base e, and are added to the\n"
    "'language model' part of the cost.\n"
    "\n"
    "Usage: lattice-add-penalty [options] <lattice-rspecifier> "
    "<lattice-wspecifier>\n"
    " e.g.: lattice-add-penalty --word-ins-penalty=1.0 ark:- ark:-\n"
    "See also: lattice-scale, lattice-best-path\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    float word_ins_penalty = 0.0f;
    po.Register("word-ins-penalty", &word_ins_penalty,
                "Word insertion penalty");
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    SequentialCompactLatticeReader reader(po.GetArg(1));
    CompactLatticeWriter writer(po.GetArg(2));
    int64_t n_done = 0;
    for (; !reader.Done(); reader.Next(), ++n_done) {
      CompactLattice clat = reader.Value();
      AddWordInsPenToCompactLattice(word_ins_penalty, &clat);
      writer.Write(reader.Key(), clat);
    }
    reader.Close();
    writer.Close();
    NNET3_LOG << "Done adding word insertion penalty to " << n_done
              << " lattices.";
    return n_done != 0 ? 0 : 1;
  });
}
