// nnet3-am-info: prints a summary of an nnet3 acoustic model (.mdl).
#include <iostream>

#include "base/options.h"
#include "base/program.h"
#include "compute/am-nnet-simple.h"

namespace {

const char *const kUsage =
    "Print some text information about an nnet3 neural network acoustic\n"
    "model (.mdl), to standard output: input-dim, ivector-dim, num-pdfs,\n"
    "the priors, then what nnet3-info prints for its network.\n"
    "\n"
    "Usage:  nnet3-am-info [options] <nnet>\n"
    "e.g.:\n"
    " nnet3-am-info 0.mdl\n"
    "See also: nnet3-info, nnet3-am-copy\n";

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
    TransitionModel trans_model;
    AmNnetSimple am_nnet;
    ReadAmNnet(po.GetArg(1), &trans_model, &am_nnet);
    std::cout << am_nnet.Info() << std::flush;
    return 0;
  });
}
