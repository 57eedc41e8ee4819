// nnet3-info: prints a human-readable summary of a raw nnet3 network.
#include <iostream>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "compile/nnet-context.h"
#include "nnet/nnet.h"
#include "compute/am-nnet-simple.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Print human-readable information about a raw nnet3 neural network to\n"
    "the standard output: for simple networks (input 'input', output\n"
    "'output', maybe 'ivector') first the left and right context, then the\n"
    "number of parameters, the modulus, the node config lines with their\n"
    "dimensions and one line per component.\n"
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
    ReadNnetFromRawOrAm(po.GetArg(1), &nnet);
    if (IsSimpleNnet(nnet)) {
      // As Kaldi's Info(); a context that cannot be found (unbounded
      // recurrence) should not stop the rest of the summary.
      try {
        int32_t left = 0, right = 0;
        ComputeSimpleNnetContext(nnet, &left, &right);
        std::cout << "left-context: " << left << "\n"
                  << "right-context: " << right << "\n";
      } catch (const UserError &e) {
        NNET3_WARN << e.what();
      }
    }
    std::cout << nnet.Info() << std::flush;
    return 0;
  });
}
