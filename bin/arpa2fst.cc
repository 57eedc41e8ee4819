// arpa2fst: an ARPA language model as the grammar FST G.fst (Kaldi's tool
// of the same name; lib/lm/arpa-lm-compiler.h).
#include <fst/arcsort.h>

#include <memory>
#include <string>

#include "base/error.h"
#include "base/options.h"
#include "base/program.h"
#include "fstext/graph-checks.h"
#include "fstext/kaldi-fst-io.h"
#include "lm/arpa-lm-compiler.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Convert an ARPA format language model into an FST\n"
    "Usage: arpa2fst [opts] <input-arpa> <output-fst>\n"
    " e.g.: arpa2fst --disambig-symbol=#0 --read-symbol-table="
    "data/lang/words.txt lm/input.arpa G.fst\n\n"
    "Note: When called without switches, the output G.fst will contain\n"
    "an embedded symbol table. This is compatible with the way a previous\n"
    "version of arpa2fst worked.\n"
    "See also: format_lm.sh (egs/utils), fstisstochastic\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    ArpaParseOptions options;
    std::string bos = "<s>", eos = "</s>", disambig, read_syms, write_syms;
    bool keep_symbols = false, ilabel_sort = true;
    po.Register("max-arpa-warnings", &options.max_warnings,
                "Maximum warnings to report on ARPA parsing, 0 to disable, "
                "-1 to show all");
    po.Register("bos-symbol", &bos, "Beginning of sentence symbol");
    po.Register("eos-symbol", &eos, "End of sentence symbol");
    po.Register("disambig-symbol", &disambig,
                "Disambiguator. If provided (e. g. #0), used on input side "
                "of backoff links, and <s> and </s> are replaced with "
                "epsilons");
    po.Register("read-symbol-table", &read_syms, "Use existing symbol table");
    po.Register("write-symbol-table", &write_syms,
                "Write generated symbol table to a file");
    po.Register("keep-symbols", &keep_symbols,
                "Store symbol table with FST. Symbols always saved to FST if "
                "symbol tables are neither read or written (otherwise "
                "symbols would be lost entirely)");
    po.Register("ilabel-sort", &ilabel_sort, "Ilabel-sort the output FST");
    po.Read(argc, argv);
    if (po.NumArgs() != 1 && po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    const std::string arpa = po.GetArg(1), out = po.GetOptArg(2);

    std::unique_ptr<fst::SymbolTable> symbols;
    int64_t disambig_id = 0;
    if (!read_syms.empty()) {
      symbols.reset(ReadSymbolTableText(read_syms));
      symbols->SetName(PrintableWxfilename(read_syms));
      options.oov_handling = ArpaParseOptions::kSkipNGram;
      if (!disambig.empty()) {
        disambig_id = symbols->Find(disambig);
        if (disambig_id == fst::kNoSymbol)
          NNET3_ERR << "Symbol table " << read_syms << " has no symbol for "
                    << disambig;
      }
    } else {
      symbols = std::make_unique<fst::SymbolTable>(PrintableWxfilename(out));
      options.oov_handling = ArpaParseOptions::kAddToSymbols;
      symbols->AddSymbol("<eps>", 0);
      if (!disambig.empty()) disambig_id = symbols->AddSymbol(disambig);
    }
    options.bos_symbol = symbols->AddSymbol(bos);
    options.eos_symbol = symbols->AddSymbol(eos);
    if (read_syms.empty() && write_syms.empty()) keep_symbols = true;

    ArpaLmCompiler lm(options, disambig_id, symbols.get());
    {
      Input input(arpa);
      lm.Read(input.Stream(), PrintableRxfilename(arpa));
      input.Close();
    }
    if (ilabel_sort) fst::ArcSort(lm.MutableFst(), fst::StdILabelCompare());
    if (!write_syms.empty()) {
      Output output(write_syms, /*binary=*/false, /*write_header=*/false);
      symbols->WriteText(output.Stream());
      output.Close();
    }
    WriteFstKaldi(lm.Fst(), out, keep_symbols);
    return 0;
  });
}
