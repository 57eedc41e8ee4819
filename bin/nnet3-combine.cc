// nnet3-combine: the average of the last n models that scores best on
// held-out egs, with batch-norm stats recomputed (Kaldi's tool of the same
// name; lib/train/nnet-combine.h).
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "device/device.h"
#include "nnet/nnet.h"
#include "train/nnet-combine.h"
#include "train/nnet-example.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Using a subset of training or held-out examples, compute the average\n"
    "over the first n nnet3 models where we maximize the objective function\n"
    "for n. Note that the order of models has been reversed before\n"
    "being fed into this binary. So we are actually combining last n models.\n"
    "Inputs and outputs are 'raw' nnets.\n"
    "\n"
    "Usage:  nnet3-combine [options] <nnet-in1> <nnet-in2> ... <nnet-inN> "
    "<valid-examples-in> <nnet-out>\n"
    "\n"
    "e.g.:\n"
    " nnet3-combine 1.1.raw 1.2.raw 1.3.raw ark:valid.egs 2.raw\n"
    "See also: nnet3-average, nnet3-compute-prob\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    bool binary_write = true;
    NnetCombineOptions opts;
    DeviceOptions device_opts;
    po.Register("binary", &binary_write, "Write output in binary mode");
    opts.Register(&po);
    device_opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() < 3) {
      po.PrintUsage();
      return 1;
    }
    SelectDevice(device_opts);
    const std::string egs_rspecifier = po.GetArg(po.NumArgs() - 1),
                      nnet_wxfilename = po.GetArg(po.NumArgs());
    std::vector<std::string> models;
    for (int i = 1; i <= po.NumArgs() - 2; i++) models.push_back(po.GetArg(i));

    std::vector<NnetExample> egs;
    SequentialNnetExampleReader example_reader(egs_rspecifier);
    for (; !example_reader.Done(); example_reader.Next())
      egs.push_back(example_reader.Value());
    NNET3_LOG << "Read " << egs.size() << " examples.";
    if (egs.empty())
      NNET3_ERR << "No examples were read from '" << egs_rspecifier
                << "' (is the archive empty?)";

    Nnet combined;
    CombineNnets(opts, models, egs, &combined);
    WriteKaldiObject(combined, nnet_wxfilename, binary_write);
    NNET3_LOG << "Finished combining neural nets, wrote model to "
              << PrintableWxfilename(nnet_wxfilename);
    return 0;
  });
}
