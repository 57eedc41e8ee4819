#include "matrix/matrix-io.h"

#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "matrix/matrix-common.h"

namespace nnet3 {
namespace matrix_io {

namespace {

// Values read per chunk: the buffer only grows as far as the data goes.
constexpr int64_t kChunkBytes = int64_t(1) << 22;

// One line of what comes next in the stream, for error messages.
std::string DescribeNext(std::istream &is) {
  is.clear();
  std::string shown;
  for (int i = 0; i < 16; i++) {
    int c = is.get();
    if (c == EOF) break;
    shown += static_cast<char>(c);
  }
  if (shown.empty()) return "end of file";
  return "'" + Printable(shown) + "'";
}

// Parses one number word (already delimited) as Kaldi's readers do: a float
// as `is >> float` would give it, or inf / infinity / nan in any case.
bool ParseFloatWord(const std::string &word, float *value) {
  if (word.empty()) return false;
  const char *s = word.c_str();
  char *end = nullptr;
  float v = std::strtof(s, &end);
  if (end == s + word.size()) {
    *value = v;
    return true;
  }
  const char *p = s;
  bool negative = false;
  if (*p == '-' || *p == '+') negative = (*p++ == '-');
  if (strcasecmp(p, "inf") == 0 || strcasecmp(p, "infinity") == 0) {
    *value = negative ? -std::numeric_limits<float>::infinity()
                      : std::numeric_limits<float>::infinity();
    return true;
  }
  if (strcasecmp(p, "nan") == 0) {
    *value = std::numeric_limits<float>::quiet_NaN();
    return true;
  }
  return false;
}

// Reads characters up to whitespace, ']', ';' or end of file.
std::string ReadWord(std::istream &is) {
  std::string word;
  while (true) {
    int c = is.peek();
    if (c == EOF || std::isspace(c) || c == ']' || c == ';') break;
    word += static_cast<char>(is.get());
  }
  return word;
}

// After the closing ']': eats "\n" or "\r\n", as Kaldi's readers do.
void EatNewlineAfterBracket(std::istream &is) {
  int c = is.peek();
  if (c == '\r') {
    is.get();
    if (is.peek() == '\n') is.get();
  } else if (c == '\n') {
    is.get();
  }
}

// Skips whitespace and consumes the opening '[' of a text matrix or vector.
void ExpectOpenBracket(std::istream &is, const char *what) {
  is >> std::ws;
  int c = is.peek();
  if (c != '[')
    NNET3_ERR << "Expected '[' at the start of a text " << what << " but found "
              << DescribeNext(is);
  is.get();
}

// Grows a read buffer; running out of memory is a UserError that says how
// much the object needs (`total_bytes`), not a bare std::bad_alloc.
[[noreturn]] void OutOfMemory(int64_t total_bytes, const char *what) {
  std::ostringstream message;
  message << "Out of memory: could not allocate the " << total_bytes
          << " bytes needed to read a " << what
          << " (raise the memory limit, e.g. ulimit -v)";
  throw UserError(message.str(), SourceLocation{__FILE__, __LINE__, __func__});
}

template <class T>
void ResizeOrFail(std::vector<T> *v, int64_t size, int64_t total_bytes,
                  const char *what) {
  try {
    v->resize(size);
  } catch (const std::bad_alloc &) {
    OutOfMemory(total_bytes, what);
  }
}

// Reserves room for `count` items of `width` bytes each in the file only
// when the stream is known to still hold them all (no regrowth); otherwise
// the reader grows the buffer chunk by chunk as the data arrives, so that
// a count larger than the file never allocates more than the file holds
// (and the truncation is reported with what was read).
template <class T>
void ReserveIfHeld(std::istream &is, std::vector<T> *v, int64_t count,
                   int64_t width, const char *what) {
  const int64_t left = StreamBytesLeft(is);
  if (left < 0 || count > left / width) return;
  try {
    v->reserve(count);
  } catch (const std::bad_alloc &) {
    OutOfMemory(count * static_cast<int64_t>(sizeof(T)), what);
  }
}

}  // namespace

void CheckReadSize(int64_t rows, int64_t cols, const char *what) {
  if (rows < 0 || cols < 0)
    NNET3_ERR << "Bad " << what << " size " << rows << " x " << cols
              << " (negative; corrupted data?)";
  if (rows * cols > kMaxReadElements)
    NNET3_ERR << "Refusing to read a " << what << " of " << rows << " x "
              << cols << " elements (more than " << kMaxReadElements
              << "; corrupted data?)";
}

void ReadRawBytes(std::istream &is, int64_t bytes, const char *what,
                  std::vector<uint8_t> *out) {
  out->clear();
  ReserveIfHeld(is, out, bytes, 1, what);
  int64_t done = 0;
  while (done < bytes) {
    int64_t n = std::min(kChunkBytes, bytes - done);
    ResizeOrFail(out, done + n, bytes, what);
    is.read(reinterpret_cast<char *>(out->data() + done), n);
    done += is.gcount();
    if (is.gcount() != n) {
      out->resize(done);
      NNET3_ERR << "truncated " << what << " data: expected " << bytes
                << " bytes, got " << done;
    }
  }
}

void ReadRawValues(std::istream &is, int64_t count, bool is_double,
                   const char *what, std::vector<float> *out) {
  size_t width = is_double ? sizeof(double) : sizeof(float);
  const char *unit = is_double ? "doubles" : "floats";
  out->clear();
  ReserveIfHeld(is, out, count, static_cast<int64_t>(width), what);
  int64_t per_chunk = kChunkBytes / static_cast<int64_t>(width);
  std::vector<double> dbuf;
  int64_t done = 0;
  while (done < count) {
    int64_t n = std::min(per_chunk, count - done);
    ResizeOrFail(out, done + n, count * static_cast<int64_t>(sizeof(float)),
                 what);
    int64_t got;
    if (is_double) {
      dbuf.resize(n);
      is.read(reinterpret_cast<char *>(dbuf.data()), n * width);
      got = is.gcount() / static_cast<int64_t>(width);
      for (int64_t i = 0; i < got; i++)
        (*out)[done + i] = static_cast<float>(dbuf[i]);
    } else {
      is.read(reinterpret_cast<char *>(out->data() + done), n * width);
      got = is.gcount() / static_cast<int64_t>(width);
    }
    done += got;
    if (got != n)
      NNET3_ERR << "truncated " << what << " data: expected " << count << " "
                << unit << ", got " << done;
  }
}

std::string ReadBinaryToken(std::istream &is, const char *expected) {
  std::string token;
  is >> token;
  if (is.fail())
    NNET3_ERR << "Expected token " << expected << " but found end of file";
  int c = is.peek();
  if (c == ' ') is.get();
  return token;
}

std::string Printable(const std::string &s) {
  std::string out;
  for (size_t i = 0; i < s.size() && i < 32; i++) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isprint(c)) {
      out += static_cast<char>(c);
    } else {
      const char *hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (s.size() > 32) out += "...";
  return out;
}

float ReadFloatWord(std::istream &is, const char *what) {
  is >> std::ws;
  std::string word = ReadWord(is);
  float v;
  if (!ParseFloatWord(word, &v))
    NNET3_ERR << "Expected a number in " << what << " but found "
              << (word.empty() ? DescribeNext(is)
                               : "'" + Printable(word) + "'");
  return v;
}

void ReadTextMatrix(std::istream &is, int32_t *rows, int32_t *cols,
                    std::vector<float> *data) {
  ExpectOpenBracket(is, "matrix");
  data->clear();
  int64_t num_rows = 0, num_cols = -1, cur_row = 0;
  auto end_row = [&]() {
    if (cur_row == 0) return;
    if (num_cols >= 0 && cur_row != num_cols)
      NNET3_ERR << "Text matrix has inconsistent row lengths: row " << num_rows
                << " has " << cur_row << " values, expected " << num_cols;
    num_cols = cur_row;
    num_rows++;
    cur_row = 0;
  };
  while (true) {
    int c = is.peek();
    if (c == EOF) {
      NNET3_ERR << "Text matrix ended without ']' (truncated data?) after "
                << num_rows << " rows";
    } else if (c == ']') {
      is.get();
      end_row();
      EatNewlineAfterBracket(is);
      break;
    } else if (c == '\n' || c == ';') {
      is.get();
      end_row();
    } else if (std::isspace(c)) {
      is.get();
    } else {
      std::string word = ReadWord(is);
      float v;
      if (!ParseFloatWord(word, &v))
        NNET3_ERR << "Expected a number in text matrix data but found '"
                  << Printable(word) << "'";
      if (static_cast<int64_t>(data->size()) >= kMaxReadElements)
        NNET3_ERR << "Text matrix has more than " << kMaxReadElements
                  << " elements";
      data->push_back(v);
      cur_row++;
    }
  }
  if (num_rows == 0) num_cols = 0;
  CheckReadSize(num_rows, num_cols, "matrix");
  *rows = static_cast<int32_t>(num_rows);
  *cols = static_cast<int32_t>(num_cols);
}

void ReadTextVector(std::istream &is, std::vector<float> *data) {
  ExpectOpenBracket(is, "vector");
  data->clear();
  while (true) {
    int c = is.peek();
    if (c == EOF) {
      NNET3_ERR << "Text vector ended without ']' (truncated data?) after "
                << data->size() << " values";
    } else if (c == ']') {
      is.get();
      EatNewlineAfterBracket(is);
      return;
    } else if (c == '\n' || c == '\r') {
      NNET3_ERR << "Newline found while reading a text vector (maybe it is "
                   "a matrix?)";
    } else if (std::isspace(c)) {
      is.get();
    } else {
      std::string word = ReadWord(is);
      float v;
      if (!ParseFloatWord(word, &v))
        NNET3_ERR << "Expected a number in text vector data but found '"
                  << Printable(word) << "'";
      if (static_cast<int64_t>(data->size()) >= kMaxReadElements)
        NNET3_ERR << "Text vector has more than " << kMaxReadElements
                  << " elements";
      data->push_back(v);
    }
  }
}

void WriteMatrix(std::ostream &os, bool binary, const float *data, int32_t rows,
                 int32_t cols, int32_t stride) {
  if (stride == 0) stride = cols;
  if (binary) {
    WriteToken(os, binary, "FM");
    WriteBasicType(os, binary, rows);
    WriteBasicType(os, binary, cols);
    const size_t n = static_cast<size_t>(rows) * static_cast<size_t>(cols);
    if (n > 0 && stride == cols) {
      os.write(reinterpret_cast<const char *>(data), sizeof(float) * n);
    } else if (n > 0) {
      for (int32_t r = 0; r < rows; r++)
        os.write(reinterpret_cast<const char *>(
                     data + static_cast<size_t>(r) * stride),
                 sizeof(float) * cols);
    }
  } else if (rows == 0 || cols == 0) {
    os << " [ ]\n";
  } else {
    os << " [";
    for (int32_t r = 0; r < rows; r++) {
      os << "\n  ";
      const float *row = data + static_cast<size_t>(r) * stride;
      for (int32_t c = 0; c < cols; c++) os << row[c] << " ";
    }
    os << "]\n";
  }
  if (os.fail()) NNET3_ERR << "Write failure while writing a matrix";
}

void WriteVector(std::ostream &os, bool binary, const float *data,
                 int32_t dim) {
  if (binary) {
    WriteToken(os, binary, "FV");
    WriteBasicType(os, binary, dim);
    if (dim > 0)
      os.write(reinterpret_cast<const char *>(data), sizeof(float) * dim);
  } else {
    os << " [ ";
    for (int32_t i = 0; i < dim; i++) os << data[i] << " ";
    os << "]\n";
  }
  if (os.fail()) NNET3_ERR << "Write failure while writing a vector";
}

namespace {

// Reads `count` binary values, exactly for doubles.
void ReadRawDoubles(std::istream &is, int64_t count, bool is_double,
                    const char *what, std::vector<double> *out) {
  out->clear();
  if (!is_double) {
    std::vector<float> f;
    ReadRawValues(is, count, false, what, &f);
    out->assign(f.begin(), f.end());
    return;
  }
  std::vector<uint8_t> bytes;
  ReadRawBytes(is, count * static_cast<int64_t>(sizeof(double)), what, &bytes);
  out->resize(count);
  if (count > 0) std::memcpy(out->data(), bytes.data(), bytes.size());
}

}  // namespace

void WriteDoubleVector(std::ostream &os, bool binary,
                       const std::vector<double> &v) {
  const int32_t dim = static_cast<int32_t>(v.size());
  if (binary) {
    WriteToken(os, binary, "DV");
    WriteBasicType(os, binary, dim);
    if (dim > 0)
      os.write(reinterpret_cast<const char *>(v.data()), sizeof(double) * dim);
  } else {
    os << " [ ";
    for (double x : v) os << x << " ";
    os << "]\n";
  }
  if (os.fail()) NNET3_ERR << "Write failure while writing a vector";
}

void WriteDoubleMatrix(std::ostream &os, bool binary,
                       const std::vector<double> &data, int32_t rows,
                       int32_t cols) {
  NNET3_ASSERT(data.size() == static_cast<size_t>(rows) * cols);
  if (binary) {
    WriteToken(os, binary, "DM");
    WriteBasicType(os, binary, rows);
    WriteBasicType(os, binary, cols);
    if (!data.empty())
      os.write(reinterpret_cast<const char *>(data.data()),
               sizeof(double) * data.size());
  } else if (rows == 0 || cols == 0) {
    os << " [ ]\n";
  } else {
    os << " [";
    for (int32_t r = 0; r < rows; r++) {
      os << "\n  ";
      for (int32_t c = 0; c < cols; c++)
        os << data[static_cast<size_t>(r) * cols + c] << " ";
    }
    os << "]\n";
  }
  if (os.fail()) NNET3_ERR << "Write failure while writing a matrix";
}

void ReadDoubleVector(std::istream &is, bool binary, std::vector<double> *v) {
  if (!binary) {
    std::vector<float> f;
    ReadTextVector(is, &f);
    v->assign(f.begin(), f.end());
    return;
  }
  std::string token = ReadBinaryToken(is, "FV or DV");
  if (token != "FV" && token != "DV")
    NNET3_ERR << "Expected token FV or DV (a binary vector) but found '"
              << Printable(token) << "'";
  int32_t dim;
  ReadBasicType(is, binary, &dim);
  CheckReadSize(1, dim, "vector");
  ReadRawDoubles(is, dim, token == "DV", "vector", v);
}

void ReadDoubleMatrix(std::istream &is, bool binary, std::vector<double> *data,
                      int32_t *rows, int32_t *cols) {
  if (!binary) {
    std::vector<float> f;
    ReadTextMatrix(is, rows, cols, &f);
    data->assign(f.begin(), f.end());
    return;
  }
  std::string token = ReadBinaryToken(is, "FM or DM");
  if (token != "FM" && token != "DM")
    NNET3_ERR << "Expected token FM or DM (a binary matrix) but found '"
              << Printable(token) << "'";
  ReadBasicType(is, binary, rows);
  ReadBasicType(is, binary, cols);
  CheckReadSize(*rows, *cols, "matrix");
  ReadRawDoubles(is, static_cast<int64_t>(*rows) * *cols, token == "DM",
                 "matrix", data);
}

}  // namespace matrix_io
}  // namespace nnet3
