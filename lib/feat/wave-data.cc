#include "feat/wave-data.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/error.h"

namespace nnet3 {
namespace {

constexpr uint32_t kFormatPcm = 1;
constexpr uint32_t kFormatExtensible = 0xFFFE;

// Reads the little- or big-endian fields of a WAVE header; every short
// read throws with what was being read.
class HeaderReader {
 public:
  explicit HeaderReader(std::istream &is) : is_(is) {}
  void SetBigEndian(bool big) { big_endian_ = big; }

  std::string Tag(const char *what) {
    char tag[4];
    Bytes(tag, 4, what);
    return std::string(tag, 4);
  }
  uint32_t Uint32(const char *what) { return Number(4, what); }
  uint32_t Uint16(const char *what) { return Number(2, what); }
  void Skip(uint32_t n, const char *what) {
    // Byte by byte: a pipe cannot seek.
    for (uint32_t i = 0; i < n; i++)
      if (is_.get() == EOF)
        NNET3_ERR << "WAVE data ends inside the " << what
                  << " (truncated file?)";
  }

 private:
  void Bytes(char *out, int n, const char *what) {
    is_.read(out, n);
    if (is_.gcount() != n)
      NNET3_ERR << "WAVE data ends while reading the " << what
                << " (truncated or empty file?)";
  }
  uint32_t Number(int n, const char *what) {
    unsigned char b[4];
    Bytes(reinterpret_cast<char *>(b), n, what);
    uint32_t v = 0;
    for (int i = 0; i < n; i++) {
      int shift = big_endian_ ? 8 * (n - 1 - i) : 8 * i;
      v |= static_cast<uint32_t>(b[i]) << shift;
    }
    return v;
  }

  std::istream &is_;
  bool big_endian_ = false;
};

struct WaveFormat {
  uint32_t num_channels = 0, sample_rate = 0, block_align = 0;
  uint32_t data_bytes = 0;
  bool streamed = false, big_endian = false;
};

// Reads the "fmt " chunk after its tag and checks it.
void ReadFmtChunk(HeaderReader *r, WaveFormat *f) {
  uint32_t size = r->Uint32("fmt chunk size");
  uint32_t format = r->Uint16("audio format");
  f->num_channels = r->Uint16("channel count");
  f->sample_rate = r->Uint32("sample rate");
  uint32_t byte_rate = r->Uint32("byte rate");
  f->block_align = r->Uint16("block align");
  uint32_t bits = r->Uint16("bits per sample");
  uint32_t read = 16;
  if (format == kFormatPcm) {
    if (size < 16) NNET3_ERR << "WAVE fmt chunk of PCM data is shorter than 16";
  } else if (format == kFormatExtensible) {
    uint32_t extra = r->Uint16("extension size");
    if (size < 40 || extra < 22)
      NNET3_ERR << "Malformed WAVE_FORMAT_EXTENSIBLE fmt chunk";
    r->Uint16("valid bits");
    r->Uint32("channel mask");
    // The sub-format GUID of PCM, 00000001-0000-0010-8000-00aa00389b71.
    const uint32_t pcm[4] = {0x00000001, 0x00100000, 0xAA000080, 0x719B3800};
    for (uint32_t word : pcm)
      if (r->Uint32("sub-format") != word)
        NNET3_ERR << "WAVE_FORMAT_EXTENSIBLE with a sub-format other than "
                     "PCM is not supported (convert it, e.g. sox in.wav "
                     "-e signed -b 16 out.wav)";
    read = 40;
  } else {
    NNET3_ERR << "Only PCM WAVE data can be read, but the format id is "
              << format << " (convert it, e.g. sox in.wav -e signed -b 16 "
              << "out.wav)";
  }
  if (size > read) r->Skip(size - read, "fmt chunk");
  if (f->num_channels == 0) NNET3_ERR << "WAVE header says 0 channels";
  if (bits != 16)
    NNET3_ERR << "Unsupported bits per sample " << bits
              << " (only 16-bit PCM is read, as Kaldi; convert with sox "
              << "in.wav -b 16 out.wav)";
  if (byte_rate != f->sample_rate * 2 * f->num_channels)
    NNET3_ERR << "Unexpected WAVE byte rate " << byte_rate << " vs. "
              << f->sample_rate << " * 2 * " << f->num_channels;
  if (f->block_align != f->num_channels * 2)
    NNET3_ERR << "Unexpected WAVE block align " << f->block_align << " vs. "
              << f->num_channels << " * 2";
}

WaveFormat ReadHeader(std::istream &is) {
  HeaderReader r(is);
  WaveFormat f;
  std::string tag = r.Tag("RIFF tag");
  if (tag == "RIFX")
    f.big_endian = true;
  else if (tag != "RIFF")
    NNET3_ERR << "Not a WAVE file: expected RIFF or RIFX, got '" << tag << "'";
  r.SetBigEndian(f.big_endian);
  uint32_t riff_size = r.Uint32("RIFF size");
  if (r.Tag("WAVE tag") != "WAVE") NNET3_ERR << "Not a WAVE file: no WAVE tag";
  for (tag = r.Tag("chunk name"); tag != "fmt "; tag = r.Tag("chunk name"))
    r.Skip(r.Uint32("chunk size"), "chunk before fmt");
  ReadFmtChunk(&r, &f);
  for (tag = r.Tag("chunk name"); tag != "data"; tag = r.Tag("chunk name"))
    r.Skip(r.Uint32("chunk size"), "chunk before data");
  f.data_bytes = r.Uint32("data chunk size");
  f.streamed = riff_size == 0 || riff_size == 0xFFFFFFFF || f.data_bytes == 0 ||
               f.data_bytes == 0xFFFFFFFF || f.data_bytes == 0x7FFFF000;
  return f;
}

}  // namespace

WaveData::WaveData(float samp_freq, int32_t num_channels,
                   std::vector<float> samples)
    : samp_freq_(samp_freq),
      num_channels_(num_channels),
      samples_(std::move(samples)) {
  NNET3_ASSERT(num_channels > 0 && samples_.size() % num_channels == 0);
  num_samples_ = static_cast<int64_t>(samples_.size()) / num_channels;
}

void WaveData::Read(std::istream &is) {
  WaveFormat f = ReadHeader(is);
  std::vector<char> bytes;
  const size_t kBlock = 1 << 20;
  size_t want = f.streamed ? SIZE_MAX : f.data_bytes;
  while (is && bytes.size() < want) {
    size_t n = std::min(kBlock, want - bytes.size());
    size_t offset = bytes.size();
    bytes.resize(offset + n);
    is.read(bytes.data() + offset, static_cast<std::streamsize>(n));
    bytes.resize(offset + static_cast<size_t>(is.gcount()));
  }
  if (is.bad()) NNET3_ERR << "Read error in WAVE data";
  if (bytes.empty()) NNET3_ERR << "WAVE file has no samples";
  truncation_.clear();
  if (!f.streamed && bytes.size() < f.data_bytes)
    truncation_ = "expected " + std::to_string(f.data_bytes) +
                  " bytes of wave data, but read only " +
                  std::to_string(bytes.size()) + " bytes. Truncated file?";
  samp_freq_ = static_cast<float>(f.sample_rate);
  num_channels_ = static_cast<int32_t>(f.num_channels);
  num_samples_ = static_cast<int64_t>(bytes.size() / f.block_align);
  samples_.resize(static_cast<size_t>(num_samples_) * num_channels_);
  const unsigned char *p =
      reinterpret_cast<const unsigned char *>(bytes.data());
  for (int64_t i = 0; i < num_samples_; i++) {
    for (int32_t c = 0; c < num_channels_; c++, p += 2) {
      uint16_t u = f.big_endian ? (p[0] << 8 | p[1]) : (p[1] << 8 | p[0]);
      samples_[c * num_samples_ + i] = static_cast<int16_t>(u);
    }
  }
}

void WaveData::Write(std::ostream &os) const {
  if (num_channels_ <= 0 || num_samples_ == 0)
    NNET3_ERR << "Cannot write a WAVE file with no samples";
  uint32_t data_bytes = static_cast<uint32_t>(num_samples_ * num_channels_ * 2);
  uint32_t rate = static_cast<uint32_t>(samp_freq_);
  std::string h;
  auto put = [&h](uint32_t v, int n) {
    for (int i = 0; i < n; i++) h += static_cast<char>((v >> (8 * i)) & 0xFF);
  };
  h += "RIFF";
  put(36 + data_bytes, 4);
  h += "WAVEfmt ";
  put(16, 4);
  put(kFormatPcm, 2);
  put(num_channels_, 2);
  put(rate, 4);
  put(rate * 2 * num_channels_, 4);
  put(2 * num_channels_, 2);
  put(16, 2);
  h += "data";
  put(data_bytes, 4);
  std::string body;
  body.reserve(data_bytes);
  for (int64_t i = 0; i < num_samples_; i++) {
    for (int32_t c = 0; c < num_channels_; c++) {
      float x = std::round(samples_[c * num_samples_ + i]);
      int32_t v = static_cast<int32_t>(std::clamp(x, -32768.0f, 32767.0f));
      uint16_t u = static_cast<uint16_t>(static_cast<int16_t>(v));
      body += static_cast<char>(u & 0xFF);
      body += static_cast<char>(u >> 8);
    }
  }
  os.write(h.data(), static_cast<std::streamsize>(h.size()));
  os.write(body.data(), static_cast<std::streamsize>(body.size()));
  if (os.fail()) NNET3_ERR << "Error writing WAVE data";
}

void WaveHolder::ExtractRange(const std::string &range) {
  NNET3_ERR << "A range [" << range << "] was given for WAVE data, which has "
            << "no ranges (use extract-segments)";
}

}  // namespace nnet3
