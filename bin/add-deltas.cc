// add-deltas: features with their time derivatives appended (Kaldi's tool
// of the same name; lib/feat/deltas.h).
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "feat/deltas.h"
#include "feat/feature-program.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Add deltas (typically to raw mfcc or plp features\n"
    "Usage: add-deltas [options] in-rspecifier out-wspecifier\n"
    "e.g.: add-deltas --delta-order=2 scp:feats.scp ark:-\n"
    "See also: splice-feats, compute-mfcc-feats, apply-cmvn\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    DeltaFeaturesOptions opts;
    int32_t truncate = 0;
    po.Register("truncate", &truncate,
                "If nonzero, first truncate features to this dimension.");
    opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    BaseFloatMatrixWriter writer(po.GetArg(2));
    SequentialBaseFloatMatrixReader reader(po.GetArg(1));
    std::vector<float> out;
    for (; !reader.Done(); reader.Next()) {
      const Matrix &feats = reader.Value();
      if (feats.NumRows() == 0) {
        NNET3_WARN << "Empty feature matrix for key " << reader.Key();
        continue;
      }
      if (truncate > feats.NumCols())
        NNET3_ERR << "Cannot truncate features of utterance " << reader.Key()
                  << " to " << truncate << ": their dimension is only "
                  << feats.NumCols();
      const int32_t dim = truncate != 0 ? truncate : feats.NumCols();
      Matrix kept(feats.ColRange(0, dim));
      const std::vector<float> in = kept.ToHost();
      ComputeDeltas(opts, feats.NumRows(), dim, in.data(), &out);
      writer.Write(reader.Key(),
                   HostToMatrix(feats.NumRows(), dim * (opts.order + 1), out));
    }
    writer.Close();
    return 0;
  });
}
