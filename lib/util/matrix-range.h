// Matrix ranges: the "[r1:r2]" / "[r1:r2,c1:c2]" suffix Kaldi accepts on
// matrix rxfilenames, in scp files ("utt1 feats.ark:1234[0:99]") and in
// ReadKaldiObject(rxfilename, Matrix*) (util/kaldi-io.h).
//
//   std::string file, range;
//   if (SplitRangeSuffix("feats.ark:12[0:9,2:5]", &file, &range)) ...
//   MatrixRange r = ParseMatrixRange(range, rows, cols);
//   ExtractMatrixRange(range, &matrix);   // replaces matrix by the range
//
// Rules (reference 5.1): ranges are inclusive; ":" alone is the whole
// dimension; an end row may exceed the last row by at most 3 and is clipped
// (with a warning), for segments that round up; anything else is a
// UserError naming the range and the matrix size.
#ifndef NNET3_UTIL_MATRIX_RANGE_H_
#define NNET3_UTIL_MATRIX_RANGE_H_

#include <cstdint>
#include <string>

#include "util/range-suffix.h"

namespace nnet3 {

class Matrix;

// A range resolved against a matrix size.
struct MatrixRange {
  int32_t row_offset = 0;
  int32_t num_rows = 0;
  int32_t col_offset = 0;
  int32_t num_cols = 0;
};

// Resolves `range` (the text between '[' and ']') for a num_rows x num_cols
// matrix; throws UserError if it is malformed or out of bounds.
MatrixRange ParseMatrixRange(const std::string &range, int32_t num_rows,
                             int32_t num_cols);

// Replaces *mat by its sub-matrix `range` (on the same device).
void ExtractMatrixRange(const std::string &range, Matrix *mat);

}  // namespace nnet3

#endif  // NNET3_UTIL_MATRIX_RANGE_H_
