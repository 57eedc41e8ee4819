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

// Butterfly(lo + j, hi + j) for j < n; the ranges do not overlap.
inline void Butterflies(float *__restrict lo, float *__restrict hi, int32_t n) {
  for (int32_t j = 0; j < n; j++) {
    const float sum = lo[j] + hi[j];
    hi[j] = lo[j] - hi[j];
    lo[j] = sum;
  }
}

// (a, b) <- (a - i b, a + i b) for the points j < n of a third quarter a
// and a fourth quarter b.
inline void FoldQuarter(float *__restrict r1, float *__restrict i1,
                        float *__restrict r3, float *__restrict i3, int32_t n) {
  for (int32_t j = 0; j < n; j++) {
    const float ar = r1[j], ai = i1[j], br = r3[j], bi = i3[j];
    r1[j] = ar + bi;
    i1[j] = ai - br;
    r3[j] = ar - bi;
    i3[j] = ai + br;
  }
}

inline void Transform2(float *re, float *im) {
  Butterfly(&re[0], &re[1]);
  Butterfly(&im[0], &im[1]);
}

// The 4-point stage: butterflies at distance 2, the 2-point transform of
// the sums, and the differences' points 2 and 3 combined with -i.
inline void Transform4(float *re, float *im) {
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
}

// a_j <- a_j w^j for j in [begin, end), w^j = c - i s from the table rows
// c, -(s + c), s - c: (c a_re + s a_im, c a_im - s a_re) with one product
// shared, c (a_re + a_im), plus (s - c) a_im resp. -(s + c) a_re.
void Rotate(float *__restrict re, float *__restrict im,
            const float *__restrict c, const float *__restrict minus_sum,
            const float *__restrict diff, int32_t begin, int32_t end) {
  for (int32_t j = begin; j < end; j++) {
    const float ar = re[j], ai = im[j];
    const float shared = c[j] * (ar + ai);
    im[j] = minus_sum[j] * ar + shared;
    re[j] = diff[j] * ai + shared;
  }
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
        float *e = &t[(times == 1 ? 0 : 3) * static_cast<size_t>(quarter) + j];
        e[0] = c;
        e[quarter] = -(s + c);
        e[2 * quarter] = s - c;
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

// Multiplies the third quarter's point j by w^j and the fourth's by w^3j
// (w = e^{-2 pi i / 2^log_m}); at j = 2^log_m / 8, w^j = (1 - i) / sqrt(2).
void SplitRadixFft::Twiddle(float *re, float *im, int32_t log_m) const {
  const int32_t size = 1 << log_m, half = size / 2, quarter = size / 4,
                eighth = size / 8;
  const float h = static_cast<float>(M_SQRT1_2);
  float *r1 = re + half, *i1 = im + half;
  float *r3 = r1 + quarter, *i3 = i1 + quarter;
  const float ar = r1[eighth], ai = i1[eighth], br = r3[eighth],
              bi = i3[eighth];
  r1[eighth] = h * (ar + ai);
  i1[eighth] = h * (ai - ar);
  r3[eighth] = h * (bi - br);
  i3[eighth] = -h * (br + bi);
  if (log_m < 4) return;  // j = 1 = eighth only
  const float *t = twiddles_[log_m].data();
  const float *c1 = t, *c3 = t + 3 * quarter;
  Rotate(r1, i1, c1, c1 + quarter, c1 + 2 * quarter, 1, eighth);
  Rotate(r1, i1, c1, c1 + quarter, c1 + 2 * quarter, eighth + 1, quarter);
  Rotate(r3, i3, c3, c3 + quarter, c3 + 2 * quarter, 1, eighth);
  Rotate(r3, i3, c3, c3 + quarter, c3 + 2 * quarter, eighth + 1, quarter);
}

// One split-radix stage: length-2 butterflies between the halves, -i times
// the difference's upper quarter folded into the lower, the twiddles, then
// the half-size transform of the sums and the quarter-size transforms of
// the two twiddled quarters.
void SplitRadixFft::Transform(float *re, float *im, int32_t log_m) const {
  switch (log_m) {
    case 0:
      return;
    case 1:
      Transform2(re, im);
      return;
    case 2:
      Transform4(re, im);
      return;
    case 3:
      Butterflies(re, re + 4, 4);
      Butterflies(im, im + 4, 4);
      FoldQuarter(re + 4, im + 4, re + 6, im + 6, 2);
      Twiddle(re, im, 3);
      Transform4(re, im);
      Transform2(re + 4, im + 4);
      Transform2(re + 6, im + 6);
      return;
  }
  const int32_t size = 1 << log_m, half = size / 2, quarter = size / 4;
  Butterflies(re, re + half, half);
  Butterflies(im, im + half, half);
  FoldQuarter(re + half, im + half, re + half + quarter, im + half + quarter,
              quarter);
  Twiddle(re, im, log_m);
  Transform(re, im, log_m - 1);
  Transform(re + half, im + half, log_m - 2);
  Transform(re + half + quarter, im + half + quarter, log_m - 2);
}

}  // namespace nnet3
