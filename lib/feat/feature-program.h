// FeatureProgram: the main loop shared by compute-mfcc-feats,
// compute-fbank-feats and compute-spectrogram-feats (Kaldi's featbin):
// options, reading wav.scp, choosing the channel and the VTLN warp,
// writing features, the log lines and the exit status.
//
//   int main(int argc, char *argv[]) {
//     return FeatureProgramMain<MfccComputer>(argc, argv, kUsage,
//         /*vtln=*/true, [](const MfccOptions &o) {
//           return std::make_pair(kHtkMfcc | kHtkEnergy, 100000); });
//   }
// or, piece by piece: FeatureProgram program(vtln); program.Register(&po);
// program.SetHtkKind(kind, period); program.Run(wav, feats, compute, dim).
//
// As Kaldi's: an utterance that cannot be computed (a sample rate other than
// --sample-frequency that --allow-downsample / --allow-upsample do not let
// us resample, channel out of range, no --vtln-map entry, shorter than
// --min-duration) gets a warning naming it and is skipped; an entry that cannot
// be read is an error unless the rspecifier has the permissive option (scp,p:);
// a truncated file gives a warning naming it, and the samples it has. The log
// ends with " Done N out of M utterances." and the status is 0 if any
// succeeded.
#ifndef NNET3_FEAT_FEATURE_PROGRAM_H_
#define NNET3_FEAT_FEATURE_PROGRAM_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/options.h"
#include "base/program.h"
#include "feat/offline-features.h"
#include "matrix/matrix.h"

namespace nnet3 {

class OptionsRegistry;

class FeatureProgram {
 public:
  // Computes the rows of one utterance into `out`; returns their number.
  using ComputeFn = std::function<int32_t(
      const float *wave, int64_t num_samples, float samp_freq, float vtln_warp,
      std::vector<float> *out)>;

  // `vtln`: whether --vtln-warp, --vtln-map and --utt2spk exist.
  explicit FeatureProgram(bool vtln) : vtln_(vtln) {}
  void Register(OptionsRegistry *po);
  // The HTK header of --output-format=htk: parameter kind and sample period
  // in 100 ns units (feat/htk-matrix.h).
  void SetHtkKind(uint16_t kind, int32_t period = 100000) {
    htk_kind_ = kind;
    htk_period_ = period;
  }
  int Run(const std::string &wav_rspecifier,
          const std::string &feats_wspecifier, const ComputeFn &compute,
          int32_t dim);

 private:
  bool vtln_;
  std::string output_format_ = "kaldi";
  bool subtract_mean_ = false;
  float vtln_warp_ = 1.0f;
  std::string vtln_map_rspecifier_, utt2spk_rspecifier_;
  int32_t channel_ = -1;
  float min_duration_ = 0.0f;
  std::string utt2dur_wspecifier_;
  uint16_t htk_kind_ = 0;
  int32_t htk_period_ = 100000;
};

// A rows x cols Matrix (on the active device) holding `data`, row-major.
Matrix HostToMatrix(int32_t rows, int32_t cols, const std::vector<float> &data);

// The whole main of a feature program over Computer (feat/mfcc.h, ...):
// `htk_kind(opts)` gives the HTK parameter kind and sample period.
template <class Computer, class HtkKind>
int FeatureProgramMain(int argc, char *argv[], const char *usage, bool vtln,
                       HtkKind htk_kind) {
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(usage);
    typename Computer::Options opts;
    FeatureProgram program(vtln);
    opts.Register(&po);
    program.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    const std::pair<uint16_t, int32_t> kind = htk_kind(opts);
    program.SetHtkKind(kind.first, kind.second);
    OfflineFeatures<Computer> features(opts);
    auto compute = [&](const float *wave, int64_t n, float samp_freq,
                       float warp, std::vector<float> *out) {
      return features.ComputeFeatures(wave, n, samp_freq, warp, out);
    };
    return program.Run(po.GetArg(1), po.GetArg(2), compute, features.Dim());
  });
}

// Subtracts each column's mean from a rows x dim row-major matrix.
void SubtractColumnMeans(int32_t rows, int32_t dim, std::vector<float> *m);

}  // namespace nnet3

#endif  // NNET3_FEAT_FEATURE_PROGRAM_H_
