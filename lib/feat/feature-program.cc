#include "feat/feature-program.h"

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "feat/htk-matrix.h"
#include "feat/wave-data.h"
#include "util/table-types.h"
#include "util/token-holder.h"

namespace nnet3 {
namespace {

// Kaldi's channel choice: -1 expects mono (channel 0, with a warning if
// not); false (after a warning) if the channel does not exist.
bool ChooseChannel(const std::string &utt, const WaveData &wave,
                   int32_t channel, int32_t *chosen) {
  if (channel == -1) {
    if (wave.NumChannels() != 1)
      NNET3_WARN << "Channel not specified but you have data with "
                 << wave.NumChannels() << " channels; defaulting to zero";
    *chosen = 0;
    return true;
  }
  if (channel < 0 || channel >= wave.NumChannels()) {
    NNET3_WARN << "File with id " << utt << " has " << wave.NumChannels()
               << " channels but you specified channel " << channel
               << ", producing no output.";
    return false;
  }
  *chosen = channel;
  return true;
}

// The warp of `utt` from --vtln-map (through --utt2spk if given); false
// after a warning if there is none.
bool LookUpWarp(const std::string &utt, RandomAccessBaseFloatReader *vtln_map,
                RandomAccessTokenReader *utt2spk, float *warp) {
  std::string key = utt;
  if (utt2spk->IsOpen()) {
    if (!utt2spk->HasKey(utt)) {
      NNET3_WARN << "No utt2spk entry for utterance-id " << utt;
      return false;
    }
    key = utt2spk->Value(utt);
  }
  if (!vtln_map->HasKey(key)) {
    NNET3_WARN << "No vtln-map entry for utterance-id (or speaker-id) " << key;
    return false;
  }
  *warp = vtln_map->Value(key);
  return true;
}

}  // namespace

Matrix HostToMatrix(int32_t rows, int32_t cols,
                    const std::vector<float> &data) {
  NNET3_ASSERT(data.size() >= static_cast<size_t>(rows) * cols);
  Matrix m(rows, cols, ResizeType::kUndefined,
           MatrixStrideType::kStrideEqualNumCols);
  if (rows > 0 && cols > 0) m.CopyFromHost(data.data(), cols);
  return m;
}

void SubtractColumnMeans(int32_t rows, int32_t dim, std::vector<float> *m) {
  if (rows == 0) return;
  std::vector<double> mean(dim, 0.0);
  for (int32_t r = 0; r < rows; r++)
    for (int32_t c = 0; c < dim; c++) mean[c] += (*m)[r * dim + c];
  for (int32_t r = 0; r < rows; r++)
    for (int32_t c = 0; c < dim; c++)
      (*m)[r * dim + c] -= static_cast<float>(mean[c] / rows);
}

void FeatureProgram::Register(OptionsRegistry *po) {
  po->Register("output-format", &output_format_,
               "Format of the output files [kaldi, htk]");
  po->Register("subtract-mean", &subtract_mean_,
               "Subtract mean of each feature file [CMS]; not recommended to "
               "do it this way. ");
  if (vtln_) {
    po->Register("vtln-warp", &vtln_warp_,
                 "Vtln warp factor (only applicable if vtln-map not "
                 "specified)");
    po->Register("vtln-map", &vtln_map_rspecifier_,
                 "Map from utterance or speaker-id to vtln warp factor "
                 "(rspecifier)");
    po->Register("utt2spk", &utt2spk_rspecifier_,
                 "Utterance to speaker-id map rspecifier (if doing VTLN and "
                 "you have warps per speaker)");
  }
  po->Register("channel", &channel_,
               "Channel to extract (-1 -> expect mono, 0 -> left, 1 -> "
               "right)");
  po->Register("min-duration", &min_duration_,
               "Minimum duration of segments to process (in seconds).");
  po->Register("write-utt2dur", &utt2dur_wspecifier_,
               "Wspecifier to write duration of each utterance in seconds, "
               "e.g. 'ark,t:utt2dur'.");
}

int FeatureProgram::Run(const std::string &wav_rspecifier,
                        const std::string &feats_wspecifier,
                        const ComputeFn &compute, int32_t dim) {
  if (output_format_ != "kaldi" && output_format_ != "htk")
    NNET3_ERR << "Invalid output_format string " << output_format_
              << " (use kaldi or htk)";
  const bool htk = output_format_ == "htk";
  if (!utt2spk_rspecifier_.empty() && vtln_map_rspecifier_.empty())
    NNET3_ERR << "The --utt2spk option is only needed if the --vtln-map "
                 "option is used.";
  RandomAccessBaseFloatReader vtln_map;
  RandomAccessTokenReader utt2spk;
  if (!vtln_map_rspecifier_.empty()) vtln_map.Open(vtln_map_rspecifier_);
  if (!utt2spk_rspecifier_.empty()) utt2spk.Open(utt2spk_rspecifier_);
  SequentialTableReader<WaveHolder> reader(wav_rspecifier);
  BaseFloatMatrixWriter writer;
  TableWriter<HtkMatrixHolder> htk_writer;
  if (htk)
    htk_writer.Open(feats_wspecifier);
  else
    writer.Open(feats_wspecifier);
  DoubleWriter utt2dur;
  if (!utt2dur_wspecifier_.empty()) utt2dur.Open(utt2dur_wspecifier_);
  int64_t num_utts = 0, num_success = 0;
  std::vector<float> rows;
  for (; !reader.Done(); reader.Next()) {
    num_utts++;
    const std::string utt = reader.Key();
    const WaveData &wave = reader.Value();
    if (!wave.Truncation().empty())
      NNET3_WARN << "Utterance " << utt << ": " << wave.Truncation();
    if (wave.Duration() < min_duration_) {
      NNET3_WARN << "File: " << utt << " is too short (" << wave.Duration()
                 << " sec): producing no output.";
      continue;
    }
    int32_t channel;
    float warp = vtln_warp_;
    if (!ChooseChannel(utt, wave, channel_, &channel)) continue;
    if (vtln_map.IsOpen() && !LookUpWarp(utt, &vtln_map, &utt2spk, &warp))
      continue;
    int32_t num_rows;
    try {
      num_rows = compute(wave.Channel(channel), wave.NumSamples(),
                         wave.SampFreq(), warp, &rows);
    } catch (const UserError &e) {
      NNET3_WARN << "Failed to compute features for utterance " << utt << ": "
                 << e.what();
      continue;
    }
    if (subtract_mean_) SubtractColumnMeans(num_rows, dim, &rows);
    if (htk) {
      rows.resize(static_cast<size_t>(num_rows) * dim);
      htk_writer.Write(utt,
                       HtkMatrix{num_rows, dim, htk_period_, htk_kind_, rows});
    } else {
      writer.Write(utt, HostToMatrix(num_rows, num_rows == 0 ? 0 : dim, rows));
    }
    if (utt2dur.IsOpen()) utt2dur.Write(utt, wave.Duration());
    if (num_utts % 10 == 0)
      NNET3_LOG << "Processed " << num_utts << " utterances";
    NNET3_VLOG(2) << "Processed features for key " << utt;
    num_success++;
  }
  if (htk)
    htk_writer.Close();
  else
    writer.Close();
  if (utt2dur.IsOpen()) utt2dur.Close();
  NNET3_LOG << " Done " << num_success << " out of " << num_utts
            << " utterances.";
  return num_success != 0 ? 0 : 1;
}

}  // namespace nnet3
