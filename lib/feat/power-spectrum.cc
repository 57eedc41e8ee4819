#include "feat/power-spectrum.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"

namespace nnet3 {

PowerSpectrum::PowerSpectrum(int32_t n) : n_(n) {
  NNET3_ASSERT(n >= 2 && n % 2 == 0);
  const int32_t half = n / 2;
  position_.resize(half);
  if ((n & (n - 1)) == 0) {
    split_ = std::make_unique<SplitRadixFft>(half);
    for (int32_t j = 0; j < half; j++) position_[j] = split_->Position(j);
  } else {
    mixed_ = std::make_unique<MixedRadixFft>(half);
    interleaved_.resize(n);
    for (int32_t j = 0; j < half; j++) position_[j] = j;
  }
  re_.resize(half);
  im_.resize(half);
  // w^k by Kaldi's recurrence, a float product per k, made once: the values
  // do not depend on the frame.
  const float angle = static_cast<float>(-2.0 * M_PI / n);
  const float root_re = std::cos(angle), root_im = std::sin(angle);
  float w_re = 1.0f, w_im = 0.0f;
  for (int32_t k = 1; 2 * k <= half; k++) {
    const float next_re = w_re * root_re - w_im * root_im;
    w_im = w_re * root_im + w_im * root_re;
    w_re = next_re;
    twiddle_re_.push_back(w_re);
    twiddle_im_.push_back(w_im);
  }
}

// With B = the half-size transform of z_t = x_{2t} + i x_{2t+1}, the
// transforms of the even and odd samples are C_k = (B_k + B*_{h-k}) / 2 and
// D_k = (B_k - B*_{h-k}) / 2i, and X_k = C_k + w^k D_k, X_{h-k} = C*_k -
// (w^k)* D*_k (h = n/2, w = e^{-2 pi i / n}); X_0 and X_h are the sum and
// difference of B_0's parts.
template <class Visit>
void PowerSpectrum::Transform(const float *frame, Visit visit) {
  const int32_t half = n_ / 2;
  float *re = re_.data(), *im = im_.data();
  if (split_ != nullptr) {
    for (int32_t t = 0; t < half; t++) {
      re[t] = frame[2 * t];
      im[t] = frame[2 * t + 1];
    }
    split_->ComputeScrambled(re, im);
  } else {
    std::copy(frame, frame + n_, interleaved_.data());
    mixed_->Compute(interleaved_.data());
    for (int32_t t = 0; t < half; t++) {
      re[t] = interleaved_[2 * t];
      im[t] = interleaved_[2 * t + 1];
    }
  }
  const int32_t *pos = position_.data();
  visit(0, re[pos[0]] + im[pos[0]], 0.0f);
  visit(half, re[pos[0]] - im[pos[0]], 0.0f);
  for (int32_t k = 1; 2 * k <= half; k++) {
    const float w_re = twiddle_re_[k - 1], w_im = twiddle_im_[k - 1];
    const int32_t k2 = half - k, a = pos[k], b = pos[k2];
    const float c_re = 0.5f * (re[a] + re[b]), c_im = 0.5f * (im[a] - im[b]);
    const float d_re = 0.5f * (im[a] + im[b]), d_im = -0.5f * (re[a] - re[b]);
    visit(k, c_re + (w_re * d_re - w_im * d_im),
          c_im + (w_re * d_im + w_im * d_re));
    if (k2 != k)
      visit(k2, c_re + ((-w_re) * d_re - w_im * (-d_im)),
            -c_im + ((-w_re) * (-d_im) + w_im * d_re));
  }
}

void PowerSpectrum::Compute(const float *frame, float *power) {
  Transform(frame, [power](int32_t k, float re, float im) {
    power[k] = re * re + im * im;
  });
}

void PowerSpectrum::ComputeComplex(const float *frame, float *re_im) {
  Transform(frame, [re_im](int32_t k, float re, float im) {
    re_im[2 * k] = re;
    re_im[2 * k + 1] = im;
  });
}

}  // namespace nnet3
