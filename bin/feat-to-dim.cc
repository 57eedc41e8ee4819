// feat-to-dim: the dimension (number of columns) of features (Kaldi's tool of
// the same name).
#include <string>

#include "base/error.h"
#include "base/options.h"
#include "base/program.h"
#include "util/kaldi-io.h"
#include "util/table-specifier.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Reads an archive of features.  If second argument is wxfilename, writes\n"
    "the feature dimension of the first feature file; if second argument is\n"
    "wspecifier, writes an archive of the feature dimension, indexed by\n"
    "utterance id.\n"
    "\n"
    "Usage: feat-to-dim [options] <feat-rspecifier> "
    "(<dim-wspecifier>|<dim-wxfilename>)\n"
    "e.g.: feat-to-dim scp:feats.scp -\n"
    "See also: feat-to-len, copy-feats\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    const std::string rspecifier = po.GetArg(1), out = po.GetArg(2);
    SequentialBaseFloatMatrixReader reader(rspecifier);
    if (IsWspecifier(out)) {
      Int32Writer dim_writer(out);
      for (; !reader.Done(); reader.Next())
        dim_writer.Write(reader.Key(), reader.Value().NumCols());
      dim_writer.Close();
      return 0;
    }
    if (reader.Done())
      NNET3_ERR << "Could not read any features from '" << rspecifier
                << "' (empty archive?)";
    Output ko(out, /*binary=*/false, /*write_header=*/false);
    ko.Stream() << reader.Value().NumCols() << "\n";
    ko.Close();
    return 0;
  });
}
