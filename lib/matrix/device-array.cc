#include "matrix/device-array.h"

#include <algorithm>

namespace nnet3 {

IndexVector::IndexVector(const std::vector<int32_t> &indexes, Device &device)
    : DeviceArray<int32_t>(device) {
  CopyFromVec(indexes);
}

IndexVector IndexVector::FromRanges(
    const std::vector<std::pair<int32_t, int32_t>> &ranges, Device &device) {
  std::vector<int32_t> flat;
  flat.reserve(2 * ranges.size());
  for (const auto &p : ranges) {
    flat.push_back(p.first);
    flat.push_back(p.second);
  }
  return IndexVector(flat, device);
}

void IndexVector::CopyFromVec(const std::vector<int32_t> &indexes) {
  DeviceArray<int32_t>::CopyFromVec(indexes);
  if (indexes.empty()) {
    min_ = 0;
    max_ = -1;
  } else {
    auto mm = std::minmax_element(indexes.begin(), indexes.end());
    min_ = *mm.first;
    max_ = *mm.second;
  }
}

}  // namespace nnet3
