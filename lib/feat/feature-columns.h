// Column operations on feature matrices (row-major on the host): choosing
// dimensions (Kaldi's select-feats) and pasting matrices of nearly equal
// length side by side (Kaldi's paste-feats).
//
//   std::vector<int32_t> cols = ParseSelection("0,24-22,3-12", 40);
//   SelectColumns(rows, dim, in, cols, &out);        // rows x cols.size()
//   PasteFeatures(inputs, /*tolerance=*/2, &rows, &dim, &out);
//
// A selection is comma-separated indices and ranges "a-b" (inclusive;
// a > b runs backwards), each within [0, dim). PasteFeatures keeps the
// first min-length rows of each input; it returns false (the caller warns)
// when the lengths differ by more than the tolerance or one is empty.
#ifndef NNET3_FEAT_FEATURE_COLUMNS_H_
#define NNET3_FEAT_FEATURE_COLUMNS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace nnet3 {

// Throws UserError naming the bad piece.
std::vector<int32_t> ParseSelection(const std::string &spec, int32_t dim);

void SelectColumns(int32_t rows, int32_t dim, const float *in,
                   const std::vector<int32_t> &cols, std::vector<float> *out);

struct HostFeatures {
  int32_t rows = 0, cols = 0;
  std::vector<float> data;  // row-major
};

// *min_len and *max_len are set in any case (for the caller's warning).
bool PasteFeatures(const std::vector<HostFeatures> &in, int32_t tolerance,
                   HostFeatures *out, int32_t *min_len, int32_t *max_len);

}  // namespace nnet3

#endif  // NNET3_FEAT_FEATURE_COLUMNS_H_
