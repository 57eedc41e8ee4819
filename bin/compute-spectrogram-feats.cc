// compute-spectrogram-feats: spectrogram from wav.scp (Kaldi's tool of the same
// name; lib/feat/spectrogram.h, lib/feat/feature-program.h).
#include <cstdint>
#include <vector>

#include "base/options.h"
#include "base/program.h"
#include "feat/feature-program.h"
#include "feat/htk-matrix.h"
#include "feat/offline-features.h"
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
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    SpectrogramOptions opts;
    FeatureProgram program(/*vtln=*/false);
    opts.Register(&po);
    program.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    program.SetHtkKind(
        kHtkFbank | kHtkZeroth,
        static_cast<int32_t>(opts.frame_opts.frame_shift_ms * 10000));
    OfflineFeatures<SpectrogramComputer> features(opts);
    auto compute = [&](const float *wave, int64_t n, float samp_freq,
                       float warp, std::vector<float> *out) {
      return features.ComputeFeatures(wave, n, samp_freq, warp, out);
    };
    return program.Run(po.GetArg(1), po.GetArg(2), compute, features.Dim());
  });
}
