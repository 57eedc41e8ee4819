#include "matrix/double-matrix.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <string>

#include "base/error.h"
#include "base/io-funcs.h"
#include "matrix/matrix-io.h"

namespace nnet3 {

namespace {

// Reads `count` raw floats or doubles as doubles.
void ReadRawDoubles(std::istream &is, int64_t count, bool is_double,
                    const char *what, std::vector<double> *out) {
  std::vector<uint8_t> bytes;
  const int64_t size = is_double ? 8 : 4;
  matrix_io::ReadRawBytes(is, count * size, what, &bytes);
  out->resize(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; i++) {
    if (is_double) {
      std::memcpy(&(*out)[i], bytes.data() + i * size, sizeof(double));
    } else {
      float f;
      std::memcpy(&f, bytes.data() + i * size, sizeof(float));
      (*out)[i] = f;
    }
  }
}

void WriteRawValues(std::ostream &os, const std::vector<double> &v,
                    WritePrecision precision) {
  if (precision == WritePrecision::kDouble) {
    if (!v.empty())
      os.write(reinterpret_cast<const char *>(v.data()),
               static_cast<std::streamsize>(sizeof(double) * v.size()));
    return;
  }
  std::vector<float> f(v.begin(), v.end());
  if (!f.empty())
    os.write(reinterpret_cast<const char *>(f.data()),
             static_cast<std::streamsize>(sizeof(float) * f.size()));
}

// Reads the binary token of a host object: `float_token` or its double twin
// (first letter 'D'); returns whether it is the double one.
bool ReadPrecisionToken(std::istream &is, const char *float_token,
                        const char *what) {
  std::string expected = std::string(float_token) + " or D" + (float_token + 1);
  std::string token = matrix_io::ReadBinaryToken(is, expected.c_str());
  const bool is_double =
      token.size() == 2 && token[0] == 'D' && token[1] == float_token[1];
  if (token != float_token && !is_double)
    NNET3_ERR << "Expected token " << expected << " (a binary " << what
              << ") but found '" << matrix_io::Printable(token) << "'";
  return is_double;
}

}  // namespace

void DoubleMatrix::Resize(int32_t r, int32_t c) {
  rows = r;
  cols = c;
  data.assign(static_cast<size_t>(r) * c, 0.0);
}

void DoubleMatrix::Read(std::istream &is, bool binary) {
  if (!binary) {
    std::vector<float> host;
    matrix_io::ReadTextMatrix(is, &rows, &cols, &host);
    data.assign(host.begin(), host.end());
    return;
  }
  bool is_double = ReadPrecisionToken(is, "FM", "matrix");
  int32_t r = 0, c = 0;
  ReadBasicType(is, binary, &r);
  ReadBasicType(is, binary, &c);
  matrix_io::CheckReadSize(r, c, "matrix");
  ReadRawDoubles(is, int64_t(r) * c, is_double, "matrix", &data);
  rows = r;
  cols = c;
}

void DoubleMatrix::Write(std::ostream &os, bool binary,
                         WritePrecision precision) const {
  if (binary) {
    WriteToken(os, binary, precision == WritePrecision::kDouble ? "DM" : "FM");
    WriteBasicType(os, binary, rows);
    WriteBasicType(os, binary, cols);
    WriteRawValues(os, data, precision);
  } else if (rows == 0 || cols == 0) {
    os << " [ ]\n";
  } else {
    os << " [";
    for (int32_t r = 0; r < rows; r++) {
      os << "\n  ";
      for (int32_t c = 0; c < cols; c++) os << (*this)(r, c) << " ";
    }
    os << "]\n";
  }
  if (os.fail()) NNET3_ERR << "Write failure while writing a matrix";
}

void ReadDoubleVector(std::istream &is, bool binary, std::vector<double> *v) {
  if (!binary) {
    std::vector<float> host;
    matrix_io::ReadTextVector(is, &host);
    v->assign(host.begin(), host.end());
    return;
  }
  bool is_double = ReadPrecisionToken(is, "FV", "vector");
  int32_t dim = 0;
  ReadBasicType(is, binary, &dim);
  matrix_io::CheckReadSize(1, dim, "vector");
  ReadRawDoubles(is, dim, is_double, "vector", v);
}

void WriteDoubleVector(std::ostream &os, bool binary,
                       const std::vector<double> &v, WritePrecision precision) {
  if (binary) {
    WriteToken(os, binary, precision == WritePrecision::kDouble ? "DV" : "FV");
    WriteBasicType(os, binary, static_cast<int32_t>(v.size()));
    WriteRawValues(os, v, precision);
  } else {
    os << " [ ";
    for (double x : v) os << x << " ";
    os << "]\n";
  }
  if (os.fail()) NNET3_ERR << "Write failure while writing a vector";
}

void DoubleSpMatrix::Resize(int32_t d) {
  dim = d;
  data.assign(static_cast<size_t>(d) * (d + 1) / 2, 0.0);
}

std::vector<double> DoubleSpMatrix::ToFull() const {
  std::vector<double> full(static_cast<size_t>(dim) * dim);
  for (int32_t i = 0; i < dim; i++)
    for (int32_t j = 0; j <= i; j++)
      full[static_cast<size_t>(i) * dim + j] =
          full[static_cast<size_t>(j) * dim + i] = (*this)(i, j);
  return full;
}

namespace {

// Kaldi's text packed matrix after its "[": numbers up to "]"; their count
// must be n (n + 1) / 2.
void ReadTextPacked(std::istream &is, DoubleSpMatrix *m) {
  std::vector<double> values;
  while (true) {
    is >> std::ws;
    int c = is.peek();
    if (c == EOF)
      NNET3_ERR << "Text packed matrix ended without ']' (truncated data?) "
                << "after " << values.size() << " values";
    if (c == ']') {
      is.get();
      if (is.peek() == '\n') is.get();
      break;
    }
    values.push_back(matrix_io::ReadFloatWord(is, "packed matrix data"));
  }
  const int32_t n = static_cast<int32_t>(std::sqrt(2.0 * values.size()));
  if (static_cast<size_t>(n) * (n + 1) / 2 != values.size())
    NNET3_ERR << "Text packed matrix has " << values.size()
              << " values, which is not n(n+1)/2 for any n";
  m->dim = n;
  m->data = std::move(values);
}

}  // namespace

void DoubleSpMatrix::Read(std::istream &is, bool binary) {
  if (!binary) {
    is >> std::ws;
    if (is.peek() == '[') {
      is.get();
      ReadTextPacked(is, this);
      return;
    }
  }
  std::string token;
  ReadToken(is, binary, &token);
  if (token != "FP" && token != "DP")
    NNET3_ERR << "Expected token FP or DP (a packed matrix) but found '"
              << matrix_io::Printable(token) << "'";
  int32_t d = 0;
  ReadBasicType(is, binary, &d);
  matrix_io::CheckReadSize(d, d, "packed matrix");
  const int64_t count = int64_t(d) * (d + 1) / 2;
  if (binary) {
    ReadRawDoubles(is, count, token == "DP", "packed matrix", &data);
  } else {
    data.resize(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; i++)
      data[i] = matrix_io::ReadFloatWord(is, "packed matrix data");
  }
  dim = d;
}

void DoubleSpMatrix::Write(std::ostream &os, bool binary,
                           WritePrecision precision) const {
  if (binary) {
    WriteToken(os, binary, precision == WritePrecision::kDouble ? "DP" : "FP");
    WriteBasicType(os, binary, dim);
    WriteRawValues(os, data, precision);
  } else if (dim == 0) {
    os << "[ ]\n";
  } else {
    os << "[\n";
    for (int32_t i = 0; i < dim; i++) {
      for (int32_t j = 0; j <= i; j++) os << (*this)(i, j) << " ";
      os << (i == dim - 1 ? "]\n" : "\n");
    }
  }
  if (os.fail()) NNET3_ERR << "Write failure while writing a packed matrix";
}

}  // namespace nnet3
