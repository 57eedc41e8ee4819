// fstcopy: copies tables (archives, scp files) of FSTs (Kaldi's tool of the
// same name).
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "fstext/kaldi-fst-io.h"

namespace {

const char *const kUsage =
    "Copy tables/archives of FSTs, indexed by a string (e.g. utterance-id)\n"
    "\n"
    "Usage: fstcopy <fst-rspecifier> <fst-wspecifier>\n"
    "e.g.: fstcopy ark:graphs.ark ark,t:-\n"
    "See also: fsttablecompose, fstdeterminizestar\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    SequentialFstReader reader(po.GetArg(1));
    FstWriter writer(po.GetArg(2));
    int n_done = 0;
    for (; !reader.Done(); reader.Next(), ++n_done)
      writer.Write(reader.Key(), reader.Value());
    NNET3_LOG << "Copied " << n_done << " FSTs.";
    return n_done != 0 ? 0 : 1;
  });
}
