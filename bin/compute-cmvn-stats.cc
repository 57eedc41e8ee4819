// compute-cmvn-stats: cepstral mean and variance normalization statistics,
// per utterance, per speaker or global (Kaldi's tool of the same name;
// lib/matrix/cmvn.h).
#include <cstdint>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "matrix/cmvn.h"
#include "matrix/double-matrix.h"
#include "util/kaldi-io.h"
#include "util/table-specifier.h"
#include "util/table-types.h"
#include "util/token-holder.h"

namespace {

const char *const kUsage =
    "Compute cepstral mean and variance normalization statistics\n"
    "If wspecifier provided: per-utterance by default, or per-speaker if\n"
    "spk2utt option provided; if wxfilename: global\n"
    "Usage: compute-cmvn-stats  [options] <feats-rspecifier> "
    "(<stats-wspecifier>|<stats-wxfilename>)\n"
    "e.g.: compute-cmvn-stats --spk2utt=ark:data/train/spk2utt "
    "scp:data/train/feats.scp ark,scp:/foo/bar/cmvn.ark,data/train/cmvn.scp\n"
    "See also: apply-cmvn\n";

using namespace nnet3;
using CmvnWriter = TableWriter<KaldiObjectHolder<DoubleMatrix>>;

// Adds one utterance (weighted if weights_reader is open); false after a
// warning if its weights are missing or of the wrong length.
bool AccUtterance(const std::string &utt, const Matrix &feats,
                  RandomAccessBaseFloatVectorReader *weights_reader,
                  DoubleMatrix *stats) {
  if (stats->rows == 0) InitCmvnStats(feats.NumCols(), stats);
  if (stats->cols != feats.NumCols() + 1)
    NNET3_ERR << "Utterance '" << utt << "' has dimension " << feats.NumCols()
              << " but earlier features had " << stats->cols - 1;
  if (!weights_reader->IsOpen()) {
    AccCmvnStats(feats, nullptr, stats);
    return true;
  }
  if (!weights_reader->HasKey(utt)) {
    NNET3_WARN << "No weights available for utterance " << utt;
    return false;
  }
  const Vector &weights = weights_reader->Value(utt);
  if (weights.Dim() != feats.NumRows()) {
    NNET3_WARN << "Weights for utterance " << utt << " have wrong dimension "
               << weights.Dim() << " vs. " << feats.NumRows();
    return false;
  }
  AccCmvnStats(feats, &weights, stats);
  return true;
}

}  // namespace

int main(int argc, char *argv[]) {
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    std::string spk2utt_rspecifier, weights_rspecifier;
    bool binary = true;
    po.Register("spk2utt", &spk2utt_rspecifier,
                "rspecifier for speaker to utterance-list map");
    po.Register("binary", &binary,
                "write in binary mode (applies only to global CMN/CVN)");
    po.Register("weights", &weights_rspecifier,
                "rspecifier for a vector of floats for each utterance, that's "
                "a per-frame weight.");
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    const std::string feats_in = po.GetArg(1), out = po.GetArg(2);
    RandomAccessBaseFloatVectorReader weights_reader;
    if (!weights_rspecifier.empty()) weights_reader.Open(weights_rspecifier);
    int64_t num_done = 0, num_err = 0;
    if (!IsWspecifier(out)) {
      if (!spk2utt_rspecifier.empty())
        NNET3_ERR << "--spk2utt option not compatible with wxfilename as "
                     "output (did you forget ark:?)";
      DoubleMatrix stats;
      SequentialBaseFloatMatrixReader feat_reader(feats_in);
      for (; !feat_reader.Done(); feat_reader.Next())
        (AccUtterance(feat_reader.Key(), feat_reader.Value(), &weights_reader,
                      &stats)
             ? num_done
             : num_err)++;
      // As Kaldi: global stats are written in single precision.
      Output ko(out, binary, /*write_header=*/true, /*atomic=*/true);
      stats.Write(ko.Stream(), binary, WritePrecision::kFloat);
      ko.Close();
      NNET3_LOG << "Wrote global CMVN stats to " << PrintableWxfilename(out);
    } else if (!spk2utt_rspecifier.empty()) {
      CmvnWriter writer(out);
      SequentialTokenVectorReader spk2utt_reader(spk2utt_rspecifier);
      RandomAccessBaseFloatMatrixReader feat_reader(feats_in);
      for (; !spk2utt_reader.Done(); spk2utt_reader.Next()) {
        DoubleMatrix stats;
        for (const std::string &utt : spk2utt_reader.Value()) {
          if (!feat_reader.HasKey(utt)) {
            NNET3_WARN << "Did not find features for utterance " << utt;
            num_err++;
            continue;
          }
          (AccUtterance(utt, feat_reader.Value(utt), &weights_reader, &stats)
               ? num_done
               : num_err)++;
        }
        if (stats.rows == 0)
          NNET3_WARN << "No stats accumulated for speaker "
                     << spk2utt_reader.Key();
        else
          writer.Write(spk2utt_reader.Key(), stats);
      }
      writer.Close();
    } else {
      CmvnWriter writer(out);
      SequentialBaseFloatMatrixReader feat_reader(feats_in);
      for (; !feat_reader.Done(); feat_reader.Next()) {
        DoubleMatrix stats;
        if (!AccUtterance(feat_reader.Key(), feat_reader.Value(),
                          &weights_reader, &stats)) {
          num_err++;
          continue;
        }
        writer.Write(feat_reader.Key(), stats);
        num_done++;
      }
      writer.Close();
    }
    NNET3_LOG << "Done accumulating CMVN stats for " << num_done
              << " utterances; " << num_err << " had errors.";
    return num_done != 0 ? 0 : 1;
  });
}
