// PowerSpectrum: the FFT of a real frame of n samples and its power
// |X_k|^2 for k = 0 .. n/2, in single precision with Kaldi's algorithm and
// rounding, so that features computed from it equal Kaldi's to float
// rounding of the later steps, not merely to the FFT's accuracy (see
// split-radix-fft.h for the size of the difference).
//
//   PowerSpectrum fft(512);
//   std::vector<float> power(fft.NumBins());      // n/2 + 1
//   fft.Compute(frame, power.data());             // frame: n floats
//   fft.ComputeComplex(frame, re_im);             // n + 2 floats
//
// As Kaldi does: the frame's even samples as real parts and odd samples as
// imaginary parts make an n/2-point complex sequence; its transform
// (split-radix when n is a power of two, mixed-radix otherwise) is turned
// into X_k by the usual even/odd split, with the twiddle w^k advanced by a
// float product per k; the power is re^2 + im^2 in float. Any even n >= 2.
// No allocation per frame. Not thread-safe: one object per thread.
#ifndef NNET3_FEAT_POWER_SPECTRUM_H_
#define NNET3_FEAT_POWER_SPECTRUM_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "feat/mixed-radix-fft.h"
#include "feat/split-radix-fft.h"

namespace nnet3 {

class PowerSpectrum {
 public:
  explicit PowerSpectrum(int32_t n);

  int32_t Size() const { return n_; }
  int32_t NumBins() const { return n_ / 2 + 1; }
  // power[k] = re_k^2 + im_k^2, k = 0 .. n/2.
  void Compute(const float *frame, float *power);
  // re_0, im_0, re_1, im_1, ... re_{n/2}, im_{n/2} (n + 2 values).
  void ComputeComplex(const float *frame, float *re_im);

 private:
  // Calls visit(k, re_k, im_k) for every k = 0 .. n/2 (in no fixed order).
  template <class Visit>
  void Transform(const float *frame, Visit visit);

  int32_t n_;
  std::unique_ptr<SplitRadixFft> split_;  // n a power of two
  std::unique_ptr<MixedRadixFft> mixed_;  // otherwise
  std::vector<int32_t> position_;  // where the half-size transform's B_j is
  std::vector<float> twiddle_re_, twiddle_im_;  // w^k, k = 1 .. n/4
  std::vector<float> re_, im_, interleaved_;
};

}  // namespace nnet3

#endif  // NNET3_FEAT_POWER_SPECTRUM_H_
