#include "feat/segments.h"

#include <sstream>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

bool ParseNumber(const std::string &s, double *x) {
  std::istringstream is(s);
  return (is >> *x) && (is >> std::ws).eof();
}

}  // namespace

bool ParseSegmentLine(const std::string &line, Segment *seg, std::string *why) {
  std::istringstream is(line);
  std::vector<std::string> f;
  for (std::string w; is >> w;) f.push_back(w);
  if (f.size() != 4 && f.size() != 5) {
    *why = "Invalid line in segments file: " + line;
    return false;
  }
  seg->id = f[0];
  seg->recording = f[1];
  if (!ParseNumber(f[2], &seg->start)) {
    *why = "Invalid line in segments file [bad start]: " + line;
    return false;
  }
  if (!ParseNumber(f[3], &seg->end)) {
    *why = "Invalid line in segments file [bad end]: " + line;
    return false;
  }
  if (seg->start < 0 || (seg->end != -1.0 && seg->end <= 0) ||
      (seg->start >= seg->end && seg->end > 0)) {
    *why = "Invalid line in segments file [empty or invalid segment]: " + line;
    return false;
  }
  seg->channel = -1;
  double channel;
  if (f.size() == 5) {
    if (!ParseNumber(f[4], &channel) || channel < 0 ||
        channel != static_cast<int32_t>(channel)) {
      *why = "Invalid line in segments file [bad channel]: " + line;
      return false;
    }
    seg->channel = static_cast<int32_t>(channel);
  }
  return true;
}

bool CutSegment(const Segment &seg, const WaveData &recording,
                const SegmentOptions &opts, WaveData *out, std::string *why) {
  const float freq = recording.SampFreq();
  const int64_t num_samples = recording.NumSamples();
  const float length = num_samples / freq;
  std::ostringstream msg;
  double end = seg.end;
  if (seg.start > length) {
    msg << "Segment start is out of file data range [0, " << length
        << "s]; skipping segment " << seg.id;
  } else if (end > length + opts.max_overshoot) {
    msg << "Segment end is too far out of file data range [0," << length
        << "s]; skipping segment " << seg.id;
  } else {
    if (end < 0 || end > length) end = length;
    if (end - seg.start < opts.min_segment_length)
      msg << "Segment " << seg.id << " too short, skipping it.";
  }
  int32_t channel = seg.channel;
  if (msg.str().empty() && channel == -1) {
    if (recording.NumChannels() != 1)
      NNET3_ERR << "Your data has multiple channels. You must specify the "
                << "channel in the segments file (segment " << seg.id << ")";
    channel = 0;
  } else if (msg.str().empty() && channel >= recording.NumChannels()) {
    msg << "Invalid channel " << channel << " >= " << recording.NumChannels()
        << ". Skipping segment " << seg.id;
  }
  if (!msg.str().empty()) {
    *why = msg.str();
    return false;
  }
  const int64_t first = static_cast<int64_t>(seg.start * freq + 0.5f);
  int64_t last = static_cast<int64_t>(end * freq + 0.5f);
  if (last > num_samples) last = num_samples;
  if (last <= first) {
    *why = "Segment " + seg.id + " has no samples, skipping it.";
    return false;
  }
  const float *x = recording.Channel(channel);
  *out = WaveData(freq, 1, std::vector<float>(x + first, x + last));
  return true;
}

}  // namespace nnet3
