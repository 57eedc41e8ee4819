#include "feat/power-spectrum.h"

#include <fftw3.h>

#include <cstring>

#include "base/error.h"

namespace nnet3 {

PowerSpectrum::PowerSpectrum(int32_t n) : n_(n) {
  NNET3_ASSERT(n >= 2 && n % 2 == 0);
  in_ = fftw_alloc_real(n);
  out_ = reinterpret_cast<double *>(fftw_alloc_complex(n / 2 + 1));
  if (in_ == nullptr || out_ == nullptr)
    NNET3_ERR << "Out of memory allocating an FFT of size " << n;
  plan_ = fftw_plan_dft_r2c_1d(n, in_, reinterpret_cast<fftw_complex *>(out_),
                               FFTW_ESTIMATE);
  NNET3_ASSERT(plan_ != nullptr);
}

PowerSpectrum::~PowerSpectrum() {
  fftw_destroy_plan(static_cast<fftw_plan>(plan_));
  fftw_free(in_);
  fftw_free(out_);
}

void PowerSpectrum::ComputeComplex(const float *frame, float *re_im) {
  for (int32_t i = 0; i < n_; i++) in_[i] = frame[i];
  fftw_execute(static_cast<fftw_plan>(plan_));
  for (int32_t i = 0; i < n_ + 2; i++) re_im[i] = static_cast<float>(out_[i]);
}

void PowerSpectrum::Compute(const float *frame, float *power) {
  for (int32_t i = 0; i < n_; i++) in_[i] = frame[i];
  fftw_execute(static_cast<fftw_plan>(plan_));
  const int32_t bins = NumBins();
  for (int32_t k = 0; k < bins; k++) {
    double re = out_[2 * k], im = out_[2 * k + 1];
    power[k] = static_cast<float>(re * re + im * im);
  }
}

}  // namespace nnet3
