// compute-spectrogram-feats: spectrogram from wav.scp (Kaldi's tool of the same
// name; lib/feat/spectrogram.h, lib/feat/feature-program.h).
#include <cstdint>
#include <utility>

#include "feat/feature-program.h"
#include "feat/htk-matrix.h"
#include "feat/spectrogram.h"

namespace {

const char *const kUsage =
    "Create spectrogram feature files.\n"
    "Usage:  compute-spectrogram-feats [options...] <wav-rspecifier> "
    "<feats-wspecifier>\n"
    "e.g.: compute-spectrogram-feats --dither=0 scp:data/train/wav.scp "
    "ark,scp:feats.ark,feats.scp\n"
    "See also: compute-mfcc-feats, compute-fbank-feats, "
    "compute-spectrogram-feats, copy-feats\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return FeatureProgramMain<SpectrogramComputer>(
      argc, argv, kUsage, /*vtln=*/false, [](const SpectrogramOptions &o) {
        return std::make_pair(
            uint16_t(kHtkFbank | kHtkZeroth),
            static_cast<int32_t>(o.frame_opts.frame_shift_ms * 10000));
      });
}
