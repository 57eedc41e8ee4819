// nnet3-compute: propagates features through a raw network, utterance by
// utterance, in chunks (Kaldi's tool of the same name).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "base/timer.h"
#include "compute/decodable-simple-looped.h"
#include "compute/ivector-tables.h"
#include "compute/nnet-simple-computation.h"
#include "device/device.h"
#include "nnet/nnet-utils.h"
#include "train/am-nnet-simple.h"
#include "util/kaldi-io.h"
#include "util/table-types.h"

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
    Timer timer;
    OptionsRegistry po(kUsage);
    NnetSimpleComputationOptions opts;
    opts.acoustic_scale = 1.0f;  // by default, no scaling
    DeviceOptions device_opts;
    IvectorTables ivectors;
    bool apply_exp = false, use_priors = false, looped = false;
    opts.Register(&po);
    device_opts.Register(&po);
    ivectors.Register(&po);
    po.Register("apply-exp", &apply_exp,
                "If true, apply exp function to output");
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
    const std::string nnet_rxfilename = po.GetArg(1),
                      feature_rspecifier = po.GetArg(2),
                      matrix_wspecifier = po.GetArg(3);
    Nnet nnet;
    Vector log_priors;
    ReadNnetAndLogPriors(nnet_rxfilename, use_priors, &nnet, &log_priors);
    SetBatchnormTestMode(true, &nnet);
    SetDropoutTestMode(true, &nnet);
    CollapseModel(CollapseModelConfig(), &nnet);
    NnetSimpleComputer computer(opts, nnet);
    std::unique_ptr<DecodableNnetSimpleLoopedInfo> looped_info;
    if (looped)
      looped_info = std::make_unique<DecodableNnetSimpleLoopedInfo>(
          LoopedOptions(opts), &nnet);
    ivectors.Open(computer.IvectorDim());
    BaseFloatMatrixWriter writer(matrix_wspecifier);
    SequentialBaseFloatMatrixReader feature_reader(feature_rspecifier);
    int64_t num_success = 0, num_fail = 0, frame_count = 0;
    for (; !feature_reader.Done(); feature_reader.Next()) {
      const std::string utt = feature_reader.Key();
      const Matrix &features = feature_reader.Value();
      if (features.NumRows() == 0) {
        NNET3_WARN << "Zero-length utterance '" << utt << "' (0 frames; at "
                   << "least 1 is needed)";
        num_fail++;
        continue;
      }
      const Vector *ivector;
      const Matrix *online_ivectors;
      if (!ivectors.Lookup(utt, &ivector, &online_ivectors)) {
        num_fail++;
        continue;
      }
      Matrix output;
      if (looped_info) {
        DecodableNnetSimpleLooped decodable(*looped_info, utt, features,
                                            ivector, online_ivectors,
                                            ivectors.OnlinePeriod());
        decodable.GetAllOutput(&output);
      } else {
        computer.ComputeUtterance(utt, features, ivector, online_ivectors,
                                  ivectors.OnlinePeriod(), &output);
      }
      SubtractLogPriors(log_priors, opts.acoustic_scale, &output);
      if (apply_exp) output.ApplyFunc(Func::kExp);
      writer.Write(utt, output);
      frame_count += features.NumRows();
      num_success++;
    }
    feature_reader.Close();
    writer.Close();
    const double elapsed = timer.Elapsed();
    NNET3_LOG << "Time taken " << elapsed
              << "s: real-time factor assuming 100 frames/sec is "
              << (frame_count > 0 ? elapsed * 100.0 / frame_count : 0.0);
    NNET3_LOG << "Done " << num_success << " utterances, failed for "
              << num_fail;
    if (num_success == 0)
      NNET3_ERR << "No utterance succeeded (" << num_fail << " failed) from '"
                << feature_rspecifier << "'";
    return 0;
  });
}
