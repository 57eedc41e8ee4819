#include "feat/frame-extraction.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "base/error.h"
#include "base/options.h"
#include "device/host-blas.h"

namespace nnet3 {

void FrameExtractionOptions::Register(OptionsRegistry *po) {
  po->Register("sample-frequency", &samp_freq,
               "Waveform data sample frequency (must match the waveform "
               "file, if specified there)");
  po->Register("frame-length", &frame_length_ms,
               "Frame length in milliseconds");
  po->Register("frame-shift", &frame_shift_ms, "Frame shift in milliseconds");
  po->Register("preemphasis-coefficient", &preemph_coeff,
               "Coefficient for use in signal preemphasis");
  po->Register("remove-dc-offset", &remove_dc_offset,
               "Subtract mean from waveform on each frame");
  po->Register("dither", &dither,
               "Dithering constant (0.0 means no dither). If you turn this "
               "off, you should set the --energy-floor option, e.g. to 1.0 "
               "or 0.1");
  po->Register("window-type", &window_type,
               "Type of window (\"hamming\"|\"hanning\"|\"povey\"|"
               "\"rectangular\"|\"sine\"|\"blackman\")");
  po->Register("blackman-coeff", &blackman_coeff,
               "Constant coefficient for generalized Blackman window.");
  po->Register("round-to-power-of-two", &round_to_power_of_two,
               "If true, round window size to power of two by zero-padding "
               "input to FFT.");
  po->Register("snip-edges", &snip_edges,
               "If true, end effects will be handled by outputting only "
               "frames that completely fit in the file, and the number of "
               "frames depends on the frame-length.  If false, the number of "
               "frames depends only on the frame-shift, and we reflect the "
               "data at the ends.");
  po->Register("allow-downsample", &allow_downsample,
               "If true, allow the input waveform to have a higher frequency "
               "than the specified --sample-frequency (it is then resampled).");
  po->Register("allow-upsample", &allow_upsample,
               "If true, allow the input waveform to have a lower frequency "
               "than the specified --sample-frequency (it is then resampled).");
}

int32_t FrameExtractionOptions::WindowShift() const {
  return static_cast<int32_t>(samp_freq * 0.001 * frame_shift_ms);
}

int32_t FrameExtractionOptions::WindowSize() const {
  return static_cast<int32_t>(samp_freq * 0.001 * frame_length_ms);
}

int32_t FrameExtractionOptions::PaddedWindowSize() const {
  int32_t n = WindowSize();
  if (!round_to_power_of_two) return n;
  int32_t p = 1;
  while (p < n) p *= 2;
  return p;
}

void FrameExtractionOptions::Check() const {
  if (WindowShift() <= 0 || WindowSize() < 2)
    NNET3_ERR << "Frame shift " << frame_shift_ms << " ms and length "
              << frame_length_ms << " ms at " << samp_freq
              << " Hz give no samples: check --frame-shift, --frame-length "
              << "and --sample-frequency";
  if (PaddedWindowSize() % 2 != 0)
    NNET3_ERR << "The FFT size " << PaddedWindowSize()
              << " must be even: use --round-to-power-of-two=true or a "
              << "--frame-length of an even number of samples";
  if (preemph_coeff < 0.0f || preemph_coeff > 1.0f)
    NNET3_ERR << "--preemphasis-coefficient=" << preemph_coeff
              << " must be in [0, 1]";
}

int32_t NumFrames(int64_t num_samples, const FrameExtractionOptions &opts) {
  int64_t shift = opts.WindowShift(), length = opts.WindowSize();
  if (opts.snip_edges)
    return num_samples < length
               ? 0
               : static_cast<int32_t>(1 + (num_samples - length) / shift);
  return static_cast<int32_t>((num_samples + shift / 2) / shift);
}

int64_t FirstSampleOfFrame(int32_t frame, const FrameExtractionOptions &opts) {
  int64_t shift = opts.WindowShift(), length = opts.WindowSize();
  if (opts.snip_edges) return frame * shift;
  return frame * shift + shift / 2 - length / 2;
}

std::vector<float> WindowFunction(const FrameExtractionOptions &opts) {
  const int32_t n = opts.WindowSize();
  const std::string &type = opts.window_type;
  if (type != "hanning" && type != "sine" && type != "hamming" &&
      type != "povey" && type != "rectangular" && type != "blackman")
    NNET3_ERR << "Invalid window type " << type
              << " (use hamming, hanning, povey, rectangular, sine or "
              << "blackman)";
  std::vector<float> w(n);
  const double a = 2.0 * M_PI / (n - 1);
  for (int32_t i = 0; i < n; i++) {
    double c = std::cos(a * i), v = 1.0;
    if (type == "hanning")
      v = 0.5 - 0.5 * c;
    else if (type == "sine")
      v = std::sin(0.5 * a * i);
    else if (type == "hamming")
      v = 0.54 - 0.46 * c;
    else if (type == "povey")
      v = std::pow(0.5 - 0.5 * c, 0.85);
    else if (type == "blackman")
      v = opts.blackman_coeff - 0.5 * c +
          (0.5 - opts.blackman_coeff) * std::cos(2.0 * a * i);
    w[i] = static_cast<float>(v);
  }
  return w;
}

FrameExtractor::FrameExtractor(const FrameExtractionOptions &opts,
                               uint32_t dither_seed)
    : opts_(opts), engine_(dither_seed) {
  opts_.Check();
  window_function_ = WindowFunction(opts_);
}

void FrameExtractor::AddDither(float *x, int32_t n) {
  // Box-Muller, two normal draws per pair of uniforms in (0, 1].
  const float scale = 1.0f / 4294967296.0f;
  for (int32_t i = 0; i < n; i += 2) {
    float u1 = (static_cast<float>(engine_()) + 1.0f) * scale;
    float u2 = static_cast<float>(engine_()) * scale;
    float r = std::sqrt(-2.0f * std::log(std::min(u1, 1.0f))) * opts_.dither;
    float t = static_cast<float>(2.0 * M_PI) * u2;
    x[i] += r * std::cos(t);
    if (i + 1 < n) x[i + 1] += r * std::sin(t);
  }
}

void FrameExtractor::Extract(const float *wave, int64_t num_samples,
                             int32_t frame, float *window,
                             float *raw_log_energy) {
  const int32_t length = opts_.WindowSize(), padded = opts_.PaddedWindowSize();
  const int64_t start = FirstSampleOfFrame(frame, opts_);
  if (start >= 0 && start + length <= num_samples) {
    std::memcpy(window, wave + start, sizeof(float) * length);
  } else {
    NNET3_ASSERT(num_samples > 0);
    for (int32_t s = 0; s < length; s++) {
      int64_t t = start + s;  // mirrored into [0, num_samples)
      while (t < 0 || t >= num_samples)
        t = t < 0 ? -t - 1 : 2 * num_samples - 1 - t;
      window[s] = wave[t];
    }
  }
  std::fill(window + length, window + padded, 0.0f);
  if (opts_.dither != 0.0f) AddDither(window, length);
  if (opts_.remove_dc_offset) {
    const float mean = HostSum(length, window) / static_cast<float>(length);
    for (int32_t s = 0; s < length; s++) window[s] -= mean;
  }
  if (raw_log_energy != nullptr) *raw_log_energy = LogEnergy(window, length);
  const float c = opts_.preemph_coeff;
  if (c != 0.0f) {
    for (int32_t s = length - 1; s > 0; s--) window[s] -= c * window[s - 1];
    window[0] -= c * window[0];
  }
  for (int32_t s = 0; s < length; s++) window[s] *= window_function_[s];
}

float LogEnergy(const float *x, int32_t n) {
  return std::log(
      std::max(HostDot(n, x, x), std::numeric_limits<float>::epsilon()));
}

bool CheckSampleFrequency(float wave_freq, const FrameExtractionOptions &opts) {
  if (wave_freq == opts.samp_freq) return false;
  const bool down = opts.samp_freq < wave_freq;
  if (!(down ? opts.allow_downsample : opts.allow_upsample))
    NNET3_ERR << "Waveform and config sample Frequency mismatch: " << wave_freq
              << " .vs " << opts.samp_freq << " (use "
              << (down ? "--allow-downsample=true" : "--allow-upsample=true")
              << " to resample it, or resample it in wav.scp, e.g. 'sox in.wav "
              << "-r " << opts.samp_freq << " -t wav - |', or set "
              << "--sample-frequency=" << wave_freq << ")";
  return true;
}

}  // namespace nnet3
