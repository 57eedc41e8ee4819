// lattice-scale: scales the graph and acoustic costs of lattices (Kaldi's
// tool of the same name; scoring scripts use --inv-acoustic-scale=LMWT).
#include <cstdint>
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "lat/kaldi-lattice.h"
#include "lat/lattice-scale-options.h"

namespace {

const char *const kUsage =
    "Apply scaling to lattice weights\n"
    "Usage: lattice-scale [options] lattice-rspecifier lattice-wspecifier\n"
    " e.g.: lattice-scale --lm-scale=0.0 ark:1.lats ark:scaled.lats\n"
    "See also: lattice-add-penalty, lattice-prune, lattice-copy\n";

template <class Reader, class Writer>
int64_t ScaleAll(const nnet3::LatticeScaleMatrix &scale,
                 const std::string &rspecifier, const std::string &wspecifier) {
  Reader reader(rspecifier);
  Writer writer(wspecifier);
  int64_t n_done = 0;
  for (; !reader.Done(); reader.Next(), ++n_done) {
    typename Reader::T lat = reader.Value();
    nnet3::ScaleLattice(scale, &lat);
    writer.Write(reader.Key(), lat);
  }
  reader.Close();
  writer.Close();
  return n_done;
}

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    bool write_compact = true;
    LatticeScaleOptions opts;
    po.Register("write-compact", &write_compact,
                "If true, write in normal (compact) form.");
    opts.Register(&po, /*with_lm_terms=*/true);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    const LatticeScaleMatrix scale = opts.ScaleMatrix();
    const int64_t n_done =
        write_compact
            ? ScaleAll<SequentialCompactLatticeReader, CompactLatticeWriter>(
                  scale, po.GetArg(1), po.GetArg(2))
            : ScaleAll<SequentialLatticeReader, LatticeWriter>(
                  scale, po.GetArg(1), po.GetArg(2));
    NNET3_LOG << "Done " << n_done << " lattices.";
    return n_done != 0 ? 0 : 1;
  });
}
