// nnet3-latgen-faster: decode features with an nnet3 acoustic model and a
// decoding graph into lattices (Kaldi's tool of the same name).
#include <string>

#include "base/options.h"
#include "base/program.h"
#include "compute/ivector-tables.h"
#include "compute/nnet-simple-computation.h"
#include "decoder/decodable-am-nnet-simple.h"
#include "decoder/lattice-generation.h"
#include "device/device.h"

namespace {

const char *const kUsage =
    "Generate lattices using nnet3 neural net model.\n"
    "Usage: nnet3-latgen-faster [options] <nnet-in> <fst-in|fsts-rspecifier> "
    "<features-rspecifier> <lattice-wspecifier> [ <words-wspecifier> "
    "[<alignments-wspecifier>] ]\n"
    " e.g.: nnet3-latgen-faster --word-symbol-table=words.txt final.mdl "
    "HCLG.fst scp:feats.scp 'ark:|gzip -c >lat.1.gz'\n"
    "See also: nnet3-latgen-faster-parallel, nnet3-latgen-faster-looped\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    LatgenOptions opts;
    NnetSimpleComputationOptions decodable_opts;
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
    opts.decode.acoustic_scale = decodable_opts.acoustic_scale;
    const LatgenModel model{po.GetArg(1),
                            trans_model,
                            log_priors,
                            decodable_opts.acoustic_scale,
                            decodable_opts.frame_subsampling_factor,
                            [&]() {
                              return NewDecodingComputer(decodable_opts,
                                                         am_nnet.GetNnet());
                            }};
    const int64_t num_success =
        GenerateLattices(opts, model, &ivectors, po.GetArg(2), po.GetArg(3),
                         po.GetArg(4), po.GetOptArg(5), po.GetOptArg(6));
    return num_success != 0 ? 0 : 1;
  });
}
