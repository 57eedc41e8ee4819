// apply-cmvn: cepstral mean (and variance) normalization of features with
// per-utterance, per-speaker or global stats (Kaldi's tool of the same name;
// lib/matrix/cmvn.h).
#include <cstdint>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "base/text-utils.h"
#include "matrix/cmvn.h"
#include "matrix/double-matrix.h"
#include "util/kaldi-io.h"
#include "util/table-specifier.h"
#include "util/table-types.h"
#include "util/token-holder.h"

namespace {

const char *const kUsage =
    "Apply cepstral mean and (optionally) variance normalization\n"
    "Per-utterance by default, or per-speaker if utt2spk option provided\n"
    "Usage: apply-cmvn [options] (<cmvn-stats-rspecifier>|"
    "<cmvn-stats-rxfilename>) <feats-rspecifier> <feats-wspecifier>\n"
    "e.g.: apply-cmvn --utt2spk=ark:data/train/utt2spk "
    "scp:data/train/cmvn.scp scp:data/train/feats.scp ark:-\n"
    "See also: compute-cmvn-stats, copy-feats\n";

using namespace nnet3;
using RandomAccessCmvnReader =
    RandomAccessTableReader<KaldiObjectHolder<DoubleMatrix>>;

struct ApplyCmvnOptions {
  std::string utt2spk_rspecifier, skip_dims_str;
  bool norm_vars = false, norm_means = true, reverse = false;
  std::vector<int32_t> skip_dims;

  void Register(OptionsRegistry *po) {
    po->Register("utt2spk", &utt2spk_rspecifier,
                 "rspecifier for utterance to speaker map");
    po->Register("norm-vars", &norm_vars, "If true, normalize variances.");
    po->Register("norm-means", &norm_means,
                 "You can set this to false to turn off mean normalization.");
    po->Register("skip-dims", &skip_dims_str,
                 "Dimensions for which to skip normalization: colon-separated "
                 "list of integers, e.g. 13:14:15)");
    po->Register("reverse", &reverse,
                 "If true, apply CMVN in a reverse sense, so as to transform "
                 "zero-mean, unit-variance input into data with the given "
                 "mean and variance.");
  }
  void Apply(DoubleMatrix stats, Matrix *feats) const {
    if (!skip_dims.empty()) FakeStatsForSomeDims(skip_dims, &stats);
    if (reverse)
      ApplyCmvnReverse(stats, norm_vars, feats);
    else
      ApplyCmvn(stats, norm_vars, feats);
  }
};

}  // namespace

int main(int argc, char *argv[]) {
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    ApplyCmvnOptions opts;
    opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    if (opts.norm_vars && !opts.norm_means)
      NNET3_ERR << "You cannot normalize the variance but not the mean.";
    if (!SplitStringToIntegers(opts.skip_dims_str, ":", &opts.skip_dims))
      NNET3_ERR << "Bad --skip-dims option '" << opts.skip_dims_str
                << "' (should be a colon-separated list of integers)";
    const std::string stats_in = po.GetArg(1);
    int64_t num_done = 0, num_err = 0;
    SequentialBaseFloatMatrixReader feat_reader(po.GetArg(2));
    BaseFloatMatrixWriter feat_writer(po.GetArg(3));
    DoubleMatrix global_stats;
    RandomAccessCmvnReader stats_reader;
    RandomAccessTokenReader utt2spk_reader;
    if (IsRspecifier(stats_in)) {
      stats_reader.Open(stats_in);
      if (!opts.utt2spk_rspecifier.empty())
        utt2spk_reader.Open(opts.utt2spk_rspecifier);
    } else {
      if (!opts.utt2spk_rspecifier.empty())
        NNET3_ERR << "--utt2spk option not compatible with rxfilename as "
                     "input (did you forget ark:?)";
      if (opts.norm_means) ReadKaldiObject(stats_in, &global_stats);
    }
    for (; !feat_reader.Done(); feat_reader.Next()) {
      const std::string utt = feat_reader.Key();
      Matrix feats(feat_reader.Value());
      if (opts.norm_means && stats_reader.IsOpen()) {
        std::string key = utt;
        if (utt2spk_reader.IsOpen())
          key = utt2spk_reader.HasKey(utt) ? utt2spk_reader.Value(utt) : "";
        if (key.empty() || !stats_reader.HasKey(key)) {
          NNET3_WARN << "No normalization statistics available for key " << utt
                     << ", producing no output for this utterance";
          num_err++;
          continue;
        }
        opts.Apply(stats_reader.Value(key), &feats);
      } else if (opts.norm_means) {
        opts.Apply(global_stats, &feats);
      }
      feat_writer.Write(utt, feats);
      num_done++;
    }
    feat_writer.Close();
    NNET3_LOG << "Applied cepstral mean "
              << (opts.norm_vars ? "and variance " : "") << "normalization to "
              << num_done << " utterances, errors on " << num_err;
    return num_done != 0 ? 0 : 1;
  });
}
