// lattice-determinize-pruned: determinizes state-level lattices on words,
// keeping each word sequence's best path within a beam (Kaldi's tool of the
// same name, over lib/lat's DeterminizeLatticePruned).
#include <string>

#include "base/options.h"
#include "base/program.h"
#include "lat/determinize-lattice-archive.h"
#include "lat/kaldi-lattice.h"

namespace {

const char *const kUsage =
    "Determinize lattices, keeping only the best path (sequence of acoustic "
    "states)\n"
    "for each input-symbol sequence.  This version does pruning as part of "
    "the\n"
    "determinization algorithm, which is more efficient and prevents blowup.\n"
    "See http://kaldi-asr.org/doc/lattices.html for more information on "
    "lattices.\n"
    "\n"
    "Usage: lattice-determinize-pruned [options] lattice-rspecifier "
    "lattice-wspecifier\n"
    " e.g.: lattice-determinize-pruned --acoustic-scale=0.1 --beam=6.0 "
    "ark:in.lats ark:det.lats\n"
    "See also: lattice-prune, lattice-copy\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    ArchiveDeterminizerOptions opts;
    opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    SequentialLatticeReader reader(po.GetArg(1));
    CompactLatticeWriter compact_writer;
    LatticeWriter lattice_writer;
    if (opts.write_compact)
      compact_writer.Open(po.GetArg(2));
    else
      lattice_writer.Open(po.GetArg(2));
    ArchiveDeterminizer determinizer(opts);
    for (; !reader.Done(); reader.Next()) {
      Lattice lat = reader.Value();
      if (opts.write_compact) {
        CompactLattice det;
        determinizer.Determinize(reader.Key(), &lat, &det);
        compact_writer.Write(reader.Key(), det);
      } else {
        Lattice det;
        determinizer.Determinize(reader.Key(), &lat, &det);
        lattice_writer.Write(reader.Key(), det);
      }
    }
    reader.Close();
    if (opts.write_compact)
      compact_writer.Close();
    else
      lattice_writer.Close();
    determinizer.LogSummary();
    return determinizer.NumDone() != 0 ? 0 : 1;
  });
}
