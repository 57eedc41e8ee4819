// nnet3-compute: propagates features through a raw network, utterance by
// utterance, in chunks (Kaldi's tool of the same name).
#include <algorithm>
#include <memory>
#include <string>

#include "base/options.h"
#include "base/program.h"
#include "compute/am-nnet-simple.h"
#include "compute/decodable-simple-looped.h"
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
    "--looped=true runs one looped computation that carries the network's\n"
    "state from chunk to chunk (as Kaldi's looped decoders): better for\n"
    "recurrent models (LSTM, GRU) and long utterances, as each frame is\n"
    "computed once and the recurrence sees the whole past (the output does\n"
    "not depend on --frames-per-chunk). Only --extra-left-context-initial\n"
    "applies then; one i-vector per chunk.\n"
    "\n"
    "Usage: nnet3-compute [options] <nnet-in> <features-rspecifier> "
    "<matrix-wspecifier>\n"
    " e.g.: nnet3-compute final.raw scp:feats.scp ark:nnet_prediction.ark\n"
    "       nnet3-compute --looped=true lstm.raw scp:feats.scp ark:out.ark\n"
    "Note: --use-gpu defaults to \"no\" (see cuda-compiled for whether this\n"
    "build has the CUDA backend).\n"
    "See also: nnet3-init, copy-feats\n";

// The looped options from nnet3-compute's (non-looped) ones.
nnet3::NnetSimpleLoopedComputationOptions LoopedOptions(
    const nnet3::NnetSimpleComputationOptions &opts) {
  nnet3::NnetSimpleLoopedComputationOptions looped;
  looped.extra_left_context_initial =
      std::max(opts.extra_left_context_initial, 0);
  looped.frame_subsampling_factor = opts.frame_subsampling_factor;
  looped.frames_per_chunk = opts.frames_per_chunk;
  looped.acoustic_scale = opts.acoustic_scale;
  looped.debug_computation = opts.debug_computation;
  looped.optimize_config = opts.optimize_config;
  looped.compute_config = opts.compute_config;
  return looped;
}

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
    bool use_priors = false, looped = false;
    opts.Register(&po);
    device_opts.Register(&po);
    ivectors.Register(&po);
    output_opts.Register(&po);
    po.Register("use-priors", &use_priors,
                "If true, subtract the logs of the priors stored with the "
                "model (in this case, a .mdl file is expected as input).");
    po.Register("looped", &looped,
                "If true, use looped computation (see above); recommended "
                "for recurrent models and long utterances");
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
    NnetSimpleComputer computer(opts, nnet);
    std::unique_ptr<DecodableNnetSimpleLoopedInfo> looped_info;
    std::unique_ptr<NnetSimpleLoopedComputer> looped_computer;
    if (looped) {
      looped_info = std::make_unique<DecodableNnetSimpleLoopedInfo>(
          LoopedOptions(opts), &nnet);
      looped_computer =
          std::make_unique<NnetSimpleLoopedComputer>(*looped_info);
    }
    UtteranceComputer *chosen =
        looped ? static_cast<UtteranceComputer *>(looped_computer.get())
               : &computer;
    ComputeUtterances(chosen, &ivectors, output_opts, po.GetArg(2),
                      po.GetArg(3), &log_priors, opts.acoustic_scale);
    return 0;
  });
}
