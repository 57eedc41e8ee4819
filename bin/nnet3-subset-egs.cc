// nnet3-subset-egs: a uniform random subset of egs, of a given size
// (Kaldi's tool of the same name).
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "base/random.h"
#include "train/example-sampling.h"
#include "train/nnet-example.h"

namespace {

const char *const kUsage =
    "Creates a random subset of the input examples, of a specified size.\n"
    "Uses no more memory than the size of the subset.\n"
    "\n"
    "Usage:  nnet3-subset-egs [options] <egs-rspecifier> <egs-wspecifier>\n"
    "e.g.:\n"
    "  nnet3-copy-egs ark:train.egs ark:- | nnet3-subset-egs --n=1000 \\\n"
    "    ark:- ark:subset.egs\n"
    "See also: nnet3-copy-egs, nnet3-shuffle-egs\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    int32_t srand_seed = 0, n = 1000;
    bool randomize_order = true;
    po.Register("srand", &srand_seed, "Seed for random number generator ");
    po.Register("n", &n, "Number of examples to output");
    po.Register("randomize-order", &randomize_order,
                "If true, randomize the order of the output");
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    if (n < 0) NNET3_ERR << "Invalid --n=" << n << " (must be >= 0)";
    // As Kaldi's: which egs are kept is drawn from rand(), which Kaldi's
    // program never seeds (--srand does not change it); the order is
    // std::shuffle over std::mt19937(--srand).
    RandomState rng =
        RandomState::KaldiDraws(static_cast<uint32_t>(srand_seed), 0);
    ReservoirSampler sampler(n, &rng);
    SequentialNnetExampleReader example_reader(po.GetArg(1));
    for (; !example_reader.Done(); example_reader.Next())
      sampler.Accept(example_reader.Key(), example_reader.Value());
    if (randomize_order) ShuffleExamples(&rng, sampler.Samples());
    NnetExampleWriter writer(po.GetArg(2));
    for (const KeyedExample &eg : *sampler.Samples())
      writer.Write(eg.first, eg.second);
    writer.Close();
    NNET3_LOG << "Selected a subset of " << sampler.Samples()->size()
              << " out of " << sampler.NumSeen()
              << " neural-network training examples";
    if (sampler.NumSeen() == 0)
      NNET3_ERR << "No examples were read from " << po.GetArg(1)
                << " (is the archive empty?)";
    return 0;
  });
}
