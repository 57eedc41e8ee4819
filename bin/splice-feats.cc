// splice-feats: each frame with its left and right neighbours side by side
// (Kaldi's tool of the same name; lib/feat/splice-frames.h).
#include <string>
#include <vector>

#include "base/options.h"
#include "base/program.h"
#include "feat/feature-program.h"
#include "feat/splice-frames.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Splice features with left and right context (e.g. prior to LDA)\n"
    "Usage: splice-feats [options] <feature-rspecifier> "
    "<feature-wspecifier>\n"
    "e.g.: splice-feats scp:feats.scp ark:-\n"
    "See also: add-deltas, nnet3-acc-lda-stats\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    int32_t left_context = 4, right_context = 4;
    po.Register("left-context", &left_context,
                "Number of frames of left context");
    po.Register("right-context", &right_context,
                "Number of frames of right context");
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
      const std::vector<float> in = feats.ToHost();
      SpliceFrames(feats.NumRows(), feats.NumCols(), in.data(), left_context,
                   right_context, &out);
      const int32_t width = left_context + 1 + right_context;
      writer.Write(reader.Key(),
                   HostToMatrix(feats.NumRows(), feats.NumCols() * width, out));
    }
    writer.Close();
    return 0;
  });
}
