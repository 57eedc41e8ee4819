// WaveData: 16-bit PCM written and read back (mono, stereo), big-endian
// RIFX, chunks to skip, stream mode (sizes 0), a truncated data chunk
// (samples kept, Truncation() set), and what is refused: not RIFF, not PCM,
// not 16 bits, a header cut short.
#include "feat/wave-data.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

// Little-endian (or big-endian) integer of n bytes.
std::string Bytes(uint32_t v, int n, bool big = false) {
  std::string s;
  for (int i = 0; i < n; i++) {
    int shift = big ? 8 * (n - 1 - i) : 8 * i;
    s += static_cast<char>((v >> shift) & 0xFF);
  }
  return s;
}

// A WAVE file: header fields by hand, an optional extra chunk, samples.
std::string MakeWave(const std::vector<int16_t> &samples, int channels,
                     uint32_t rate, bool big = false, uint32_t bits = 16,
                     uint32_t format = 1, bool extra_chunk = false,
                     bool streamed = false) {
  const uint32_t data_bytes = samples.size() * 2;
  std::string fmt = Bytes(format, 2, big) + Bytes(channels, 2, big) +
                    Bytes(rate, 4, big) +
                    Bytes(rate * bits / 8 * channels, 4, big) +
                    Bytes(channels * bits / 8, 2, big) + Bytes(bits, 2, big);
  std::string body = "WAVEfmt " + Bytes(16, 4, big) + fmt;
  if (extra_chunk) body += "LIST" + Bytes(3, 4, big) + "abc";
  body += "data" + Bytes(streamed ? 0 : data_bytes, 4, big);
  for (int16_t x : samples) body += Bytes(static_cast<uint16_t>(x), 2, big);
  return (big ? "RIFX" : "RIFF") + Bytes(streamed ? 0 : body.size(), 4, big) +
         body;
}

WaveData ReadWave(const std::string &bytes) {
  std::istringstream is(bytes);
  WaveData w;
  w.Read(is);
  return w;
}

std::string ErrorOf(const std::string &bytes) {
  try {
    ReadWave(bytes);
  } catch (const UserError &e) {
    return e.what();
  }
  return "";
}

TEST_CASE("wave: mono and stereo 16-bit PCM read as written") {
  WaveData w = ReadWave(MakeWave({1, -2, 32767, -32768}, 1, 8000));
  CHECK(w.SampFreq() == 8000.0f);
  REQUIRE(w.NumChannels() == 1);
  REQUIRE(w.NumSamples() == 4);
  CHECK(w.Channel(0)[1] == -2.0f);
  CHECK(w.Channel(0)[3] == -32768.0f);
  CHECK(w.Truncation().empty());
  // Interleaved L R L R: channel 1 is every second sample.
  WaveData s = ReadWave(MakeWave({1, 10, 2, 20, 3, 30}, 2, 16000));
  REQUIRE(s.NumChannels() == 2);
  REQUIRE(s.NumSamples() == 3);
  CHECK(s.Channel(0)[2] == 3.0f);
  CHECK(s.Channel(1)[0] == 10.0f);
  CHECK(s.Duration() == Approx(3.0 / 16000));
  // Our writer's bytes are what we would write by hand.
  std::ostringstream os;
  s.Write(os);
  CHECK(os.str() == MakeWave({1, 10, 2, 20, 3, 30}, 2, 16000));
}

TEST_CASE("wave: RIFX (big endian), skipped chunks, stream mode") {
  WaveData b = ReadWave(MakeWave({256, -3}, 1, 16000, /*big=*/true));
  REQUIRE(b.NumSamples() == 2);
  CHECK(b.Channel(0)[0] == 256.0f);
  CHECK(b.Channel(0)[1] == -3.0f);
  WaveData x = ReadWave(MakeWave({5, 6}, 1, 16000, false, 16, 1, true));
  REQUIRE(x.NumSamples() == 2);
  CHECK(x.Channel(0)[1] == 6.0f);
  // Sizes of 0 (a pipe that could not seek back): read to the end.
  WaveData st = ReadWave(MakeWave({7, 8, 9}, 1, 16000, false, 16, 1, false,
                                  /*streamed=*/true));
  CHECK(st.NumSamples() == 3);
  CHECK(st.Truncation().empty());
}

TEST_CASE("wave: a truncated data chunk keeps its samples and says so") {
  std::string full = MakeWave({1, 2, 3, 4, 5, 6}, 1, 16000);
  WaveData w = ReadWave(full.substr(0, full.size() - 5));  // 3.5 samples
  CHECK(w.NumSamples() == 3);
  CHECK(w.Channel(0)[2] == 3.0f);
  CHECK(w.Truncation().find("expected 12 bytes") != std::string::npos);
  CHECK(w.Truncation().find("read only 7") != std::string::npos);
}

TEST_CASE("wave: what is not 16-bit PCM WAVE is refused in one line") {
  CHECK(ErrorOf("hello world, not a wave file") ==
        "Not a WAVE file: expected RIFF or RIFX, got 'hell'");
  CHECK(ErrorOf(MakeWave({1, 2}, 1, 16000, false, 16, /*format=*/3))
            .find("Only PCM WAVE data") != std::string::npos);
  std::vector<int16_t> s24(3, 0);
  CHECK(ErrorOf(MakeWave(s24, 1, 16000, false, /*bits=*/24))
            .find("Unsupported bits per sample 24") != std::string::npos);
  std::string full = MakeWave({1, 2}, 1, 16000);
  for (size_t cut : {0, 3, 10, 30, 40}) {
    INFO("cut at " << cut);
    CHECK(!ErrorOf(full.substr(0, cut)).empty());
  }
  CHECK(ErrorOf(full.substr(0, 44)) == "WAVE file has no samples");
}

}  // namespace
}  // namespace nnet3
