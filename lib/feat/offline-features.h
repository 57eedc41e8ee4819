// OfflineFeatures: a frame-level feature computer (MfccComputer,
// FbankComputer, SpectrogramComputer) run over a whole waveform, one row
// per frame (Kaldi's OfflineFeatureTpl).
//
//   OfflineFeatures<MfccComputer> mfcc(mfcc_opts);
//   std::vector<float> feats;   // NumFrames x Dim(), row-major
//   int32_t rows = mfcc.ComputeFeatures(wave, n, samp_freq, vtln_warp, &feats);
//
// A waveform whose sample frequency is not --sample-frequency is resampled
// to it (feat/resample.h) when --allow-downsample or --allow-upsample allows
// it; otherwise ComputeFeatures throws UserError with Kaldi's message. A
// waveform too short for one frame gives 0 rows. The dither generator is seeded
// once, so the same inputs in the same order give the same outputs on every
// run.
#ifndef NNET3_FEAT_OFFLINE_FEATURES_H_
#define NNET3_FEAT_OFFLINE_FEATURES_H_

#include <cstdint>
#include <vector>

#include "feat/frame-extraction.h"
#include "feat/resample.h"

namespace nnet3 {

template <class Computer>
class OfflineFeatures {
 public:
  explicit OfflineFeatures(const typename Computer::Options &opts)
      : computer_(opts),
        extractor_(computer_.FrameOptions()),
        window_(computer_.FrameOptions().PaddedWindowSize()) {}

  int32_t Dim() const { return computer_.Dim(); }
  const FrameExtractionOptions &FrameOptions() const {
    return computer_.FrameOptions();
  }

  int32_t ComputeFeatures(const float *wave, int64_t num_samples,
                          float samp_freq, float vtln_warp,
                          std::vector<float> *out) {
    if (CheckSampleFrequency(samp_freq, FrameOptions())) {
      ResampleWaveform(samp_freq, wave, num_samples, FrameOptions().samp_freq,
                       &resampled_);
      wave = resampled_.data();
      num_samples = static_cast<int64_t>(resampled_.size());
    }
    const int32_t rows = NumFrames(num_samples, FrameOptions());
    const int32_t dim = Dim();
    out->assign(static_cast<size_t>(rows) * dim, 0.0f);
    const bool raw = computer_.NeedRawLogEnergy();
    for (int32_t r = 0; r < rows; r++) {
      float raw_log_energy = 0.0f;
      extractor_.Extract(wave, num_samples, r, window_.data(),
                         raw ? &raw_log_energy : nullptr);
      computer_.Compute(raw_log_energy, vtln_warp, window_.data(),
                        out->data() + static_cast<size_t>(r) * dim);
    }
    return rows;
  }

 private:
  Computer computer_;
  FrameExtractor extractor_;
  std::vector<float> window_;
  std::vector<float> resampled_;
};

}  // namespace nnet3

#endif  // NNET3_FEAT_OFFLINE_FEATURES_H_
