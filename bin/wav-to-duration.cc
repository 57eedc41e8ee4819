// wav-to-duration: the duration in seconds of each WAVE entry (Kaldi's
// tool of the same name; lib/feat/wave-data.h).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "feat/wave-data.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Read wav files and output an archive consisting of a single float:\n"
    "the duration of each one in seconds.\n"
    "Usage:  wav-to-duration [options...] <wav-rspecifier> "
    "<duration-wspecifier>\n"
    "E.g.: wav-to-duration scp:wav.scp ark,t:-\n"
    "See also: compute-mfcc-feats, feat-to-len\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    bool read_entire_file = false;
    po.Register("read-entire-file", &read_entire_file,
                "Accepted for Kaldi's scripts: the whole file is always read "
                "here, so the duration is that of the samples present.");
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    SequentialTableReader<WaveHolder> reader(po.GetArg(1));
    BaseFloatWriter writer(po.GetArg(2));
    double sum = 0.0, min = std::numeric_limits<float>::infinity(), max = 0.0;
    int64_t num_done = 0;
    for (; !reader.Done(); reader.Next()) {
      const WaveData &wave = reader.Value();
      if (!wave.Truncation().empty())
        NNET3_WARN << "Utterance " << reader.Key() << ": " << wave.Truncation();
      const float duration = wave.Duration();
      writer.Write(reader.Key(), duration);
      sum += duration;
      min = std::min<double>(min, duration);
      max = std::max<double>(max, duration);
      num_done++;
    }
    writer.Close();
    NNET3_LOG << "Printed duration for " << num_done << " audio files.";
    if (num_done > 0)
      NNET3_LOG << "Mean duration was " << sum / num_done
                << ", min and max durations were " << min << ", " << max;
    return num_done != 0 ? 0 : 1;
  });
}
