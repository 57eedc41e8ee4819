#include "matrix/general-matrix.h"

#include <algorithm>
#include <vector>

#include "base/error.h"

namespace nnet3 {

GeneralMatrix::GeneralMatrix() : mat_(CpuDevice()) {}

GeneralMatrix::GeneralMatrix(const MatrixView &mat) : mat_(mat, CpuDevice()) {}

GeneralMatrix::GeneralMatrix(const CompressedMatrix &cmat)
    : mat_(CpuDevice()), cmat_(cmat) {}

GeneralMatrix::GeneralMatrix(const SparseMatrix &smat)
    : mat_(CpuDevice()), smat_(smat) {}

GeneralMatrix &GeneralMatrix::operator=(const MatrixView &mat) {
  GeneralMatrix tmp(mat);
  *this = std::move(tmp);
  return *this;
}

GeneralMatrix &GeneralMatrix::operator=(const CompressedMatrix &cmat) {
  Clear();
  cmat_ = cmat;
  return *this;
}

GeneralMatrix &GeneralMatrix::operator=(const SparseMatrix &smat) {
  Clear();
  smat_ = smat;
  return *this;
}

GeneralMatrixType GeneralMatrix::Type() const {
  if (smat_.NumRows() != 0) return GeneralMatrixType::kSparseMatrix;
  if (cmat_.NumRows() != 0) return GeneralMatrixType::kCompressedMatrix;
  return GeneralMatrixType::kFullMatrix;
}

int32_t GeneralMatrix::NumRows() const {
  switch (Type()) {
    case GeneralMatrixType::kSparseMatrix:
      return smat_.NumRows();
    case GeneralMatrixType::kCompressedMatrix:
      return cmat_.NumRows();
    default:
      return mat_.NumRows();
  }
}

int32_t GeneralMatrix::NumCols() const {
  switch (Type()) {
    case GeneralMatrixType::kSparseMatrix:
      return smat_.NumCols();
    case GeneralMatrixType::kCompressedMatrix:
      return cmat_.NumCols();
    default:
      return mat_.NumCols();
  }
}

void GeneralMatrix::GetMatrix(Matrix *mat) const {
  mat->Resize(NumRows(), NumCols(), ResizeType::kUndefined);
  CopyToMatrix(mat);
}

void GeneralMatrix::CopyToMatrix(MatrixView *mat) const {
  if (mat->NumRows() != NumRows() || mat->NumCols() != NumCols())
    NNET3_INTERNAL_ERR << "GeneralMatrix::CopyToMatrix: " << NumRows() << " x "
                       << NumCols() << " into " << mat->NumRows() << " x "
                       << mat->NumCols();
  switch (Type()) {
    case GeneralMatrixType::kSparseMatrix:
      smat_.CopyToMatrix(mat);
      break;
    case GeneralMatrixType::kCompressedMatrix:
      cmat_.CopyToMatrix(mat);
      break;
    default:
      mat->CopyFromMat(mat_);
  }
}

void GeneralMatrix::AddToMatrix(float alpha, MatrixView *mat) const {
  Matrix tmp(NumRows(), NumCols(), ResizeType::kUndefined, mat->device());
  CopyToMatrix(&tmp);
  mat->AddMat(alpha, tmp);
}

void GeneralMatrix::Compress(CompressionMethod method) {
  if (mat_.NumRows() == 0) return;
  cmat_.CopyFromMatrix(mat_, method);
  mat_.Resize(0, 0);
}

void GeneralMatrix::Uncompress() {
  if (cmat_.NumRows() == 0) return;
  mat_.Resize(cmat_.NumRows(), cmat_.NumCols(), ResizeType::kUndefined);
  cmat_.CopyToMatrix(&mat_);
  cmat_.Clear();
}

void GeneralMatrix::Scale(float alpha) {
  mat_.Scale(alpha);
  cmat_.Scale(alpha);
  smat_.Scale(alpha);
}

void GeneralMatrix::Clear() {
  mat_.Resize(0, 0);
  cmat_.Clear();
  smat_.Clear();
}

const Matrix &GeneralMatrix::GetFullMatrix() const {
  if (Type() != GeneralMatrixType::kFullMatrix)
    NNET3_INTERNAL_ERR << "GeneralMatrix::GetFullMatrix on another type";
  return mat_;
}

const CompressedMatrix &GeneralMatrix::GetCompressedMatrix() const {
  if (Type() != GeneralMatrixType::kCompressedMatrix)
    NNET3_INTERNAL_ERR << "GeneralMatrix::GetCompressedMatrix on another type";
  return cmat_;
}

const SparseMatrix &GeneralMatrix::GetSparseMatrix() const {
  if (Type() != GeneralMatrixType::kSparseMatrix)
    NNET3_INTERNAL_ERR << "GeneralMatrix::GetSparseMatrix on another type";
  return smat_;
}

void GeneralMatrix::SwapFullMatrix(Matrix *mat) {
  cmat_.Clear();
  smat_.Clear();
  mat_.Swap(mat);
}

void GeneralMatrix::SwapCompressedMatrix(CompressedMatrix *cmat) {
  mat_.Resize(0, 0);
  smat_.Clear();
  cmat_.Swap(cmat);
}

void GeneralMatrix::SwapSparseMatrix(SparseMatrix *smat) {
  mat_.Resize(0, 0);
  cmat_.Clear();
  smat_.Swap(smat);
}

void GeneralMatrix::Read(std::istream &is, bool binary) {
  Clear();
  if (binary) {
    int c = is.peek();
    if (c == 'C')
      cmat_.Read(is, binary);
    else if (c == 'S')
      smat_.Read(is, binary);
    else
      mat_.Read(is, binary);
  } else {
    is >> std::ws;
    if (is.peek() == 'r')
      smat_.Read(is, binary);
    else
      mat_.Read(is, binary);
  }
}

void GeneralMatrix::Write(std::ostream &os, bool binary) const {
  switch (Type()) {
    case GeneralMatrixType::kSparseMatrix:
      smat_.Write(os, binary);
      break;
    case GeneralMatrixType::kCompressedMatrix:
      cmat_.Write(os, binary);
      break;
    default:
      mat_.Write(os, binary);
  }
}

void ExtractRowRangeWithPadding(const GeneralMatrix &in, int32_t row_offset,
                                int32_t num_rows, GeneralMatrix *out) {
  out->Clear();
  if (num_rows == 0) return;
  int32_t in_rows = in.NumRows();
  if (in_rows == 0 || num_rows < 0)
    NNET3_INTERNAL_ERR << "ExtractRowRangeWithPadding: " << num_rows
                       << " rows from a matrix of " << in_rows << " rows";
  auto source_row = [&](int32_t r) {
    return std::min(std::max(r + row_offset, 0), in_rows - 1);
  };
  switch (in.Type()) {
    case GeneralMatrixType::kFullMatrix: {
      const Matrix &src = in.GetFullMatrix();
      std::vector<int32_t> idx(num_rows);
      for (int32_t r = 0; r < num_rows; r++) idx[r] = source_row(r);
      Matrix mat(num_rows, src.NumCols(), ResizeType::kUndefined, src.device());
      mat.CopyRows(src, IndexVector(idx, src.device()));
      out->SwapFullMatrix(&mat);
      break;
    }
    case GeneralMatrixType::kSparseMatrix: {
      const SparseMatrix &src = in.GetSparseMatrix();
      std::vector<SparseVector> rows;
      rows.reserve(num_rows);
      for (int32_t r = 0; r < num_rows; r++)
        rows.push_back(src.Row(source_row(r)));
      SparseMatrix smat(src.NumCols(), rows);
      out->SwapSparseMatrix(&smat);
      break;
    }
    case GeneralMatrixType::kCompressedMatrix: {
      const CompressedMatrix &src = in.GetCompressedMatrix();
      CompressedMatrix cmat(src, row_offset, num_rows, 0, src.NumCols(), true);
      out->SwapCompressedMatrix(&cmat);
      break;
    }
  }
}

}  // namespace nnet3
