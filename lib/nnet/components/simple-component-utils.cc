#include "nnet/components/simple-component-utils.h"

#include <vector>

#include "base/error.h"
#include "base/io-funcs.h"

namespace nnet3 {

void ExpectAfterUpdatableCommon(std::istream &is, bool binary,
                                const std::string &token,
                                const std::string &expected) {
  if (token.empty()) {
    ExpectToken(is, binary, expected);
  } else if (token != expected) {
    NNET3_ERR << "Expected <LearningRate> or " << expected << " but found '"
              << token << "'";
  }
}

void CopyColumns(const MatrixView &src, const IndexVector &idx,
                 MatrixView *dst) {
  NNET3_ASSERT(idx.Dim() == dst->NumCols() && src.NumRows() == dst->NumRows());
  NNET3_ASSERT(idx.MinIndex() >= 0 && idx.MaxIndex() < src.NumCols());
  if (dst->IsEmpty()) return;
  // Columns of src are rows of src^T: CopyRows does the gather.
  Device &device = src.device();
  Matrix src_t(src.NumCols(), src.NumRows(), ResizeType::kUndefined, device);
  src_t.CopyFromMat(src, Trans::kYes);
  Matrix dst_t(dst->NumCols(), dst->NumRows(), ResizeType::kUndefined, device);
  dst_t.CopyRows(src_t, idx);
  dst->CopyFromMat(dst_t, Trans::kYes);
}

void SumColumnRanges(const MatrixView &src, const IndexVector &ranges,
                     MatrixView *dst) {
  NNET3_ASSERT(ranges.Dim() == 2 * dst->NumCols() &&
               src.NumRows() == dst->NumRows());
  NNET3_ASSERT(ranges.MinIndex() >= 0 && ranges.MaxIndex() <= src.NumCols());
  if (dst->IsEmpty()) return;
  Device &device = src.device();
  Matrix src_t(src.NumCols(), src.NumRows(), ResizeType::kUndefined, device);
  src_t.CopyFromMat(src, Trans::kYes);
  Matrix dst_t(dst->NumCols(), dst->NumRows(), ResizeType::kSetZero, device);
  dst_t.AddRowRanges(1.0f, src_t, ranges);
  dst->CopyFromMat(dst_t, Trans::kYes);
}

MatrixView ReshapeToBlocks(const MatrixView &m, int32_t block) {
  NNET3_ASSERT(block > 0 && m.NumCols() % block == 0);
  if (block == m.NumCols()) return m;
  NNET3_ASSERT(m.Stride() == m.NumCols() || m.NumRows() <= 1);
  int32_t rows = m.NumRows() * (m.NumCols() / block);
  return MatrixView(m.device(), m.Data(), rows, block, block);
}

}  // namespace nnet3
