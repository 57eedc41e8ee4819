// MelBanks: Kaldi's triangular mel filters over the power spectrum, with
// optional VTLN warping (Kaldi's feat/mel-computations).
//
//   MelBanksOptions mel_opts;  mel_opts.Register(&po);
//   MelBanks banks(mel_opts, frame_opts, /*vtln_warp=*/1.0f);
//   std::vector<float> energies(banks.NumBins());
//   banks.Compute(power, energies.data());   // power: n/2 + 1 values
//
// mel(f) = 1127 ln(1 + f / 700). num_bins triangles are spaced evenly in mel
// between mel(low_freq) and mel(high_freq) (high_freq <= 0: an offset from
// Nyquist), triangle b spanning points b .. b+2 of num_bins + 2, peaking
// (weight 1) at point b+1; FFT bin k sits at frequency k * samp_freq / n
// and only bins k < n/2 are used. With a warp factor alpha != 1 the
// triangle edges are moved by Kaldi's piecewise-linear VTLN function:
// f / alpha between the inflection points vtln_low * max(1, alpha) and
// vtln_high * min(1, alpha) (vtln_high <= 0: offset from Nyquist), and
// straight lines from there to low_freq and high_freq, which stay fixed.
// Everything is computed in float, as Kaldi's, so the weights are Kaldi's.
#ifndef NNET3_FEAT_MEL_BANKS_H_
#define NNET3_FEAT_MEL_BANKS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "feat/frame-extraction.h"

namespace nnet3 {

struct MelBanksOptions {
  int32_t num_bins = 25;
  float low_freq = 20.0f;
  float high_freq = 0.0f;
  float vtln_low = 100.0f;
  float vtln_high = -500.0f;
  bool debug_mel = false;

  explicit MelBanksOptions(int32_t bins = 25) : num_bins(bins) {}
  void Register(OptionsRegistry *po);
};

float MelScale(float freq);
float InverseMelScale(float mel);
// The VTLN warping of a frequency (see the file comment).
float VtlnWarpFreq(float vtln_low, float vtln_high, float low_freq,
                   float high_freq, float warp, float freq);

class MelBanks {
 public:
  // Throws UserError for fewer than 3 bins or frequencies outside
  // (0, Nyquist).
  MelBanks(const MelBanksOptions &opts, const FrameExtractionOptions &frame,
           float vtln_warp);
  int32_t NumBins() const { return static_cast<int32_t>(bins_.size()); }
  // Centre frequencies in Hz (after warping).
  const std::vector<float> &CenterFreqs() const { return center_freqs_; }
  // The first FFT bin of filter b and its weights.
  int32_t FirstIndex(int32_t b) const { return bins_[b].first; }
  const std::vector<float> &Weights(int32_t b) const {
    return bins_[b].weights;
  }
  void Compute(const float *power, float *energies) const;

 private:
  struct Bin {
    int32_t first = 0;
    std::vector<float> weights;
  };
  std::vector<Bin> bins_;
  std::vector<float> center_freqs_;
  bool debug_ = false;
};

// The filters for each warp factor met so far, made on first use (a
// --vtln-map may give every speaker its own factor).
class MelBanksCache {
 public:
  MelBanksCache(const MelBanksOptions &opts,
                const FrameExtractionOptions &frame)
      : opts_(opts), frame_(frame) {}
  const MelBanks &Get(float vtln_warp);

 private:
  MelBanksOptions opts_;
  FrameExtractionOptions frame_;
  std::map<float, std::unique_ptr<MelBanks>> banks_;
};

}  // namespace nnet3

#endif  // NNET3_FEAT_MEL_BANKS_H_
