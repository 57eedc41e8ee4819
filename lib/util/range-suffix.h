// The "[range]" suffix of an rxfilename, split off before the file is
// opened: "feats.ark:1234[0:99]" in scp files and matrix rxfilenames
// (util/matrix-range.h resolves the range against a matrix). Kept apart
// from the matrix code so that the table readers, which split every scp
// line, need nothing of the matrix layer.
//
//   std::string file, range;
//   if (SplitRangeSuffix("feats.ark:12[0:9,2:5]", &file, &range)) ...
#ifndef NNET3_UTIL_RANGE_SUFFIX_H_
#define NNET3_UTIL_RANGE_SUFFIX_H_

#include <string>

namespace nnet3 {

// Splits "foo.mat[0:9]" into "foo.mat" and "0:9". Returns false (and copies
// the name unchanged, range empty) when there is no trailing [range]; throws
// UserError for a trailing ']' without '['. `filename` may alias the input.
bool SplitRangeSuffix(const std::string &rxfilename, std::string *filename,
                      std::string *range);

}  // namespace nnet3

#endif  // NNET3_UTIL_RANGE_SUFFIX_H_
