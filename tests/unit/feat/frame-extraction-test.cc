// Frame extraction: frame counts and positions with and without
// --snip-edges, mirroring at the edges, each processing step on a signal
// whose result is known (dc offset, pre-emphasis, windows, raw energy), and
// the dither: seeded, reproducible, of the asked standard deviation.
#include "feat/frame-extraction.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

// A frame with every processing step off, so that windows can be checked
// sample by sample.
FrameExtractionOptions PlainOptions() {
  FrameExtractionOptions o;
  o.dither = 0.0f;
  o.preemph_coeff = 0.0f;
  o.remove_dc_offset = false;
  o.window_type = "rectangular";
  return o;
}

TEST_CASE("frames: 25 ms frames every 10 ms, with and without snip-edges") {
  FrameExtractionOptions o;  // 16 kHz: 400 samples, shift 160, FFT 512
  CHECK(o.WindowSize() == 400);
  CHECK(o.WindowShift() == 160);
  CHECK(o.PaddedWindowSize() == 512);
  o.round_to_power_of_two = false;
  CHECK(o.PaddedWindowSize() == 400);
  // One second: 1 + (16000 - 400) / 160 = 98 frames that fit; 100 centred.
  CHECK(NumFrames(16000, o) == 98);
  CHECK(NumFrames(399, o) == 0);
  CHECK(NumFrames(400, o) == 1);
  CHECK(NumFrames(559, o) == 1);
  CHECK(NumFrames(560, o) == 2);
  o.snip_edges = false;
  CHECK(NumFrames(16000, o) == 100);
  CHECK(NumFrames(79, o) == 0);
  CHECK(NumFrames(80, o) == 1);
  // Frame f is centred on 160 f + 80: it starts 200 samples before that.
  CHECK(FirstSampleOfFrame(0, o) == -120);
  CHECK(FirstSampleOfFrame(3, o) == 360);
  o.snip_edges = true;
  CHECK(FirstSampleOfFrame(3, o) == 480);
  // --frame-length=20 --frame-shift=5: 320 samples every 80, FFT 512;
  // 1 + (16000 - 320) / 80 = 197 frames, or (16000 + 40) / 80 = 200.
  o = FrameExtractionOptions();
  o.frame_length_ms = 20.0f;
  o.frame_shift_ms = 5.0f;
  CHECK(o.WindowSize() == 320);
  CHECK(o.WindowShift() == 80);
  CHECK(o.PaddedWindowSize() == 512);
  CHECK(NumFrames(16000, o) == 197);
  CHECK(FirstSampleOfFrame(2, o) == 160);
  o.snip_edges = false;
  CHECK(NumFrames(16000, o) == 200);
  CHECK(FirstSampleOfFrame(2, o) == 40);  // centred on 200
  // --sample-frequency=8000: the same milliseconds are half the samples.
  o.samp_freq = 8000.0f;
  CHECK(o.WindowSize() == 160);
  CHECK(o.PaddedWindowSize() == 256);
}

TEST_CASE("frames: samples outside the signal are mirrored into it") {
  FrameExtractionOptions o = PlainOptions();
  o.samp_freq = 1000.0f;  // 8 samples a frame, shift 4
  o.frame_length_ms = 8.0f;
  o.frame_shift_ms = 4.0f;
  o.snip_edges = false;
  std::vector<float> wave = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  REQUIRE(NumFrames(10, o) == 3);
  FrameExtractor frames(o);
  std::vector<float> w(8);
  frames.Extract(wave.data(), 10, 0, w.data(), nullptr);  // samples -2 .. 5
  CHECK(w == std::vector<float>{1, 0, 0, 1, 2, 3, 4, 5});
  frames.Extract(wave.data(), 10, 2, w.data(), nullptr);  // samples 6 .. 13
  CHECK(w == std::vector<float>{6, 7, 8, 9, 9, 8, 7, 6});
}

TEST_CASE("frames: dc offset, raw energy, pre-emphasis, window, padding") {
  FrameExtractionOptions o = PlainOptions();
  o.samp_freq = 1000.0f;
  o.frame_length_ms = 6.0f;  // 6 samples, padded to 8
  o.frame_shift_ms = 6.0f;
  std::vector<float> wave = {3, 5, 3, 5, 3, 5};
  std::vector<float> w(8, -1.0f);
  float energy = 0.0f;
  o.remove_dc_offset = true;
  FrameExtractor dc(o);
  dc.Extract(wave.data(), 6, 0, w.data(), &energy);
  CHECK(w == std::vector<float>{-1, 1, -1, 1, -1, 1, 0, 0});
  CHECK(energy == Approx(std::log(6.0)));
  o.preemph_coeff = 0.5f;
  FrameExtractor pre(o);
  pre.Extract(wave.data(), 6, 0, w.data(), &energy);
  // x[i] - 0.5 x[i-1] on the mean-removed frame; x[0] - 0.5 x[0].
  CHECK(w == std::vector<float>{-0.5f, 1.5f, -1.5f, 1.5f, -1.5f, 1.5f, 0, 0});
  CHECK(energy == Approx(std::log(6.0)));  // raw: before pre-emphasis
  // Silence: the energy is floored at FLT_EPSILON.
  std::vector<float> zeros(6, 0.0f);
  pre.Extract(zeros.data(), 6, 0, w.data(), &energy);
  CHECK(energy == Approx(std::log(1.1920929e-7)));
}

TEST_CASE("frames: window functions") {
  FrameExtractionOptions o;
  o.samp_freq = 1000.0f;
  o.frame_length_ms = 5.0f;  // 5 points: a = 2 pi / 4
  auto window = [&o](const char *type) {
    o.window_type = type;
    return WindowFunction(o);
  };
  std::vector<float> hamming = window("hamming");
  CHECK(hamming[0] == Approx(0.08));
  CHECK(hamming[2] == Approx(1.0));
  CHECK(hamming[1] == Approx(0.54));
  CHECK(window("hanning")[1] == Approx(0.5));
  CHECK(window("povey")[1] == Approx(std::pow(0.5, 0.85)));
  CHECK(window("povey")[0] == 0.0f);
  CHECK(window("sine")[1] == Approx(std::sin(M_PI / 4)));
  CHECK(window("rectangular")[3] == 1.0f);
  o.blackman_coeff = 0.42f;
  CHECK(window("blackman")[2] == Approx(0.42 + 0.5 + 0.08));
  CHECK(window("blackman")[0] == Approx(0.0).margin(1e-7));
  o.window_type = "kaiser";
  CHECK_THROWS_WITH(WindowFunction(o),
                    Catch::Contains("Invalid window type kaiser"));
}

TEST_CASE("frames: dither is seeded, reproducible, of the given size") {
  FrameExtractionOptions o = PlainOptions();
  o.dither = 2.0f;
  o.frame_length_ms = 200.0f;  // 3200 samples
  o.frame_shift_ms = 200.0f;
  std::vector<float> zeros(3200, 0.0f), a(4096), b(4096), c(4096);
  const uint32_t seed = 7;
  INFO("seed " << seed);
  FrameExtractor x(o, seed), y(o, seed), z(o, seed + 1);
  x.Extract(zeros.data(), 3200, 0, a.data(), nullptr);
  y.Extract(zeros.data(), 3200, 0, b.data(), nullptr);
  z.Extract(zeros.data(), 3200, 0, c.data(), nullptr);
  CHECK(a == b);
  CHECK(a != c);
  double sum = 0.0, sum2 = 0.0;
  for (int i = 0; i < 3200; i++) sum += a[i], sum2 += a[i] * a[i];
  CHECK(std::abs(sum / 3200) < 0.15);  // 4 standard errors of 2 / sqrt(3200)
  CHECK(std::sqrt(sum2 / 3200) == Approx(2.0).epsilon(0.05));
  // The next frame of the same extractor gets new noise.
  x.Extract(zeros.data(), 3200, 0, b.data(), nullptr);
  CHECK(a != b);
}

TEST_CASE("frames: options no computation can use are refused") {
  FrameExtractionOptions o;
  o.frame_shift_ms = 0.01f;
  CHECK_THROWS_AS(FrameExtractor(o), UserError);
  o = FrameExtractionOptions();
  o.round_to_power_of_two = false;
  o.samp_freq = 1000.0f;
  o.frame_length_ms = 7.0f;  // 7 samples: an odd FFT
  CHECK_THROWS_WITH(FrameExtractor(o), Catch::Contains("must be even"));
  CHECK_THROWS_WITH(CheckSampleFrequency(8000.0f, FrameExtractionOptions()),
                    Catch::Contains("Waveform and config sample Frequency "
                                    "mismatch: 8000 .vs 16000"));
  CHECK_FALSE(CheckSampleFrequency(16000.0f, FrameExtractionOptions()));
}

}  // namespace
}  // namespace nnet3
