#include "util/table-subset.h"

#include <istream>
#include <vector>

#include "base/error.h"
#include "base/text-utils.h"
#include "util/kaldi-io.h"

namespace nnet3 {

KeyList ReadKeyList(const std::string &rxfilename) {
  KeyList list;
  Input input(rxfilename);
  std::string line;
  for (int64_t line_number = 1; std::getline(input.Stream(), line);
       ++line_number) {
    const std::vector<std::string> fields = SplitString(line, " \t\r", true);
    if (fields.empty())
      NNET3_ERR << "Line " << line_number << " of the key list '"
                << PrintableRxfilename(rxfilename)
                << "' is empty; each line must start with a key";
    list.keys.insert(fields[0]);
    if (fields[0] > list.largest) list.largest = fields[0];
  }
  input.Close();
  return list;
}

}  // namespace nnet3
