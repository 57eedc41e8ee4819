// LinearResampler and ResampleWaveform on signals whose answer is known: a
// sine keeps its frequency and amplitude, DC stays DC, a tone above the new
// Nyquist frequency is removed, and the output lengths are Kaldi's
// (ceil(N * out / in): the output times in [0, N / in)).
#include "feat/resample.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "base/error.h"
#include "feat/frame-extraction.h"

namespace nnet3 {
namespace {

std::vector<float> Sine(int64_t n, double freq, double fs, double amp) {
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; i++)
    x[i] = amp * std::sin(2 * M_PI * freq * i / fs);
  return x;
}

// Largest |y[m] - want(m)| over m in [margin, y.size() - margin): away from
// the ends, where the signal stops and the filter sees zeros.
template <class Want>
double MaxError(const std::vector<float> &y, int64_t margin, Want want) {
  double worst = 0.0;
  for (int64_t m = margin; m + margin < static_cast<int64_t>(y.size()); m++)
    worst = std::max(worst, std::fabs(y[m] - want(m)));
  return worst;
}

TEST_CASE("resample: output lengths are ceil(N * out / in)") {
  struct Case {
    float in, out;
    int64_t n, want;
  } cases[] = {{22050, 16000, 22050, 16000}, {22050, 16000, 100, 73},
               {22050, 16000, 1, 1},         {44100, 16000, 441, 160},
               {8000, 16000, 10, 20},        {16000, 8000, 11, 6},
               {16000, 8000, 0, 0}};
  for (const Case &c : cases) {
    std::vector<float> x(c.n, 1.0f), y;
    ResampleWaveform(c.in, x.data(), c.n, c.out, &y);
    INFO(c.in << " -> " << c.out << " Hz, " << c.n << " samples");
    CHECK(static_cast<int64_t>(y.size()) == c.want);
  }
}

TEST_CASE("resample: a sine keeps its frequency and amplitude") {
  struct Case {
    float in, out, freq;
  } cases[] = {{22050, 16000, 1000},
               {44100, 16000, 3000},
               {8000, 16000, 500},
               {16000, 22050, 2500}};
  for (const Case &c : cases) {
    const std::vector<float> x = Sine(c.in, c.freq, c.in, 1000.0);  // 1 s
    std::vector<float> y;
    ResampleWaveform(c.in, x.data(), x.size(), c.out, &y);
    const double err = MaxError(y, 100, [&](int64_t m) {
      return 1000.0 * std::sin(2 * M_PI * c.freq * m / c.out);
    });
    // The filter's pass band ripples by about 0.1%.
    INFO(c.in << " -> " << c.out << " Hz, a " << c.freq << " Hz sine of "
              << "amplitude 1000: max error " << err);
    CHECK(err < 2.0);
  }
}

TEST_CASE("resample: DC stays, a tone above the new Nyquist goes") {
  std::vector<float> dc(22050, 500.0f), y;
  ResampleWaveform(22050, dc.data(), dc.size(), 16000, &y);
  const double err = MaxError(y, 100, [](int64_t) { return 500.0; });
  INFO("DC 500 from 22050 to 16000 Hz: max error " << err);
  CHECK(err < 0.5);
  // 10 kHz is above the 7920 Hz cutoff for 16 kHz output.
  const std::vector<float> high = Sine(22050, 10000, 22050, 1000.0);
  ResampleWaveform(22050, high.data(), high.size(), 16000, &y);
  const double left = MaxError(y, 100, [](int64_t) { return 0.0; });
  INFO("10 kHz sine of amplitude 1000 from 22050 to 16000 Hz: max left "
       << left);
  CHECK(left < 10.0);
}

TEST_CASE("resample: bad rates are refused; the options gate it") {
  CHECK_THROWS_AS(LinearResampler(16000, 8000, 5000.0, 6), UserError);
  CHECK_THROWS_AS(LinearResampler(0, 8000, 3000.0, 6), UserError);
  FrameExtractionOptions o;
  CHECK_FALSE(CheckSampleFrequency(16000.0f, o));
  CHECK_THROWS_WITH(CheckSampleFrequency(22050.0f, o),
                    Catch::Contains("mismatch: 22050 .vs 16000 (use "
                                    "--allow-downsample=true"));
  CHECK_THROWS_WITH(CheckSampleFrequency(8000.0f, o),
                    Catch::Contains("mismatch: 8000 .vs 16000 (use "
                                    "--allow-upsample=true"));
  o.allow_downsample = true;
  CHECK(CheckSampleFrequency(22050.0f, o));
  CHECK_THROWS(CheckSampleFrequency(8000.0f, o));
  o.allow_upsample = true;
  CHECK(CheckSampleFrequency(8000.0f, o));
}

}  // namespace
}  // namespace nnet3
