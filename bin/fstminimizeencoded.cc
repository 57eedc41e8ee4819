// fstminimizeencoded: minimization after encoding labels and weights, so
// that nothing is pushed (Kaldi's tool of the same name;
// lib/fstext/minimize-encoded.h).
#include <memory>
#include <string>

#include "base/options.h"
#include "base/program.h"
#include "fstext/kaldi-fst-io.h"
#include "fstext/minimize-encoded.h"
#include "fstext/openfst-errors.h"

namespace {

const char *const kUsage =
    "Minimizes FST after encoding [similar to fstminimize, but no "
    "weight-pushing]\n"
    "\n"
    "Usage:  fstminimizeencoded [in.fst [out.fst] ]\n"
    "e.g.: fstdeterminizestar LG0.fst | fstminimizeencoded > LG1.fst\n"
    "See also: fstdeterminizestar, fstpushspecial\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    MakeOpenFstErrorsNonFatal();
    OptionsRegistry po(kUsage);
    float delta = fst::kDelta;
    po.Register("delta", &delta,
                "Delta likelihood used for quantization of weights");
    po.Read(argc, argv);
    if (po.NumArgs() > 2) {
      po.PrintUsage();
      return 1;
    }
    std::unique_ptr<fst::StdVectorFst> fst(ReadFstKaldi(po.GetOptArg(1)));
    MinimizeEncoded(fst.get(), delta);
    WriteFstKaldi(*fst, po.GetOptArg(2));
    return 0;
  });
}
