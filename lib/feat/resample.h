// Resampling a whole waveform from one integer sample rate to another by
// band-limited interpolation (what Kaldi's compute-*-feats do under
// --allow-downsample / --allow-upsample).
//
//   std::vector<float> out;
//   ResampleWaveform(22050.0f, wave, num_samples, 16000.0f, &out);
//
// or, for many signals at the same rates:
//   LinearResampler r(22050, 16000, 0.99 * 0.5 * 16000, 6);
//   r.Resample(wave, num_samples, &out);
//
// Output sample m is the sum over input samples n of x[n] h(m / out - n / in)
// / in, where h is the ideal low-pass filter of cutoff fc (sin(2 pi fc t) /
// (pi t)) times a raised-cosine window that reaches zero after `num_zeros`
// zero crossings (|t| < num_zeros / (2 fc)). Samples outside the signal count
// as zero. A signal of N samples gives ceil(N * out / in) samples: every
// output time m / out that lies in [0, N / in). ResampleWaveform uses
// Kaldi's settings: cutoff 0.99 times half the lower of the two rates, six
// zero crossings. The filter weights are computed once per constructor, in
// double precision and stored as float; the sums are in double.
#ifndef NNET3_FEAT_RESAMPLE_H_
#define NNET3_FEAT_RESAMPLE_H_

#include <cstdint>
#include <vector>

namespace nnet3 {

class LinearResampler {
 public:
  // Throws UserError unless both rates are positive, 0 < cutoff <= half of
  // each rate and num_zeros > 0.
  LinearResampler(int32_t rate_in, int32_t rate_out, double cutoff,
                  int32_t num_zeros);

  int64_t NumOutputSamples(int64_t num_samples_in) const;
  // Replaces *out by the resampled `in` (num_samples values).
  void Resample(const float *in, int64_t num_samples,
                std::vector<float> *out) const;

 private:
  double Filter(double t) const;

  int32_t rate_in_, rate_out_;
  double cutoff_;
  int32_t num_zeros_;
  // The pattern of input positions and weights repeats every unit_out_
  // output samples (unit_in_ input samples): rates / gcd(rates).
  int32_t unit_in_, unit_out_;
  std::vector<int64_t> first_input_;         // per output sample in a unit
  std::vector<std::vector<float>> weights_;  // per output sample in a unit
};

// Resamples `wave` from `rate_in` to `rate_out` Hz (both rounded down to
// integers, as Kaldi's) with Kaldi's filter settings.
void ResampleWaveform(float rate_in, const float *wave, int64_t num_samples,
                      float rate_out, std::vector<float> *out);

}  // namespace nnet3

#endif  // NNET3_FEAT_RESAMPLE_H_
