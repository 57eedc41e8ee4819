// add-self-loops: adds the HMM self-loops (and their share of the
// transition probabilities) to a graph built without them.
#include <memory>
#include <string>
#include <vector>

#include "base/options.h"
#include "base/program.h"
#include "compute/am-nnet-simple.h"
#include "fstext/kaldi-fst-io.h"
#include "hmm/self-loops.h"
#include "util/simple-io-funcs.h"

namespace {

const char *const kUsage =
    "Add self-loops and transition probabilities to transducer.  Input "
    "transducer\n"
    "has transition-ids on the input side, but only the forward "
    "transitions, not the\n"
    "self-loops.  Output transducer has transition-ids on the input side, "
    "but with\n"
    "self-loops added.  The --reorder option controls whether the loop is "
    "added before\n"
    "the forward transition (if false), or afterward (if true).  The "
    "default (true)\n"
    "is recommended as the decoding will in that case be faster.\n"
    "Usage:   add-self-loops [options] transition-gmm/acoustic-model "
    "[fst-in] [fst-out]\n"
    "e.g.: \n"
    " add-self-loops --self-loop-scale=0.1 1.mdl HCLGa.fst HCLG.fst\n"
    "or:  add-self-loops --self-loop-scale=0.1 1.mdl <HCLGa.fst "
    ">HCLG.fst\n"
    "See also: make-h-transducer\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    float self_loop_scale = 1.0f;
    bool reorder = true;
    std::string disambig_in_filename;
    po.Register("self-loop-scale", &self_loop_scale,
                "Scale for self-loop probabilities relative to LM.");
    po.Register("disambig-syms", &disambig_in_filename,
                "List of disambiguation symbols on input of fst-in [input "
                "file]");
    po.Register("reorder", &reorder,
                "If true, reorder symbols for more decoding efficiency");
    po.Read(argc, argv);
    if (po.NumArgs() < 1 || po.NumArgs() > 3) {
      po.PrintUsage();
      return 1;
    }
    std::vector<int32_t> disambig_tids;
    if (!disambig_in_filename.empty())
      ReadIntegerVectorSimple(disambig_in_filename, "disambiguation symbols",
                              &disambig_tids);
    TransitionModel trans_model;
    ReadTransitionModel(po.GetArg(1), &trans_model);
    std::unique_ptr<fst::StdVectorFst> fst(ReadFstKaldi(po.GetOptArg(2)));
    AddSelfLoops(trans_model, disambig_tids, self_loop_scale, reorder,
                 /*check_no_self_loops=*/true, fst.get());
    WriteFstKaldi(*fst, po.GetOptArg(3));
    return 0;
  });
}
