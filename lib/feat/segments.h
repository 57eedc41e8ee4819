// Segments: cutting utterances out of recordings by a Kaldi `segments`
// file (Kaldi's extract-segments).
//
//   Segment seg;
//   std::string why;
//   if (!ParseSegmentLine(line, &seg, &why)) warn(why);
//   WaveData piece;
//   if (!CutSegment(seg, recording, opts, &piece, &why)) warn(why);
//
// A line is "<segment-id> <recording-id> <start> <end> [<channel>]" in
// seconds; an end of -1 means the end of the recording. A segment must start
// inside the recording and may end up to max_overshoot seconds after it (it
// is then cut at the end); shorter than min_segment_length it is skipped.
// Sample s = (int)(t * samp_freq + 0.5) for the start and end times.
#ifndef NNET3_FEAT_SEGMENTS_H_
#define NNET3_FEAT_SEGMENTS_H_

#include <cstdint>
#include <string>

#include "feat/wave-data.h"

namespace nnet3 {

struct Segment {
  std::string id, recording;
  double start = 0.0, end = 0.0;
  int32_t channel = -1;  // -1: not given
};

struct SegmentOptions {
  float min_segment_length = 0.1f;
  float max_overshoot = 0.5f;
};

// False with *why (Kaldi's warning text) for a malformed line.
bool ParseSegmentLine(const std::string &line, Segment *seg, std::string *why);

// False with *why when the segment does not fit the recording. Throws
// UserError when a multi-channel recording's line names no channel.
bool CutSegment(const Segment &seg, const WaveData &recording,
                const SegmentOptions &opts, WaveData *out, std::string *why);

}  // namespace nnet3

#endif  // NNET3_FEAT_SEGMENTS_H_
