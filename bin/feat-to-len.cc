// feat-to-len: the length in frames (number of rows) of features, per
// utterance or in total (Kaldi's tool of the same name).
#include <cstdint>
#include <iostream>
#include <string>

#include "base/options.h"
#include "base/program.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Reads an archive of features and writes a corresponding archive\n"
    "that maps utterance-id to utterance length in frames, or (with\n"
    "one argument) print to stdout the total number of frames in the\n"
    "input archive.\n"
    "\n"
    "Usage: feat-to-len [options] <in-rspecifier> [<out-wspecifier>]\n"
    "e.g.: feat-to-len scp:feats.scp ark,t:feats.lengths\n"
    "or: feat-to-len scp:feats.scp\n"
    "See also: feat-to-dim, copy-feats\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    po.Read(argc, argv);
    if (po.NumArgs() != 1 && po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    SequentialBaseFloatMatrixReader reader(po.GetArg(1));
    if (po.NumArgs() == 2) {
      Int32Writer length_writer(po.GetArg(2));
      for (; !reader.Done(); reader.Next())
        length_writer.Write(reader.Key(), reader.Value().NumRows());
      length_writer.Close();
      return 0;
    }
    int64_t total = 0;
    for (; !reader.Done(); reader.Next()) total += reader.Value().NumRows();
    std::cout << total << std::endl;
    return 0;
  });
}
