// SplitRadixFft: the complex FFT of m = 2^k points by the split-radix
// algorithm, in single precision, rounding as Kaldi's feature programs do.
// It exists for that rounding: a float FFT differs from the exact transform
// by ~1e-7 of the frame's largest bin, enough to move a log-power bin 60 dB
// under the peak by 1e-2 and an MFCC coefficient by 1e-3. Kaldi's
// compute-mfcc-feats uses this algorithm (matrix/srfft.cc: the
// Duhamel-Hollmann split-radix recursion with Malvar's twiddle tables), so
// performing the same float operations in the same order, with the twiddles
// computed the same way (angle rounded to float, then cosf/sinf), gives
// Kaldi's values, not merely values as accurate as Kaldi's.
//
//   SplitRadixFft fft(256);
//   fft.Compute(re, im);                // in place, natural order
//   fft.ComputeScrambled(re, im);       // faster: X_j lands at Position(j)
//
// Forward transform: X_j = sum_t x_t exp(-2 pi i j t / m), no scaling.
// The tables are made once in the constructor; Compute* allocate nothing
// and are const, so one object may serve several threads.
#ifndef NNET3_FEAT_SPLIT_RADIX_FFT_H_
#define NNET3_FEAT_SPLIT_RADIX_FFT_H_

#include <cstdint>
#include <vector>

namespace nnet3 {

class SplitRadixFft {
 public:
  // m: a power of two, at least 1.
  explicit SplitRadixFft(int32_t m);

  int32_t Size() const { return m_; }
  // Where X_j is after ComputeScrambled (the bit reversal of j).
  int32_t Position(int32_t j) const { return reversed_[j]; }
  void ComputeScrambled(float *re, float *im) const;
  void Compute(float *re, float *im) const;

 private:
  // The transform of 2^log_m points at re/im, output bit-reversed.
  void Transform(float *re, float *im, int32_t log_m) const;
  // The twiddle step of a 2^log_m-point stage on its upper half.
  void Twiddle(float *re, float *im, int32_t log_m) const;

  int32_t m_, log_m_;
  std::vector<int32_t> reversed_;
  // twiddles_[L] for a stage of 2^L points, L >= 4: six rows of 2^L/4
  // floats, c, -(s + c), s - c of the angles 2 pi j / 2^L and the same of 3
  // times them, j = 0 .. 2^L/4 - 1 (j = 0 and j = 2^L/8 unused).
  std::vector<std::vector<float>> twiddles_;
};

}  // namespace nnet3

#endif  // NNET3_FEAT_SPLIT_RADIX_FFT_H_
