// The arithmetic here mirrors Kaldi's compressed-matrix.cc operation by
// operation: which steps are done in float and which in double decides the
// last bit of the codes and of the decoded values, and both must match Kaldi
// (byte-identical files, identical decompressed features). The comments say
// where the precision of a step matters.
#include "matrix/compressed-matrix.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "base/error.h"
#include "base/io-funcs.h"
#include "matrix/matrix-io.h"
#include "matrix/matrix.h"

namespace nnet3 {

namespace {

constexpr size_t kGlobalHeaderBytes = 16;  // without Kaldi's format field
constexpr size_t kColHeaderBytes = 8;      // 4 x uint16

struct ColHeader {
  uint16_t p0, p25, p75, p100;
};

uint16_t LoadU16(const uint8_t *p) {
  uint16_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

void StoreU16(uint16_t v, uint8_t *p) { std::memcpy(p, &v, sizeof(v)); }

// A double truncated to int as x86's cvttsd2si does, without the undefined
// behaviour of static_cast: NaN and values outside int give INT_MIN (so
// that inf and NaN in the data compress to the bytes Kaldi writes on x86).
int TruncateToInt(double x) {
  if (!(x > -2147483649.0 && x < 2147483648.0))
    return std::numeric_limits<int>::min();
  return static_cast<int>(x);
}

// Kaldi's FloatToUint16 / FloatToUint8: the fraction is a float; adding
// 0.499 promotes to double before truncation.
int FractionCode(float min_value, float range, float value, int levels) {
  float f = (value - min_value) / range;
  if (f > 1.0f) f = 1.0f;
  if (f < 0.0f) f = 0.0f;
  float scaled = f * static_cast<float>(levels);
  return TruncateToInt(static_cast<double>(scaled) + 0.499);
}

// Kaldi's Uint16ToFloat: all in float, with 1/65535 as a float constant,
// evaluated as min + ((range * c) * code).
float CodeToFloat(float min_value, float range, uint16_t code) {
  float scaled = range * 1.52590218966964e-05F;
  scaled = scaled * static_cast<float>(code);
  return min_value + scaled;
}

// Kaldi's FloatToChar: the segment fraction in float, + 0.5 in double.
uint8_t ValueToByte(float p0, float p25, float p75, float p100, float value) {
  int ans;
  if (value < p25) {
    float f = (value - p0) / (p25 - p0);
    ans = TruncateToInt(static_cast<double>(f * 64.0f) + 0.5);
    ans = std::min(std::max(ans, 0), 64);
  } else if (value < p75) {
    float f = (value - p25) / (p75 - p25);
    ans = 64 + TruncateToInt(static_cast<double>(f * 128.0f) + 0.5);
    ans = std::min(std::max(ans, 64), 192);
  } else {
    float f = (value - p75) / (p100 - p75);
    ans = 192 + TruncateToInt(static_cast<double>(f * 63.0f) + 0.5);
    ans = std::min(std::max(ans, 192), 255);
  }
  return static_cast<uint8_t>(ans);
}

// Kaldi's CharToFloat: (p_hi - p_lo) * b in float, then times the double
// reciprocal and plus p_lo in double, rounded to float once at the end.
float ByteToValue(float p0, float p25, float p75, float p100, uint8_t b) {
  if (b <= 64) {
    float d = (p25 - p0) * static_cast<float>(b);
    return static_cast<float>(p0 + d * (1 / 64.0));
  } else if (b <= 192) {
    float d = (p75 - p25) * static_cast<float>(b - 64);
    return static_cast<float>(p25 + d * (1 / 128.0));
  } else {
    float d = (p100 - p75) * static_cast<float>(b - 192);
    return static_cast<float>(p75 + d * (1 / 63.0));
  }
}

// Percentile codes of one column (Kaldi's ComputeColHeader): sorted values
// at 0, n/4, 3*(n/4), n-1 (for n < 5: 0, 1, 2, 3), forced strictly
// increasing and kept below 65535 so that all four fit.
ColHeader ComputeColHeader(float min_value, float range,
                           std::vector<float> *column) {
  std::vector<float> &s = *column;
  int n = static_cast<int>(s.size());
  std::sort(s.begin(), s.end());
  auto code = [&](float v) {
    return static_cast<uint16_t>(FractionCode(min_value, range, v, 65535));
  };
  ColHeader h;
  auto at_least = [](int code_value, int lower) {
    return std::max(code_value, lower);
  };
  int i25 = n >= 5 ? n / 4 : 1, i75 = n >= 5 ? 3 * (n / 4) : 2,
      i100 = n >= 5 ? n - 1 : 3;
  h.p0 = static_cast<uint16_t>(std::min<int>(code(s[0]), 65532));
  h.p25 = static_cast<uint16_t>(
      n > i25 ? std::min(at_least(code(s[i25]), h.p0 + 1), 65533) : h.p0 + 1);
  h.p75 = static_cast<uint16_t>(
      n > i75 ? std::min(at_least(code(s[i75]), h.p25 + 1), 65534) : h.p25 + 1);
  h.p100 = static_cast<uint16_t>(n > i100 ? at_least(code(s[i100]), h.p75 + 1)
                                          : h.p75 + 1);
  return h;
}

// The data format (1 = CM, 2 = CM2, 3 = CM3) a method produces.
int32_t FormatOf(CompressionMethod method) {
  switch (method) {
    case CompressionMethod::kSpeechFeature:
      return 1;
    case CompressionMethod::kTwoByteAuto:
    case CompressionMethod::kTwoByteSignedInteger:
      return 2;
    case CompressionMethod::kOneByteAuto:
    case CompressionMethod::kOneByteUnsignedInteger:
    case CompressionMethod::kOneByteZeroOne:
      return 3;
    default:
      NNET3_ERR << "Invalid compression method " << static_cast<int>(method)
                << " (expected 1 to 7)";
  }
  return 0;
}

// The global min_value and range of a (non-empty) matrix for a method.
void GlobalRange(CompressionMethod method, const float *data, int32_t rows,
                 int32_t cols, int32_t stride, float *min_out,
                 float *range_out) {
  if (method == CompressionMethod::kTwoByteSignedInteger) {
    *min_out = -32768.0f;
    *range_out = 65535.0f;
    return;
  }
  if (method == CompressionMethod::kOneByteUnsignedInteger ||
      method == CompressionMethod::kOneByteZeroOne) {
    *min_out = 0.0f;
    *range_out = method == CompressionMethod::kOneByteZeroOne ? 1.0f : 255.0f;
    return;
  }
  float min_value = data[0], max_value = data[0];
  bool finite = true;
  for (int32_t r = 0; r < rows; r++) {
    const float *row = data + static_cast<size_t>(r) * stride;
    for (int32_t c = 0; c < cols; c++) {
      finite = finite && std::isfinite(row[c]);
      min_value = std::min(min_value, row[c]);
      max_value = std::max(max_value, row[c]);
    }
  }
  if (!finite) NNET3_ERR << "Cannot compress a matrix that contains inf or NaN";
  // A constant matrix still needs max > min (Kaldi: max = min + 1 + |min|,
  // computed in double).
  if (max_value == min_value)
    max_value = static_cast<float>(min_value + (1.0 + std::fabs(min_value)));
  *min_out = min_value;
  *range_out = max_value - min_value;
}

}  // namespace

CompressedMatrix::CompressedMatrix(const MatrixView &mat,
                                   CompressionMethod method) {
  CopyFromMatrix(mat, method);
}

void CompressedMatrix::CopyFromMatrix(const MatrixView &mat,
                                      CompressionMethod method) {
  std::vector<float> host = mat.ToHost();
  CopyFromHost(host.data(), mat.NumRows(), mat.NumCols(), mat.NumCols(),
               method);
}

void CompressedMatrix::CopyFromHost(const float *data, int32_t rows,
                                    int32_t cols, int32_t stride,
                                    CompressionMethod method) {
  Clear();
  // Kaldi stores a matrix without rows as empty; without columns its reader
  // sees it as empty too.
  if (rows == 0 || cols == 0) return;
  if (method == CompressionMethod::kAutomaticMethod)
    method = rows > 8 ? CompressionMethod::kSpeechFeature
                      : CompressionMethod::kTwoByteAuto;
  int32_t format = FormatOf(method);
  float min_value, range;
  GlobalRange(method, data, rows, cols, stride, &min_value, &range);
  format_ = format;
  min_value_ = min_value;
  range_ = range;
  num_rows_ = rows;
  num_cols_ = cols;
  payload_.assign(PayloadBytes(), 0);
  if (format_ == 1)
    CompressColumns(data, stride);
  else
    CompressRows(data, stride);
}

void CompressedMatrix::CompressRows(const float *data, int32_t stride) {
  int levels = format_ == 2 ? 65535 : 255;
  size_t width = format_ == 2 ? 2 : 1;
  for (int32_t r = 0; r < num_rows_; r++) {
    const float *row = data + static_cast<size_t>(r) * stride;
    uint8_t *out = payload_.data() + width * static_cast<size_t>(r) * num_cols_;
    for (int32_t c = 0; c < num_cols_; c++) {
      int code = FractionCode(min_value_, range_, row[c], levels);
      if (width == 2)
        StoreU16(static_cast<uint16_t>(code), out + 2 * c);
      else
        out[c] = static_cast<uint8_t>(code);
    }
  }
}

void CompressedMatrix::CompressColumns(const float *data, int32_t stride) {
  uint8_t *headers = payload_.data();
  uint8_t *bytes = headers + kColHeaderBytes * num_cols_;
  std::vector<float> column(num_rows_);
  for (int32_t c = 0; c < num_cols_; c++) {
    for (int32_t r = 0; r < num_rows_; r++)
      column[r] = data[static_cast<size_t>(r) * stride + c];
    ColHeader h = ComputeColHeader(min_value_, range_, &column);
    uint8_t *hp = headers + kColHeaderBytes * c;
    StoreU16(h.p0, hp);
    StoreU16(h.p25, hp + 2);
    StoreU16(h.p75, hp + 4);
    StoreU16(h.p100, hp + 6);
    float p0 = CodeToFloat(min_value_, range_, h.p0),
          p25 = CodeToFloat(min_value_, range_, h.p25),
          p75 = CodeToFloat(min_value_, range_, h.p75),
          p100 = CodeToFloat(min_value_, range_, h.p100);
    uint8_t *out = bytes + static_cast<size_t>(c) * num_rows_;
    for (int32_t r = 0; r < num_rows_; r++)
      out[r] = ValueToByte(p0, p25, p75, p100,
                           data[static_cast<size_t>(r) * stride + c]);
  }
}

size_t CompressedMatrix::PayloadBytes() const {
  size_t rows = static_cast<size_t>(num_rows_),
         cols = static_cast<size_t>(num_cols_);
  if (format_ == 1) return cols * (kColHeaderBytes + rows);
  if (format_ == 2) return 2 * rows * cols;
  if (format_ == 3) return rows * cols;
  return 0;
}

CompressedMatrix::CompressedMatrix(const CompressedMatrix &cmat,
                                   int32_t row_offset, int32_t num_rows,
                                   int32_t col_offset, int32_t num_cols,
                                   bool allow_padding) {
  int32_t old_rows = cmat.num_rows_, old_cols = cmat.num_cols_;
  if (num_rows < 0 || num_cols < 0 || col_offset < 0 ||
      col_offset + num_cols > old_cols ||
      (!allow_padding &&
       (row_offset < 0 || row_offset + num_rows > old_rows)) ||
      (num_rows > 0 && old_rows == 0))
    NNET3_INTERNAL_ERR << "CompressedMatrix: sub-range rows " << row_offset
                       << "+" << num_rows << ", cols " << col_offset << "+"
                       << num_cols << " of a " << old_rows << " x " << old_cols
                       << " matrix";
  if (num_rows == 0 || num_cols == 0) return;
  format_ = cmat.format_;
  min_value_ = cmat.min_value_;
  range_ = cmat.range_;
  num_rows_ = num_rows;
  num_cols_ = num_cols;
  payload_.assign(PayloadBytes(), 0);
  auto old_row = [&](int32_t r) {
    return std::min(std::max(r + row_offset, 0), old_rows - 1);
  };
  if (format_ == 1) {
    const uint8_t *old_headers = cmat.payload_.data();
    const uint8_t *old_bytes = old_headers + kColHeaderBytes * old_cols;
    std::memcpy(payload_.data(), old_headers + kColHeaderBytes * col_offset,
                kColHeaderBytes * num_cols);
    uint8_t *bytes = payload_.data() + kColHeaderBytes * num_cols;
    for (int32_t c = 0; c < num_cols; c++) {
      const uint8_t *old_col =
          old_bytes + static_cast<size_t>(c + col_offset) * old_rows;
      for (int32_t r = 0; r < num_rows; r++)
        bytes[static_cast<size_t>(c) * num_rows + r] = old_col[old_row(r)];
    }
  } else {
    size_t width = format_ == 2 ? 2 : 1;
    for (int32_t r = 0; r < num_rows; r++)
      std::memcpy(
          payload_.data() + width * static_cast<size_t>(r) * num_cols,
          cmat.payload_.data() +
              width * (static_cast<size_t>(old_row(r)) * old_cols + col_offset),
          width * num_cols);
  }
  if (format_ == 1 && num_rows < 8) {
    // Kaldi re-compresses small CM blocks as CM2 (no column headers).
    std::vector<float> tmp;
    CopyToHost(&tmp);
    CopyFromHost(tmp.data(), num_rows, num_cols, num_cols,
                 CompressionMethod::kTwoByteAuto);
  }
}

void CompressedMatrix::DecompressBlock(int32_t row_offset, int32_t col_offset,
                                       int32_t num_rows, int32_t num_cols,
                                       float *out, int32_t stride) const {
  if (row_offset < 0 || col_offset < 0 || num_rows < 0 || num_cols < 0 ||
      row_offset + num_rows > num_rows_ || col_offset + num_cols > num_cols_)
    NNET3_INTERNAL_ERR << "CompressedMatrix: block " << row_offset << "+"
                       << num_rows << ", " << col_offset << "+" << num_cols
                       << " out of range for " << num_rows_ << " x "
                       << num_cols_;
  if (format_ == 1) {
    const uint8_t *headers = payload_.data();
    const uint8_t *bytes = headers + kColHeaderBytes * num_cols_;
    for (int32_t c = 0; c < num_cols; c++) {
      const uint8_t *hp = headers + kColHeaderBytes * (c + col_offset);
      float p0 = CodeToFloat(min_value_, range_, LoadU16(hp)),
            p25 = CodeToFloat(min_value_, range_, LoadU16(hp + 2)),
            p75 = CodeToFloat(min_value_, range_, LoadU16(hp + 4)),
            p100 = CodeToFloat(min_value_, range_, LoadU16(hp + 6));
      const uint8_t *col =
          bytes + static_cast<size_t>(c + col_offset) * num_rows_ + row_offset;
      for (int32_t r = 0; r < num_rows; r++)
        out[static_cast<size_t>(r) * stride + c] =
            ByteToValue(p0, p25, p75, p100, col[r]);
    }
    return;
  }
  // Kaldi: increment = range * (1.0 / levels) in double, stored as float;
  // then min + code * increment in float.
  bool two = format_ == 2;
  float increment =
      static_cast<float>(range_ * (two ? 1.0 / 65535.0 : 1.0 / 255.0));
  for (int32_t r = 0; r < num_rows; r++) {
    size_t base = static_cast<size_t>(r + row_offset) * num_cols_ + col_offset;
    float *row = out + static_cast<size_t>(r) * stride;
    for (int32_t c = 0; c < num_cols; c++) {
      uint16_t code =
          two ? LoadU16(payload_.data() + 2 * (base + c)) : payload_[base + c];
      float scaled = static_cast<float>(code) * increment;
      row[c] = min_value_ + scaled;
    }
  }
}

void CompressedMatrix::CopyToHost(std::vector<float> *data) const {
  data->resize(static_cast<size_t>(num_rows_) * num_cols_);
  if (!data->empty())
    DecompressBlock(0, 0, num_rows_, num_cols_, data->data(), num_cols_);
}

void CompressedMatrix::CopyToMatrix(MatrixView *mat, Trans trans) const {
  bool t = trans == Trans::kYes;
  int32_t rows = t ? mat->NumCols() : mat->NumRows(),
          cols = t ? mat->NumRows() : mat->NumCols();
  if (rows != num_rows_ || cols != num_cols_)
    NNET3_INTERNAL_ERR << "CompressedMatrix::CopyToMatrix: " << num_rows_
                       << " x " << num_cols_ << " into " << mat->NumRows()
                       << " x " << mat->NumCols();
  std::vector<float> host;
  CopyToHost(&host);
  if (!t) {
    mat->CopyFromHost(host.data(), std::max(num_cols_, 1));
    return;
  }
  std::vector<float> transposed(host.size());
  for (int32_t r = 0; r < num_rows_; r++)
    for (int32_t c = 0; c < num_cols_; c++)
      transposed[static_cast<size_t>(c) * num_rows_ + r] =
          host[static_cast<size_t>(r) * num_cols_ + c];
  mat->CopyFromHost(transposed.data(), std::max(num_rows_, 1));
}

void CompressedMatrix::CopyToMatrix(int32_t row_offset, int32_t col_offset,
                                    MatrixView *dest) const {
  int32_t rows = dest->NumRows(), cols = dest->NumCols();
  std::vector<float> host(static_cast<size_t>(rows) * cols);
  if (host.empty()) return;
  DecompressBlock(row_offset, col_offset, rows, cols, host.data(), cols);
  dest->CopyFromHost(host.data(), cols);
}

void CompressedMatrix::Scale(float alpha) {
  min_value_ *= alpha;
  range_ *= alpha;
}

void CompressedMatrix::Swap(CompressedMatrix *other) {
  std::swap(format_, other->format_);
  std::swap(min_value_, other->min_value_);
  std::swap(range_, other->range_);
  std::swap(num_rows_, other->num_rows_);
  std::swap(num_cols_, other->num_cols_);
  payload_.swap(other->payload_);
}

void CompressedMatrix::Clear() {
  format_ = 0;
  min_value_ = range_ = 0.0f;
  num_rows_ = num_cols_ = 0;
  payload_.clear();
}

void CompressedMatrix::Write(std::ostream &os, bool binary) const {
  if (!binary) {
    std::vector<float> host;
    CopyToHost(&host);
    matrix_io::WriteMatrix(os, binary, host.data(), num_rows_, num_cols_);
    return;
  }
  // The empty matrix is written as "CM " and a zero header.
  static const char *kTokens[] = {"CM", "CM", "CM2", "CM3"};
  WriteToken(os, binary, kTokens[format_]);
  char header[kGlobalHeaderBytes];
  std::memcpy(header, &min_value_, 4);
  std::memcpy(header + 4, &range_, 4);
  std::memcpy(header + 8, &num_rows_, 4);
  std::memcpy(header + 12, &num_cols_, 4);
  os.write(header, sizeof(header));
  if (!payload_.empty())
    os.write(reinterpret_cast<const char *>(payload_.data()),
             static_cast<std::streamsize>(payload_.size()));
  if (os.fail()) NNET3_ERR << "Write failure while writing a compressed matrix";
}

void CompressedMatrix::Read(std::istream &is, bool binary) {
  Clear();
  if (!binary || is.peek() != 'C') {
    // Text, or a full binary matrix: read it and compress, as Kaldi does.
    Matrix mat(CpuDevice());
    mat.Read(is, binary);
    CopyFromMatrix(mat);
    return;
  }
  std::string token = matrix_io::ReadBinaryToken(is, "CM, CM2 or CM3");
  int32_t format = token == "CM"    ? 1
                   : token == "CM2" ? 2
                   : token == "CM3" ? 3
                                    : 0;
  if (format == 0)
    NNET3_ERR << "Expected token CM, CM2 or CM3 (a compressed matrix) but "
              << "found '" << matrix_io::Printable(token) << "'";
  char header[kGlobalHeaderBytes];
  is.read(header, sizeof(header));
  if (is.gcount() != static_cast<std::streamsize>(sizeof(header)))
    NNET3_ERR << "truncated compressed matrix header: expected 16 bytes, got "
              << is.gcount();
  float min_value, range;
  int32_t rows, cols;
  std::memcpy(&min_value, header, 4);
  std::memcpy(&range, header + 4, 4);
  std::memcpy(&rows, header + 8, 4);
  std::memcpy(&cols, header + 12, 4);
  if (cols == 0) return;  // Kaldi's test for the empty matrix
  matrix_io::CheckReadSize(rows, cols, "compressed matrix");
  format_ = format;
  min_value_ = min_value;
  range_ = range;
  num_rows_ = rows;
  num_cols_ = cols;
  try {
    matrix_io::ReadRawBytes(is, static_cast<int64_t>(PayloadBytes()),
                            "compressed matrix", &payload_);
  } catch (...) {
    Clear();
    throw;
  }
  if (rows == 0) Clear();  // column headers without rows: still empty
}

}  // namespace nnet3
