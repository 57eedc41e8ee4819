// select-feats: chosen dimensions of features, as unix cut -f (Kaldi's
// tool of the same name; lib/feat/feature-columns.h).
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "feat/feature-columns.h"
#include "feat/feature-program.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Select certain dimensions of the feature file;  think of it as the "
    "unix\n"
    "command cut -f ...\n"
    "Usage: select-feats <selection> <in-rspecifier> <out-wspecifier>\n"
    "  e.g. select-feats 0,24-22,3-12 scp:feats.scp "
    "ark,scp:feat-red.ark,feat-red.scp\n"
    "See also copy-feats, paste-feats, splice-feats\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    SequentialBaseFloatMatrixReader reader(po.GetArg(2));
    if (reader.Done()) {
      NNET3_WARN << "Empty archive provided.";
      return 0;
    }
    const int32_t dim = reader.Value().NumCols();
    const std::vector<int32_t> cols = ParseSelection(po.GetArg(1), dim);
    BaseFloatMatrixWriter writer(po.GetArg(3));
    std::vector<float> out;
    for (; !reader.Done(); reader.Next()) {
      const Matrix &feats = reader.Value();
      if (feats.NumCols() != dim)
        NNET3_ERR << "Utterance " << reader.Key() << " has dimension "
                  << feats.NumCols() << " but the first had " << dim;
      const std::vector<float> in = feats.ToHost();
      SelectColumns(feats.NumRows(), dim, in.data(), cols, &out);
      writer.Write(reader.Key(),
                   HostToMatrix(feats.NumRows(), cols.size(), out));
    }
    writer.Close();
    return 0;
  });
}
