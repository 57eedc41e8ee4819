// CompressedMatrix: Kaldi's lossy compressed matrix (feature archives, egs),
// held in host memory in exactly its on-disk layout.
//
//   CompressedMatrix cmat(feats);                 // kAutomaticMethod
//   cmat.Write(os, binary);                       // "CM " / "CM2 " / "CM3 "
//   Matrix m(cmat.NumRows(), cmat.NumCols());
//   cmat.CopyToMatrix(&m);                        // decompress
//
// Formats (reference 4.2): after the token, float min_value, float range,
// int32 rows, int32 cols (16 raw bytes, no size bytes), then
//   CM  (format 1): cols x 4 uint16 column headers (percentiles 0, 25, 75,
//                   100 as codes of the global range), then one byte per
//                   value, column after column;
//   CM2 (format 2): one uint16 per value, row-major;
//   CM3 (format 3): one uint8 per value, row-major.
// Compression and decompression follow Kaldi's arithmetic step by step
// (float and double roundings included), so a file compressed here is
// byte-identical to Kaldi's and decompressing a Kaldi file gives Kaldi's
// floats. Text mode writes (and reads) an ordinary text matrix. Compressing
// a matrix that holds inf or NaN is a UserError.
#ifndef NNET3_MATRIX_COMPRESSED_MATRIX_H_
#define NNET3_MATRIX_COMPRESSED_MATRIX_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <vector>

#include "device/backend.h"

namespace nnet3 {

class MatrixView;

// Kaldi's CompressionMethod (same numbers, so an integer option maps 1:1).
enum class CompressionMethod {
  kAutomaticMethod = 1,         // CM when rows > 8, else CM2
  kSpeechFeature = 2,           // CM
  kTwoByteAuto = 3,             // CM2 over [min, max] of the data
  kTwoByteSignedInteger = 4,    // CM2 over [-32768, 32767]
  kOneByteAuto = 5,             // CM3 over [min, max] of the data
  kOneByteUnsignedInteger = 6,  // CM3 over [0, 255]
  kOneByteZeroOne = 7,          // CM3 over [0, 1]
};

class CompressedMatrix {
 public:
  CompressedMatrix() = default;
  explicit CompressedMatrix(
      const MatrixView &mat,
      CompressionMethod method = CompressionMethod::kAutomaticMethod);
  // Rows [row_offset, row_offset + num_rows) and the given columns of cmat,
  // copied without decompressing. With allow_padding, rows outside cmat
  // repeat its first / last row. As in Kaldi, a CM result with fewer than 8
  // rows is re-compressed as CM2.
  CompressedMatrix(const CompressedMatrix &cmat, int32_t row_offset,
                   int32_t num_rows, int32_t col_offset, int32_t num_cols,
                   bool allow_padding = false);

  void CopyFromMatrix(
      const MatrixView &mat,
      CompressionMethod method = CompressionMethod::kAutomaticMethod);
  // Compresses host data (row-major with the given stride).
  void CopyFromHost(
      const float *data, int32_t rows, int32_t cols, int32_t stride,
      CompressionMethod method = CompressionMethod::kAutomaticMethod);

  int32_t NumRows() const { return num_rows_; }
  int32_t NumCols() const { return num_cols_; }
  bool IsEmpty() const { return num_rows_ == 0; }
  // 1 (CM), 2 (CM2), 3 (CM3), or 0 when empty.
  int32_t Format() const { return format_; }
  float MinValue() const { return min_value_; }
  float Range() const { return range_; }

  // Decompresses into mat (NumRows() x NumCols(), or transposed), on any
  // device.
  void CopyToMatrix(MatrixView *mat, Trans trans = Trans::kNo) const;
  // Decompresses the block starting at (row_offset, col_offset) with dest's
  // shape.
  void CopyToMatrix(int32_t row_offset, int32_t col_offset,
                    MatrixView *dest) const;
  // Decompresses everything into *data, row-major without padding.
  void CopyToHost(std::vector<float> *data) const;
  // Decompresses a block into host memory (row-major with `stride`).
  void DecompressBlock(int32_t row_offset, int32_t col_offset, int32_t num_rows,
                       int32_t num_cols, float *out, int32_t stride) const;

  // Scales every value (only min_value and range change), as Kaldi.
  void Scale(float alpha);
  void Swap(CompressedMatrix *other);
  void Clear();

  // Binary: the CM / CM2 / CM3 layout; a full matrix (FM / DM) is accepted
  // and compressed with kAutomaticMethod, as Kaldi does. Text: a text matrix.
  void Read(std::istream &is, bool binary);
  void Write(std::ostream &os, bool binary) const;

 private:
  void CompressColumns(const float *data, int32_t stride);  // CM
  void CompressRows(const float *data, int32_t stride);     // CM2, CM3
  size_t PayloadBytes() const;  // what follows the 16-byte header

  int32_t format_ = 0;
  float min_value_ = 0.0f, range_ = 0.0f;
  int32_t num_rows_ = 0, num_cols_ = 0;
  // Everything after the global header, in file layout (little-endian).
  std::vector<uint8_t> payload_;
};

}  // namespace nnet3

#endif  // NNET3_MATRIX_COMPRESSED_MATRIX_H_
