// fstaddselfloops: self-loops that pass disambiguation symbols through an
// FST (Kaldi's tool of the same name; lib/fstext/disambig-self-loops.h).
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/options.h"
#include "base/program.h"
#include "fstext/disambig-self-loops.h"
#include "fstext/kaldi-fst-io.h"
#include "util/simple-io-funcs.h"

namespace {

const char *const kUsage =
    "Adds self-loops to states of an FST to propagate disambiguation "
    "symbols through it\n"
    "They are added on each final state and each state with non-epsilon "
    "output symbols\n"
    "on at least one arc out of the state.  Useful in conjunction with "
    "predeterminize\n"
    "\n"
    "Usage:  fstaddselfloops in-disambig-list out-disambig-list  [in.fst "
    "[out.fst] ]\n"
    "E.g:  fstaddselfloops in.list out.list < in.fst > withloops.fst\n"
    "in.list and out.list are lists of integers, one per line, of the\n"
    "same length.\n"
    "See also: prepare_lang.sh (egs/utils), fstrmsymbols\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    po.Read(argc, argv);
    if (po.NumArgs() < 2 || po.NumArgs() > 4) {
      po.PrintUsage();
      return 1;
    }
    std::unique_ptr<fst::StdVectorFst> fst(ReadFstKaldi(po.GetOptArg(3)));
    std::vector<int32_t> in_labels, out_labels;
    ReadIntegerVectorSimple(po.GetArg(1), "disambiguation symbols", &in_labels);
    ReadIntegerVectorSimple(po.GetArg(2), "disambiguation symbols",
                            &out_labels);
    if (in_labels.size() != out_labels.size())
      NNET3_ERR << "fstaddselfloops: mismatch in size of disambiguation "
                   "symbols ("
                << in_labels.size() << " in '" << po.GetArg(1) << "', "
                << out_labels.size() << " in '" << po.GetArg(2) << "')";
    AddDisambigSelfLoops(in_labels, out_labels, fst.get());
    WriteFstKaldi(*fst, po.GetOptArg(4));
    return 0;
  });
}
