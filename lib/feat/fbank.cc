#include "feat/fbank.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/options.h"

namespace nnet3 {

void FbankOptions::Register(OptionsRegistry *po) {
  frame_opts.Register(po);
  mel_opts.Register(po);
  po->Register("use-energy", &use_energy,
               "Add an extra dimension with energy to the FBANK output.");
  po->Register("energy-floor", &energy_floor,
               "Floor on energy (absolute, not relative) in FBANK "
               "computation. Only makes a difference if --use-energy=true; "
               "only necessary if --dither=0.0.  Suggested values: 0.1 or "
               "1.0");
  po->Register("raw-energy", &raw_energy,
               "If true, compute energy before preemphasis and windowing");
  po->Register("htk-compat", &htk_compat,
               "If true, put energy last.  Warning: not sufficient to get "
               "HTK compatible features (need to change other parameters).");
  po->Register("use-log-fbank", &use_log_fbank,
               "If true, produce log-filterbank, else produce linear.");
  po->Register("use-power", &use_power,
               "If true, use power, else use magnitude.");
}

FbankComputer::FbankComputer(const FbankOptions &opts)
    : opts_(opts),
      mel_banks_(opts.mel_opts, opts.frame_opts),
      fft_(opts.frame_opts.PaddedWindowSize()) {
  if (opts.energy_floor > 0.0f) log_energy_floor_ = std::log(opts.energy_floor);
  power_.resize(fft_.NumBins());
  mel_banks_.Get(1.0f);
}

void FbankComputer::Compute(float raw_log_energy, float vtln_warp, float *frame,
                            float *feature) {
  const float eps = std::numeric_limits<float>::epsilon();
  const int32_t n = fft_.Size(), bins = opts_.mel_opts.num_bins;
  if (opts_.use_energy && !opts_.raw_energy) {
    raw_log_energy = LogEnergy(frame, n);
  }
  fft_.Compute(frame, power_.data());
  if (!opts_.use_power)
    for (float &p : power_) p = std::sqrt(p);
  const bool energy_first = opts_.use_energy && !opts_.htk_compat;
  float *mel = feature + (energy_first ? 1 : 0);
  mel_banks_.Get(vtln_warp).Compute(power_.data(), mel);
  if (opts_.use_log_fbank)
    for (int32_t b = 0; b < bins; b++) mel[b] = std::log(std::max(mel[b], eps));
  if (opts_.use_energy) {
    if (opts_.energy_floor > 0.0f && raw_log_energy < log_energy_floor_)
      raw_log_energy = log_energy_floor_;
    feature[energy_first ? 0 : bins] = raw_log_energy;
  }
}

}  // namespace nnet3
