#include "util/simple-io-funcs.h"

#include "base/error.h"
#include "base/text-utils.h"
#include "util/kaldi-io.h"

namespace nnet3 {

void ReadIntegerVectorSimple(const std::string &rxfilename,
                             const std::string &what,
                             std::vector<int32_t> *list) {
  Input input(rxfilename);
  list->clear();
  std::string token;
  while (input.Stream() >> token) {
    int32_t value;
    if (!ConvertStringToInteger(token, &value))
      NNET3_ERR << "Could not read " << what << " from '"
                << PrintableRxfilename(rxfilename) << "': '" << token
                << "' is not an integer (expected integers, one per line)";
    list->push_back(value);
  }
  input.Close();
}

void WriteIntegerVectorSimple(const std::string &wxfilename,
                              const std::vector<int32_t> &list) {
  Output output(wxfilename, /*binary=*/false, /*write_header=*/false);
  for (int32_t value : list) output.Stream() << value << '\n';
  output.Close();
}

}  // namespace nnet3
