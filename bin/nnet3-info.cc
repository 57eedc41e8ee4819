// nnet3-info: prints a human-readable summary of a raw nnet3 network.
#include <iostream>
#include <string>

#include "base/options.h"
#include "base/program.h"
#include "nnet/nnet.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Print human-readable information about a raw nnet3 neural network to\n"
    "the standard output: the number of parameters, the modulus, the node\n"
    "config lines with their dimensions and one line per component.\n"
    "\n"
    "Usage:  nnet3-info [options] <raw-nnet>\n"
    "e.g.:\n"
    "  nnet3-info 0.raw\n"
    "  nnet3-info 'nnet3-init configs/mlp.config - |'\n"
    "See also: nnet3-init, nnet3-copy\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    po.Read(argc, argv);
    if (po.NumArgs() != 1) {
      po.PrintUsage();
      return 1;
    }
    Nnet nnet;
    ReadKaldiObject(po.GetArg(1), &nnet);
    std::cout << nnet.Info() << std::flush;
    return 0;
  });
}
