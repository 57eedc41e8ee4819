// sum-lda-accs: sums LDA statistics files (Kaldi's tool of the same name;
// lib/train/lda-estimate.h).
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "train/lda-estimate.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Sum stats obtained with acc-lda (or nnet3-acc-lda-stats).\n"
    "\n"
    "Usage: sum-lda-accs [options] <stats-out> <stats-in1> <stats-in2> ...\n"
    "e.g.: sum-lda-accs lda_stats 1.lda_stats 2.lda_stats\n"
    "See also: nnet3-acc-lda-stats, nnet-get-feature-transform\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    bool binary = true;
    po.Register("binary", &binary, "Write accumulators in binary mode.");
    po.Read(argc, argv);
    if (po.NumArgs() < 2) {
      po.PrintUsage();
      return 1;
    }
    LdaEstimate lda;
    for (int i = 2; i <= po.NumArgs(); i++) {
      bool binary_in = false;
      Input ki(po.GetArg(i), &binary_in);
      try {
        lda.Read(ki.Stream(), binary_in, /*add=*/true);
      } catch (const UserError &e) {
        RethrowWithContext(
            e, "Reading '" + PrintableRxfilename(po.GetArg(i)) + "'");
      }
      ki.Close();
    }
    WriteKaldiObject(lda, po.GetArg(1), binary);
    NNET3_LOG << "Summed " << po.NumArgs() - 1 << " LDA stats files, count "
              << lda.TotCount() << "; wrote "
              << PrintableWxfilename(po.GetArg(1));
    return 0;
  });
}
