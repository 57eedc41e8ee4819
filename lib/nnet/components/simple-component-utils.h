// Small helpers shared by the "simple" component group
// (simple-components.cc, per-element-components.cc): reading the rest of
// the updatable prefix in Read(), the column operations (copy columns through
// an index, sum column ranges) that the Backend has no primitive for, and block
// reshaping. (Info() summaries come from parameter-stats.h, random
// initialization seeds from init-random.h, required config keys from
// component-config.h.)
//
//   CopyColumns(in, column_map, &out);     // out column c = in column map[c]
//
// The column operations are built from transposes and row operations, so
// they run on any device (three passes over the data instead of one).
#ifndef NNET3_NNET_SIMPLE_COMPONENT_UTILS_H_
#define NNET3_NNET_SIMPLE_COMPONENT_UTILS_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>

#include "matrix/device-array.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "util/config-line.h"

namespace nnet3 {

// For Read(): `token` is what ReadUpdatableCommon returned ("" after it
// read <LearningRate>, else the token found in its place). Consumes
// `expected` unless `token` already is it; UserError otherwise.
void ExpectAfterUpdatableCommon(std::istream &is, bool binary,
                                const std::string &token,
                                const std::string &expected);

// dst column c = src column idx[c] (idx on dst's device, idx.Dim() ==
// dst->NumCols(), entries in [0, src.NumCols())): Kaldi's CopyCols.
void CopyColumns(const MatrixView &src, const IndexVector &idx,
                 MatrixView *dst);

// dst column j = sum of src columns [ranges[2j], ranges[2j+1]) (ranges from
// IndexVector::FromRanges): Kaldi's SumColumnRanges.
void SumColumnRanges(const MatrixView &src, const IndexVector &ranges,
                     MatrixView *dst);

// A view of the rows x cols matrix `m` as (rows * cols / block) x block:
// m itself when block == NumCols(), else valid only for contiguous m
// (Stride() == NumCols()) and block dividing NumCols(). Used by components
// with a block-dim.
MatrixView ReshapeToBlocks(const MatrixView &m, int32_t block);

}  // namespace nnet3

#endif  // NNET3_NNET_SIMPLE_COMPONENT_UTILS_H_
