#include "feat/mfcc.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/error.h"
#include "base/options.h"
#include "device/host-blas.h"

namespace nnet3 {

void MfccOptions::Register(OptionsRegistry *po) {
  frame_opts.Register(po);
  mel_opts.Register(po);
  po->Register("num-ceps", &num_ceps,
               "Number of cepstra in MFCC computation (including C0)");
  po->Register("use-energy", &use_energy,
               "Use energy (not C0) in MFCC computation");
  po->Register("energy-floor", &energy_floor,
               "Floor on energy (absolute, not relative) in MFCC "
               "computation. Only makes a difference if --use-energy=true; "
               "only necessary if --dither=0.0.  Suggested values: 0.1 or "
               "1.0");
  po->Register("raw-energy", &raw_energy,
               "If true, compute energy before preemphasis and windowing");
  po->Register("cepstral-lifter", &cepstral_lifter,
               "Constant that controls scaling of MFCCs");
  po->Register("htk-compat", &htk_compat,
               "If true, put energy or C0 last and use a factor of sqrt(2) "
               "on C0.  Warning: not sufficient to get HTK compatible "
               "features (need to change other parameters).");
}

std::vector<float> DctMatrix(int32_t m) {
  std::vector<float> d(static_cast<size_t>(m) * m);
  const float first = std::sqrt(1.0 / m), rest = std::sqrt(2.0 / m);
  for (int32_t j = 0; j < m; j++) d[j] = first;
  for (int32_t k = 1; k < m; k++)
    for (int32_t j = 0; j < m; j++)
      d[k * m + j] = rest * std::cos(M_PI / m * (j + 0.5) * k);
  return d;
}

std::vector<float> LifterCoeffs(float q, int32_t n) {
  std::vector<float> c(n);
  for (int32_t i = 0; i < n; i++) c[i] = 1.0 + 0.5 * q * std::sin(M_PI * i / q);
  return c;
}

MfccComputer::MfccComputer(const MfccOptions &opts)
    : opts_(opts),
      mel_banks_(opts.mel_opts, opts.frame_opts),
      fft_(opts.frame_opts.PaddedWindowSize()) {
  const int32_t bins = opts.mel_opts.num_bins;
  if (opts.num_ceps > bins)
    NNET3_ERR << "num-ceps cannot be larger than num-mel-bins: --num-ceps="
              << opts.num_ceps << " --num-mel-bins=" << bins;
  if (opts.num_ceps < 1) NNET3_ERR << "--num-ceps must be at least 1";
  // Rows padded to a multiple of 4 floats, as a Kaldi matrix's are, so that
  // the BLAS product sees the same layout as Kaldi's.
  dct_stride_ = (bins + 3) / 4 * 4;
  const std::vector<float> dct = DctMatrix(bins);
  dct_.assign(static_cast<size_t>(opts.num_ceps) * dct_stride_, 0.0f);
  for (int32_t c = 0; c < opts.num_ceps; c++)
    std::copy_n(dct.begin() + static_cast<size_t>(c) * bins, bins,
                dct_.begin() + static_cast<size_t>(c) * dct_stride_);
  if (opts.cepstral_lifter != 0.0f)
    lifter_ = LifterCoeffs(opts.cepstral_lifter, opts.num_ceps);
  if (opts.energy_floor > 0.0f) log_energy_floor_ = std::log(opts.energy_floor);
  power_.resize(fft_.NumBins());
  mel_.resize(bins);
  mel_banks_.Get(1.0f);  // checks the mel options now
}

void MfccComputer::Compute(float raw_log_energy, float vtln_warp, float *frame,
                           float *feature) {
  const float eps = std::numeric_limits<float>::epsilon();
  const int32_t n = fft_.Size(), bins = opts_.mel_opts.num_bins;
  if (opts_.use_energy && !opts_.raw_energy) {
    raw_log_energy = LogEnergy(frame, n);
  }
  fft_.Compute(frame, power_.data());
  mel_banks_.Get(vtln_warp).Compute(power_.data(), mel_.data());
  for (int32_t b = 0; b < bins; b++) mel_[b] = std::log(std::max(mel_[b], eps));
  HostGemv(opts_.num_ceps, bins, dct_.data(), dct_stride_, mel_.data(),
           feature);
  for (size_t c = 0; c < lifter_.size(); c++) feature[c] *= lifter_[c];
  if (opts_.use_energy) {
    if (opts_.energy_floor > 0.0f && raw_log_energy < log_energy_floor_)
      raw_log_energy = log_energy_floor_;
    feature[0] = raw_log_energy;
  }
  if (opts_.htk_compat) {
    float c0 = feature[0];
    std::copy(feature + 1, feature + opts_.num_ceps, feature);
    feature[opts_.num_ceps - 1] =
        opts_.use_energy ? c0 : static_cast<float>(c0 * M_SQRT2);
  }
}

}  // namespace nnet3
