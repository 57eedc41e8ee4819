// am-info: prints the sizes of the transition model at the front of any
// Kaldi acoustic model (GMM or nnet3 .mdl).
#include <iostream>

#include "base/options.h"
#include "base/program.h"
#include "compute/am-nnet-simple.h"

namespace {

const char *const kUsage =
    "Write to standard output various properties of a model, of any type\n"
    "(reads only the transition model)\n"
    "Usage:  am-info [options] <model-in>\n"
    "e.g.:\n"
    " am-info 1.mdl\n"
    "See also: tree-info, nnet3-am-info\n";

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
    ReadTransitionModel(po.GetArg(1), &trans_model);
    std::cout << "number of phones " << trans_model.GetPhones().size() << '\n'
              << "number of pdfs " << trans_model.NumPdfs() << '\n'
              << "number of transition-ids " << trans_model.NumTransitionIds()
              << '\n'
              << "number of transition-states "
              << trans_model.NumTransitionStates() << '\n'
              << std::flush;
    return 0;
  });
}
