// fstdeterminizestar: determinization with epsilon removal (Kaldi's tool of
// the same name; lib/fstext/determinize-star.h), of one FST or an archive.
#include <fst/arcsort.h>

#include <memory>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "fstext/determinize-star.h"
#include "fstext/kaldi-fst-io.h"
#include "fstext/openfst-errors.h"
#include "util/table-specifier.h"

namespace {

const char *const kUsage =
    "Removes epsilons and determinizes in one step\n"
    "\n"
    "Usage:  fstdeterminizestar [in.fst [out.fst] ]\n"
    "e.g.: fsttablecompose L_disambig.fst G.fst | fstdeterminizestar "
    "--use-log=true > LG_det.fst\n"
    "See also: fstdeterminizelog, lattice-determinize\n";

// Determinizes `fst` in place.
void Determinize(bool use_log, float delta, int max_states,
                 fst::StdVectorFst *fst) {
  using namespace nnet3;
  fst::ArcSort(fst, fst::ILabelCompare<fst::StdArc>());  // for speed
  if (use_log) {
    DeterminizeStarInLog(fst, delta, max_states);
  } else {
    fst::StdVectorFst det;
    DeterminizeStar(*fst, &det, delta, max_states);
    *fst = det;
  }
}

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    MakeOpenFstErrorsNonFatal();
    OptionsRegistry po(kUsage);
    float delta = fst::kDelta;
    int32_t max_states = -1;
    bool use_log = false;
    po.Register("use-log", &use_log, "Determinize in log semiring.");
    po.Register("delta", &delta,
                "Delta value used to determine equivalence of weights.");
    po.Register("max-states", &max_states,
                "Maximum number of states in determinized FST before it will "
                "abort.");
    po.Read(argc, argv);
    if (po.NumArgs() > 2) {
      po.PrintUsage();
      return 1;
    }
    const std::string in = po.GetOptArg(1), out = po.GetOptArg(2);
    if (!IsRspecifier(in)) {
      std::unique_ptr<fst::StdVectorFst> fst(ReadFstKaldi(in));
      Determinize(use_log, delta, max_states, fst.get());
      WriteFstKaldi(*fst, out);
      return 0;
    }
    SequentialFstReader reader(in);
    FstWriter writer(out);
    for (; !reader.Done(); reader.Next()) {
      const std::string key = reader.Key();
      fst::StdVectorFst fst(reader.Value());
      reader.FreeCurrent();
      try {
        Determinize(use_log, delta, max_states, &fst);
        writer.Write(key, fst);
      } catch (const UserError &e) {
        NNET3_WARN << "Error during determinization for key " << key << ": "
                   << e.what();
      }
    }
    return 0;
  });
}
