// compute-mfcc-feats: MFCC from wav.scp (Kaldi's tool of the same
// name; lib/feat/mfcc.h, lib/feat/feature-program.h).
#include <cstdint>
#include <utility>

#include "feat/feature-program.h"
#include "feat/htk-matrix.h"
#include "feat/mfcc.h"

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
  return FeatureProgramMain<MfccComputer>(
      argc, argv, kUsage, /*vtln=*/true, [](const MfccOptions &o) {
        return std::make_pair(
            uint16_t(kHtkMfcc | (o.use_energy ? kHtkEnergy : kHtkZeroth)),
            100000);
      });
}
