// compute-mfcc-feats: MFCC from wav.scp (Kaldi's tool of the same
// name; lib/feat/mfcc.h, lib/feat/feature-program.h).
#include <cstdint>
#include <vector>

#include "base/options.h"
#include "base/program.h"
#include "feat/feature-program.h"
#include "feat/htk-matrix.h"
#include "feat/mfcc.h"
#include "feat/offline-features.h"

namespace {

const char *const kUsage =
    "Create MFCC feature files.\n"
    "Usage:  compute-mfcc-feats [options...] <wav-rspecifier> "
    "<feats-wspecifier>\n"
    "e.g.: compute-mfcc-feats --config=conf/mfcc.conf scp:data/train/wav.scp "
    "ark,scp:feats.ark,feats.scp\n"
    "See also: compute-mfcc-feats, compute-fbank-feats, "
    "compute-spectrogram-feats, copy-feats\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    MfccOptions opts;
    FeatureProgram program(/*vtln=*/true);
    opts.Register(&po);
    program.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    program.SetHtkKind(kHtkMfcc | (opts.use_energy ? kHtkEnergy : kHtkZeroth));
    OfflineFeatures<MfccComputer> features(opts);
    auto compute = [&](const float *wave, int64_t n, float samp_freq,
                       float warp, std::vector<float> *out) {
      return features.ComputeFeatures(wave, n, samp_freq, warp, out);
    };
    return program.Run(po.GetArg(1), po.GetArg(2), compute, features.Dim());
  });
}
