// show-alignments: prints alignments split into phones, the transition-ids
// of each phone above its name (Kaldi's tool of the same name).
#include <cstdint>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/options.h"
#include "base/program.h"
#include "compute/am-nnet-simple.h"
#include "fstext/graph-checks.h"
#include "hmm/split-to-phones.h"
#include "util/table-types.h"

namespace {

using namespace nnet3;

const char *const kUsage =
    "Display alignments in human-readable form\n"
    "Usage:  show-alignments  [options] <phone-syms> <model> "
    "<alignments-rspecifier>\n"
    "e.g.: \n"
    " show-alignments phones.txt 1.mdl ark:1.ali\n"
    "See also: ali-to-phones\n";

// Two lines ("key  [ 1 2 ] [ 3 ] " and "key  a     b     ", each phone's
// name padded to its ids' width or the ids to the name's) and a blank line.
void Show(const std::string &key,
          const std::vector<std::vector<int32_t>> &split,
          const TransitionModel &trans_model, const fst::SymbolTable &phones,
          std::ostream &os) {
  std::string ids_line = key + "  ", names_line = key + "  ";
  for (const std::vector<int32_t> &piece : split) {
    std::ostringstream ids;
    ids << "[ ";
    for (int32_t id : piece) ids << id << " ";
    ids << "] ";
    std::string id_text = ids.str();
    std::string name =
        phones.Find(trans_model.TransitionIdToPhone(piece[0])) + " ";
    if (id_text.size() < name.size())
      id_text.resize(name.size(), ' ');
    else
      name.resize(id_text.size(), ' ');
    ids_line += id_text;
    names_line += name;
  }
  os << ids_line << '\n' << names_line << '\n' << '\n';
}

}  // namespace

int main(int argc, char *argv[]) {
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    TransitionModel trans_model;
    ReadTransitionModel(po.GetArg(2), &trans_model);
    std::unique_ptr<fst::SymbolTable> phones(ReadSymbolTableText(po.GetArg(1)));
    if (phones->NumSymbols() == 0)
      NNET3_ERR << "Error opening symbol table file " << po.GetArg(1)
                << " (it has no symbols)";
    SequentialInt32VectorReader reader(po.GetArg(3));
    for (; !reader.Done(); reader.Next()) {
      const std::vector<int32_t> &alignment = reader.Value();
      CheckAlignment(trans_model, alignment, reader.Key());
      std::vector<std::vector<int32_t>> split;
      SplitToPhones(trans_model, alignment, &split);
      Show(reader.Key(), split, trans_model, *phones, std::cout);
    }
    reader.Close();
    return 0;
  });
}
