// make-h-transducer: the H transducer of HCLG, without self-loops.
#include <string>
#include <vector>

#include "base/error.h"
#include "base/options.h"
#include "base/program.h"
#include "compute/am-nnet-simple.h"
#include "fstext/ilabel-info.h"
#include "fstext/kaldi-fst-io.h"
#include "hmm/h-transducer.h"
#include "util/kaldi-io.h"
#include "util/simple-io-funcs.h"

namespace {

const char *const kUsage =
    "Make H transducer from transition-ids to context-dependent phones, \n"
    " without self-loops [use add-self-loops to add them]\n"
    "Usage:   make-h-transducer <ilabel-info-file> <tree-file> "
    "<transition-gmm/acoustic-model> [<H-fst-out>]\n"
    "e.g.: \n"
    " make-h-transducer ilabel_info  1.tree 1.mdl > H.fst\n"
    "See also: fstcomposecontext, add-self-loops\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    HTransducerConfig config;
    int32_t nonterm_phones_offset = -1;
    std::string disambig_out_filename;
    po.Register("transition-scale", &config.transition_scale,
                "Scale of transition probs (relative to LM)");
    po.Register("nonterm-phones-offset", &nonterm_phones_offset,
                "The integer id of #nonterm_bos in phones.txt, if present "
                "(grammar decoding; not supported here)");
    po.Register("disambig-syms-out", &disambig_out_filename,
                "List of disambiguation symbols on input of H [to be output "
                "from this program]");
    po.Read(argc, argv);
    if (po.NumArgs() < 3 || po.NumArgs() > 4) {
      po.PrintUsage();
      return 1;
    }
    if (nonterm_phones_offset >= 0)
      NNET3_ERR << "--nonterm-phones-offset (grammar FSTs) is not supported";
    ILabelInfo ilabel_info;
    {
      bool binary;
      Input ki(po.GetArg(1), &binary);
      try {
        ilabel_info.Read(ki.Stream(), binary);
      } catch (const UserError &e) {
        RethrowWithContext(e, "Reading the ilabel-info '" +
                                  PrintableRxfilename(po.GetArg(1)) + "'");
      }
    }
    ContextDependency ctx_dep;
    ReadKaldiObject(po.GetArg(2), &ctx_dep);
    TransitionModel trans_model;
    ReadTransitionModel(po.GetArg(3), &trans_model);
    std::vector<int32_t> disambig_tids;
    const auto h = GetHTransducer(ilabel_info, ctx_dep, trans_model, config,
                                  &disambig_tids);
    if (!disambig_out_filename.empty())
      WriteIntegerVectorSimple(disambig_out_filename, disambig_tids);
    WriteFstKaldi(*h, po.GetOptArg(4));
    return 0;
  });
}
