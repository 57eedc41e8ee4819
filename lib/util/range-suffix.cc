#include "util/range-suffix.h"

#include "base/error.h"

namespace nnet3 {

bool SplitRangeSuffix(const std::string &rxfilename_in, std::string *filename,
                      std::string *range) {
  const std::string rxfilename = rxfilename_in;  // may alias *filename
  range->clear();
  if (rxfilename.empty() || rxfilename.back() != ']') {
    *filename = rxfilename;
    return false;
  }
  size_t open = rxfilename.find_last_of('[');
  if (open == std::string::npos)
    NNET3_ERR << "Invalid range in '" << rxfilename << "': ']' without '['";
  *filename = rxfilename.substr(0, open);
  *range = rxfilename.substr(open + 1, rxfilename.size() - open - 2);
  return true;
}

}  // namespace nnet3
