// compute-wer: word and sentence error rates of hypothesis transcripts
// against references (Kaldi's tool of the same name and output lines).
#include <iostream>
#include <string>

#include "base/options.h"
#include "base/program.h"
#include "util/word-error-rate.h"

namespace {

const char *const kUsage =
    "Compute WER by comparing different transcriptions\n"
    "Takes two transcription files, in integer or text format,\n"
    "and outputs overall WER statistics to standard output.\n"
    "\n"
    "Usage: compute-wer [options] <ref-rspecifier> <hyp-rspecifier>\n"
    "E.g.: compute-wer --text --mode=present ark:data/train/text "
    "ark:hyp_text\n"
    "See also: align-text, compute-wer-bootci\n"
    "Example scoring script: egs/utils/score.sh\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    std::string mode = "strict";
    bool text = false;
    po.Register("mode", &mode,
                "Scoring mode: \"present\"|\"all\"|\"strict\":\n"
                "  \"present\" means score those we have transcriptions for\n"
                "  \"all\" means treat absent transcriptions as empty\n"
                "  \"strict\" means die if all in ref not also in hyp");
    po.Register("text", &text,
                "Deprecated option! Keeping for compatibility reasons.");
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    const WerMode wer_mode = ParseWerMode(mode);
    const WerStats stats =
        ComputeWerStats(po.GetArg(1), po.GetArg(2), wer_mode);
    PrintWerReport(stats, std::cout);
    return 0;
  });
}
