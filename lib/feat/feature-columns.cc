#include "feat/feature-columns.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "base/error.h"

namespace nnet3 {
namespace {

int32_t ParseIndex(const std::string &text, const std::string &piece,
                   int32_t dim) {
  std::istringstream is(text);
  int32_t i;
  if (!(is >> i) || !(is >> std::ws).eof())
    NNET3_ERR << "Bad selection '" << piece << "': expected an index or a "
              << "range a-b";
  if (i < 0 || i >= dim)
    NNET3_ERR << "Selection '" << piece << "': index " << i
              << " is outside the features' dimension " << dim;
  return i;
}

}  // namespace

std::vector<int32_t> ParseSelection(const std::string &spec, int32_t dim) {
  std::vector<int32_t> cols;
  std::istringstream is(spec);
  std::string piece;
  while (std::getline(is, piece, ',')) {
    const size_t dash = piece.find('-', 1);
    if (dash == std::string::npos) {
      cols.push_back(ParseIndex(piece, piece, dim));
      continue;
    }
    const int32_t a = ParseIndex(piece.substr(0, dash), piece, dim);
    const int32_t b = ParseIndex(piece.substr(dash + 1), piece, dim);
    for (int32_t i = a; a <= b ? i <= b : i >= b; i += a <= b ? 1 : -1)
      cols.push_back(i);
  }
  if (cols.empty())
    NNET3_ERR << "No ranges or indices in selection string '" << spec << "'";
  return cols;
}

void SelectColumns(int32_t rows, int32_t dim, const float *in,
                   const std::vector<int32_t> &cols, std::vector<float> *out) {
  const int32_t n = static_cast<int32_t>(cols.size());
  out->resize(static_cast<size_t>(rows) * n);
  for (int32_t r = 0; r < rows; r++)
    for (int32_t c = 0; c < n; c++)
      (*out)[static_cast<size_t>(r) * n + c] =
          in[static_cast<size_t>(r) * dim + cols[c]];
}

bool PasteFeatures(const std::vector<HostFeatures> &in, int32_t tolerance,
                   HostFeatures *out, int32_t *min_len, int32_t *max_len) {
  NNET3_ASSERT(!in.empty());
  *min_len = *max_len = in[0].rows;
  int32_t total = 0;
  for (const HostFeatures &f : in) {
    *min_len = std::min(*min_len, f.rows);
    *max_len = std::max(*max_len, f.rows);
    total += f.cols;
  }
  if (*max_len - *min_len > tolerance || *min_len == 0) return false;
  out->rows = *min_len;
  out->cols = total;
  out->data.resize(static_cast<size_t>(*min_len) * total);
  for (int32_t r = 0; r < *min_len; r++) {
    float *dst = out->data.data() + static_cast<size_t>(r) * total;
    for (const HostFeatures &f : in) {
      std::memcpy(dst, f.data.data() + static_cast<size_t>(r) * f.cols,
                  sizeof(float) * f.cols);
      dst += f.cols;
    }
  }
  return true;
}

}  // namespace nnet3
