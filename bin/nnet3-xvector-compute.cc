// nnet3-xvector-compute: x-vectors (segment-level network outputs, averaged
// over chunks) for each utterance (Kaldi's tool of the same name).
#include "base/options.h"
#include "base/program.h"
#include "compute/nnet-batch-tasks.h"
#include "compute/xvector-compute.h"
#include "device/device.h"
#include "nnet/nnet-utils.h"
#include "optimize/caching-compiler.h"
#include "compute/am-nnet-simple.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Propagate features through an xvector neural network model and write\n"
    "the output vectors.  \"Xvector\" is our term for a vector or\n"
    "embedding which is the output of a particular type of neural network\n"
    "architecture found in speaker recognition.  This architecture\n"
    "consists of several layers that operate on frames, a statistics\n"
    "pooling layer that aggregates over the frame-level representations\n"
    "and possibly additional layers that operate on segment-level\n"
    "representations.  The xvectors are generally extracted from an\n"
    "output layer after the statistics pooling layer.  By default, one\n"
    "xvector is extracted directly from the set of features for each\n"
    "utterance.  Optionally, xvectors are extracted from chunks of input\n"
    "features and averaged, to produce a single vector.  Chunks of many\n"
    "utterances are computed together (--minibatch-size).\n"
    "\n"
    "Usage: nnet3-xvector-compute [options] <raw-nnet-in> "
    "<features-rspecifier> <vector-wspecifier>\n"
    "e.g.: nnet3-xvector-compute final.raw scp:feats.scp "
    "ark:nnet_prediction.ark\n"
    "See also: nnet3-compute, nnet3-compute-batch\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    NnetBatchComputerOptions batch_opts;
    batch_opts.acoustic_scale = 1.0f;  // by default, no scaling
    CachingOptimizingCompilerOptions compiler_config;
    XvectorComputeOptions opts;
    DeviceOptions device_opts;
    std::string cache_in, cache_out;
    batch_opts.Register(&po);
    compiler_config.Register(&po);  // --cache-capacity, --use-shortcut
    device_opts.Register(&po);
    opts.Register(&po);
    po.Register("cached-compiler-in", &cache_in,
                "If set, read the cached compiler from the specified file "
                "path.");
    po.Register("cached-compiler-out", &cache_out,
                "If set, write the cached compiler to the specified file "
                "path.");
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    SelectDevice(device_opts);
    // Kaldi's tool compiles with these (not with --compiler.*).
    batch_opts.compiler_config = compiler_config;
    Nnet nnet;
    ReadNnetFromRawOrAm(po.GetArg(1), &nnet);
    SetBatchnormTestMode(true, &nnet);
    SetDropoutTestMode(true, &nnet);
    CollapseModel(CollapseModelConfig(), &nnet);
    ComputeXvectors(opts, batch_opts, nnet, po.GetArg(2), po.GetArg(3),
                    cache_in, cache_out);
    return 0;
  });
}
