// extract-segments: utterances cut out of recordings by a segments file
// (Kaldi's tool of the same name; lib/feat/segments.h).
#include <cstdint>
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "feat/segments.h"
#include "feat/wave-data.h"
#include "util/kaldi-io.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Extract segments from a large audio file in WAV format.\n"
    "Usage:  extract-segments [options] <wav-rspecifier> <segments-file> "
    "<wav-wspecifier>\n"
    "e.g. extract-segments scp:wav.scp segments ark:- | "
    "<some-other-program>\n"
    " segments-file format: each line is either\n"
    "<segment-id> <recording-id> <start-time> <end-time>\n"
    "e.g. call-861225-A-0050-0065 call-861225-A 5.0 6.5\n"
    "or (less frequently, and not supported in scripts):\n"
    "<segment-id> <wav-file-name> <start-time> <end-time> <channel>\n"
    "where <channel> will normally be 0 (left) or 1 (right)\n"
    "e.g. call-861225-A-0050-0065 call-861225 5.0 6.5 1\n"
    "And <end-time> of -1 means the segment runs till the end of the WAV "
    "file\n"
    "See also: compute-mfcc-feats, wav-to-duration\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    SegmentOptions opts;
    po.Register("min-segment-length", &opts.min_segment_length,
                "Minimum segment length in seconds (reject shorter segments)");
    po.Register("max-overshoot", &opts.max_overshoot,
                "End segments overshooting audio by less than this (in "
                "seconds) are truncated, else rejected.");
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    RandomAccessTableReader<WaveHolder> reader(po.GetArg(1));
    TableWriter<WaveHolder> writer(po.GetArg(3));
    Input segments(po.GetArg(2));
    int64_t num_lines = 0, num_success = 0;
    std::string line, why;
    while (std::getline(segments.Stream(), line)) {
      num_lines++;
      Segment seg;
      WaveData piece;
      if (!ParseSegmentLine(line, &seg, &why)) {
        NNET3_WARN << why;
        continue;
      }
      if (!reader.HasKey(seg.recording)) {
        NNET3_WARN << "Could not find recording " << seg.recording
                   << ", skipping segment " << seg.id;
        continue;
      }
      if (!CutSegment(seg, reader.Value(seg.recording), opts, &piece, &why)) {
        NNET3_WARN << why;
        continue;
      }
      writer.Write(seg.id, piece);
      num_success++;
    }
    writer.Close();
    NNET3_LOG << "Successfully processed " << num_success << " lines out of "
              << num_lines << " in the segments file. ";
    return 0;
  });
}
