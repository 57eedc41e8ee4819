// nnet3-compute-prob: the average objective (and accuracy) of a raw nnet3
// network on egs (Kaldi's tool of the same name;
// lib/train/nnet-diagnostics.h).
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "device/device.h"
#include "nnet/nnet-utils.h"
#include "nnet/nnet.h"
#include "optimize/caching-compiler.h"
#include "compute/am-nnet-simple.h"
#include "train/nnet-diagnostics.h"
#include "train/nnet-example.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Computes and prints in logging messages the average log-prob per frame\n"
    "of the given data with an nnet3 neural net.  The input of this is the\n"
    "output of e.g. nnet3-get-egs | nnet3-merge-egs.  Batch-norm and dropout\n"
    "are put in test mode and the model is collapsed first (see the\n"
    "options).\n"
    "\n"
    "Usage:  nnet3-compute-prob [options] <raw-model-in> "
    "<training-examples-in>\n"
    "e.g.:\n"
    "  nnet3-compute-prob 0.raw ark:valid.egs\n"
    "  nnet3-compute-prob 1.raw 'ark:nnet3-merge-egs ark:valid.egs ark:- |'\n"
    "Note: unlike Kaldi's, this program has --use-gpu (default \"no\").\n"
    "See also: nnet3-train, nnet3-show-progress\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    bool batchnorm_test_mode = true, dropout_test_mode = true,
         collapse_model = true;
    NnetComputeProbOptions opts;
    ComputationCacheFileOptions cache_opts;
    DeviceOptions device_opts;
    po.Register("batchnorm-test-mode", &batchnorm_test_mode,
                "If true, set test-mode to true on any BatchNormComponents.");
    po.Register("dropout-test-mode", &dropout_test_mode,
                "If true, set test-mode to true on any DropoutComponents and "
                "DropoutMaskComponents.");
    po.Register("collapse-model", &collapse_model,
                "If true, collapse model to the extent possible before using "
                "it (for efficiency).");
    opts.Register(&po);
    cache_opts.Register(&po);
    device_opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    SelectDevice(device_opts);
    const std::string nnet_rxfilename = po.GetArg(1),
                      examples_rspecifier = po.GetArg(2);
    Nnet nnet;
    ReadNnetFromRawOrAm(nnet_rxfilename, &nnet);
    if (batchnorm_test_mode) SetBatchnormTestMode(true, &nnet);
    if (dropout_test_mode) SetDropoutTestMode(true, &nnet);
    if (collapse_model) CollapseModel(CollapseModelConfig(), &nnet);

    NnetComputeProb prob_computer(opts, nnet);
    prob_computer.GetCompiler()->ReadCacheFile(cache_opts.read_cache);
    int64_t num_minibatches = 0;
    SequentialNnetExampleReader example_reader(examples_rspecifier);
    for (; !example_reader.Done(); example_reader.Next(), ++num_minibatches)
      prob_computer.Compute(example_reader.Value());
    if (num_minibatches == 0)
      NNET3_ERR << "No examples were read from '" << examples_rspecifier
                << "' (is the archive empty?)";
    const bool ok = prob_computer.PrintTotalStats();
    prob_computer.GetCompiler()->WriteCacheFile(cache_opts.write_cache,
                                                cache_opts.binary_write_cache);
    if (!ok)
      NNET3_WARN << "The total weight of the supervision was zero; exiting "
                    "with status 1";
    return ok ? 0 : 1;
  });
}
