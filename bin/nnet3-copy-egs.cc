// nnet3-copy-egs: copies egs, optionally keeping a random proportion,
// selecting one frame, truncating context, or splitting over several outputs
// (Kaldi's tool of the same name).
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "base/random.h"
#include "train/example-sampling.h"
#include "train/multitask-egs.h"
#include "train/nnet-example-select.h"
#include "train/nnet-example.h"

namespace {

const char *const kUsage =
    "Copy examples (single frames or fixed-size groups of frames) for neural\n"
    "network training, possibly changing the binary mode. Supports multiple\n"
    "wspecifiers, in which case it will write the examples round-robin to the\n"
    "outputs.\n"
    "\n"
    "Usage:  nnet3-copy-egs [options] <egs-rspecifier> <egs-wspecifier1> "
    "[<egs-wspecifier2> ...]\n"
    "e.g.:\n"
    "  nnet3-copy-egs ark:train.egs ark,t:text.egs\n"
    "or:\n"
    "  nnet3-copy-egs ark:train.egs ark:1.egs ark:2.egs\n"
    "  nnet3-copy-egs --frame=random --left-context=4 ark:train.egs ark:-\n"
    "See also: nnet3-subset-egs, nnet3-shuffle-egs, nnet3-merge-egs\n";

struct CopyEgsOptions {
  bool random = false;
  int32_t srand_seed = 0, frame_shift = 0;
  float keep_proportion = 1.0f;
  int32_t left_context = -1, right_context = -1;
  std::string frame;
  nnet3::MultitaskEgsOptions multitask;

  void Register(nnet3::OptionsRegistry *po) {
    po->Register("random", &random,
                 "If true, each example will go to a random output.");
    po->Register("srand", &srand_seed,
                 "Seed for random number generator (only relevant if "
                 "--random=true, --frame=random or --keep-proportion != 1.0)");
    po->Register("frame-shift", &frame_shift,
                 "Allows you to shift time values in the supervision data "
                 "(excluding iVector data). Shifting is done after any frame "
                 "selection.");
    po->Register("keep-proportion", &keep_proportion,
                 "If <1.0, this program will randomly keep this proportion of "
                 "the input samples. If >1.0, it will in expectation copy a "
                 "sample this many times: floor(keep-proportion) times, and "
                 "then with probability proportion - floor(keep-proportion) "
                 "one more time.");
    po->Register("frame", &frame,
                 "This option can be used to select a single frame from each "
                 "multi-frame example. Set to a number 0, 1, etc. to select a "
                 "frame with a given index, or 'random' to select a random "
                 "frame.");
    po->Register("left-context", &left_context,
                 "Can be used to truncate the feature left-context that we "
                 "output (-1 = keep it all).");
    po->Register("right-context", &right_context,
                 "Can be used to truncate the feature right-context that we "
                 "output (-1 = keep it all).");
    multitask.Register(po);
  }
  bool Selects() const {
    return !frame.empty() || left_context != -1 || right_context != -1 ||
           frame_shift != 0;
  }
};

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    CopyEgsOptions opts;
    opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() < 2) {
      po.PrintUsage();
      return 1;
    }
    if (opts.keep_proportion < 0.0f)
      NNET3_ERR << "Invalid --keep-proportion=" << opts.keep_proportion
                << " (must be >= 0)";
    // Kaldi's draws (srand(--srand), then rand()): the same copies, outputs
    // and frames as Kaldi's program for the same seed.
    RandomState rng =
        RandomState::KaldiDraws(static_cast<uint32_t>(opts.srand_seed),
                                static_cast<uint32_t>(opts.srand_seed));
    SequentialNnetExampleReader example_reader(po.GetArg(1));
    std::vector<std::unique_ptr<NnetExampleWriter>> writers;
    for (int i = 2; i <= po.NumArgs(); i++)
      writers.push_back(std::make_unique<NnetExampleWriter>(po.GetArg(i)));
    const int32_t num_outputs = static_cast<int32_t>(writers.size());

    MultitaskEgsEditor multitask(opts.multitask);
    int64_t num_read = 0, num_written = 0, num_err = 0;
    NnetExample selected;
    for (; !example_reader.Done(); example_reader.Next(), num_read++) {
      const std::string &key = example_reader.Key();
      int32_t count = GetCount(opts.keep_proportion, &rng);
      NnetExample *eg = &example_reader.Value();
      std::string new_output_name;
      if (!multitask.ScaleAndGetName(key, eg, &new_output_name)) {
        num_err++;
        continue;
      }
      // Per copy, in Kaldi's order: the output, then the frame selection.
      for (int32_t c = 0; c < count; c++) {
        const int32_t index =
            opts.random ? rng.Raw() % num_outputs
                        : static_cast<int32_t>(num_written % num_outputs);
        NnetExample *out = eg;
        if (opts.Selects()) {
          // False only for --frame=N with no such frame (a short final eg).
          if (!SelectFromExample(*eg, opts.frame, opts.left_context,
                                 opts.right_context, opts.frame_shift, &rng,
                                 &selected))
            continue;
          out = &selected;
        }
        // After the selection, which looks for "output".
        if (!new_output_name.empty() && (out == &selected || c == 0))
          RenameOutputs(key, new_output_name, out);
        writers[index]->Write(key, *out);
        num_written++;
      }
    }
    for (auto &writer : writers) writer->Close();
    NNET3_LOG << "Read " << num_read
              << " neural-network training examples, wrote " << num_written
              << ", " << num_err << " examples had errors.";
    if (num_read == 0)
      NNET3_ERR << "No examples were read from " << po.GetArg(1)
                << " (is the archive empty?)";
    if (num_written == 0)
      NNET3_ERR << "No examples were written (read " << num_read
                << "; check --keep-proportion and --frame)";
    return 0;
  });
}
