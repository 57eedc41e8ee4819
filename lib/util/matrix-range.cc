#include "util/matrix-range.h"

#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/text-utils.h"
#include "matrix/matrix.h"
#include "util/kaldi-io.h"

namespace nnet3 {
namespace {

// Parses "a:b" (inclusive) or ":" (the whole dimension of `size`).
bool ParseOneRange(const std::string &s, int32_t size, int32_t *begin,
                   int32_t *end) {
  if (Trim(s) == ":") {
    *begin = 0;
    *end = size - 1;
    return true;
  }
  std::vector<std::string> parts = SplitString(s, ":", false);
  return parts.size() == 2 && ConvertStringToInteger(parts[0], begin) &&
         ConvertStringToInteger(parts[1], end);
}

}  // namespace

MatrixRange ParseMatrixRange(const std::string &range, int32_t num_rows,
                             int32_t num_cols) {
  // Two frames of edge effects plus one of rounding, as in Kaldi.
  const int32_t kRowTolerance = 3;
  std::vector<std::string> dims = SplitString(range, ",", false);
  int32_t r0 = 0, r1 = num_rows - 1, c0 = 0, c1 = num_cols - 1;
  bool ok = (dims.size() == 1 || dims.size() == 2) &&
            ParseOneRange(dims[0], num_rows, &r0, &r1) &&
            (dims.size() == 1 || ParseOneRange(dims[1], num_cols, &c0, &c1));
  ok = ok && r0 >= 0 && r0 <= r1 && r0 < num_rows &&
       r1 < num_rows + kRowTolerance && c0 >= 0 && c0 <= c1 && c1 < num_cols;
  if (!ok)
    NNET3_ERR << "Invalid range [" << range << "] for a matrix of " << num_rows
              << " x " << num_cols
              << " (expected [r1:r2] or [r1:r2,c1:c2], inclusive, ':' for all)";
  if (r1 >= num_rows) {
    NNET3_WARN << "Row range [" << range << "] goes beyond the " << num_rows
               << " rows of the matrix; clipping it";
    r1 = num_rows - 1;
  }
  MatrixRange ans;
  ans.row_offset = r0;
  ans.num_rows = r1 - r0 + 1;
  ans.col_offset = c0;
  ans.num_cols = c1 - c0 + 1;
  return ans;
}

void ExtractMatrixRange(const std::string &range, Matrix *mat) {
  MatrixRange r = ParseMatrixRange(range, mat->NumRows(), mat->NumCols());
  if (r.row_offset == 0 && r.col_offset == 0 && r.num_rows == mat->NumRows() &&
      r.num_cols == mat->NumCols())
    return;
  Matrix sub(mat->Range(r.row_offset, r.num_rows, r.col_offset, r.num_cols));
  *mat = std::move(sub);
}

void ReadKaldiObject(const std::string &rxfilename, Matrix *mat) {
  std::string filename, range;
  SplitRangeSuffix(rxfilename, &filename, &range);
  bool binary = false;
  Input ki(filename, &binary);
  try {
    mat->Read(ki.Stream(), binary);
    if (!range.empty()) ExtractMatrixRange(range, mat);
  } catch (const UserError &e) {
    RethrowWithContext(e, "Reading '" + PrintableRxfilename(rxfilename) + "'");
  }
  ki.Close();
}

}  // namespace nnet3
