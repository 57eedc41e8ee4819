// lattice-depth-per-frame: how many lattice arcs cross each frame, per
// utterance (Kaldi's tool of the same name; lat/lattice-depth.h).
#include <cstdint>
#include <string>
#include <vector>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "lat/kaldi-lattice.h"
#include "lat/lattice-depth.h"
#include "lat/lattice-state-times.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "For each lattice, compute a vector of length (num-frames) saying how\n"
    "may arcs cross each frame.  See also lattice-depth\n"
    "Usage: lattice-depth-per-frame <lattice-rspecifier> <depth-wspecifier> "
    "[<lattice-wspecifier>]\n"
    "The final <lattice-wspecifier> allows you to write the input lattices "
    "out\n"
    "in case you want to do something else with them as part of the same "
    "pipe.\n"
    "E.g.: lattice-depth-per-frame ark:- ark,t:-\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    po.Read(argc, argv);
    if (po.NumArgs() < 2 || po.NumArgs() > 3) {
      po.PrintUsage();
      return 1;
    }
    SequentialCompactLatticeReader reader(po.GetArg(1));
    Int32VectorWriter depth_writer(po.GetArg(2));
    CompactLatticeWriter lattice_writer;
    if (!po.GetOptArg(3).empty()) lattice_writer.Open(po.GetOptArg(3));
    int64_t num_done = 0;
    for (; !reader.Done(); reader.Next()) {
      CompactLattice clat = reader.Value();
      const std::string key = reader.Key();
      TopSortCompactLatticeIfNeeded(&clat);
      std::vector<int32_t> depth_per_frame;
      CompactLatticeDepthPerFrame(clat, &depth_per_frame);
      depth_writer.Write(key, depth_per_frame);
      if (lattice_writer.IsOpen()) lattice_writer.Write(key, clat);
      ++num_done;
    }
    depth_writer.Close();
    if (lattice_writer.IsOpen()) lattice_writer.Close();
    NNET3_LOG << "Done " << num_done << " lattices.";
    return num_done != 0 ? 0 : 1;
  });
}
