// nnet3-egs-augment-image: copies egs, applying a random image
// transformation to each eg's input (Kaldi's tool of the same name;
// lib/train/image-augmentation.h).
#include <cstdint>
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "base/random.h"
#include "train/image-augmentation.h"
#include "train/nnet-example.h"

namespace {

const char *const kUsage =
    "Copy examples (single frames or fixed-size groups of frames) for "
    "neural\n"
    "network training, doing image augmentation inline (copies after "
    "possibly\n"
    "modifying of each image, randomly chosen according to configuration\n"
    "parameters).\n"
    "\n"
    "Usage:  nnet3-egs-augment-image [options] <egs-rspecifier> "
    "<egs-wspecifier>\n"
    "e.g.:\n"
    "  nnet3-egs-augment-image --horizontal-flip-prob=0.5 "
    "--horizontal-shift=0.1\\\n"
    "       --vertical-shift=0.1 --srand=103 --num-channels=3 "
    "--fill-mode=nearest ark:- ark:-\n"
    "\n"
    "Requires that each example contain a NnetIo object 'input', with "
    "successive\n"
    "'t' values representing different x offsets , and the feature "
    "dimension\n"
    "representing the y offset and the channel (color), with the channel\n"
    "varying the fastest.\n"
    "See also: nnet3-copy-egs\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    int32_t srand_seed = 0;
    ImageAugmentationConfig config;
    po.Register("srand", &srand_seed, "Seed for the random number generator");
    config.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    config.Check();
    // Kaldi's draws: srand(--srand), then rand().
    RandomState rng = RandomState::KaldiDraws(
        static_cast<uint32_t>(srand_seed), static_cast<uint32_t>(srand_seed));
    SequentialNnetExampleReader example_reader(po.GetArg(1));
    NnetExampleWriter example_writer(po.GetArg(2));
    int64_t num_done = 0;
    for (; !example_reader.Done(); example_reader.Next(), num_done++) {
      NnetExample &eg = example_reader.Value();
      PerturbImageInNnetExample(config, &rng, &eg);
      example_writer.Write(example_reader.Key(), eg);
    }
    example_writer.Close();
    NNET3_LOG << "Perturbed " << num_done << " neural-network training images.";
    return num_done == 0 ? 1 : 0;
  });
}
