// nnet3-merge-egs: merges single egs into minibatches (Kaldi's tool of the
// same name; the rules are in lib/train/nnet-example-utils.h).
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "train/nnet-example-utils.h"
#include "train/nnet-example.h"

namespace {

const char *const kUsage =
    "This copies nnet training examples from input to output, but while doing\n"
    "so it merges many NnetExample objects into one, forming a minibatch\n"
    "consisting of a single NnetExample. Only egs with the same structure\n"
    "(e.g. the same number of frames) are merged.\n"
    "\n"
    "Usage:  nnet3-merge-egs [options] <egs-rspecifier> <egs-wspecifier>\n"
    "e.g.:\n"
    "  nnet3-merge-egs --minibatch-size=512 ark:1.egs ark:- | nnet3-train \\\n"
    "    1.raw ark:- 2.raw\n"
    "  nnet3-merge-egs --minibatch-size=128=64:128,256/256=32:64,128 \\\n"
    "    ark:1.egs ark:merged.egs\n"
    "See also: nnet3-get-egs, nnet3-shuffle-egs, nnet3-copy-egs, nnet3-train\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    // The default of 256 suits speech egs (Kaldi's choice for this tool).
    ExampleMergingConfig merging_config("256");
    merging_config.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    merging_config.ComputeDerived();
    std::string in = po.GetArg(1), out = po.GetArg(2);
    SequentialNnetExampleReader example_reader(in);
    NnetExampleWriter example_writer(out);
    ExampleMerger merger(merging_config, &example_writer);
    for (; !example_reader.Done(); example_reader.Next())
      merger.AcceptExample(example_reader.Value());
    merger.Finish();  // logs the statistics
    example_writer.Close();
    if (merger.NumEgsRead() == 0)
      NNET3_ERR << "No examples were read from " << in
                << " (is the archive empty?)";
    if (merger.ExitStatus() != 0)
      NNET3_ERR << "No minibatches were written: all " << merger.NumEgsRead()
                << " examples were discarded (see --minibatch-size="
                << merging_config.minibatch_size << ")";
    return 0;
  });
}
