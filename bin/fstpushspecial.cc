// fstpushspecial: reweights an FST so that every state's weights sum to
// the same amount (Kaldi's tool of the same name; lib/fstext/push-special.h).
#include <memory>
#include <string>

#include "base/options.h"
#include "base/program.h"
#include "fstext/kaldi-fst-io.h"
#include "fstext/push-special.h"

namespace {

const char *const kUsage =
    "Pushes weights in an FST such that all the states\n"
    "in the FST have arcs and final-probs with weights that\n"
    "sum to the same amount (viewed as being in the log semiring).\n"
    "Thus, the \"extra weight\" is distributed throughout the FST.\n"
    "Tolerance parameter --delta controls how exact this is, and the\n"
    "speed.\n"
    "\n"
    "Usage:  fstpushspecial [options] [in.fst [out.fst] ]\n"
    "e.g.: fstminimizeencoded LG1.fst | fstpushspecial > LG.fst\n"
    "See also: fstisstochastic, fstminimizeencoded\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    float delta = fst::kDelta;
    po.Register("delta", &delta,
                "Delta cost: after pushing, all states will have a total "
                "weight that differs from the average by no more than this.");
    po.Read(argc, argv);
    if (po.NumArgs() > 2) {
      po.PrintUsage();
      return 1;
    }
    std::unique_ptr<fst::StdVectorFst> fst(ReadFstKaldi(po.GetOptArg(1)));
    PushSpecial(fst.get(), delta);
    WriteFstKaldi(*fst, po.GetOptArg(2));
    return 0;
  });
}
