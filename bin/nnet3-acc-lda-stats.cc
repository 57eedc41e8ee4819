// nnet3-acc-lda-stats: LDA statistics of a network's output on egs, classes
// from the supervision (Kaldi's tool of the same name;
// lib/train/nnet-lda-stats.h).
#include <cstdint>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "nnet/nnet.h"
#include "train/nnet-example.h"
#include "train/nnet-lda-stats.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Accumulate statistics in the same format as acc-lda (i.e. stats for\n"
    "estimation of LDA and similar types of transform), starting from nnet\n"
    "training examples.  This program puts the features through the "
    "network,\n"
    "and the network output will be the features; the supervision in the\n"
    "training examples is used for the class labels.  Used in obtaining\n"
    "feature transforms that help nnet training work better.\n"
    "\n"
    "Usage:  nnet3-acc-lda-stats [options] <raw-nnet-in> "
    "<training-examples-in> <lda-stats-out>\n"
    "e.g.:\n"
    "nnet3-acc-lda-stats 0.raw ark:1.egs 1.acc\n"
    "See also: nnet-get-feature-transform, sum-lda-accs\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    bool binary_write = true;
    float rand_prune = 0.0f;
    int32_t srand_seed = 0;
    po.Register("binary", &binary_write, "Write output in binary mode");
    po.Register("rand-prune", &rand_prune,
                "Randomized pruning threshold for posteriors");
    po.Register("srand", &srand_seed,
                "Seed for the random numbers of --rand-prune");
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    const std::string stats_wxfilename = po.GetArg(3);
    Nnet nnet;
    ReadKaldiObject(po.GetArg(1), &nnet);
    NnetLdaStatsAccumulator accumulator(rand_prune, nnet,
                                        static_cast<uint32_t>(srand_seed));
    int64_t num_egs = 0;
    SequentialNnetExampleReader example_reader(po.GetArg(2));
    for (; !example_reader.Done(); example_reader.Next(), num_egs++)
      accumulator.AccStats(example_reader.Value());
    NNET3_LOG << "Processed " << num_egs << " examples.";
    if (accumulator.Stats().TotCount() == 0.0)
      NNET3_ERR << "Accumulated no stats (no examples, or all supervision "
                   "weights were zero)";
    WriteKaldiObject(accumulator.Stats(), stats_wxfilename, binary_write);
    NNET3_LOG << "Accumulated stats, soft frame count = "
              << accumulator.Stats().TotCount() << ".  Wrote to "
              << PrintableWxfilename(stats_wxfilename);
    return 0;
  });
}
