// The float FFTs with Kaldi's rounding (split-radix-fft, mixed-radix-fft)
// and the real power spectrum over them: against a plain double DFT on
// random inputs of sizes 1 .. 1024 (error at float level, relative to the
// transform's size), known transforms (impulse, DC, a cosine), Parseval.
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "feat/mixed-radix-fft.h"
#include "feat/power-spectrum.h"
#include "feat/split-radix-fft.h"

namespace nnet3 {
namespace {

using Complex = std::complex<double>;

std::vector<Complex> Dft(const std::vector<Complex> &x) {
  const size_t m = x.size();
  std::vector<Complex> out(m);
  for (size_t j = 0; j < m; j++)
    for (size_t t = 0; t < m; t++)
      out[j] += x[t] * std::polar(1.0, -2.0 * M_PI * double(j * t % m) / m);
  return out;
}

std::vector<Complex> RandomSignal(int32_t m, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<Complex> x(m);
  for (Complex &z : x) z = Complex(u(rng), u(rng));
  return x;
}

// max_j |got_j - want_j| / (sqrt(m) * max|x|): a float FFT's error grows
// like log m ulps of the transform's scale; 1e-6 is ~8 float ulps.
double ScaledError(const std::vector<Complex> &got,
                   const std::vector<Complex> &want) {
  double err = 0.0;
  for (size_t j = 0; j < want.size(); j++)
    err = std::max(err, std::abs(got[j] - want[j]));
  return err / std::sqrt(double(want.size()));
}

std::vector<Complex> SplitRadix(const std::vector<Complex> &x) {
  const int32_t m = int32_t(x.size());
  std::vector<float> re(m), im(m);
  for (int32_t t = 0; t < m; t++) {
    re[t] = float(x[t].real());
    im[t] = float(x[t].imag());
  }
  SplitRadixFft fft(m);
  fft.Compute(re.data(), im.data());
  std::vector<Complex> out(m);
  for (int32_t j = 0; j < m; j++) out[j] = Complex(re[j], im[j]);
  return out;
}

std::vector<Complex> MixedRadix(const std::vector<Complex> &x) {
  const int32_t m = int32_t(x.size());
  std::vector<float> data(2 * m);
  for (int32_t t = 0; t < m; t++) {
    data[2 * t] = float(x[t].real());
    data[2 * t + 1] = float(x[t].imag());
  }
  MixedRadixFft fft(m);
  fft.Compute(data.data());
  std::vector<Complex> out(m);
  for (int32_t j = 0; j < m; j++)
    out[j] = Complex(data[2 * j], data[2 * j + 1]);
  return out;
}

TEST_CASE("fft: split-radix against a double DFT, sizes 1 .. 1024") {
  for (int32_t m = 1; m <= 1024; m *= 2) {
    const uint32_t seed = 100 + m;
    INFO("m = " << m << ", seed " << seed);
    const std::vector<Complex> x = RandomSignal(m, seed);
    CHECK(ScaledError(SplitRadix(x), Dft(x)) < 1e-6);
  }
}

TEST_CASE("fft: split-radix scrambled output is at Position(j)") {
  const int32_t m = 64;
  const std::vector<Complex> x = RandomSignal(m, 7);
  std::vector<float> re(m), im(m);
  for (int32_t t = 0; t < m; t++) {
    re[t] = float(x[t].real());
    im[t] = float(x[t].imag());
  }
  SplitRadixFft fft(m);
  fft.ComputeScrambled(re.data(), im.data());
  const std::vector<Complex> natural = SplitRadix(x);
  for (int32_t j = 0; j < m; j++) {
    CHECK(re[fft.Position(j)] == float(natural[j].real()));
    CHECK(im[fft.Position(j)] == float(natural[j].imag()));
  }
}

// Kaldi's mixed-radix twiddles are powers built by repeated float products:
// w_m^b after b products, w_P^a after a, then (w_m^b w_P^a)^i after i, so a
// twiddle's relative error grows to ~(m + P^2) ulps (P the largest prime
// factor), not log m. Measured: 6.3e-6 at m = 1024, 2.3e-5 at the prime 31,
// 1.7e-4 at the prime 97; the bound is 3e-8 (m + P^2) over the 1e-6 floor.
TEST_CASE("fft: mixed-radix against a double DFT, any size") {
  for (int32_t m : {1,  2,   3,   5,   6,   7,   8,   12,  31,   60,
                    97, 100, 160, 200, 256, 300, 441, 512, 1000, 1024}) {
    const uint32_t seed = 200 + m;
    int32_t largest = 1;
    for (int32_t f = 2, rest = m; rest > 1; f++)
      while (rest % f == 0) rest /= (largest = f);
    INFO("m = " << m << ", seed " << seed);
    const std::vector<Complex> x = RandomSignal(m, seed);
    CHECK(ScaledError(MixedRadix(x), Dft(x)) <
          1e-6 + 3e-8 * (m + largest * largest));
  }
}

TEST_CASE("fft: impulse, DC and a cosine") {
  for (int32_t m : {16, 12}) {
    INFO("m = " << m);
    std::vector<Complex> impulse(m), dc(m, Complex(1.0, 0.0)), cosine(m);
    impulse[3] = 1.0;
    for (int32_t t = 0; t < m; t++) cosine[t] = std::cos(2 * M_PI * 2 * t / m);
    const bool split = m == 16;
    const std::vector<Complex> a = split ? SplitRadix(impulse)
                                         : MixedRadix(impulse),
                               b = split ? SplitRadix(dc) : MixedRadix(dc),
                               c = split ? SplitRadix(cosine)
                                         : MixedRadix(cosine);
    for (int32_t j = 0; j < m; j++) {
      // impulse at 3: e^{-2 pi i 3 j / m}; DC: m at 0; cosine at bin 2: m/2
      // at 2 and m - 2.
      CHECK(std::abs(a[j] - std::polar(1.0, -2 * M_PI * 3 * j / m)) < 1e-6);
      CHECK(std::abs(b[j] - Complex(j == 0 ? m : 0, 0)) < 1e-6);
      const double peak = (j == 2 || j == m - 2) ? m / 2.0 : 0.0;
      CHECK(std::abs(c[j] - Complex(peak, 0)) < 1e-5);
    }
  }
}

TEST_CASE("fft: power spectrum of a real frame, Parseval") {
  for (int32_t n : {2, 4, 8, 16, 64, 256, 400, 512, 320, 1024}) {
    const uint32_t seed = 300 + n;
    INFO("n = " << n << ", seed " << seed);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1000.0f, 1000.0f);
    std::vector<float> frame(n);
    std::vector<Complex> x(n);
    for (int32_t t = 0; t < n; t++) x[t] = frame[t] = u(rng);
    const std::vector<Complex> want = Dft(x);
    PowerSpectrum fft(n);
    std::vector<float> power(fft.NumBins()), re_im(n + 2);
    fft.Compute(frame.data(), power.data());
    fft.ComputeComplex(frame.data(), re_im.data());
    double energy = 0.0, spectrum = 0.0, scale = 1000.0 * n;
    for (int32_t t = 0; t < n; t++) energy += double(frame[t]) * frame[t];
    for (int32_t k = 0; k <= n / 2; k++) {
      CHECK(std::abs(Complex(re_im[2 * k], re_im[2 * k + 1]) - want[k]) <
            1e-6 * scale);
      CHECK(std::abs(power[k] - std::norm(want[k])) < 1e-6 * scale * scale);
      // the bins k and n - k both count, except 0 and n/2.
      spectrum += (k == 0 || 2 * k == n ? 1.0 : 2.0) * power[k];
    }
    CHECK(spectrum / n == Approx(energy).epsilon(1e-5));
  }
}

}  // namespace
}  // namespace nnet3
