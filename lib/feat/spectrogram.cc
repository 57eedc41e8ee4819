#include "feat/spectrogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/options.h"

namespace nnet3 {

void SpectrogramOptions::Register(OptionsRegistry *po) {
  frame_opts.Register(po);
  po->Register("energy-floor", &energy_floor,
               "Floor on energy (absolute, not relative) in Spectrogram "
               "computation.  Caution: this floor is applied to the zeroth "
               "component, representing the total signal energy.  The "
               "floor on the individual spectrogram elements is fixed at "
               "std::numeric_limits<float>::epsilon().");
  po->Register("raw-energy", &raw_energy,
               "If true, compute energy before preemphasis and windowing");
  po->Register("return-raw-fft", &return_raw_fft,
               "If true, return raw FFT complex numbers instead of log "
               "magnitudes");
}

SpectrogramComputer::SpectrogramComputer(const SpectrogramOptions &opts)
    : opts_(opts), fft_(opts.frame_opts.PaddedWindowSize()) {
  if (opts.energy_floor > 0.0f) log_energy_floor_ = std::log(opts.energy_floor);
  re_im_.resize(fft_.Size() + 2);
}

void SpectrogramComputer::Compute(float raw_log_energy, float vtln_warp,
                                  float *frame, float *feature) {
  (void)vtln_warp;
  const float eps = std::numeric_limits<float>::epsilon();
  const int32_t n = fft_.Size();
  if (!opts_.raw_energy) {
    raw_log_energy = LogEnergy(frame, n);
  }
  if (opts_.return_raw_fft) {
    fft_.ComputeComplex(frame, re_im_.data());
    feature[0] = re_im_[0];
    feature[1] = re_im_[n];
    std::copy(re_im_.begin() + 2, re_im_.begin() + n, feature + 2);
    return;
  }
  fft_.Compute(frame, feature);
  for (int32_t k = 0; k < fft_.NumBins(); k++)
    feature[k] = std::log(std::max(feature[k], eps));
  if (opts_.energy_floor > 0.0f && raw_log_energy < log_energy_floor_)
    raw_log_energy = log_energy_floor_;
  feature[0] = raw_log_energy;
}

}  // namespace nnet3
