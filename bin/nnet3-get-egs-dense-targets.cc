// nnet3-get-egs-dense-targets: cuts features and dense target matrices into
// frame-level training examples (Kaldi's tool of the same name; the egs are
// described in lib/train/example-generation-dense.h).
#include <string>
#include <utility>
#include <vector>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "base/random.h"
#include "train/example-generation-dense.h"
#include "train/example-generation.h"
#include "train/nnet-example.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Get frame-by-frame examples of data for nnet3 neural network training.\n"
    "This program is similar to nnet3-get-egs, but the targets here are "
    "dense matrices instead of posteriors (sparse matrices).\n"
    "This is useful when you want the targets to be continuous real-valued "
    "with the neural network possibly trained with a quadratic objective\n"
    "\n"
    "Usage:  nnet3-get-egs-dense-targets --num-targets=<n> [options] "
    "<features-rspecifier> <targets-rspecifier> <egs-out>\n"
    "e.g.:\n"
    "  nnet3-get-egs-dense-targets --num-targets=26 --left-context=12 \\\n"
    "    --right-context=9 --num-frames=8 \"$feats\" \\\n"
    "    \"ark:copy-matrix ark:exp/snrs/snr.1.ark ark:- |\" ark:-\n"
    "See also: nnet3-get-egs, nnet3-copy-egs, nnet3-merge-egs\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    ExampleGenerationConfig eg_config;
    GetEgsDenseOptions opts;
    std::string ivector_rspecifier;
    opts.Register(&po);
    po.Register("ivectors", &ivector_rspecifier,
                "Alias for --online-ivectors option, for back compatibility");
    po.Register("online-ivectors", &ivector_rspecifier,
                "Rspecifier of ivector features, as a matrix.");
    eg_config.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    opts.Check();
    eg_config.ComputeDerived();
    UtteranceSplitter splitter(eg_config);
    // Kaldi's program never calls srand(): its draws are rand()'s default
    // sequence.
    RandomState rng = RandomState::KaldiDraws(0, 0);

    SequentialGeneralMatrixReader feat_reader(po.GetArg(1));
    RandomAccessBaseFloatMatrixReader target_reader(po.GetArg(2));
    NnetExampleWriter example_writer(po.GetArg(3));
    RandomAccessBaseFloatMatrixReader ivector_reader;
    if (!ivector_rspecifier.empty()) ivector_reader.Open(ivector_rspecifier);

    int64_t num_done = 0, num_err = 0, num_egs = 0;
    std::vector<std::pair<std::string, NnetExample>> egs;
    for (; !feat_reader.Done(); feat_reader.Next()) {
      const std::string &utt = feat_reader.Key();
      if (!target_reader.HasKey(utt)) {
        NNET3_WARN << "No target matrix for key " << utt;
        num_err++;
        continue;
      }
      const Matrix *ivectors = nullptr;
      if (ivector_reader.IsOpen()) {
        if (!ivector_reader.HasKey(utt)) {
          NNET3_WARN << "No iVectors for utterance " << utt;
          num_err++;
          continue;
        }
        ivectors = &ivector_reader.Value(utt);
      }
      egs.clear();
      if (!GetDenseEgsForUtterance(utt, feat_reader.Value(), ivectors,
                                   target_reader.Value(utt), opts, &splitter,
                                   &rng, &egs)) {
        num_err++;
        continue;
      }
      for (const auto &eg : egs) example_writer.Write(eg.first, eg.second);
      num_egs += static_cast<int64_t>(egs.size());
      num_done++;
    }
    example_writer.Close();
    splitter.LogStats();
    if (num_err > 0)
      NNET3_WARN << num_err
                 << " utterances had errors and could not be processed.";
    NNET3_LOG << "Finished generating examples, successfully processed "
              << num_done << " feature files, wrote " << num_egs
              << " examples, " << num_err << " files had errors.";
    return splitter.TotalFramesInChunks() > 0 ? 0 : 1;
  });
}
