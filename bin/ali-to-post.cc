// ali-to-post: turns alignments into posteriors, each frame's index with
// weight 1 (Kaldi's tool of the same name).
#include <cstdint>
#include <vector>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Convert alignments to posteriors.  This is simply a format change\n"
    "from integer vectors to Posteriors, which are vectors of lists of\n"
    "pairs (int, float) where the float represents the posterior.  The\n"
    "floats would all be 1.0 in this case.\n"
    "The posteriors will still be in terms of whatever integer index\n"
    "the input contained, which will be transition-ids if they came\n"
    "directly from decoding, or pdf-ids if they were processed by\n"
    "ali-to-pdf.\n"
    "Usage:  ali-to-post [options] <alignments-rspecifier> "
    "<posteriors-wspecifier>\n"
    "e.g.:\n"
    " ali-to-post ark:1.ali ark:1.post\n"
    "See also: ali-to-pdf, ali-to-phones, show-alignments\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    SequentialInt32VectorReader reader(po.GetArg(1));
    PosteriorWriter writer(po.GetArg(2));
    int64_t num_done = 0;
    for (; !reader.Done(); reader.Next(), ++num_done) {
      const std::vector<int32_t> &alignment = reader.Value();
      Posterior post(alignment.size());
      for (size_t t = 0; t < alignment.size(); ++t)
        post[t].emplace_back(alignment[t], 1.0f);
      writer.Write(reader.Key(), post);
    }
    reader.Close();
    writer.Close();
    NNET3_LOG << "Converted " << num_done << " alignments.";
    return num_done != 0 ? 0 : 1;
  });
}
