// tree-info: prints the number of pdfs, the context width and the central
// position of a decision tree (mkgraph.sh reads N and P from it).
#include <iostream>

#include "base/options.h"
#include "base/program.h"
#include "hmm/context-dependency.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Print information about decision tree (mainly the number of pdfs), to "
    "stdout\n"
    "Usage:  tree-info <tree-in>\n"
    "e.g.:\n"
    " tree-info exp/tri1/tree\n"
    "See also: copy-tree, am-info\n";

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
    ContextDependency ctx_dep;
    ReadKaldiObject(po.GetArg(1), &ctx_dep);
    std::cout << "num-pdfs " << ctx_dep.NumPdfs() << '\n'
              << "context-width " << ctx_dep.ContextWidth() << '\n'
              << "central-position " << ctx_dep.CentralPosition() << std::endl;
    return 0;
  });
}
