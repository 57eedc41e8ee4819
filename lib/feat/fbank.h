// FbankComputer: Kaldi's log mel filterbank energies of one windowed frame
// (Kaldi's feat/feature-fbank), for OfflineFeatures
// (feat/offline-features.h).
//
//   FbankOptions opts;  opts.Register(&po);
//   FbankComputer fbank(opts);
//   fbank.Compute(raw_log_energy, vtln_warp, frame, feature);  // Dim() values
//
// feature = mel filters applied to |X_k|^2 (--use-power, default) or |X_k|
// (--use-power=false), then log(max(., FLT_EPSILON)) with --use-log-fbank
// (default). --use-energy adds the log energy (as MFCC's) in front, or at
// the end with --htk-compat.
#ifndef NNET3_FEAT_FBANK_H_
#define NNET3_FEAT_FBANK_H_

#include <cstdint>
#include <vector>

#include "feat/frame-extraction.h"
#include "feat/mel-banks.h"
#include "feat/power-spectrum.h"

namespace nnet3 {

struct FbankOptions {
  FrameExtractionOptions frame_opts;
  MelBanksOptions mel_opts{23};
  bool use_energy = false;
  float energy_floor = 0.0f;
  bool raw_energy = true;
  bool htk_compat = false;
  bool use_log_fbank = true;
  bool use_power = true;

  void Register(OptionsRegistry *po);
};

class FbankComputer {
 public:
  using Options = FbankOptions;
  explicit FbankComputer(const FbankOptions &opts);
  const FrameExtractionOptions &FrameOptions() const {
    return opts_.frame_opts;
  }
  int32_t Dim() const {
    return opts_.mel_opts.num_bins + (opts_.use_energy ? 1 : 0);
  }
  bool NeedRawLogEnergy() const { return opts_.use_energy && opts_.raw_energy; }
  void Compute(float raw_log_energy, float vtln_warp, float *frame,
               float *feature);

 private:
  FbankOptions opts_;
  MelBanksCache mel_banks_;
  PowerSpectrum fft_;
  std::vector<float> power_;
  float log_energy_floor_ = 0.0f;
};

}  // namespace nnet3

#endif  // NNET3_FEAT_FBANK_H_
