// nnet3-shuffle-egs: shuffles the order of egs (Kaldi's tool of the same
// name), fully in memory or with a limited buffer.
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "base/random.h"
#include "train/example-sampling.h"
#include "train/nnet-example.h"

namespace {

const char *const kUsage =
    "Copy examples (typically single frames) for neural network training,\n"
    "from the input to output, but randomly shuffle the order. This program\n"
    "will keep all of the examples in memory at once, unless you use the\n"
    "--buffer-size option.\n"
    "\n"
    "Usage:  nnet3-shuffle-egs [options] <egs-rspecifier> <egs-wspecifier>\n"
    "e.g.:\n"
    "  nnet3-shuffle-egs --srand=1 ark:train.egs ark:shuffled.egs\n"
    "  nnet3-shuffle-egs --buffer-size=10000 ark:train.egs ark:- | ...\n"
    "See also: nnet3-copy-egs, nnet3-merge-egs, nnet3-subset-egs\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    int32_t srand_seed = 0, buffer_size = 0;
    po.Register("srand", &srand_seed, "Seed for random number generator ");
    po.Register("buffer-size", &buffer_size,
                "If >0, size of a buffer we use to do limited-memory partial "
                "randomization. Otherwise, do full randomization.");
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    if (buffer_size < 0)
      NNET3_ERR << "Invalid --buffer-size=" << buffer_size << " (must be >= 0)";
    // As Kaldi's: the full shuffle is std::shuffle over
    // std::mt19937(--srand); the buffer's slots are drawn from rand(), which
    // Kaldi's program never seeds (--srand does not change them).
    RandomState rng =
        RandomState::KaldiDraws(static_cast<uint32_t>(srand_seed), 0);
    SequentialNnetExampleReader example_reader(po.GetArg(1));
    NnetExampleWriter example_writer(po.GetArg(2));
    std::vector<KeyedExample> egs;
    int64_t num_done = 0;
    if (buffer_size == 0) {
      for (; !example_reader.Done(); example_reader.Next())
        egs.emplace_back(example_reader.Key(), example_reader.Value());
      ShuffleExamples(&rng, &egs);
    } else {
      BufferShuffler shuffler(buffer_size, &rng);
      KeyedExample out;
      for (; !example_reader.Done(); example_reader.Next()) {
        if (shuffler.Accept(example_reader.Key(), example_reader.Value(),
                            &out)) {
          example_writer.Write(out.first, out.second);
          num_done++;
        }
      }
      shuffler.Flush(&egs);
    }
    for (const KeyedExample &eg : egs)
      example_writer.Write(eg.first, eg.second);
    num_done += static_cast<int64_t>(egs.size());
    example_writer.Close();
    NNET3_LOG << "Shuffled order of " << num_done
              << " neural-network training examples"
              << (buffer_size ? " using a buffer (partial randomization)" : "");
    if (num_done == 0)
      NNET3_ERR << "No examples were read from " << po.GetArg(1)
                << " (is the archive empty?)";
    return 0;
  });
}
