// ali-to-pdf: turns alignments (transition-ids) into pdf-ids (Kaldi's tool
// of the same name).
#include <cstdint>
#include <string>
#include <vector>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "compute/am-nnet-simple.h"
#include "hmm/split-to-phones.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Converts alignments (containing transition-ids) to pdf-ids, "
    "zero-based.\n"
    "Usage:  ali-to-pdf  [options] <model> <alignments-rspecifier> "
    "<pdfs-wspecifier>\n"
    "e.g.: \n"
    " ali-to-pdf 1.mdl ark:1.ali ark,t:-\n"
    "See also: ali-to-phones, ali-to-post\n";

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    TransitionModel trans_model;
    ReadTransitionModel(po.GetArg(1), &trans_model);
    SequentialInt32VectorReader reader(po.GetArg(2));
    Int32VectorWriter writer(po.GetArg(3));
    int64_t num_done = 0;
    for (; !reader.Done(); reader.Next(), ++num_done) {
      std::vector<int32_t> alignment = reader.Value();
      CheckAlignment(trans_model, alignment, reader.Key());
      for (int32_t &id : alignment) id = trans_model.TransitionIdToPdf(id);
      writer.Write(reader.Key(), alignment);
    }
    reader.Close();
    writer.Close();
    NNET3_LOG << "Converted " << num_done << " alignments to pdf sequences.";
    return 0;
  });
}
