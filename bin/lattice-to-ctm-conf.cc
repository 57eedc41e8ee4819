// lattice-to-ctm-conf: CTM lines with confidences from lattices, the words
// chosen by MBR decoding (or the given one-best), the confidences their
// sausage posteriors (Kaldi's tool of the same name;
// lat/minimum-bayes-risk.h).
#include <cstdint>
#include <ios>
#include <memory>
#include <numeric>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "fstext/lattice-scale.h"
#include "lat/kaldi-lattice.h"
#include "lat/minimum-bayes-risk.h"
#include "util/kaldi-io.h"
#include "util/table-specifier.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "This tool turns a lattice into a ctm with confidences, based on the\n"
    "posterior probabilities in the lattice.  The word sequence in the\n"
    "ctm is the 1-best of the lattice, or in the 3- and 4-argument forms\n"
    "the one read from <1best-rspecifier>; with --decode-mbr=true (the\n"
    "default) it is then refined by Minimum Bayes Risk decoding (so the\n"
    "output may differ from a given MAP 1-best). If you don't need\n"
    "confidences, you can do lattice-1best and pipe to nbest-to-ctm. The\n"
    "ctm is relative to the utterance-id (utils/convert_ctm.pl makes it\n"
    "relative to the file), and its times are only meaningful if you do\n"
    "lattice-align-words on the input.\n"
    "\n"
    "Usage: lattice-to-ctm-conf [options]  <lattice-rspecifier> \\\n"
    "                                          <ctm-wxfilename>\n"
    "Usage: lattice-to-ctm-conf [options]  <lattice-rspecifier> \\\n"
    "                     [<1best-rspecifier> [<times-rspecifier]] "
    "<ctm-wxfilename>\n"
    " e.g.: lattice-to-ctm-conf --acoustic-scale=0.1 ark:1.lats 1.ctm\n"
    "   or: lattice-to-ctm-conf --acoustic-scale=0.1 --decode-mbr=false\\\n"
    "                                      ark:1.lats ark:1.1best 1.ctm\n"
    "See also: lattice-mbr-decode, nbest-to-ctm, lattice-arc-post,\n"
    " steps/get_ctm.sh, steps/get_train_ctm.sh and utils/convert_ctm.pl.\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    float acoustic_scale = 1.0f, inv_acoustic_scale = 1.0f, lm_scale = 1.0f;
    float frame_shift = 0.01f;
    int32_t confidence_digits = 2;
    po.Register("acoustic-scale", &acoustic_scale,
                "Scaling factor for acoustic likelihoods");
    po.Register("inv-acoustic-scale", &inv_acoustic_scale,
                "An alternative way of setting the acoustic scale: you can "
                "set its inverse.");
    po.Register("lm-scale", &lm_scale,
                "Scaling factor for language model probabilities");
    po.Register("frame-shift", &frame_shift, "Time in seconds between frames.");
    po.Register("confidence-digits", &confidence_digits,
                "Number of decimal digits for confidences in 'ctm'.");
    MinimumBayesRiskOptions mbr_opts;
    mbr_opts.Register(&po);
    po.Read(argc, argv);
    const int num_args = po.NumArgs();
    if (num_args < 2 || num_args > 4) {
      po.PrintUsage();
      return 1;
    }
    if (acoustic_scale != 1.0f && inv_acoustic_scale != 1.0f)
      NNET3_ERR << "Give --acoustic-scale or --inv-acoustic-scale, not both";
    if (inv_acoustic_scale != 1.0f) acoustic_scale = 1.0f / inv_acoustic_scale;
    const std::string one_best_rspecifier = num_args >= 3 ? po.GetArg(2) : "",
                      times_rspecifier = num_args == 4 ? po.GetArg(3) : "",
                      ctm_wxfilename = po.GetArg(num_args);
    if (ClassifyWspecifier(ctm_wxfilename, nullptr, nullptr, nullptr) !=
        WspecifierType::kNoWspecifier)
      NNET3_ERR << "The output ctm file should not be a wspecifier. Please "
                << "use things like 1.ctm istead of ark:-";
    SequentialCompactLatticeReader reader(po.GetArg(1));
    RandomAccessInt32VectorReader one_best_reader;
    RandomAccessBaseFloatPairVectorReader times_reader;
    if (!one_best_rspecifier.empty()) one_best_reader.Open(one_best_rspecifier);
    if (!times_rspecifier.empty()) times_reader.Open(times_rspecifier);
    Output ko(ctm_wxfilename, false);
    std::ostream &os = ko.Stream();
    os << std::fixed;
    os.precision(confidence_digits);
    int32_t num_done = 0, num_words = 0;
    float total_bayes_risk = 0.0f;
    for (; !reader.Done(); reader.Next()) {
      const std::string key = reader.Key();
      CompactLattice clat = reader.Value();
      reader.FreeCurrent();
      ScaleLattice(LatticeScale(lm_scale, acoustic_scale), &clat);
      std::unique_ptr<MinimumBayesRisk> mbr;
      if (one_best_rspecifier.empty()) {
        mbr.reset(new MinimumBayesRisk(clat, mbr_opts));
      } else if (!one_best_reader.HasKey(key)) {
        NNET3_WARN << "No 1-best present for utterance " << key;
        continue;
      } else if (!times_rspecifier.empty() && !times_reader.HasKey(key)) {
        NNET3_WARN << "No 'times' present for utterance " << key;
        continue;
      } else if (times_rspecifier.empty()) {
        mbr.reset(
            new MinimumBayesRisk(clat, one_best_reader.Value(key), mbr_opts));
      } else {
        mbr.reset(new MinimumBayesRisk(clat, one_best_reader.Value(key),
                                       times_reader.Value(key), mbr_opts));
      }
      const std::vector<float> &conf = mbr->GetOneBestConfidences();
      const std::vector<int32_t> &words = mbr->GetOneBest();
      const auto &times = mbr->GetOneBestTimes();
      for (size_t i = 0; i < words.size(); ++i)
        os << key << " 1 " << (frame_shift * times[i].first) << ' '
           << (frame_shift * (times[i].second - times[i].first)) << ' '
           << words[i] << ' ' << conf[i] << '\n';
      NNET3_LOG << "For utterance " << key << ", Bayes Risk "
                << mbr->GetBayesRisk() << ", avg. confidence per-word "
                << std::accumulate(conf.begin(), conf.end(), 0.0) /
                       words.size();
      ++num_done;
      num_words += words.size();
      total_bayes_risk += mbr->GetBayesRisk();
    }
    ko.Close();
    NNET3_LOG << "Done " << num_done << " lattices.";
    NNET3_LOG << "Overall average Bayes Risk per sentence is "
              << (total_bayes_risk / num_done) << " and per word, "
              << (total_bayes_risk / num_words);
    return num_done != 0 ? 0 : 1;
  });
}
