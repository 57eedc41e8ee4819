// nnet3-latgen-faster-batch: decode features with an nnet3 acoustic model
// into lattices, the model computed in minibatches on one thread (a GPU
// with --use-gpu) and the graph search on --num-threads threads (Kaldi's
// tool of the same name).
#include <string>

#include "base/options.h"
#include "base/program.h"
#include "compute/ivector-tables.h"
#include "decoder/batch-lattice-generation.h"
#include "decoder/decodable-am-nnet-simple.h"
#include "device/device.h"

namespace {

const char *const kUsage =
    "Generate lattices using nnet3 neural net model.  This version is "
    "optimized\n"
    "for GPU-based inference.\n"
    "Usage: nnet3-latgen-faster-batch [options] <nnet-in> "
    "<fst-in|fsts-rspecifier> <features-rspecifier> <lattice-wspecifier> "
    "[ <words-wspecifier> [<alignments-wspecifier>] ]\n"
    " e.g.: nnet3-latgen-faster-batch --num-threads=4 "
    "--word-symbol-table=words.txt final.mdl HCLG.fst scp:feats.scp "
    "'ark:|gzip -c >lat.1.gz'\n"
    "The network runs on one thread (on the GPU with --use-gpu=yes, the\n"
    "default, in a build with the CUDA backend; --use-gpu=no for the CPU),\n"
    "chunks of many utterances per minibatch; each utterance is searched\n"
    "on one of --num-threads threads once its scores are ready, and the\n"
    "lattices are written in input order. A graph per utterance may be\n"
    "given as an rspecifier (scp: or ark:), looked up by utterance.\n"
    "See also: nnet3-latgen-faster, nnet3-latgen-faster-parallel, "
    "nnet3-compute-batch\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    BatchLatgenOptions opts;
    IvectorTables ivectors;
    DeviceOptions device_opts;
    device_opts.use_gpu = "yes";  // Kaldi's default for this program
    opts.Register(&po);
    ivectors.Register(&po);
    device_opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() < 4 || po.NumArgs() > 6) {
      po.PrintUsage();
      return 1;
    }
    opts.compute.Check();
    SelectDevice(device_opts);
    TransitionModel trans_model;
    AmNnetSimple am_nnet;
    ReadAmNnetForDecoding(po.GetArg(1), &trans_model, &am_nnet);
    const Vector log_priors = LogPriorsOf(am_nnet);
    opts.decode.acoustic_scale = opts.compute.acoustic_scale;
    const BatchLatgenModel model{po.GetArg(1), trans_model, am_nnet.GetNnet(),
                                 log_priors};
    const int64_t num_success = GenerateLatticesBatched(
        opts, model, &ivectors, po.GetArg(2), po.GetArg(3), po.GetArg(4),
        po.GetOptArg(5), po.GetOptArg(6));
    return num_success != 0 ? 0 : 1;
  });
}
