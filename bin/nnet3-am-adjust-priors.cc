// nnet3-am-adjust-priors: sets the priors of an nnet3 acoustic model (.mdl)
// to the network's average posteriors.
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "matrix/vector.h"
#include "compute/am-nnet-simple.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Set the priors of the nnet3 neural net to the computed posteriors from "
    "the net,\n"
    "on typical data (e.g. training data). This is correct under more "
    "general\n"
    "circumstances than using the priors of the class labels in the "
    "training data\n"
    "\n"
    "Typical usage of this program will involve computation of an average "
    "pdf-level\n"
    "posterior with nnet3-compute or nnet3-compute-from-egs, piped into "
    "matrix-sum-rows\n"
    "and then vector-sum, to compute the average posterior\n"
    "\n"
    "Usage: nnet3-am-adjust-priors [options] <nnet-in> "
    "<summed-posterior-vector-in> <nnet-out>\n"
    "e.g.:\n"
    " nnet3-am-adjust-priors final.mdl counts.vec final.mdl\n"
    "See also: nnet3-am-info, nnet3-compute\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    bool binary = true;
    float prior_floor = 1.0e-15f;
    po.Register("binary", &binary, "Write output in binary mode");
    po.Register("prior-floor", &prior_floor,
                "When setting priors, floor for priors (accepted for "
                "compatibility: Kaldi's nnet3-am-adjust-priors does not use "
                "it, nor do we)");
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    const std::string nnet_in = po.GetArg(1), posterior_in = po.GetArg(2),
                      nnet_out = po.GetArg(3);
    TransitionModel trans_model;
    AmNnetSimple am_nnet;
    ReadAmNnet(nnet_in, &trans_model, &am_nnet);
    Vector posterior_sum(CpuDevice());
    ReadKaldiObject(posterior_in, &posterior_sum);
    AdjustPriors(posterior_sum, &am_nnet);
    WriteAmNnet(trans_model, am_nnet, nnet_out, binary);
    NNET3_LOG << "Modified priors of neural network model and wrote it to "
              << PrintableWxfilename(nnet_out);
    return 0;
  });
}
