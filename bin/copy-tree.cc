// copy-tree: copies a decision tree, possibly changing binary/text format.
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "hmm/context-dependency.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Copy decision tree (possibly changing binary/text format)\n"
    "Usage:  copy-tree [--binary=false] <tree-in> <tree-out>\n"
    "e.g.:\n"
    " copy-tree --binary=false exp/tri1/tree - | less\n"
    "See also: tree-info\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    bool binary = true;
    po.Register("binary", &binary, "Write output in binary mode");
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    ContextDependency ctx_dep;
    ReadKaldiObject(po.GetArg(1), &ctx_dep);
    WriteKaldiObject(ctx_dep, po.GetArg(2), binary);
    NNET3_LOG << "Copied tree";
    return 0;
  });
}
