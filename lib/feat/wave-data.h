// WaveData: the samples of a RIFF/WAVE file (Kaldi's wave-reader), and
// WaveHolder, which lets the table readers read wav.scp entries.
//
//   SequentialTableReader<WaveHolder> reader("scp:data/train/wav.scp");
//   const WaveData &wave = reader.Value();
//   const float *left = wave.Channel(0);       // wave.NumSamples() values
//   float seconds = wave.Duration();
//
// What is accepted is what Kaldi's WaveData::Read accepts: "RIFF" (little
// endian) or "RIFX" (big endian), "WAVE", any chunks before "fmt " and
// between "fmt " and "data" skipped, PCM (format 1, or
// WAVE_FORMAT_EXTENSIBLE with the PCM sub-format), 16 bits per sample, any
// sample rate and channel count. A size of 0, 0xFFFFFFFF or SoX's
// 0x7FFFF000 in the header means "read to the end of the stream" (a pipe).
// Samples keep their integer values (-32768..32767) as floats. A data chunk
// shorter than its header says gives the samples that are there and a
// warning in Truncation(), for the caller to log with the utterance's name
// (Kaldi logs it; the reading goes on); anything else wrong throws
// UserError.
// Write() writes 16-bit PCM (values rounded and clipped), as Kaldi's.
#ifndef NNET3_FEAT_WAVE_DATA_H_
#define NNET3_FEAT_WAVE_DATA_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace nnet3 {

class WaveData {
 public:
  WaveData() = default;
  // `samples` holds num_channels rows of equal length, one after another.
  WaveData(float samp_freq, int32_t num_channels, std::vector<float> samples);

  void Read(std::istream &is);
  void Write(std::ostream &os) const;

  float SampFreq() const { return samp_freq_; }
  int32_t NumChannels() const { return num_channels_; }
  int64_t NumSamples() const { return num_samples_; }
  float Duration() const {
    return samp_freq_ > 0 ? num_samples_ / samp_freq_ : 0.0f;
  }
  const float *Channel(int32_t c) const {
    return samples_.data() + c * num_samples_;
  }
  // "" or, for a truncated file, what was expected and read.
  const std::string &Truncation() const { return truncation_; }
  void Clear() { *this = WaveData(); }
  void Swap(WaveData *other) { std::swap(*this, *other); }

 private:
  float samp_freq_ = 0.0f;
  int32_t num_channels_ = 0;
  int64_t num_samples_ = 0;
  std::vector<float> samples_;  // channel-major
  std::string truncation_;
};

// The table holder for WaveData (util/table-holders.h): entries carry no
// "\0B" header, and `binary` is ignored (a WAVE file is always binary).
class WaveHolder {
 public:
  using T = WaveData;
  static constexpr bool kBinaryHeader = false;
  static void Write(std::ostream &os, bool binary, const T &t) {
    (void)binary;
    t.Write(os);
  }
  void Read(std::istream &is, bool binary) {
    (void)binary;
    t_.Read(is);
  }
  T &Value() { return t_; }
  void Clear() { t_.Clear(); }
  void Swap(WaveHolder *other) { t_.Swap(&other->t_); }
  void ExtractRange(const std::string &range);

 private:
  T t_;
};

}  // namespace nnet3

#endif  // NNET3_FEAT_WAVE_DATA_H_
