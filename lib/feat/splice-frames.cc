#include "feat/splice-frames.h"

#include <algorithm>
#include <cstring>

#include "base/error.h"

namespace nnet3 {

void SpliceFrames(int32_t rows, int32_t dim, const float *in, int32_t left,
                  int32_t right, std::vector<float> *out) {
  if (left < 0 || right < 0)
    NNET3_ERR << "Splicing context must be >= 0, got left " << left
              << " and right " << right;
  const int32_t width = left + 1 + right;
  out->resize(static_cast<size_t>(rows) * dim * width);
  for (int32_t t = 0; t < rows; t++) {
    float *row = out->data() + static_cast<size_t>(t) * dim * width;
    for (int32_t j = -left; j <= right; j++) {
      const int32_t s = std::clamp(t + j, 0, rows - 1);
      std::memcpy(row + (j + left) * dim, in + static_cast<size_t>(s) * dim,
                  sizeof(float) * dim);
    }
  }
}

}  // namespace nnet3
