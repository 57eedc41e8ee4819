// SpectrogramComputer: Kaldi's log power spectrum of one windowed frame
// (Kaldi's feat/feature-spectrogram), for OfflineFeatures
// (feat/offline-features.h).
//
//   SpectrogramOptions opts;  opts.Register(&po);
//   SpectrogramComputer spec(opts);
//   spec.Compute(raw_log_energy, vtln_warp, frame, feature);  // Dim() values
//
// feature_k = log(max(|X_k|^2, FLT_EPSILON)), k = 0 .. n/2, with feature_0
// (the DC bin) replaced by the log energy (raw by default), floored at
// log(--energy-floor) when that is > 0. --return-raw-fft gives the n values
// of the FFT itself in Kaldi's packing: re_0, re_{n/2}, then re_k, im_k for
// k = 1 .. n/2 - 1. vtln_warp is ignored.
#ifndef NNET3_FEAT_SPECTROGRAM_H_
#define NNET3_FEAT_SPECTROGRAM_H_

#include <cstdint>
#include <vector>

#include "feat/frame-extraction.h"
#include "feat/power-spectrum.h"

namespace nnet3 {

struct SpectrogramOptions {
  FrameExtractionOptions frame_opts;
  float energy_floor = 0.0f;
  bool raw_energy = true;
  bool return_raw_fft = false;

  void Register(OptionsRegistry *po);
};

class SpectrogramComputer {
 public:
  using Options = SpectrogramOptions;
  explicit SpectrogramComputer(const SpectrogramOptions &opts);
  const FrameExtractionOptions &FrameOptions() const {
    return opts_.frame_opts;
  }
  int32_t Dim() const {
    const int32_t n = opts_.frame_opts.PaddedWindowSize();
    return opts_.return_raw_fft ? n : n / 2 + 1;
  }
  bool NeedRawLogEnergy() const { return opts_.raw_energy; }
  void Compute(float raw_log_energy, float vtln_warp, float *frame,
               float *feature);

 private:
  SpectrogramOptions opts_;
  PowerSpectrum fft_;
  std::vector<float> re_im_;
  float log_energy_floor_ = 0.0f;
};

}  // namespace nnet3

#endif  // NNET3_FEAT_SPECTROGRAM_H_
