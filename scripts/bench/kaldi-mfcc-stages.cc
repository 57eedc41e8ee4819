// A diagnostic built by scripts/bench/feature-stages.sh against an installed
// Kaldi (not part of the toolkit): for each frame of one WAVE file, with
// Kaldi's default MFCC options and --dither=0, prints Kaldi's stages twice,
// once with the single-precision split-radix FFT that Kaldi's programs use
// and once with the same FFT in double precision:
//   A  <13 MFCCs from MfccComputer::Compute, i.e. compute-mfcc-feats>
//   PF / PD  <power spectrum, float / double FFT>
//   LF / LD  <log mel energies>
//   MF / MD  <MFCCs (the raw log energy first), from those>
// Usage: kaldi-mfcc-stages WAV > stages.txt
#include <cstdio>
#include <fstream>

#include "feat/feature-mfcc.h"
#include "feat/wave-reader.h"
#include "matrix/matrix-functions.h"
#include "matrix/srfft.h"

namespace {

using kaldi::BaseFloat;

void Print(const char *tag, const kaldi::VectorBase<BaseFloat> &v) {
  std::printf("%s", tag);
  for (int i = 0; i < v.Dim(); i++) std::printf(" %.9g", v(i));
  std::printf("\n");
}

// Power spectrum of Kaldi's packed real FFT (DC, Nyquist, then re/im pairs).
template <class Real>
void PackedPower(const kaldi::VectorBase<Real> &c,
                 kaldi::VectorBase<BaseFloat> *power) {
  const int n = c.Dim();
  (*power)(0) = c(0) * c(0);
  (*power)(n / 2) = c(1) * c(1);
  for (int k = 1; k < n / 2; k++)
    (*power)(k) = c(2 * k) * c(2 * k) + c(2 * k + 1) * c(2 * k + 1);
}

}  // namespace

int main(int argc, char **argv) {
  using namespace kaldi;
  if (argc != 2) return 1;
  std::ifstream is(argv[1], std::ios::binary);
  WaveData wave_data;
  wave_data.Read(is);
  SubVector<BaseFloat> wave(wave_data.Data(), 0);
  MfccOptions opts;
  opts.frame_opts.dither = 0.0;
  MfccComputer computer(opts);
  FeatureWindowFunction window_function(opts.frame_opts);
  const int n = opts.frame_opts.PaddedWindowSize();
  const int bins = opts.mel_opts.num_bins, ceps = opts.num_ceps;
  MelBanks mel_banks(opts.mel_opts, opts.frame_opts, 1.0);
  Matrix<BaseFloat> dct_full(bins, bins);
  ComputeDctMatrix(&dct_full);
  Matrix<BaseFloat> dct(dct_full.RowRange(0, ceps));
  Vector<BaseFloat> lifter(ceps);
  ComputeLifterCoeffs(opts.cepstral_lifter, &lifter);
  SplitRadixRealFft<BaseFloat> fft_float(n);
  SplitRadixRealFft<double> fft_double(n);
  const int frames = NumFrames(wave.Dim(), opts.frame_opts);
  for (int f = 0; f < frames; f++) {
    Vector<BaseFloat> window, feature(ceps);
    BaseFloat raw_log_energy;
    ExtractWindow(0, wave, f, opts.frame_opts, window_function, &window,
                  &raw_log_energy);
    Vector<BaseFloat> copy(window);
    computer.Compute(raw_log_energy, 1.0, &copy, &feature);
    Print("A", feature);
    for (int precision = 0; precision < 2; precision++) {
      Vector<BaseFloat> power(n / 2 + 1), mel(bins), mfcc(ceps);
      if (precision == 0) {
        Vector<BaseFloat> c(window);
        fft_float.Compute(c.Data(), true);
        PackedPower(c, &power);
      } else {
        Vector<double> c(window);
        fft_double.Compute(c.Data(), true);
        PackedPower(c, &power);
      }
      mel_banks.Compute(power, &mel);
      mel.ApplyFloor(std::numeric_limits<float>::epsilon());
      mel.ApplyLog();
      mfcc.AddMatVec(1.0, dct, kNoTrans, mel, 0.0);
      mfcc.MulElements(lifter);
      mfcc(0) = raw_log_energy;
      Print(precision == 0 ? "PF" : "PD", power);
      Print(precision == 0 ? "LF" : "LD", mel);
      Print(precision == 0 ? "MF" : "MD", mfcc);
    }
  }
  return 0;
}
