// nnet3-copy: copies a raw nnet3 network, optionally changing it on the way.
#include <sstream>
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "nnet/nnet-utils.h"
#include "nnet/nnet.h"
#include "compute/am-nnet-simple.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Copy a raw nnet3 neural network, optionally changing it: in this order\n"
    "--nnet-config, --learning-rate, --scale, --edits-config, --edits, then\n"
    "--batchnorm-test-mode / --prepare-for-test.\n"
    "\n"
    "Usage:  nnet3-copy [options] <nnet-in> <nnet-out>\n"
    "e.g.:\n"
    "  nnet3-copy --binary=false 0.raw text.raw\n"
    "  nnet3-copy --edits='remove-output-nodes name=output-xent;"
    "remove-orphans' 1.raw 2.raw\n"
    "  nnet3-copy --prepare-for-test final.raw test.raw\n"
    "See also: nnet3-init, nnet3-info\n";

// Applies an edits config read from `rxfilename`.
void ApplyEditsConfig(const std::string &rxfilename, nnet3::Nnet *nnet) {
  nnet3::Input ki(rxfilename);
  nnet3::ReadEditConfig(ki.Stream(), nnet3::PrintableRxfilename(rxfilename),
                        nnet);
  ki.Close();
}

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    bool binary = true, prepare_for_test = false, batchnorm_test_mode = false;
    float learning_rate = -1.0f, scale = 1.0f;
    std::string nnet_config, edits_config, edits;
    po.Register("binary", &binary, "Write output in binary mode");
    po.Register("learning-rate", &learning_rate,
                "If supplied (>= 0), all learning rates are set to this value "
                "(times each component's learning-rate-factor)");
    po.Register("nnet-config", &nnet_config,
                "Name of an nnet3 config file to apply to the network, as "
                "nnet3-init does (e.g. to add layers)");
    po.Register("edits-config", &edits_config,
                "Name of an edits config file (remove-output-nodes, "
                "set-learning-rate, rename-node, ...)");
    po.Register("edits", &edits,
                "Edits config given on the command line, with ';' for a "
                "newline, e.g. 'remove-output-nodes name=x;remove-orphans'");
    po.Register("scale", &scale, "Scale all parameters by this factor");
    po.Register("prepare-for-test", &prepare_for_test,
                "Set batch-norm and dropout components to test mode and "
                "collapse the model for faster inference");
    po.Register("batchnorm-test-mode", &batchnorm_test_mode,
                "Set all batch-norm components to test mode");
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    std::string nnet_in = po.GetArg(1), nnet_out = po.GetArg(2);

    Nnet nnet;
    ReadNnetFromRawOrAm(nnet_in, &nnet);
    if (!nnet_config.empty()) {
      Input ki(nnet_config);
      nnet.ReadConfig(ki.Stream(), PrintableRxfilename(nnet_config));
      ki.Close();
    }
    if (learning_rate >= 0.0f) SetLearningRate(learning_rate, &nnet);
    if (scale != 1.0f) ScaleNnet(scale, &nnet);
    if (!edits_config.empty()) ApplyEditsConfig(edits_config, &nnet);
    if (!edits.empty()) {
      for (char &c : edits)
        if (c == ';') c = '\n';
      std::istringstream is(edits);
      ReadEditConfig(is, "--edits", &nnet);
    }
    if (batchnorm_test_mode || prepare_for_test)
      SetBatchnormTestMode(true, &nnet);
    if (prepare_for_test) {
      SetDropoutTestMode(true, &nnet);
      CollapseModel(CollapseModelConfig(), &nnet);
    }
    WriteKaldiObject(nnet, nnet_out, binary);
    NNET3_LOG << "Copied raw neural net from " << PrintableRxfilename(nnet_in)
              << " to " << PrintableWxfilename(nnet_out);
    return 0;
  });
}
