#include "util/simple-io-funcs.h"

#include "base/error.h"
#include "base/text-utils.h"
#include "util/kaldi-io.h"

namespace nnet3 {

void ReadIntegerVectorSimple(const std::string &rxfilename,
                             const std::string &what,
                             std::vector<int32_t> *list) {
  Input ki(rxfilename);
  std::istream &is = ki.Stream();
  list->clear();
  std::string word;
  while (is >> word) {
    int32_t value;
    if (!ConvertStringToInteger(word, &value))
      NNET3_ERR << "Reading the " << what << " in '"
                << PrintableRxfilename(rxfilename) << "': '" << word
                << "' is not an integer (expected a list of integers)";
    list->push_back(value);
  }
  ki.Close();
}

void WriteIntegerVectorSimple(const std::string &wxfilename,
                              const std::vector<int32_t> &list) {
  Output ko(wxfilename, /*binary=*/false, /*write_header=*/false);
  for (int32_t value : list) ko.Stream() << value << '\n';
  ko.Close();
}

}  // namespace nnet3
