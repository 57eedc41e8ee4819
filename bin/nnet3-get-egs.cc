// nnet3-get-egs: cuts features and pdf posteriors into frame-level training
// examples (Kaldi's tool of the same name; the splitting rule is in
// lib/train/utterance-splitter.h, the egs in lib/train/example-generation.h).
#include <string>
#include <utility>
#include <vector>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "base/random.h"
#include "train/example-generation.h"
#include "train/nnet-example.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Get frame-by-frame examples of data for nnet3 neural network training.\n"
    "Essentially this is a format change from features and posteriors into a\n"
    "special frame-by-frame format. This program handles the common case\n"
    "where you have some input features, possibly some iVectors, and one set\n"
    "of labels.\n"
    "\n"
    "Usage:  nnet3-get-egs [options] <features-rspecifier> "
    "<pdf-post-rspecifier> <egs-out>\n"
    "e.g.:\n"
    "  nnet3-get-egs --num-pdfs=2658 --left-context=12 --right-context=9 \\\n"
    "    --num-frames=8 scp:feats.scp \\\n"
    "    'ark:ali-to-pdf 1.mdl ark:ali.1 ark:- | ali-to-post ark:- ark:- |' "
    "\\\n"
    "    ark:egs.1.ark\n"
    "See also: nnet3-merge-egs, nnet3-shuffle-egs, nnet3-copy-egs\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    ExampleGenerationConfig eg_config;
    GetEgsOptions opts;
    std::string ivector_rspecifier;
    int32_t srand_seed = 0;
    opts.Register(&po);
    po.Register("ivectors", &ivector_rspecifier,
                "Alias for --online-ivectors option, for back compatibility");
    po.Register("online-ivectors", &ivector_rspecifier,
                "Rspecifier of ivector features, as a matrix.");
    po.Register("srand", &srand_seed,
                "Seed for the random number generator (the choice among "
                "equally good splits of an utterance, the order of its chunk "
                "sizes, where gaps go, and which iVector frame each eg gets). "
                "The choices are drawn as Kaldi's, from the C library's "
                "rand() after srand(seed); Kaldi's nnet3-get-egs has no "
                "--srand and draws as with the default, 0");
    eg_config.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    opts.Check();
    eg_config.ComputeDerived();
    UtteranceSplitter splitter(eg_config);
    RandomState rng = RandomState::KaldiDraws(
        static_cast<uint32_t>(srand_seed), static_cast<uint32_t>(srand_seed));

    SequentialGeneralMatrixReader feat_reader(po.GetArg(1));
    RandomAccessPosteriorReader pdf_post_reader(po.GetArg(2));
    NnetExampleWriter example_writer(po.GetArg(3));
    RandomAccessBaseFloatMatrixReader ivector_reader;
    if (!ivector_rspecifier.empty()) ivector_reader.Open(ivector_rspecifier);

    int64_t num_err = 0;
    std::vector<std::pair<std::string, NnetExample>> egs;
    for (; !feat_reader.Done(); feat_reader.Next()) {
      const std::string &utt = feat_reader.Key();
      if (!pdf_post_reader.HasKey(utt)) {
        NNET3_WARN << "No pdf-level posterior for key " << utt;
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
      if (!GetEgsForUtterance(utt, feat_reader.Value(), ivectors,
                              pdf_post_reader.Value(utt), opts, &splitter, &rng,
                              &egs)) {
        num_err++;
        continue;
      }
      for (const auto &eg : egs) example_writer.Write(eg.first, eg.second);
    }
    example_writer.Close();
    if (num_err > 0)
      NNET3_WARN << num_err
                 << " utterances had errors and could not be processed.";
    splitter.LogStats();
    return splitter.ExitStatus();
  });
}
