// Mel filters: the mel scale, the triangles (where they start, peak and
// end, worked from the formulas for a small FFT), VTLN warping (identity
// at 1, the piecewise-linear map, fixed ends) and bad ranges refused.
#include "feat/mel-banks.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

TEST_CASE("mel: scale and inverse") {
  CHECK(MelScale(0.0f) == 0.0f);
  CHECK(MelScale(700.0f) == Approx(1127.0 * std::log(2.0)));
  CHECK(InverseMelScale(MelScale(1234.5f)) == Approx(1234.5f));
}

TEST_CASE("mel: triangles worked from the formulas") {
  // 8 kHz, 16-point FFT: bins k = 0..7 at 500 k Hz. 3 filters between
  // 0 and 4000 Hz: 5 points evenly spaced in mel.
  FrameExtractionOptions frame;
  frame.samp_freq = 8000.0f;
  frame.frame_length_ms = 2.0f;  // 16 samples
  MelBanksOptions mel(3);
  mel.low_freq = 0.0f;
  MelBanks banks(mel, frame, 1.0f);
  REQUIRE(banks.NumBins() == 3);
  const double top = 1127.0 * std::log(1.0 + 4000.0 / 700.0);
  for (int b = 0; b < 3; b++) {
    const double left = top * b / 4, center = top * (b + 1) / 4,
                 right = top * (b + 2) / 4;
    CHECK(banks.CenterFreqs()[b] ==
          Approx(700.0 * (std::exp(center / 1127.0) - 1.0)));
    std::vector<double> expected(8, 0.0);
    int first = -1;
    for (int k = 0; k < 8; k++) {
      const double m = 1127.0 * std::log(1.0 + 500.0 * k / 700.0);
      if (m <= left || m >= right) continue;
      expected[k] = m <= center ? (m - left) / (center - left)
                                : (right - m) / (right - center);
      if (first < 0) first = k;
    }
    INFO("filter " << b);
    REQUIRE(banks.FirstIndex(b) == first);
    const std::vector<float> &w = banks.Weights(b);
    for (size_t i = 0; i < w.size(); i++)
      CHECK(w[i] == Approx(expected[first + i]).margin(1e-5));
  }
  // A flat spectrum of 1 gives each filter the sum of its weights.
  std::vector<float> power(9, 1.0f), energies(3);
  banks.Compute(power.data(), energies.data());
  for (int b = 0; b < 3; b++) {
    double sum = 0;
    for (float x : banks.Weights(b)) sum += x;
    CHECK(energies[b] == Approx(sum));
  }
}

TEST_CASE("mel: VTLN warping") {
  // low 20, high 8000, inflections 100 and 7500.
  auto warp = [](float alpha, float f) {
    return VtlnWarpFreq(100.0f, 7500.0f, 20.0f, 8000.0f, alpha, f);
  };
  CHECK(warp(1.0f, 3000.0f) == Approx(3000.0f));
  CHECK(warp(1.1f, 3000.0f) == Approx(3000.0f / 1.1f));  // middle: f / alpha
  CHECK(warp(0.9f, 3000.0f) == Approx(3000.0f / 0.9f));
  CHECK(warp(1.1f, 20.0f) == Approx(20.0f));  // ends fixed
  CHECK(warp(0.9f, 8000.0f) == Approx(8000.0f));
  // Continuous at the upper inflection point 7500 * min(1, 0.9).
  CHECK(warp(0.9f, 6749.9f) == Approx(warp(0.9f, 6750.1f)).epsilon(1e-4));
  CHECK(warp(1.2f, 10.0f) == 10.0f);  // outside [low, high]: unchanged
  FrameExtractionOptions frame;
  MelBanksOptions mel(23);
  MelBanks plain(mel, frame, 1.0f), warped(mel, frame, 0.9f);
  // Each filter centre f moves to f / alpha in the linear part.
  CHECK(warped.CenterFreqs()[10] ==
        Approx(plain.CenterFreqs()[10] / 0.9f).epsilon(1e-4));
}

TEST_CASE("mel: --high-freq, --vtln-low and --vtln-high move the filters") {
  FrameExtractionOptions frame;  // 16 kHz, FFT 512: bin k at 31.25 k Hz
  MelBanksOptions mel(23);
  auto last_bin = [](const MelBanks &b) {
    return b.FirstIndex(22) + static_cast<int>(b.Weights(22).size()) - 1;
  };
  // The top filter ends below --high-freq: Nyquist (8000 Hz, bin 256) by
  // default, 8000 - 400 for -400, 7000 for 7000.
  CHECK(last_bin(MelBanks(mel, frame, 1.0f)) == 255);
  mel.high_freq = -400.0f;
  CHECK(last_bin(MelBanks(mel, frame, 1.0f)) == 243);  // 7600 / 31.25 = 243.2
  mel.high_freq = 7000.0f;
  CHECK(last_bin(MelBanks(mel, frame, 1.0f)) == 223);  // 7000 / 31.25 = 224
  // Warped centres are the plain ones through VtlnWarpFreq with
  // --vtln-low as given and --vtln-high as given, or added to Nyquist when
  // negative.
  struct Case {
    float vtln_low, vtln_high, resolved_high;
  } cases[] = {{100.0f, -500.0f, 7500.0f},
               {100.0f, -1500.0f, 6500.0f},
               {100.0f, 6000.0f, 6000.0f},
               {1000.0f, -500.0f, 7500.0f}};
  mel = MelBanksOptions(23);
  const MelBanks plain(mel, frame, 1.0f);
  std::vector<float> previous;
  for (const Case &c : cases) {
    mel.vtln_low = c.vtln_low;
    mel.vtln_high = c.vtln_high;
    const MelBanks warped(mel, frame, 0.9f);
    INFO("vtln-low " << c.vtln_low << " vtln-high " << c.vtln_high);
    for (int b = 0; b < 23; b++)
      CHECK(warped.CenterFreqs()[b] ==
            Approx(VtlnWarpFreq(c.vtln_low, c.resolved_high, 20.0f, 8000.0f,
                                0.9f, plain.CenterFreqs()[b]))
                .epsilon(1e-4));
    CHECK(warped.CenterFreqs() != previous);  // each setting moves some
    previous = warped.CenterFreqs();
  }
}

TEST_CASE("mel: bad ranges are refused in one line") {
  FrameExtractionOptions frame;
  MelBanksOptions mel(23);
  mel.high_freq = 9000.0f;  // above Nyquist
  CHECK_THROWS_WITH(MelBanks(mel, frame, 1.0f),
                    Catch::Contains("Bad values in options: low-freq 20 and "
                                    "high-freq 9000 vs. nyquist 8000"));
  mel = MelBanksOptions(2);
  CHECK_THROWS_WITH(MelBanks(mel, frame, 1.0f),
                    Catch::Contains("must be at least 3"));
  mel = MelBanksOptions(23);
  mel.vtln_low = 10.0f;  // under low-freq, with a warp
  CHECK_THROWS_WITH(MelBanks(mel, frame, 0.9f), Catch::Contains("vtln-low 10"));
  CHECK_NOTHROW(MelBanks(mel, frame, 1.0f));
  mel = MelBanksOptions(200);  // more filters than a 512-point FFT can fill
  CHECK_THROWS_WITH(MelBanks(mel, frame, 1.0f),
                    Catch::Contains("covers no FFT bin"));
}

}  // namespace
}  // namespace nnet3
