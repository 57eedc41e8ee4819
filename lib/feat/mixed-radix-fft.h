// MixedRadixFft: the complex FFT of any number of points m, in single
// precision, rounding as Kaldi's feature programs do when the padded frame
// is not a power of two (--round-to-power-of-two=false; Kaldi's RealFft
// over its ComplexFft in matrix/matrix-functions.cc). Why the rounding
// matters: see split-radix-fft.h.
//
//   MixedRadixFft fft(160);                  // 160 = 2 2 2 2 2 5
//   fft.Compute(data);                       // re_0, im_0, re_1, ... in place
//
// The algorithm: m = P Q with P the smallest prime factor; the input is
// regrouped into P interleaved sequences of Q points, each transformed
// recursively, and each output X_{p'Q+q'} is summed directly over the P
// sub-transforms. The twiddles are powers of the P-th and m-th roots of
// unity built by repeated float products, as Kaldi builds them, not
// tabulated: that is what makes the rounding Kaldi's. O(m sum of factors);
// fine for frames (a few hundred points), slow for large primes.
// Compute reuses a buffer, so it is not const: one object per thread.
#ifndef NNET3_FEAT_MIXED_RADIX_FFT_H_
#define NNET3_FEAT_MIXED_RADIX_FFT_H_

#include <cstdint>
#include <vector>

namespace nnet3 {

class MixedRadixFft {
 public:
  explicit MixedRadixFft(int32_t m);

  int32_t Size() const { return m_; }
  // Forward transform, interleaved complex data of Size() points, in place.
  void Compute(float *data);

 private:
  // count transforms of n points each, consecutive in data; factors are n's
  // prime factors in ascending order.
  void Transform(float *data, int32_t count, int32_t n, const int32_t *factor,
                 const int32_t *factor_end);
  // The P-point sums of one n-point transform whose P sub-transforms of
  // n / P points are done.
  void Combine(float *data, int32_t n, int32_t p);

  int32_t m_;
  std::vector<int32_t> factors_;
  std::vector<float> buffer_;
};

}  // namespace nnet3

#endif  // NNET3_FEAT_MIXED_RADIX_FFT_H_
