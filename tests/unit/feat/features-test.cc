// MFCC, fbank and spectrogram on signals whose answer is known: a sine
// (its spectrogram peak at k = f n / fs, its fbank peak in the filter
// whose centre is nearest), silence (the energy floor, log FLT_EPSILON
// elsewhere), and golden values for a small configuration worked from the
// formulas here, in double, with a direct DFT; plus each option's effect.
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <vector>

#include "feat/fbank.h"
#include "feat/mfcc.h"
#include "feat/offline-features.h"
#include "feat/spectrogram.h"

namespace nnet3 {
namespace {

const double kLogEps = std::log(1.1920928955078125e-7);

std::vector<float> Sine(int n, double freq, double fs, double amp) {
  std::vector<float> x(n);
  for (int i = 0; i < n; i++) x[i] = amp * std::sin(2 * M_PI * freq * i / fs);
  return x;
}

template <class Computer>
std::vector<float> Compute(const typename Computer::Options &opts,
                           const std::vector<float> &wave, int32_t *rows) {
  OfflineFeatures<Computer> f(opts);
  std::vector<float> out;
  *rows = f.ComputeFeatures(wave.data(), wave.size(), opts.frame_opts.samp_freq,
                            1.0f, &out);
  return out;
}

int ArgMax(const float *x, int n) {
  int best = 0;
  for (int i = 1; i < n; i++)
    if (x[i] > x[best]) best = i;
  return best;
}

TEST_CASE("features: a 1 kHz sine peaks at its bin and its mel filter") {
  SpectrogramOptions so;
  so.frame_opts.dither = 0.0f;
  std::vector<float> wave = Sine(16000, 1000.0, 16000.0, 1000.0);
  int32_t rows;
  std::vector<float> spec = Compute<SpectrogramComputer>(so, wave, &rows);
  REQUIRE(rows == 98);
  CHECK(ArgMax(&spec[257 * 50 + 1], 256) + 1 == 32);  // 1000 * 512 / 16000
  FbankOptions fo;
  fo.frame_opts.dither = 0.0f;
  std::vector<float> fb = Compute<FbankComputer>(fo, wave, &rows);
  MelBanks banks(fo.mel_opts, fo.frame_opts, 1.0f);
  int nearest = 0;
  for (int b = 1; b < 23; b++)
    if (std::abs(banks.CenterFreqs()[b] - 1000.0f) <
        std::abs(banks.CenterFreqs()[nearest] - 1000.0f))
      nearest = b;
  CHECK(ArgMax(&fb[23 * 50], 23) == nearest);
  // With energy, the fbank gains a first column; the rest is unchanged.
  fo.use_energy = true;
  std::vector<float> fbe = Compute<FbankComputer>(fo, wave, &rows);
  CHECK(fbe[24 * 50 + 1 + nearest] == fb[23 * 50 + nearest]);
  CHECK(fbe[24 * 50] == Approx(std::log(400 * 1e6 / 2)).epsilon(0.01));
}

TEST_CASE("features: silence gives the energy floor") {
  std::vector<float> zeros(1600, 0.0f);
  int32_t rows;
  MfccOptions mo;
  mo.frame_opts.dither = 0.0f;
  std::vector<float> m = Compute<MfccComputer>(mo, zeros, &rows);
  REQUIRE(rows == 8);
  CHECK(m[0] == Approx(kLogEps));
  // log mel = log eps in every filter: only C0 = sqrt(23) log eps remains.
  CHECK(m[1] == Approx(0.0).margin(1e-4));
  mo.energy_floor = 1.0f;
  CHECK(Compute<MfccComputer>(mo, zeros, &rows)[0] == 0.0f);
  mo.use_energy = false;
  CHECK(Compute<MfccComputer>(mo, zeros, &rows)[0] ==
        Approx(std::sqrt(23.0) * kLogEps));
  FbankOptions fo;
  fo.frame_opts.dither = 0.0f;
  fo.use_energy = true;
  fo.energy_floor = 0.1f;
  std::vector<float> f = Compute<FbankComputer>(fo, zeros, &rows);
  CHECK(f[0] == Approx(std::log(0.1)));
  CHECK(f[5] == Approx(kLogEps));
  SpectrogramOptions so;
  so.frame_opts.dither = 0.0f;
  so.energy_floor = 2.0f;
  std::vector<float> s = Compute<SpectrogramComputer>(so, zeros, &rows);
  CHECK(s[0] == Approx(std::log(2.0)));
  CHECK(s[100] == Approx(kLogEps));
}

// The small configuration of the golden test: 8 kHz, 16-sample frames
// (2 ms) every 8 samples, no pre-emphasis, dc or dither, rectangular
// window, 3 mel filters from 0 Hz, 3 cepstra, lifter 2.
template <class Options>
void SmallFrames(Options *o) {
  o->frame_opts.samp_freq = 8000.0f;
  o->frame_opts.frame_length_ms = 2.0f;
  o->frame_opts.frame_shift_ms = 1.0f;
  o->frame_opts.dither = 0.0f;
  o->frame_opts.preemph_coeff = 0.0f;
  o->frame_opts.remove_dc_offset = false;
  o->frame_opts.window_type = "rectangular";
}

// |DFT|^2 of x[start .. start + 16).
std::vector<double> DirectPower(const std::vector<float> &x, int start) {
  std::vector<double> p(9);
  for (int k = 0; k <= 8; k++) {
    std::complex<double> sum = 0;
    for (int t = 0; t < 16; t++)
      sum += double(x[start + t]) * std::polar(1.0, -2 * M_PI * k * t / 16);
    p[k] = std::norm(sum);
  }
  return p;
}

TEST_CASE("features: golden values from the formulas") {
  std::vector<float> x(32);
  for (int i = 0; i < 32; i++) x[i] = std::sin(0.7 * i) * 100 + (i % 5) * 7;
  SpectrogramOptions so;
  SmallFrames(&so);
  int32_t rows;
  std::vector<float> s = Compute<SpectrogramComputer>(so, x, &rows);
  REQUIRE(rows == 3);  // 1 + (32 - 16) / 8
  MfccOptions mo;
  SmallFrames(&mo);
  mo.mel_opts = MelBanksOptions(3);
  mo.mel_opts.low_freq = 0.0f;
  mo.num_ceps = 3;
  mo.cepstral_lifter = 2.0f;
  mo.use_energy = false;
  std::vector<float> m = Compute<MfccComputer>(mo, x, &rows);
  MelBanks banks(mo.mel_opts, mo.frame_opts, 1.0f);  // checked in mel tests
  for (int r = 0; r < 3; r++) {
    INFO("frame " << r);
    std::vector<double> p = DirectPower(x, 8 * r);
    double energy = 0;
    for (int t = 0; t < 16; t++) energy += double(x[8 * r + t]) * x[8 * r + t];
    CHECK(s[9 * r] == Approx(std::log(energy)).epsilon(1e-6));
    for (int k = 1; k <= 8; k++)
      CHECK(s[9 * r + k] == Approx(std::log(p[k])).epsilon(1e-5));
    std::vector<double> logmel(3);
    for (int b = 0; b < 3; b++) {
      double e = 0;
      for (size_t i = 0; i < banks.Weights(b).size(); i++)
        e += banks.Weights(b)[i] * p[banks.FirstIndex(b) + i];
      logmel[b] = std::log(e);
    }
    for (int c = 0; c < 3; c++) {
      double sum = 0;
      for (int b = 0; b < 3; b++)
        sum +=
            (c == 0 ? std::sqrt(1.0 / 3)
                    : std::sqrt(2.0 / 3) * std::cos(M_PI * c * (b + 0.5) / 3)) *
            logmel[b];
      const double lifter = 1 + std::sin(M_PI * c / 2);  // 1 + Q/2 sin(pi c/Q)
      CHECK(m[3 * r + c] == Approx(sum * lifter).epsilon(1e-5).margin(1e-5));
    }
  }
}

TEST_CASE("features: options change what they should") {
  std::vector<float> wave = Sine(8000, 440.0, 16000.0, 3000.0);
  int32_t rows;
  FbankOptions fo;
  fo.frame_opts.dither = 0.0f;
  std::vector<float> base = Compute<FbankComputer>(fo, wave, &rows);
  fo.use_log_fbank = false;
  std::vector<float> linear = Compute<FbankComputer>(fo, wave, &rows);
  CHECK(std::log(linear[100]) == Approx(base[100]).epsilon(1e-5));
  fo.use_power = false;  // magnitudes: every filter sees sqrt(power)
  std::vector<float> mag = Compute<FbankComputer>(fo, wave, &rows);
  CHECK(mag[100] < linear[100]);
  MfccOptions mo;
  mo.frame_opts.dither = 0.0f;
  std::vector<float> m1 = Compute<MfccComputer>(mo, wave, &rows);
  mo.cepstral_lifter = 0.0f;
  std::vector<float> m0 = Compute<MfccComputer>(mo, wave, &rows);
  CHECK(m1[13 * 5 + 4] ==
        Approx(m0[13 * 5 + 4] * (1 + 11 * std::sin(M_PI * 4 / 22))));
  mo.htk_compat = true;  // energy moves to the end
  std::vector<float> h = Compute<MfccComputer>(mo, wave, &rows);
  CHECK(h[13 * 5 + 12] == m0[13 * 5]);
  CHECK(h[13 * 5] == m0[13 * 5 + 1]);
  mo = MfccOptions();
  mo.frame_opts.dither = 0.0f;
  mo.raw_energy = false;  // the windowed frame has less energy than the raw
  std::vector<float> we = Compute<MfccComputer>(mo, wave, &rows);
  CHECK(we[13 * 5] < m1[13 * 5] - 0.5f);
  SpectrogramOptions so;
  so.frame_opts.dither = 0.0f;
  so.return_raw_fft = true;
  std::vector<float> raw = Compute<SpectrogramComputer>(so, wave, &rows);
  so.return_raw_fft = false;
  so.raw_energy = false;
  std::vector<float> sp = Compute<SpectrogramComputer>(so, wave, &rows);
  const float *f = &raw[512 * 5];
  CHECK(sp[257 * 5 + 14] == Approx(std::log(f[28] * f[28] + f[29] * f[29])));
  CHECK(sp[257 * 5 + 256] == Approx(std::log(f[1] * f[1])).margin(1e-3));
  // Not raw: the windowed frame's energy, by Parseval from its FFT.
  double energy = double(f[0]) * f[0] + double(f[1]) * f[1];
  for (int k = 2; k < 512; k++) energy += 2.0 * f[k] * f[k];
  CHECK(sp[257 * 5] == Approx(std::log(energy / 512)).epsilon(1e-5));
}

}  // namespace
}  // namespace nnet3
