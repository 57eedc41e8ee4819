// compute-wer-bootci: a word error rate with its bootstrap 95% confidence
// interval, and with a second system the probability that it improves on
// the first (Kaldi's tool of the same name and output lines).
#include <cstdint>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "base/glibc-random.h"
#include "base/options.h"
#include "base/program.h"
#include "util/wer-bootstrap.h"
#include "util/word-error-rate.h"

namespace {

const char *const kUsage =
    "Compute a bootstrapping of WER to extract the 95% confidence interval.\n"
    "Take a reference and a transcription file, in integer or text format,\n"
    "and outputs overall WER statistics to standard output along with its\n"
    "confidence interval using the bootstrap method of Bisani and Ney.\n"
    "If a second transcription file corresponding to the same reference is\n"
    "provided, a bootstrap comparison of the two transcription is performed\n"
    "to estimate the probability of improvement.\n"
    "\n"
    "Usage: compute-wer-bootci [options] <ref-rspecifier> <hyp-rspecifier> "
    "[<hyp2-rspecifier>]\n"
    "E.g.: compute-wer-bootci --mode=present ark:data/train/text "
    "ark:hyp_text\n"
    "or compute-wer-bootci ark:data/train/text ark:hyp_text ark:hyp_text2\n"
    "See also: compute-wer\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    std::string mode = "strict";
    int32_t replications = 10000;
    po.Register("mode", &mode,
                "Scoring mode: \"present\"|\"all\"|\"strict\":\n"
                "  \"present\" means score those we have transcriptions for\n"
                "  \"all\" means treat absent transcriptions as empty\n"
                "  \"strict\" means die if all in ref not also in hyp");
    po.Register("replications", &replications,
                "Number of replications to compute the intervals");
    po.Read(argc, argv);
    if (po.NumArgs() < 2 || po.NumArgs() > 3) {
      po.PrintUsage();
      return 1;
    }
    const WerMode wer_mode = ParseWerMode(mode);
    const std::string hyp2 = po.GetOptArg(3);
    std::vector<std::pair<int32_t, int32_t>> edits, edits2;
    ComputeUtteranceEdits(po.GetArg(1), po.GetArg(2), hyp2, wer_mode, &edits,
                          &edits2);
    GlibcRandom rng;  // Kaldi never seeds rand() here
    const BootstrapWer wer = BootstrapWerInterval(edits, replications, &rng);
    if (hyp2.empty()) {
      PrintBootstrapWer(1, wer, std::cout);
      return 0;
    }
    const BootstrapWer wer2 = BootstrapWerInterval(edits2, replications, &rng);
    const float p_improve =
        BootstrapImprovementProbability(edits, edits2, replications, &rng);
    PrintBootstrapWer(1, wer, std::cout);
    PrintBootstrapWer(2, wer2, std::cout);
    std::cout.precision(2);
    std::cout << "Probability of Set2 improving Set1: " << std::fixed
              << 100 * p_improve << '\n';
    return 0;
  });
}
