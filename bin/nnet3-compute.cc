// nnet3-compute: propagates features through a raw network, utterance by
// utterance, in chunks (Kaldi's tool of the same name).
#include "base/error.h"
#include "base/options.h"
#include "base/program.h"
#include "compute/inference-loop.h"
#include "compute/ivector-tables.h"
#include "compute/nnet-simple-computation.h"
#include "device/device.h"
#include "nnet/nnet-utils.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Propagate the features through a raw neural network and write the\n"
    "output, one row per output frame. If --apply-exp=true, apply exp() to\n"
    "the output before writing it out. Batch-norm and dropout are put in\n"
    "test mode and the model is collapsed first.\n"
    "\n"
    "Usage: nnet3-compute [options] <nnet-in> <features-rspecifier> "
    "<matrix-wspecifier>\n"
    " e.g.: nnet3-compute final.raw scp:feats.scp ark:nnet_prediction.ark\n"
    "Note: --use-gpu defaults to \"no\": this build has no CUDA backend yet.\n"
    "See also: nnet3-init, copy-feats\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    NnetSimpleComputationOptions opts;
    opts.acoustic_scale = 1.0f;  // by default, no scaling
    DeviceOptions device_opts;
    IvectorTables ivectors;
    InferenceOutputOptions output_opts;
    bool use_priors = false;
    opts.Register(&po);
    device_opts.Register(&po);
    ivectors.Register(&po);
    output_opts.Register(&po);
    po.Register("use-priors", &use_priors,
                "If true, subtract the logs of the priors stored with the "
                "model (in this case, a .mdl file is expected as input); "
                "not supported yet");
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    SelectDevice(device_opts);
    if (use_priors)
      NNET3_ERR << "--use-priors needs an acoustic model (.mdl) with priors, "
                   "which this toolkit cannot read yet; give a raw network "
                   "and leave --use-priors off";
    Nnet nnet;
    ReadKaldiObject(po.GetArg(1), &nnet);
    SetBatchnormTestMode(true, &nnet);
    SetDropoutTestMode(true, &nnet);
    CollapseModel(CollapseModelConfig(), &nnet);
    NnetSimpleComputer computer(opts, nnet);
    ComputeUtterances(&computer, &ivectors, output_opts, po.GetArg(2),
                      po.GetArg(3));
    return 0;
  });
}
