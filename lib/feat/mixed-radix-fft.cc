#include "feat/mixed-radix-fft.h"

#include <cmath>

#include "base/error.h"

namespace nnet3 {
namespace {

// *acc += w * x, the product's parts formed before the sum.
inline void AddProduct(float w_re, float w_im, float x_re, float x_im,
                       float *acc_re, float *acc_im) {
  *acc_re += x_re * w_re - x_im * w_im;
  *acc_im += x_re * w_im + x_im * w_re;
}

// *z *= w.
inline void Multiply(float w_re, float w_im, float *z_re, float *z_im) {
  const float re = *z_re * w_re - *z_im * w_im;
  *z_im = *z_re * w_im + *z_im * w_re;
  *z_re = re;
}

}  // namespace

MixedRadixFft::MixedRadixFft(int32_t m) : m_(m) {
  NNET3_ASSERT(m >= 1);
  for (int32_t f = 2, rest = m; rest > 1; f++)
    while (rest % f == 0) {
      factors_.push_back(f);
      rest /= f;
    }
  buffer_.resize(2 * static_cast<size_t>(m));
}

void MixedRadixFft::Compute(float *data) {
  if (m_ > 1)
    Transform(data, 1, m_, factors_.data(), factors_.data() + factors_.size());
}

void MixedRadixFft::Transform(float *data, int32_t count, int32_t n,
                              const int32_t *factor,
                              const int32_t *factor_end) {
  if (factor == factor_end) return;  // n == 1
  const int32_t p = *factor, q = n / p;
  if (q > 1) {
    // Point t = j p + i of each transform goes to i q + j: P sequences.
    float *tmp = buffer_.data();
    for (int32_t c = 0; c < count; c++) {
      float *block = data + 2 * static_cast<size_t>(c) * n;
      for (int32_t i = 0; i < p; i++)
        for (int32_t j = 0; j < q; j++) {
          tmp[2 * (i * q + j)] = block[2 * (j * p + i)];
          tmp[2 * (i * q + j) + 1] = block[2 * (j * p + i) + 1];
        }
      std::copy(tmp, tmp + 2 * n, block);
    }
    Transform(data, count * p, q, factor + 1, factor_end);
  }
  for (int32_t c = 0; c < count; c++)
    Combine(data + 2 * static_cast<size_t>(c) * n, n, p);
}

// X_{a q + b} = sum_i w_p^{a i} w_n^{b i} Y_i(b), Y_i the i-th
// sub-transform: for each b the factor w_n^b w_p^a is advanced by w_p per
// a, and its powers by repeated products over i.
void MixedRadixFft::Combine(float *data, int32_t n, int32_t p) {
  const int32_t q = n / p;
  const float angle_n = static_cast<float>(-2.0 * M_PI / n),
              angle_p = static_cast<float>(-2.0 * M_PI / p);
  const float root_n_re = std::cos(angle_n), root_n_im = std::sin(angle_n);
  const float root_p_re = std::cos(angle_p), root_p_im = std::sin(angle_p);
  float *sums = buffer_.data();
  float wb_re = 1.0f, wb_im = 0.0f;  // w_n^b
  for (int32_t b = 0; b < q; b++) {
    float w_re = wb_re, w_im = wb_im;  // w_n^b w_p^a
    for (int32_t a = 0; a < p; a++) {
      float *acc = sums + 2 * a;
      acc[0] = data[2 * b];
      acc[1] = data[2 * b + 1];
      AddProduct(w_re, w_im, data[2 * (q + b)], data[2 * (q + b) + 1], &acc[0],
                 &acc[1]);
      float wi_re = w_re, wi_im = w_im;  // (w_n^b w_p^a)^i
      for (int32_t i = 2; i < p; i++) {
        Multiply(w_re, w_im, &wi_re, &wi_im);
        AddProduct(wi_re, wi_im, data[2 * (i * q + b)],
                   data[2 * (i * q + b) + 1], &acc[0], &acc[1]);
      }
      if (a != p - 1) Multiply(root_p_re, root_p_im, &w_re, &w_im);
    }
    for (int32_t a = 0; a < p; a++) {
      data[2 * (a * q + b)] = sums[2 * a];
      data[2 * (a * q + b) + 1] = sums[2 * a + 1];
    }
    Multiply(root_n_re, root_n_im, &wb_re, &wb_im);
  }
}

}  // namespace nnet3
