#include "feat/split-radix-fft.h"

#include <cmath>
#include <utility>

#include "base/error.h"

namespace nnet3 {
namespace {

// (a, b) <- (a + b, a - b).
inline void Butterfly(float *a, float *b) {
  const float sum = *a + *b;
  *b = *a - *b;
  *a = sum;
}

}  // namespace

SplitRadixFft::SplitRadixFft(int32_t m) : m_(m), log_m_(0) {
  NNET3_ASSERT(m >= 1 && (m & (m - 1)) == 0);
  while ((1 << log_m_) < m) log_m_++;
  reversed_.resize(m);
  for (int32_t j = 0; j < m; j++) {
    int32_t r = 0;
    for (int32_t b = 0; b < log_m_; b++)
      r |= ((j >> b) & 1) << (log_m_ - 1 - b);
    reversed_[j] = r;
  }
  twiddles_.resize(log_m_ + 1);
  for (int32_t level = 4; level <= log_m_; level++) {
    const int32_t size = 1 << level, quarter = size / 4;
    std::vector<float> &t = twiddles_[level];
    t.assign(6 * static_cast<size_t>(quarter), 0.0f);
    for (int32_t j = 1; j < quarter; j++) {
      if (j == quarter / 2) continue;
      for (int32_t times = 1; times <= 3; times += 2) {
        // The angle is rounded to float before cosf / sinf, as Kaldi does.
        const float angle = static_cast<float>(times * j * 2.0 * M_PI / size);
        const float c = std::cos(angle), s = std::sin(angle);
        float *e = &t[6 * j + (times == 1 ? 0 : 3)];
        e[0] = c;
        e[1] = -(s + c);
        e[2] = s - c;
      }
    }
  }
}

void SplitRadixFft::Compute(float *re, float *im) const {
  Transform(re, im, log_m_);
  for (int32_t j = 0; j < m_; j++) {
    const int32_t r = reversed_[j];
    if (r > j) {
      std::swap(re[j], re[r]);
      std::swap(im[j], im[r]);
    }
  }
}

void SplitRadixFft::ComputeScrambled(float *re, float *im) const {
  Transform(re, im, log_m_);
}

// Multiplies the third quarter by w^j and the fourth by w^3j (w = e^{-2 pi
// i / 2^log_m}), as (c a_re + s a_im, c a_im - s a_re) with one product
// shared: c (a_re + a_im) plus (s - c) a_im resp. -(s + c) a_re.
void SplitRadixFft::Twiddle(float *re, float *im, int32_t log_m) const {
  const int32_t size = 1 << log_m, half = size / 2, quarter = size / 4,
                eighth = size / 8;
  const float h = static_cast<float>(M_SQRT1_2);
  float *r1 = re + half, *i1 = im + half;
  float *r3 = r1 + quarter, *i3 = i1 + quarter;
  const float *t = log_m >= 4 ? twiddles_[log_m].data() : nullptr;
  for (int32_t j = 1; j < quarter; j++) {
    const float ar = r1[j], ai = i1[j], br = r3[j], bi = i3[j];
    if (j == eighth) {
      r1[j] = h * (ar + ai);
      i1[j] = h * (ai - ar);
      r3[j] = h * (bi - br);
      i3[j] = -h * (br + bi);
    } else {
      const float *e = t + 6 * j;
      const float shared1 = e[0] * (ar + ai);
      i1[j] = e[1] * ar + shared1;
      r1[j] = e[2] * ai + shared1;
      const float shared3 = e[3] * (br + bi);
      i3[j] = e[4] * br + shared3;
      r3[j] = e[5] * bi + shared3;
    }
  }
}

// One split-radix stage: length-2 butterflies between the halves, -i times
// the difference's upper quarter folded into the lower, the twiddles, then
// the half-size transform of the sums and the quarter-size transforms of
// the two twiddled quarters.
void SplitRadixFft::Transform(float *re, float *im, int32_t log_m) const {
  if (log_m == 0) return;
  if (log_m == 1) {
    Butterfly(&re[0], &re[1]);
    Butterfly(&im[0], &im[1]);
    return;
  }
  if (log_m == 2) {
    Butterfly(&re[0], &re[2]);
    Butterfly(&im[0], &im[2]);
    Butterfly(&re[1], &re[3]);
    Butterfly(&im[1], &im[3]);
    Butterfly(&re[0], &re[1]);
    Butterfly(&im[0], &im[1]);
    const float r2 = re[2], i2 = im[2], r3 = re[3], i3 = im[3];
    re[2] = r2 + i3;
    im[2] = i2 - r3;
    re[3] = r2 - i3;
    im[3] = i2 + r3;
    return;
  }
  const int32_t size = 1 << log_m, half = size / 2, quarter = size / 4;
  for (int32_t j = 0; j < half; j++) {
    Butterfly(&re[j], &re[j + half]);
    Butterfly(&im[j], &im[j + half]);
  }
  float *r1 = re + half, *i1 = im + half;
  float *r3 = r1 + quarter, *i3 = i1 + quarter;
  for (int32_t j = 0; j < quarter; j++) {
    const float ar = r1[j], ai = i1[j], br = r3[j], bi = i3[j];
    r1[j] = ar + bi;
    i1[j] = ai - br;
    r3[j] = ar - bi;
    i3[j] = ai + br;
  }
  Twiddle(re, im, log_m);
  Transform(re, im, log_m - 1);
  Transform(re + half, im + half, log_m - 2);
  Transform(re + half + quarter, im + half + quarter, log_m - 2);
}

}  // namespace nnet3
