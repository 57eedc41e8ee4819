// nnet3-init: creates a raw nnet3 network from a config file, or applies a
// config file to an existing network.
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "nnet/init-random.h"
#include "nnet/nnet.h"
#include "compute/am-nnet-simple.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Initialize an nnet3 neural network from a config file and write it as\n"
    "a raw network. Given an existing raw network too, apply the config to\n"
    "it: nodes and components defined in the config replace those of the\n"
    "same name, and new ones are added.\n"
    "\n"
    "Usage:  nnet3-init [options] [<existing-model-in>] <config-in> "
    "<raw-nnet-out>\n"
    "e.g.:\n"
    "  nnet3-init configs/tdnn.config 0.raw\n"
    "  nnet3-init 0.raw add-layer.config 1.raw\n"
    "See also: nnet3-copy, nnet3-info; example configs are in configs/\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    bool binary = true;
    int32_t srand_seed = 0;
    po.Register("binary", &binary, "Write output in binary mode");
    po.Register("srand", &srand_seed,
                "Seed for the random initialization of the parameters");
    po.Read(argc, argv);
    if (po.NumArgs() < 2 || po.NumArgs() > 3) {
      po.PrintUsage();
      return 1;
    }
    SetComponentInitSeed(static_cast<uint32_t>(srand_seed));
    std::string existing = po.NumArgs() == 3 ? po.GetArg(1) : "",
                config = po.GetArg(po.NumArgs() - 1),
                nnet_out = po.GetArg(po.NumArgs());

    Nnet nnet;
    if (!existing.empty()) {
      ReadNnetFromRawOrAm(existing, &nnet);
      NNET3_LOG << "Read raw neural net from " << existing;
    }
    {
      bool config_binary;
      Input ki(config, &config_binary);
      if (config_binary)
        NNET3_ERR << "Config file '" << PrintableRxfilename(config)
                  << "' is binary; expected a text config file";
      nnet.ReadConfig(ki.Stream(), PrintableRxfilename(config));
      ki.Close();
    }
    WriteKaldiObject(nnet, nnet_out, binary);
    NNET3_LOG << "Initialized raw neural net and wrote it to "
              << PrintableWxfilename(nnet_out);
    return 0;
  });
}
