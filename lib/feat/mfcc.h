// MfccComputer: Kaldi's MFCCs of one windowed frame (Kaldi's
// feat/feature-mfcc), for OfflineFeatures (feat/offline-features.h).
//
//   MfccOptions opts;  opts.Register(&po);       // Kaldi's options, defaults
//   MfccComputer mfcc(opts);
//   mfcc.Compute(raw_log_energy, vtln_warp, frame, feature);  // Dim() values
//
// feature = lifter .* (DCT * log(max(mel energies, FLT_EPSILON))), where the
// DCT is the orthonormal DCT-II (row 0 scaled by sqrt(1/M), row k by
// sqrt(2/M) cos(pi k (m + 0.5) / M) over the M mel bins), keeping num_ceps
// rows, and lifter_i = 1 + Q/2 sin(pi i / Q) (Q = --cepstral-lifter, none
// if 0). With --use-energy, coefficient 0 is replaced by the log energy
// (raw: before pre-emphasis and window; else of the windowed frame),
// floored at log(--energy-floor) when that is > 0. --htk-compat moves
// coefficient 0 (times sqrt(2) when it is C0) to the end. The sums (mel
// energies, DCT, frame energy) go through OpenBLAS as Kaldi's do
// (device/host-blas.h), and the FFT is Kaldi's in float
// (feat/power-spectrum.h): with the same OpenBLAS, the output equals
// Kaldi's bit for bit at --dither=0.
#ifndef NNET3_FEAT_MFCC_H_
#define NNET3_FEAT_MFCC_H_

#include <cstdint>
#include <vector>

#include "feat/frame-extraction.h"
#include "feat/mel-banks.h"
#include "feat/power-spectrum.h"

namespace nnet3 {

struct MfccOptions {
  FrameExtractionOptions frame_opts;
  MelBanksOptions mel_opts{23};
  int32_t num_ceps = 13;
  bool use_energy = true;
  float energy_floor = 0.0f;
  bool raw_energy = true;
  float cepstral_lifter = 22.0f;
  bool htk_compat = false;

  void Register(OptionsRegistry *po);
};

class MfccComputer {
 public:
  using Options = MfccOptions;
  explicit MfccComputer(const MfccOptions &opts);
  const FrameExtractionOptions &FrameOptions() const {
    return opts_.frame_opts;
  }
  int32_t Dim() const { return opts_.num_ceps; }
  bool NeedRawLogEnergy() const { return opts_.use_energy && opts_.raw_energy; }
  // frame: PaddedWindowSize() values, overwritten; feature: Dim() values.
  void Compute(float raw_log_energy, float vtln_warp, float *frame,
               float *feature);

 private:
  MfccOptions opts_;
  MelBanksCache mel_banks_;
  PowerSpectrum fft_;
  std::vector<float> dct_;  // num_ceps x num_bins, row-major
  int32_t dct_stride_ = 0;
  std::vector<float> lifter_;
  std::vector<float> power_, mel_;
  float log_energy_floor_ = 0.0f;
};

// The M x M orthonormal DCT-II matrix, row-major (see the file comment).
std::vector<float> DctMatrix(int32_t m);
// lifter_i = 1 + q/2 sin(pi i / q), i < n.
std::vector<float> LifterCoeffs(float q, int32_t n);

}  // namespace nnet3

#endif  // NNET3_FEAT_MFCC_H_
