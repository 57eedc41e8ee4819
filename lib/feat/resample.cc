#include "feat/resample.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/error.h"

namespace nnet3 {

LinearResampler::LinearResampler(int32_t rate_in, int32_t rate_out,
                                 double cutoff, int32_t num_zeros)
    : rate_in_(rate_in),
      rate_out_(rate_out),
      cutoff_(cutoff),
      num_zeros_(num_zeros) {
  if (rate_in <= 0 || rate_out <= 0 || num_zeros <= 0 || cutoff <= 0.0 ||
      2.0 * cutoff > rate_in || 2.0 * cutoff > rate_out)
    NNET3_ERR << "Cannot resample from " << rate_in << " Hz to " << rate_out
              << " Hz with a cutoff of " << cutoff << " Hz and " << num_zeros
              << " zero crossings (rates must be positive, the cutoff at "
              << "most half of each)";
  const int32_t gcd = std::gcd(rate_in, rate_out);
  unit_in_ = rate_in / gcd;
  unit_out_ = rate_out / gcd;
  const double half_width = num_zeros / (2.0 * cutoff);  // seconds
  first_input_.resize(unit_out_);
  weights_.resize(unit_out_);
  for (int32_t j = 0; j < unit_out_; j++) {
    const double t = static_cast<double>(j) / rate_out;
    const int64_t first =
        static_cast<int64_t>(std::ceil((t - half_width) * rate_in));
    const int64_t last =
        static_cast<int64_t>(std::floor((t + half_width) * rate_in));
    first_input_[j] = first;
    weights_[j].resize(static_cast<size_t>(last - first + 1));
    for (int64_t n = first; n <= last; n++)
      weights_[j][n - first] = static_cast<float>(
          Filter(static_cast<double>(n) / rate_in - t) / rate_in);
  }
}

double LinearResampler::Filter(double t) const {
  if (std::fabs(t) >= num_zeros_ / (2.0 * cutoff_)) return 0.0;
  const double window =
      0.5 * (1.0 + std::cos(2.0 * M_PI * cutoff_ / num_zeros_ * t));
  const double sinc = t == 0.0
                          ? 2.0 * cutoff_
                          : std::sin(2.0 * M_PI * cutoff_ * t) / (M_PI * t);
  return window * sinc;
}

int64_t LinearResampler::NumOutputSamples(int64_t num_samples_in) const {
  // Times are counted in ticks of 1 / lcm(rates) so that the comparison
  // m / out < N / in is exact: m * (unit_in_) < N * (unit_out_).
  if (num_samples_in <= 0) return 0;
  const int64_t ticks = num_samples_in * unit_out_;
  return (ticks + unit_in_ - 1) / unit_in_;
}

void LinearResampler::Resample(const float *in, int64_t num_samples,
                               std::vector<float> *out) const {
  const int64_t num_out = NumOutputSamples(num_samples);
  out->resize(static_cast<size_t>(num_out));
  for (int64_t m = 0; m < num_out; m++) {
    const int64_t unit = m / unit_out_;
    const int32_t j = static_cast<int32_t>(m - unit * unit_out_);
    const std::vector<float> &w = weights_[j];
    const int64_t first = first_input_[j] + unit * unit_in_;
    const int64_t k_begin = std::max<int64_t>(0, -first);
    const int64_t k_end =
        std::min<int64_t>(static_cast<int64_t>(w.size()), num_samples - first);
    double sum = 0.0;
    for (int64_t k = k_begin; k < k_end; k++)
      sum += static_cast<double>(w[k]) * in[first + k];
    (*out)[m] = static_cast<float>(sum);
  }
}

void ResampleWaveform(float rate_in, const float *wave, int64_t num_samples,
                      float rate_out, std::vector<float> *out) {
  // Kaldi holds the cutoff in single precision; so do we, for equal weights.
  const float cutoff = 0.99f * 0.5f * std::min(rate_in, rate_out);
  const int32_t kNumZeros = 6;
  LinearResampler resampler(static_cast<int32_t>(rate_in),
                            static_cast<int32_t>(rate_out), cutoff, kNumZeros);
  resampler.Resample(wave, num_samples, out);
}

}  // namespace nnet3
