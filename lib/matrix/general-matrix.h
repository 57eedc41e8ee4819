// GeneralMatrix: one of a full Matrix, a CompressedMatrix or a SparseMatrix,
// as Kaldi uses it for the inputs and targets of nnet3 egs.
//
//   GeneralMatrix feats;
//   feats.Read(is, binary);                 // FM / DM / CM* / SM, or text
//   Matrix m;
//   feats.GetMatrix(&m);                    // dense copy, m's device
//   feats.Compress();                       // full -> compressed
//
// As in Kaldi, the type is decided by which member has rows: sparse if the
// sparse matrix has rows, else compressed if the compressed one has rows,
// else full (so an empty object of any kind reads back as a full 0 x 0
// matrix). Reading binary peeks one character: 'C' compressed, 'S' sparse,
// anything else full; reading text: 'r' ("rows=") sparse, else full. Write
// writes whichever representation is held. The full matrix lives on the
// CPU (this is host-side I/O data); GetMatrix / CopyToMatrix copy to any
// device.
#ifndef NNET3_MATRIX_GENERAL_MATRIX_H_
#define NNET3_MATRIX_GENERAL_MATRIX_H_

#include <cstdint>
#include <istream>
#include <ostream>

#include "matrix/compressed-matrix.h"
#include "matrix/matrix.h"
#include "matrix/sparse-matrix.h"

namespace nnet3 {

enum class GeneralMatrixType { kFullMatrix, kCompressedMatrix, kSparseMatrix };

class GeneralMatrix {
 public:
  GeneralMatrix();
  // Copies (the full matrix is copied to the CPU).
  explicit GeneralMatrix(const MatrixView &mat);
  explicit GeneralMatrix(const CompressedMatrix &cmat);
  explicit GeneralMatrix(const SparseMatrix &smat);
  GeneralMatrix(const GeneralMatrix &other) = default;
  GeneralMatrix(GeneralMatrix &&other) = default;
  GeneralMatrix &operator=(const GeneralMatrix &other) = default;
  GeneralMatrix &operator=(GeneralMatrix &&other) = default;
  GeneralMatrix &operator=(const MatrixView &mat);
  GeneralMatrix &operator=(const CompressedMatrix &cmat);
  GeneralMatrix &operator=(const SparseMatrix &smat);

  GeneralMatrixType Type() const;
  int32_t NumRows() const;
  int32_t NumCols() const;

  // Resizes *mat (keeping its device) and fills it with the dense values.
  void GetMatrix(Matrix *mat) const;
  // mat must already have the right shape.
  void CopyToMatrix(MatrixView *mat) const;
  // mat += alpha * this.
  void AddToMatrix(float alpha, MatrixView *mat) const;

  // Full -> compressed (no-op for the other types).
  void Compress(CompressionMethod method = CompressionMethod::kAutomaticMethod);
  // Compressed -> full (no-op for the other types).
  void Uncompress();
  void Scale(float alpha);
  void Clear();

  // The held representation; asking for another type is an InternalError.
  const Matrix &GetFullMatrix() const;
  const CompressedMatrix &GetCompressedMatrix() const;
  const SparseMatrix &GetSparseMatrix() const;
  // Swap the held representation in or out (the others are cleared).
  void SwapFullMatrix(Matrix *mat);
  void SwapCompressedMatrix(CompressedMatrix *cmat);
  void SwapSparseMatrix(SparseMatrix *smat);

  void Read(std::istream &is, bool binary);
  void Write(std::ostream &os, bool binary) const;

 private:
  Matrix mat_;
  CompressedMatrix cmat_;
  SparseMatrix smat_;
};

// Rows [row_offset, row_offset + num_rows) of `in`, where rows before the
// start repeat row 0 and rows past the end repeat the last row (Kaldi's
// ExtractRowRangeWithPadding, used to cut egs). The result has in's type; a
// compressed block is cut without decompressing (CM blocks under 8 rows
// become CM2, as in Kaldi).
void ExtractRowRangeWithPadding(const GeneralMatrix &in, int32_t row_offset,
                                int32_t num_rows, GeneralMatrix *out);

}  // namespace nnet3

#endif  // NNET3_MATRIX_GENERAL_MATRIX_H_
