// nnet3-compute-batch: propagates features through a raw network, many
// utterances at once, their chunks computed together in minibatches
// (Kaldi's tool of the same name).
#include "base/error.h"
#include "base/options.h"
#include "base/program.h"
#include "compute/batch-inference-loop.h"
#include "compute/inference-loop.h"
#include "compute/ivector-tables.h"
#include "compute/nnet-batch-tasks.h"
#include "device/device.h"
#include "nnet/nnet-utils.h"
#include "compute/am-nnet-simple.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Propagate the features through raw neural network model and write the\n"
    "output.  This version computes chunks of many utterances together, in\n"
    "minibatches of --minibatch-size chunks (the last chunk of an utterance\n"
    "is moved back to end on its last frame, as in Kaldi's batch tool), with\n"
    "reading, computing and writing overlapped.  If --apply-exp=true, apply\n"
    "the Exp() function to the output before writing it out.  Batch-norm and\n"
    "dropout are put in test mode and the model is collapsed first.\n"
    "\n"
    "Usage: nnet3-compute-batch [options] <nnet-in> <features-rspecifier> "
    "<matrix-wspecifier>\n"
    " e.g.: nnet3-compute-batch final.raw scp:feats.scp "
    "ark:nnet_prediction.ark\n"
    "Note: --use-gpu defaults to \"no\"; --use-gpu=yes computes the\n"
    "minibatches on a GPU, in a build with the CUDA backend (Meson option\n"
    "-Dcuda; see cuda-compiled) on a machine with a GPU.\n"
    "See also: nnet3-compute, nnet3-xvector-compute\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    NnetBatchComputerOptions opts;
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
                "model (in this case, a .mdl file is expected as input)");
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    SelectDevice(device_opts);
    Nnet nnet;
    Vector log_priors;
    ReadNnetAndLogPriors(po.GetArg(1), use_priors, &nnet, &log_priors);
    SetBatchnormTestMode(true, &nnet);
    SetDropoutTestMode(true, &nnet);
    CollapseModel(CollapseModelConfig(), &nnet);
    ComputeUtterancesBatched(opts, nnet, log_priors, &ivectors, output_opts,
                             po.GetArg(2), po.GetArg(3));
    return 0;
  });
}
