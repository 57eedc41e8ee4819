// Frame extraction: Kaldi's FrameExtractionOptions and how a waveform is cut
// into windowed frames before the FFT (Kaldi's feat/feature-window).
//
//   FrameExtractionOptions opts;  opts.Register(&po);
//   FrameExtractor frames(opts);
//   int32_t n = NumFrames(num_samples, opts);
//   std::vector<float> window(opts.PaddedWindowSize());
//   float raw_log_energy;
//   frames.Extract(wave, num_samples, f, window.data(), &raw_log_energy);
//
// Frame f starts at sample f * shift (--snip-edges=true: only frames that
// fit, 1 + (N - length) / shift of them) or is centred on f * shift +
// shift / 2 (--snip-edges=false: (N + shift / 2) / shift frames, samples
// outside the signal mirrored back into it). Each frame then gets, in
// order: Gaussian dither of standard deviation --dither, its mean removed
// (--remove-dc-offset), the raw log-energy taken (when asked for: log of
// the sum of squares, floored at FLT_EPSILON), pre-emphasis
// x[i] -= c * x[i-1] (x[0] -= c * x[0]), the window function, and zeros up
// to the padded size. The dither comes from the extractor's own generator
// (seed fixed at construction), so a run is reproducible.
#ifndef NNET3_FEAT_FRAME_EXTRACTION_H_
#define NNET3_FEAT_FRAME_EXTRACTION_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace nnet3 {

class OptionsRegistry;

struct FrameExtractionOptions {
  float samp_freq = 16000.0f;
  float frame_shift_ms = 10.0f;
  float frame_length_ms = 25.0f;
  float dither = 1.0f;
  float preemph_coeff = 0.97f;
  bool remove_dc_offset = true;
  std::string window_type = "povey";
  bool round_to_power_of_two = true;
  float blackman_coeff = 0.42f;
  bool snip_edges = true;
  bool allow_downsample = false;
  bool allow_upsample = false;

  void Register(OptionsRegistry *po);
  // Samples per shift and per frame, and the FFT size.
  int32_t WindowShift() const;
  int32_t WindowSize() const;
  int32_t PaddedWindowSize() const;
  // Throws UserError on values no computation can use.
  void Check() const;
};

int32_t NumFrames(int64_t num_samples, const FrameExtractionOptions &opts);
// May be negative (--snip-edges=false).
int64_t FirstSampleOfFrame(int32_t frame, const FrameExtractionOptions &opts);

// The window function's values (WindowSize() of them), computed in double
// and rounded to float. Throws UserError for an unknown --window-type.
std::vector<float> WindowFunction(const FrameExtractionOptions &opts);

// log(max(sum of x_i^2, FLT_EPSILON)): a frame's log energy.
float LogEnergy(const float *x, int32_t n);

// Whether a waveform at `wave_freq` must be resampled to --sample-frequency:
// false if the rates are equal, true if they differ and --allow-downsample
// (or --allow-upsample) allows it; otherwise throws UserError with Kaldi's
// message.
bool CheckSampleFrequency(float wave_freq, const FrameExtractionOptions &opts);

class FrameExtractor {
 public:
  explicit FrameExtractor(const FrameExtractionOptions &opts,
                          uint32_t dither_seed = 0);
  const FrameExtractionOptions &Options() const { return opts_; }
  // Writes frame `frame` of `wave` (num_samples values) into `window`
  // (PaddedWindowSize() values); sets *raw_log_energy if not null.
  void Extract(const float *wave, int64_t num_samples, int32_t frame,
               float *window, float *raw_log_energy);

 private:
  void AddDither(float *x, int32_t n);

  FrameExtractionOptions opts_;
  std::vector<float> window_function_;
  std::mt19937 engine_;
};

}  // namespace nnet3

#endif  // NNET3_FEAT_FRAME_EXTRACTION_H_
