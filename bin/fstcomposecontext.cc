// fstcomposecontext: composes an FST (LG.fst) on the left with the context
// transducer C made on the fly, and writes what the new input labels mean.
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "fstext/context-fst.h"
#include "fstext/kaldi-fst-io.h"
#include "util/kaldi-io.h"
#include "util/simple-io-funcs.h"

namespace {

const char *const kUsage =
    "Composes on the left with a dynamically created context FST\n"
    "\n"
    "Usage:  fstcomposecontext <ilabels-output-file>  [<in.fst> [<out.fst>] "
    "]\n"
    "E.g:  fstcomposecontext ilabels.sym < LG.fst > CLG.fst\n"
    "See also: make-h-transducer\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    bool binary = true;
    std::string disambig_rxfilename, disambig_wxfilename;
    int32_t context_width = 3, central_position = 1;
    int32_t nonterm_phones_offset = -1;
    po.Register("binary", &binary,
                "If true, output ilabels-output-file in binary format");
    po.Register("read-disambig-syms", &disambig_rxfilename,
                "List of disambiguation symbols on input of in.fst");
    po.Register("write-disambig-syms", &disambig_wxfilename,
                "List of disambiguation symbols on input of out.fst");
    po.Register("context-size", &context_width, "Size of phone context window");
    po.Register("central-position", &central_position,
                "Designated central position in context window");
    po.Register("nonterm-phones-offset", &nonterm_phones_offset,
                "The integer id of #nonterm_bos in your phones.txt, if present "
                "(grammar FSTs; not supported here)");
    po.Read(argc, argv);
    if (po.NumArgs() < 1 || po.NumArgs() > 3) {
      po.PrintUsage();
      return 1;
    }
    if (nonterm_phones_offset >= 0)
      NNET3_ERR << "--nonterm-phones-offset (grammar FSTs) is not supported";
    std::unique_ptr<fst::StdVectorFst> fst(ReadFstKaldi(po.GetOptArg(2)));
    if (!disambig_wxfilename.empty() && disambig_rxfilename.empty())
      NNET3_ERR << "fstcomposecontext: cannot specify --write-disambig-syms "
                << "if not specifying --read-disambig-syms";
    std::vector<int32_t> disambig_in;
    if (!disambig_rxfilename.empty())
      ReadIntegerVectorSimple(disambig_rxfilename, "disambiguation symbols",
                              &disambig_in);
    if (disambig_in.empty())
      NNET3_WARN << "Disambiguation symbols list is empty; this likely "
                 << "indicates an error in data preparation.";
    ILabelInfo ilabels;
    fst::StdVectorFst composed;
    ComposeContext(disambig_in, context_width, central_position, fst.get(),
                   &composed, &ilabels);
    {
      Output ko(po.GetArg(1), binary, /*write_header=*/true, /*atomic=*/true);
      ilabels.Write(ko.Stream(), binary);
      ko.Close();
    }
    if (!disambig_wxfilename.empty()) {
      std::vector<int32_t> disambig_out;
      for (int32_t i = 0; i < ilabels.Size(); i++)
        if (ilabels[i].size() == 1 && ilabels[i][0] <= 0)
          disambig_out.push_back(i);
      WriteIntegerVectorSimple(disambig_wxfilename, disambig_out);
    }
    WriteFstKaldi(composed, po.GetOptArg(3));
    return 0;
  });
}
