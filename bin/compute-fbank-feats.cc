// compute-fbank-feats: Mel-filter bank (FBANK) from wav.scp (Kaldi's tool of
// the same name; lib/feat/fbank.h, lib/feat/feature-program.h).
#include <cstdint>
#include <utility>

#include "feat/fbank.h"
#include "feat/feature-program.h"
#include "feat/htk-matrix.h"

namespace {

const char *const kUsage =
    "Create Mel-filter bank (FBANK) feature files.\n"
    "Usage:  compute-fbank-feats [options...] <wav-rspecifier> "
    "<feats-wspecifier>\n"
    "e.g.: compute-fbank-feats --num-mel-bins=40 scp:data/train/wav.scp "
    "ark,scp:feats.ark,feats.scp\n"
    "See also: compute-mfcc-feats, compute-fbank-feats, "
    "compute-spectrogram-feats, copy-feats\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return FeatureProgramMain<FbankComputer>(
      argc, argv, kUsage, /*vtln=*/true, [](const FbankOptions &o) {
        return std::make_pair(
            uint16_t(kHtkFbank | (o.use_energy ? kHtkEnergy : kHtkZeroth)),
            100000);
      });
}
