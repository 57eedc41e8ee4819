// nnet3-am-init: makes an nnet3 acoustic model (.mdl) from a transition
// model and a raw network.
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "compute/am-nnet-simple.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Initialize nnet3 am-nnet (i.e. neural network-based acoustic model, "
    "with\n"
    "associated transition model) from an existing transition model and "
    "nnet.\n"
    "The transition model is read from the front of <trans-model-in>: any\n"
    "Kaldi model file that starts with one (e.g. a GMM final.mdl).\n"
    "Set priors using nnet3-am-adjust-priors.\n"
    "\n"
    "Usage:  nnet3-am-init [options] <trans-model-in> <input-raw-nnet> "
    "<output-am-nnet>\n"
    "  (Kaldi's other form, <tree-in> <topology-in> <input-raw-nnet>\n"
    "  <output-am-nnet>, is not supported: it needs Kaldi's decision tree.)\n"
    "e.g.:\n"
    " nnet3-am-init exp/tri3/final.mdl 0.raw 0.mdl\n"
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
    if (po.NumArgs() == 4)
      NNET3_ERR << "The <tree-in> <topology-in> form of nnet3-am-init needs "
                << "Kaldi's decision tree, which this toolkit does not read; "
                << "give a transition model instead (any Kaldi model file "
                << "that starts with one, such as the GMM final.mdl the tree "
                << "was built with): nnet3-am-init <trans-model-in> "
                << "<input-raw-nnet> <output-am-nnet>";
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    TransitionModel trans_model;
    ReadTransitionModel(po.GetArg(1), &trans_model);
    Nnet nnet;
    ReadNnetFromRawOrAm(po.GetArg(2), &nnet);
    AmNnetSimple am_nnet(nnet);  // no priors yet
    if (am_nnet.NumPdfs() != trans_model.NumPdfs())
      NNET3_WARN << "The network's output dimension " << am_nnet.NumPdfs()
                 << " differs from the transition model's number of pdfs "
                 << trans_model.NumPdfs();
    WriteAmNnet(trans_model, am_nnet, po.GetArg(3), binary);
    NNET3_LOG << "Initialized am-nnet (neural net acoustic model) and wrote "
              << "to " << PrintableWxfilename(po.GetArg(3));
    return 0;
  });
}
