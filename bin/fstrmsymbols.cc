// fstrmsymbols: replaces listed symbols with epsilon, or removes or
// penalizes the arcs that carry them, on the input or the output side
// (Kaldi's tool of the same name; lib/fstext/remove-symbols.h).
#include <fst/invert.h>

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/options.h"
#include "base/program.h"
#include "fstext/kaldi-fst-io.h"
#include "fstext/openfst-errors.h"
#include "fstext/remove-symbols.h"
#include "util/simple-io-funcs.h"

namespace {

const char *const kUsage =
    "With no options, replaces a subset of symbols with epsilon, wherever\n"
    "they appear on the input side of an FST."
    "With --remove-arcs=true, will remove arcs that contain these symbols\n"
    "on the input\n"
    "With --penalty=<float>, will add the specified penalty to the\n"
    "cost of any arc that has one of the given symbols on its input side\n"
    "In all cases, the option --apply-to-output=true (or for\n"
    "back-compatibility, --remove-from-output=true) makes this apply\n"
    "to the output side.\n"
    "\n"
    "Usage:  fstrmsymbols [options] <in-disambig-list>  [<in.fst> "
    "[<out.fst>]]\n"
    "E.g:  fstrmsymbols in.list  < in.fst > out.fst\n"
    "<in-disambig-list> is an rxfilename specifying a file containing list "
    "of integers\n"
    "representing symbols, in text form, one per line.\n"
    "See also: fstrmepslocal, fstaddselfloops\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    MakeOpenFstErrorsNonFatal();
    OptionsRegistry po(kUsage);
    bool apply_to_output = false, remove_arcs = false;
    const float no_penalty = -std::numeric_limits<float>::infinity();
    float penalty = no_penalty;
    po.Register("remove-from-output", &apply_to_output,
                "If true, this applies to symbols on the output, not the "
                "input, side.  (For back compatibility; use "
                "--apply-to-output insead)");
    po.Register("apply-to-output", &apply_to_output,
                "If true, this applies to symbols on the output, not the "
                "input, side.");
    po.Register("remove-arcs", &remove_arcs,
                "If true, instead of converting the symbol to <eps>, remove "
                "the arcs.");
    po.Register("penalty", &penalty,
                "If specified, instead of converting the symbol to <eps>, "
                "penalize the arc it is on by adding this value to its cost.");
    po.Read(argc, argv);
    if (remove_arcs && penalty != no_penalty)
      NNET3_ERR << "--remove-arc and --penalty options are mutually exclusive";
    if (po.NumArgs() < 1 || po.NumArgs() > 3) {
      po.PrintUsage();
      return 1;
    }
    const std::string list = po.GetArg(1), in = po.GetOptArg(2),
                      out = po.GetOptArg(3);
    std::unique_ptr<fst::StdVectorFst> fst(ReadFstKaldi(in));
    std::vector<int32_t> symbols;
    ReadIntegerVectorSimple(list, "the symbols to remove", &symbols);
    if (apply_to_output) fst::Invert(fst.get());
    if (remove_arcs)
      RemoveArcsWithSomeInputSymbols(symbols, fst.get());
    else if (penalty != no_penalty)
      PenalizeArcsWithSomeInputSymbols(symbols, penalty, fst.get());
    else
      RemoveSomeInputSymbols(symbols, fst.get());
    if (apply_to_output) fst::Invert(fst.get());
    CheckFstNoError(*fst, "removing symbols");
    WriteFstKaldi(*fst, out);
    return 0;
  });
}
