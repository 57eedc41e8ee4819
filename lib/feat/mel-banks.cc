#include "feat/mel-banks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/error.h"
#include "base/options.h"
#include "device/host-blas.h"

namespace nnet3 {

void MelBanksOptions::Register(OptionsRegistry *po) {
  po->Register("num-mel-bins", &num_bins,
               "Number of triangular mel-frequency bins");
  po->Register("low-freq", &low_freq, "Low cutoff frequency for mel bins");
  po->Register("high-freq", &high_freq,
               "High cutoff frequency for mel bins (if <= 0, offset from "
               "Nyquist)");
  po->Register("vtln-low", &vtln_low,
               "Low inflection point in piecewise linear VTLN warping "
               "function");
  po->Register("vtln-high", &vtln_high,
               "High inflection point in piecewise linear VTLN warping "
               "function (if negative, offset from high-mel-freq");
  po->Register("debug-mel", &debug_mel,
               "Print out debugging information for mel bin computation");
}

float MelScale(float freq) { return 1127.0f * logf(1.0f + freq / 700.0f); }

float InverseMelScale(float mel) {
  return 700.0f * (expf(mel / 1127.0f) - 1.0f);
}

float VtlnWarpFreq(float vtln_low, float vtln_high, float low_freq,
                   float high_freq, float warp, float freq) {
  if (freq < low_freq || freq > high_freq) return freq;
  const float lo = vtln_low * std::max(1.0f, warp);
  const float hi = vtln_high * std::min(1.0f, warp);
  const float scale = 1.0f / warp;
  if (freq < lo) {
    const float slope = (scale * lo - low_freq) / (lo - low_freq);
    return low_freq + slope * (freq - low_freq);
  }
  if (freq < hi) return scale * freq;
  const float slope = (high_freq - scale * hi) / (high_freq - hi);
  return high_freq + slope * (freq - high_freq);
}

MelBanks::MelBanks(const MelBanksOptions &opts,
                   const FrameExtractionOptions &frame, float vtln_warp)
    : debug_(opts.debug_mel) {
  const int32_t num_bins = opts.num_bins;
  if (num_bins < 3)
    NNET3_ERR << "--num-mel-bins=" << num_bins << ": must be at least 3";
  const float samp_freq = frame.samp_freq;
  const int32_t padded = frame.PaddedWindowSize();
  const int32_t num_fft_bins = padded / 2;
  const float nyquist = 0.5f * samp_freq;
  const float low = opts.low_freq;
  const float high =
      opts.high_freq > 0.0f ? opts.high_freq : nyquist + opts.high_freq;
  if (low < 0.0f || low >= nyquist || high <= 0.0f || high > nyquist ||
      high <= low)
    NNET3_ERR << "Bad values in options: low-freq " << low << " and high-freq "
              << high << " vs. nyquist " << nyquist;
  const float bin_width = samp_freq / padded;
  const float mel_low = MelScale(low), mel_high = MelScale(high);
  const float delta = (mel_high - mel_low) / (num_bins + 1);
  const float vtln_low = opts.vtln_low;
  const float vtln_high =
      opts.vtln_high < 0.0f ? opts.vtln_high + nyquist : opts.vtln_high;
  if (vtln_warp != 1.0f &&
      (vtln_low < 0.0f || vtln_low <= low || vtln_low >= high ||
       vtln_high <= 0.0f || vtln_high >= high || vtln_high <= vtln_low))
    NNET3_ERR << "Bad values in options: vtln-low " << vtln_low
              << " and vtln-high " << vtln_high << ", versus low-freq " << low
              << " and high-freq " << high;
  auto warp_mel = [&](float mel) {
    if (vtln_warp == 1.0f) return mel;
    return MelScale(VtlnWarpFreq(vtln_low, vtln_high, low, high, vtln_warp,
                                 InverseMelScale(mel)));
  };
  bins_.resize(num_bins);
  center_freqs_.resize(num_bins);
  for (int32_t b = 0; b < num_bins; b++) {
    const float left = warp_mel(mel_low + b * delta);
    const float center = warp_mel(mel_low + (b + 1) * delta);
    const float right = warp_mel(mel_low + (b + 2) * delta);
    center_freqs_[b] = InverseMelScale(center);
    int32_t first = -1, last = -1;
    std::vector<float> w(num_fft_bins, 0.0f);
    for (int32_t k = 0; k < num_fft_bins; k++) {
      const float mel = MelScale(bin_width * k);
      if (mel <= left || mel >= right) continue;
      w[k] = mel <= center ? (mel - left) / (center - left)
                           : (right - mel) / (right - center);
      if (first < 0) first = k;
      last = k;
    }
    if (first < 0)
      NNET3_ERR << "Mel bin " << b << " covers no FFT bin: use fewer "
                << "--num-mel-bins or a longer --frame-length";
    bins_[b].first = first;
    bins_[b].weights.assign(w.begin() + first, w.begin() + last + 1);
  }
}

void MelBanks::Compute(const float *power, float *energies) const {
  const int32_t n = NumBins();
  for (int32_t b = 0; b < n; b++) {
    const float *p = power + bins_[b].first;
    const std::vector<float> &w = bins_[b].weights;
    energies[b] = HostDot(static_cast<int32_t>(w.size()), w.data(), p);
  }
  if (debug_) {
    std::fprintf(stderr, "MEL BANKS:\n");
    for (int32_t b = 0; b < n; b++) std::fprintf(stderr, " %f", energies[b]);
    std::fprintf(stderr, "\n");
  }
}

const MelBanks &MelBanksCache::Get(float vtln_warp) {
  std::unique_ptr<MelBanks> &banks = banks_[vtln_warp];
  if (banks == nullptr)
    banks = std::make_unique<MelBanks>(opts_, frame_, vtln_warp);
  return *banks;
}

}  // namespace nnet3
