// PowerSpectrum: the FFT of a real frame and its power |X_k|^2 for
// k = 0 .. n/2, through FFTW's double-precision real-to-complex transform
// (Debian's libfftw3-dev). Double, not float: the frame is float, but a
// float FFT loses the weak bins of a frame with a strong one (a bin 60 dB
// under the peak keeps only ~3 correct digits), and on one core this FFT is
// still a small part of the time of an MFCC frame.
//
//   PowerSpectrum fft(512);
//   std::vector<float> power(fft.NumBins());      // n/2 + 1
//   fft.Compute(frame, power.data());             // frame: n floats
//   fft.ComputeComplex(frame, re_im);             // n + 2 floats
//
// The plan is made once with FFTW_ESTIMATE (no timing runs), so every run
// chooses the same algorithm and gives the same bits. Any even n works; a
// power of two is fastest. Not thread-safe: one object per thread.
#ifndef NNET3_FEAT_POWER_SPECTRUM_H_
#define NNET3_FEAT_POWER_SPECTRUM_H_

#include <cstdint>

namespace nnet3 {

class PowerSpectrum {
 public:
  explicit PowerSpectrum(int32_t n);
  ~PowerSpectrum();
  PowerSpectrum(const PowerSpectrum &) = delete;
  PowerSpectrum &operator=(const PowerSpectrum &) = delete;

  int32_t Size() const { return n_; }
  int32_t NumBins() const { return n_ / 2 + 1; }
  // power[k] = re_k^2 + im_k^2, k = 0 .. n/2.
  void Compute(const float *frame, float *power);
  // re_0, im_0, re_1, im_1, ... re_{n/2}, im_{n/2} (n + 2 values).
  void ComputeComplex(const float *frame, float *re_im);

 private:
  int32_t n_;
  double *in_;
  double *out_;  // n/2 + 1 complex values
  void *plan_;
};

}  // namespace nnet3

#endif  // NNET3_FEAT_POWER_SPECTRUM_H_
