// Host-side helpers for the Kaldi matrix and vector formats, shared by
// Matrix, Vector, CompressedMatrix, SparseMatrix and GeneralMatrix. They work
// on host buffers (row-major, no padding) so that the device classes copy
// once and the host-only classes (CompressedMatrix) need no device at all.
//
// Every reader throws UserError with a one-line message on malformed or
// truncated input, and grows its buffer only as data actually arrives, so a
// corrupted size field cannot trigger a huge allocation.
#ifndef NNET3_MATRIX_MATRIX_IO_H_
#define NNET3_MATRIX_MATRIX_IO_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace nnet3 {
namespace matrix_io {

// Throws UserError unless 0 <= rows, 0 <= cols and rows * cols <=
// kMaxReadElements; `what` names the object ("matrix", "vector", ...).
void CheckReadSize(int64_t rows, int64_t cols, const char *what);

// Reads `count` raw little-endian floats (or doubles, converted to float)
// into *out (resized to count). Throws "truncated <what> data: expected N
// floats, got M" when the stream ends early.
void ReadRawValues(std::istream &is, int64_t count, bool is_double,
                   const char *what, std::vector<float> *out);

// Reads `bytes` raw bytes into *out, in chunks; throws like ReadRawValues.
void ReadRawBytes(std::istream &is, int64_t bytes, const char *what,
                  std::vector<uint8_t> *out);

// Reads a token in binary mode for a reader that expects one of a few
// tokens; the returned token may hold garbage (use Printable to show it).
std::string ReadBinaryToken(std::istream &is, const char *expected);

// `s` with non-printable characters escaped and long strings cut, for
// error messages.
std::string Printable(const std::string &s);

// Skips whitespace and reads one number word (ended by whitespace, ']' or
// ';'), accepting inf / nan as Kaldi's readers do. Throws UserError naming
// `what` when there is no number.
float ReadFloatWord(std::istream &is, const char *what);

// Kaldi's text matrix: "[", rows of numbers ended by newline or ';', "]";
// "[]" is empty; inf / nan are accepted. Leading whitespace is skipped and
// one newline after "]" is consumed.
void ReadTextMatrix(std::istream &is, int32_t *rows, int32_t *cols,
                    std::vector<float> *data);
// Kaldi's text vector "[ 1 2 3 ]" (no newline inside).
void ReadTextVector(std::istream &is, std::vector<float> *data);

// Writers for host data (row-major; row r starts at data + r * stride, and
// stride 0 means cols: no padding).
void WriteMatrix(std::ostream &os, bool binary, const float *data, int32_t rows,
                 int32_t cols, int32_t stride = 0);
void WriteVector(std::ostream &os, bool binary, const float *data, int32_t dim);

// Kaldi's double-precision forms (binary "DV" / "DM", text as for floats),
// for statistics kept in doubles on the host (e.g. the attention
// component's). The readers also accept "FV" / "FM"; binary doubles are
// read exactly, text values at float precision.
void WriteDoubleVector(std::ostream &os, bool binary,
                       const std::vector<double> &v);
void WriteDoubleMatrix(std::ostream &os, bool binary,
                       const std::vector<double> &data, int32_t rows,
                       int32_t cols);
void ReadDoubleVector(std::istream &is, bool binary, std::vector<double> *v);
void ReadDoubleMatrix(std::istream &is, bool binary, std::vector<double> *data,
                      int32_t *rows, int32_t *cols);

}  // namespace matrix_io
}  // namespace nnet3

#endif  // NNET3_MATRIX_MATRIX_IO_H_
