// nnet3-am-init: makes an nnet3 acoustic model (.mdl) from a raw network
// and a transition model (read, or built from a tree and a topology).
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "compute/am-nnet-simple.h"
#include "hmm/context-dependency.h"
#include "hmm/hmm-topology.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Initialize nnet3 am-nnet (i.e. neural network-based acoustic model, "
    "with\n"
    "associated transition model) from an existing transition model and "
    "nnet.\n"
    "The transition model is built from a tree and a topology, or read from\n"
    "the front of <trans-model-in>: any Kaldi model file that starts with\n"
    "one (e.g. a GMM final.mdl).\n"
    "Set priors using nnet3-am-adjust-priors.\n"
    "\n"
    "Usage:  nnet3-am-init [options] <tree-in> <topology-in> "
    "<input-raw-nnet> <output-am-nnet>\n"
    "  or:  nnet3-am-init [options] <trans-model-in> <input-raw-nnet> "
    "<output-am-nnet>\n"
    "e.g.:\n"
    " nnet3-am-init tree topo 0.raw 0.mdl\n"
    "See also: nnet3-init, nnet3-am-copy, nnet3-am-info, "
    "nnet3-am-adjust-priors\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    bool binary = true;
    po.Register("binary", &binary, "Write output in binary mode");
    po.Read(argc, argv);
    if (po.NumArgs() < 3 || po.NumArgs() > 4) {
      po.PrintUsage();
      return 1;
    }
    TransitionModel trans_model;
    if (po.NumArgs() == 4) {
      ContextDependency ctx_dep;
      ReadKaldiObject(po.GetArg(1), &ctx_dep);
      HmmTopology topo;
      ReadKaldiObject(po.GetArg(2), &topo);
      trans_model = TransitionModel(ctx_dep, topo);
    } else {
      ReadTransitionModel(po.GetArg(1), &trans_model);
    }
    const int32_t first_nnet_arg = po.NumArgs() - 1;
    Nnet nnet;
    ReadNnetFromRawOrAm(po.GetArg(first_nnet_arg), &nnet);
    AmNnetSimple am_nnet(nnet);  // no priors yet
    if (am_nnet.NumPdfs() != trans_model.NumPdfs())
      NNET3_WARN << "The network's output dimension " << am_nnet.NumPdfs()
                 << " differs from the transition model's number of pdfs "
                 << trans_model.NumPdfs();
    WriteAmNnet(trans_model, am_nnet, po.GetArg(first_nnet_arg + 1), binary);
    NNET3_LOG << "Initialized am-nnet (neural net acoustic model) and wrote "
              << "to " << PrintableWxfilename(po.GetArg(first_nnet_arg + 1));
    return 0;
  });
}
