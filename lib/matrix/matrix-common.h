// Small definitions shared by the matrix and vector classes: how Resize
// treats old contents, how a matrix chooses its row stride, and the largest
// object a reader accepts from a file.
#ifndef NNET3_MATRIX_MATRIX_COMMON_H_
#define NNET3_MATRIX_MATRIX_COMMON_H_

#include <cstdint>

namespace nnet3 {

// What Resize does with the contents: zero them, leave them undefined, or
// keep the overlapping part (new elements zero), as Kaldi's MatrixResizeType.
enum class ResizeType { kSetZero, kUndefined, kCopyData };

// kDefaultStride rounds the stride up to a multiple of 4 floats, so that
// every row starts 16-byte aligned; kStrideEqualNumCols makes the rows
// contiguous (stride == cols), which code that reshapes a matrix needs.
enum class MatrixStrideType { kDefaultStride, kStrideEqualNumCols };

// Readers refuse objects with more elements than this (2^31): a corrupted
// size field must give an error, not an attempt to allocate terabytes.
constexpr int64_t kMaxReadElements = int64_t(1) << 31;

}  // namespace nnet3

#endif  // NNET3_MATRIX_MATRIX_COMMON_H_
