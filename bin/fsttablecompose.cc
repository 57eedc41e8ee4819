// fsttablecompose: composition with a table matcher on one side (Kaldi's
// tool of the same name; lib/fstext/table-compose.h). Single FSTs, one FST
// with an archive of FSTs, or two archives (by key).
#include <fst/vector-fst.h>

#include <memory>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "fstext/kaldi-fst-io.h"
#include "fstext/openfst-errors.h"
#include "fstext/table-compose.h"
#include "util/table-specifier.h"

namespace {

const char *const kUsage =
    "Composition algorithm [between two FSTs of standard type, in tropical\n"
    "semiring] that is more efficient for certain cases-- in particular,\n"
    "where one of the FSTs (the left one, if --match-side=left) has large\n"
    "out-degree\n"
    "\n"
    "Usage:  fsttablecompose (fst1-rxfilename|fst1-rspecifier) "
    "(fst2-rxfilename|fst2-rspecifier) [(out-rxfilename|out-rspecifier)]\n"
    "e.g.: fsttablecompose data/lang/L_disambig.fst data/lang/G.fst LG.fst\n"
    "See also: fstdeterminizestar, fstcompose (OpenFst)\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    MakeOpenFstErrorsNonFatal();
    OptionsRegistry po(kUsage);
    TableComposeOptions opts;
    std::string match_side = "left", compose_filter = "sequence";
    po.Register("connect", &opts.connect, "If true, trim FST before output.");
    po.Register("match-side", &match_side,
                "Side of composition to do table match, one of: \"left\" or "
                "\"right\".");
    po.Register("compose-filter", &compose_filter,
                "Composition filter to use, one of: \"alt_sequence\", "
                "\"auto\", \"match\", \"sequence\" (accepted for Kaldi's "
                "command lines; as in Kaldi, the sequence filter is used)");
    po.Read(argc, argv);
    if (match_side == "left")
      opts.table_match_type = fst::MATCH_OUTPUT;
    else if (match_side == "right")
      opts.table_match_type = fst::MATCH_INPUT;
    else
      NNET3_ERR << "Invalid match-side option: " << match_side;
    if (compose_filter != "alt_sequence" && compose_filter != "auto" &&
        compose_filter != "match" && compose_filter != "sequence")
      NNET3_ERR << "Invalid compose-filter option: " << compose_filter;
    if (po.NumArgs() < 2 || po.NumArgs() > 3) {
      po.PrintUsage();
      return 1;
    }
    const std::string in1 = po.GetArg(1), in2 = po.GetArg(2),
                      out = po.GetOptArg(3);
    const bool table1 = IsRspecifier(in1), table2 = IsRspecifier(in2),
               table_out = IsWspecifier(out);
    if (table_out != (table1 || table2))
      NNET3_ERR << "Incompatible combination of archives and files";

    if (!table1 && !table2) {
      std::unique_ptr<fst::StdVectorFst> fst1(ReadFstKaldi(in1)),
          fst2(ReadFstKaldi(in2));
      if (fst1->Properties(fst::kOLabelSorted, true) == 0)
        NNET3_WARN << "The first FST is not olabel sorted.";
      if (fst2->Properties(fst::kILabelSorted, true) == 0)
        NNET3_WARN << "The second FST is not ilabel sorted.";
      fst::StdVectorFst composed;
      TableCompose(*fst1, *fst2, &composed, opts);
      CheckFstNoError(composed, "composing '" + in1 + "' with '" + in2 + "'");
      fst1.reset();
      fst2.reset();
      WriteFstKaldi(composed, out);
      return 0;
    }
    if (!table1 && opts.table_match_type == fst::MATCH_OUTPUT) {
      std::unique_ptr<fst::StdVectorFst> fst1(ReadFstKaldi(in1));
      if (fst1->Properties(fst::kOLabelSorted, true) == 0)
        NNET3_WARN << "The first FST is not olabel sorted.";
      TableComposeCache cache(opts);
      SequentialFstReader reader(in2);
      FstWriter writer(out);
      int n_done = 0;
      for (; !reader.Done(); reader.Next(), ++n_done) {
        fst::StdVectorFst composed;
        TableCompose(*fst1, reader.Value(), &composed, &cache);
        writer.Write(reader.Key(), composed);
      }
      NNET3_LOG << "Composed " << n_done << " FSTs.";
      return n_done != 0 ? 0 : 1;
    }
    if (table1 && table2) {
      SequentialFstReader reader1(in1);
      RandomAccessFstReader reader2(in2);
      FstWriter writer(out);
      int n_done = 0, n_err = 0;
      for (; !reader1.Done(); reader1.Next()) {
        const std::string key = reader1.Key();
        if (!reader2.HasKey(key)) {
          NNET3_WARN << "No such key " << key << " in second table.";
          ++n_err;
          continue;
        }
        fst::StdVectorFst composed;
        TableCompose(reader1.Value(), reader2.Value(key), &composed, opts);
        if (composed.NumStates() == 0) {
          NNET3_WARN << "Empty output for key " << key;
          ++n_err;
        } else {
          writer.Write(key, composed);
          ++n_done;
        }
      }
      NNET3_LOG << "Successfully composed " << n_done
                << " FSTs, errors or empty output on " << n_err;
      return 0;
    }
    NNET3_ERR << "The combination of tables/non-tables and match-type that "
                 "you supplied is not supported: an archive as the first "
                 "argument needs one as the second, and an archive as the "
                 "second with a single first FST needs --match-side=left";
    return 1;
  });
}
