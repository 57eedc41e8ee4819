// nnet3-latgen-faster-looped: nnet3-latgen-faster with the network run by
// the looped computation, for recurrent models (Kaldi's tool of the same
// name).
#include <memory>
#include <string>

#include "base/options.h"
#include "base/program.h"
#include "compute/decodable-simple-looped.h"
#include "compute/ivector-tables.h"
#include "decoder/decodable-am-nnet-simple.h"
#include "decoder/lattice-generation.h"
#include "device/device.h"

namespace {

const char *const kUsage =
    "Generate lattices using nnet3 neural net model.\n"
    "[this version uses the 'looped' computation, which may be slightly "
    "faster for\n"
    "many architectures, but should not be used for backwards-recurrent "
    "architectures\n"
    "such as BLSTMs.\n"
    "Usage: nnet3-latgen-faster-looped [options] <nnet-in> "
    "<fst-in|fsts-rspecifier> <features-rspecifier> <lattice-wspecifier> "
    "[ <words-wspecifier> [<alignments-wspecifier>] ]\n"
    " e.g.: nnet3-latgen-faster-looped --frames-per-chunk=20 final.mdl "
    "HCLG.fst scp:feats.scp 'ark:|gzip -c >lat.1.gz'\n"
    "See also: nnet3-latgen-faster, nnet3-compute --looped=true\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    LatgenOptions opts;
    NnetSimpleLoopedComputationOptions decodable_opts;
    IvectorTables ivectors;
    DeviceOptions device_opts;
    opts.Register(&po);
    decodable_opts.Register(&po);
    ivectors.Register(&po);
    device_opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() < 4 || po.NumArgs() > 6) {
      po.PrintUsage();
      return 1;
    }
    SelectDevice(device_opts);
    TransitionModel trans_model;
    AmNnetSimple am_nnet;
    ReadAmNnetForDecoding(po.GetArg(1), &trans_model, &am_nnet);
    const Vector log_priors = LogPriorsOf(am_nnet);
    // Compiled once; the looped computers only read it.
    const std::unique_ptr<DecodableNnetSimpleLoopedInfo> info =
        NewLoopedDecodingInfo(decodable_opts, &am_nnet.GetNnet());
    opts.decode.acoustic_scale = decodable_opts.acoustic_scale;
    const LatgenModel model{
        po.GetArg(1),
        trans_model,
        log_priors,
        decodable_opts.acoustic_scale,
        decodable_opts.frame_subsampling_factor,
        [&]() { return std::make_unique<NnetSimpleLoopedComputer>(*info); }};
    const int64_t num_success =
        GenerateLattices(opts, model, &ivectors, po.GetArg(2), po.GetArg(3),
                         po.GetArg(4), po.GetOptArg(5), po.GetOptArg(6));
    return num_success != 0 ? 0 : 1;
  });
}
