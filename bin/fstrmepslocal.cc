// fstrmepslocal: removes the epsilons that can go without adding arcs or
// states (Kaldi's tool of the same name; lib/fstext/remove-eps-local.h).
#include <memory>
#include <string>

#include "base/error.h"
#include "base/options.h"
#include "base/program.h"
#include "fstext/kaldi-fst-io.h"
#include "fstext/openfst-errors.h"
#include "fstext/remove-eps-local.h"

namespace {

const char *const kUsage =
    "Removes some (but not all) epsilons in an algorithm that will always "
    "reduce the number of\n"
    "arcs+states.  Option to preserves equivalence in tropical or log "
    "semiring, and\n"
    "if in tropical, stochasticit in either log or tropical.\n"
    "\n"
    "Usage:  fstrmepslocal  [in.fst [out.fst] ]\n"
    "e.g.: fstrmsymbols disambig_tid.int HCLGa0.fst | fstrmepslocal > "
    "HCLGa1.fst\n"
    "See also: fstrmsymbols, fstminimizeencoded\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    MakeOpenFstErrorsNonFatal();
    OptionsRegistry po(kUsage);
    bool use_log = false, stochastic_in_log = true;
    po.Register("use-log", &use_log,
                "Preserve equivalence in log semiring [false->tropical]");
    po.Register("stochastic-in-log", &stochastic_in_log,
                "Preserve stochasticity in log semiring [false->tropical]");
    po.Read(argc, argv);
    if (po.NumArgs() > 2) {
      po.PrintUsage();
      return 1;
    }
    if (use_log && !stochastic_in_log)
      NNET3_ERR << "Invalid combination of options: --use-log=true needs "
                   "--stochastic-in-log=true";
    std::unique_ptr<fst::StdVectorFst> fst(ReadFstKaldi(po.GetOptArg(1)));
    if (!use_log && stochastic_in_log) {
      RemoveEpsLocalSpecial(fst.get());
    } else if (use_log) {
      fst::VectorFst<fst::LogArc> log_fst;
      fst::Cast(*fst, &log_fst);
      fst.reset();
      RemoveEpsLocal(&log_fst);
      fst = std::make_unique<fst::StdVectorFst>();
      fst::Cast(log_fst, fst.get());
    } else {
      RemoveEpsLocal(fst.get());
    }
    CheckFstNoError(*fst, "removing epsilons");
    WriteFstKaldi(*fst, po.GetOptArg(2));
    return 0;
  });
}
