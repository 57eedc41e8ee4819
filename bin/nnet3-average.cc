// nnet3-average: the weighted average of several raw nnet3 networks of the
// same structure (Kaldi's tool of the same name).
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "nnet/nnet-average.h"
#include "nnet/nnet.h"
#include "compute/am-nnet-simple.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "This program averages the parameters over a number of 'raw' nnet3 "
    "neural nets.\n"
    "The weighted sum is taken over every component (ScaleNnet / AddNnet),\n"
    "so the stats of nonlinear and batch-norm components are averaged too.\n"
    "The models are read by --num-threads threads, as in Kaldi.\n"
    "\n"
    "Usage:  nnet3-average [options] <model1> <model2> ... <modelN> "
    "<model-out>\n"
    "\n"
    "e.g.:\n"
    " nnet3-average 1.1.nnet 1.2.nnet 1.3.nnet 2.nnet\n"
    " nnet3-average --weights=0.2:0.8 a.raw b.raw avg.raw\n"
    "See also: nnet3-train, nnet3-copy\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    bool binary_write = true;
    std::string weights_str;
    int32_t num_threads = -1;
    po.Register("binary", &binary_write, "Write output in binary mode");
    po.Register("weights", &weights_str,
                "Colon-separated list of weights, one for each input model. "
                "These will be normalized to sum to one.");
    po.Register("num-threads", &num_threads,
                "Number of threads that read the models (if not set: 3 for "
                "more than 10 models, 2 for more than 5, else 1; at most "
                "half the number of models)");
    po.Read(argc, argv);
    if (po.NumArgs() < 2) {
      po.PrintUsage();
      return 1;
    }
    const int32_t num_inputs = po.NumArgs() - 1;
    const std::string nnet_wxfilename = po.GetArg(po.NumArgs());
    std::vector<std::string> inputs;
    for (int32_t i = 1; i <= num_inputs; ++i) inputs.push_back(po.GetArg(i));
    Nnet nnet;
    AverageNnetFiles(inputs, ParseAverageWeights(weights_str, num_inputs),
                     NumAverageThreads(num_threads, num_inputs), &nnet,
                     ReadNnetFromRawOrAm);
    WriteKaldiObject(nnet, nnet_wxfilename, binary_write);
    NNET3_LOG << "Averaged parameters of " << num_inputs
              << " neural nets, and wrote to "
              << PrintableWxfilename(nnet_wxfilename);
    return 0;
  });
}
