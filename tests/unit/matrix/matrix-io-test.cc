// Matrix and Vector formats: golden files (built by make-golden.py from the
// spec) read back and re-written byte for byte, round trips, text variants
// and malformed input.
#include "matrix/matrix-io.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <sstream>
#include <string>

#include "matrix-test-utils.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"

namespace nnet3 {
namespace {

using test::ReadGolden;
using test::ReadObject;
using test::WriteObject;

// Reads `bytes` as a Matrix and returns the UserError message (fails the
// test if there is none, or if it spans several lines).
template <class T>
std::string ReadError(const std::string &bytes) {
  T obj;
  try {
    ReadObject(bytes, &obj);
  } catch (const UserError &e) {
    std::string msg = e.what();
    INFO("message: " << msg);
    REQUIRE(msg.find('\n') == std::string::npos);
    return msg;
  }
  FAIL("no UserError for malformed input");
  return "";
}

Matrix TextMatrix(const std::string &text) {
  Matrix m;
  std::istringstream is(text);
  m.Read(is, false);
  return m;
}

TEST_CASE("Matrix golden files: FM, DM, text, empty", "[matrix-io]") {
  std::string fm = ReadGolden("fm-2x3.bin");
  Matrix m;
  REQUIRE(ReadObject(fm, &m));
  REQUIRE(m.NumRows() == 2);
  REQUIRE(m.NumCols() == 3);
  REQUIRE(m.ToHost() == std::vector<float>{1, -2.5f, 0.125f, 3.75f, 0, 100});
  REQUIRE(WriteObject(m, true) == fm);
  REQUIRE(WriteObject(m, false) == ReadGolden("fm-2x3.txt"));

  Matrix d;
  REQUIRE(ReadObject(ReadGolden("dm-2x3.bin"), &d));
  REQUIRE(WriteObject(d, true) == fm);

  std::string txt = ReadGolden("fm-2x3.txt");
  Matrix t;
  REQUIRE_FALSE(ReadObject(txt, &t));
  REQUIRE(WriteObject(t, false) == txt);
  REQUIRE(WriteObject(t, true) == fm);

  Matrix e(3, 3);
  REQUIRE(ReadObject(ReadGolden("fm-empty.bin"), &e));
  REQUIRE(e.NumRows() == 0);
  REQUIRE(e.NumCols() == 0);
  REQUIRE(WriteObject(e, true) == ReadGolden("fm-empty.bin"));
  REQUIRE(WriteObject(e, false) == ReadGolden("fm-empty.txt"));
  Matrix et(2, 2);
  REQUIRE_FALSE(ReadObject(ReadGolden("fm-empty.txt"), &et));
  REQUIRE(et.NumRows() == 0);
  REQUIRE(WriteObject(et, true) == ReadGolden("fm-empty.bin"));
}

TEST_CASE("Matrix text with inf and nan", "[matrix-io]") {
  std::string txt = ReadGolden("fm-infnan.txt");
  Matrix m;
  ReadObject(txt, &m);
  std::vector<float> v = m.ToHost();
  REQUIRE(v.size() == 4);
  REQUIRE(v[0] == 1.0f);
  REQUIRE((std::isinf(v[1]) && v[1] > 0));
  REQUIRE((std::isinf(v[2]) && v[2] < 0));
  REQUIRE(std::isnan(v[3]));
  REQUIRE(WriteObject(m, false) == txt);
  std::string bin = WriteObject(m, true);
  Matrix b;
  ReadObject(bin, &b);
  REQUIRE(WriteObject(b, true) == bin);
  REQUIRE(WriteObject(b, false) == txt);
}

TEST_CASE("Matrix text variants Kaldi accepts", "[matrix-io]") {
  const std::vector<float> want = {1, 2, 3, 4};
  for (const char *text :
       {"[ 1 2 ; 3 4 ]", " [\n  1 2 \n  3 4 ]\n", "[1 2\n3 4]",
        "  [ 1 2 \r\n  3 4 \r\n ]\r\n", "[ 1 2 ;\n 3 4 ; ]"}) {
    INFO("text: " << text);
    Matrix m = TextMatrix(text);
    REQUIRE(m.NumRows() == 2);
    REQUIRE(m.NumCols() == 2);
    REQUIRE(m.ToHost() == want);
  }
  REQUIRE(TextMatrix("[]").NumRows() == 0);
  REQUIRE(TextMatrix(" [ ]\n").NumRows() == 0);
  Matrix special = TextMatrix("[ INF -Infinity NaN -inf ]");
  std::vector<float> v = special.ToHost();
  REQUIRE((std::isinf(v[0]) && v[0] > 0 && std::isinf(v[1]) && v[1] < 0));
  REQUIRE((std::isnan(v[2]) && std::isinf(v[3])));
  // One newline after ']' is consumed, nothing more.
  std::istringstream is(" [\n  1 ]\n\nnext");
  Matrix one;
  one.Read(is, false);
  REQUIRE(is.get() == '\n');
}

TEST_CASE("Matrix random round trips", "[matrix-io]") {
  std::mt19937 rng(31);
  INFO("seed 31");
  for (auto shape :
       {std::make_pair(1, 1), std::make_pair(7, 9), std::make_pair(20, 3)}) {
    Matrix parent(shape.first + 1, shape.second + 3);
    parent.SetRandn(rng());
    MatrixView m = parent.Range(1, shape.first, 2, shape.second);
    std::string bin = WriteObject(m, true);
    REQUIRE(bin.size() == 2 + 3 + 10 + 4 * size_t(shape.first) * shape.second);
    Matrix back;
    ReadObject(bin, &back);
    REQUIRE(back.ToHost() == m.ToHost());
    REQUIRE(WriteObject(back, true) == bin);
    std::string txt = WriteObject(m, false);
    Matrix tback;
    ReadObject(txt, &tback);
    REQUIRE(m.ApproxEqual(tback, 1e-6f));
    REQUIRE(WriteObject(tback, false) == txt);
  }
}

TEST_CASE("Matrix malformed input", "[matrix-io]") {
  std::string fm = ReadGolden("fm-2x3.bin");
  REQUIRE(ReadError<Matrix>(std::string("\0BXY ", 5) + fm.substr(5))
              .find("Expected token FM, DM") != std::string::npos);
  REQUIRE(ReadError<Matrix>(fm.substr(0, fm.size() - 4)) ==
          "truncated matrix data: expected 6 floats, got 5");
  REQUIRE(ReadError<Matrix>(ReadGolden("dm-2x3.bin").substr(0, 30))
              .find("truncated matrix data: expected 6 doubles") == 0);
  ReadError<Matrix>(fm.substr(0, 8));        // rows present, cols missing
  ReadError<Matrix>(fm.substr(0, 5));        // no dimensions at all
  ReadError<Matrix>(std::string("\0B", 2));  // nothing
  // Absurd or negative sizes from a corrupted header.
  std::string huge = fm.substr(0, 5) + std::string("\x04\xff\xff\xff\x7f", 5) +
                     std::string("\x04\xff\xff\xff\x7f", 5) + "xx";
  REQUIRE(ReadError<Matrix>(huge).find("Refusing") != std::string::npos);
  std::string neg =
      fm.substr(0, 5) + std::string("\x04\xff\xff\xff\xff", 5) + fm.substr(10);
  ReadError<Matrix>(neg);
  // Text.
  REQUIRE(ReadError<Matrix>("[ 1 2 \n 3 ]").find("inconsistent") !=
          std::string::npos);
  REQUIRE(ReadError<Matrix>("[ 1 x2 ]").find("'x2'") != std::string::npos);
  ReadError<Matrix>("[ 1 2 \n 3 4");
  ReadError<Matrix>("1 2 ]");
  ReadError<Matrix>("");
}

TEST_CASE("Vector golden files and round trips", "[matrix-io]") {
  std::string fv = ReadGolden("fv-4.bin");
  Vector v;
  REQUIRE(ReadObject(fv, &v));
  REQUIRE(v.Dim() == 4);
  REQUIRE(v.Get(3) == 1e-05f);
  REQUIRE(WriteObject(v, true) == fv);
  REQUIRE(WriteObject(v, false) == ReadGolden("fv-4.txt"));
  Vector d;
  ReadObject(ReadGolden("dv-4.bin"), &d);
  REQUIRE(WriteObject(d, true) == fv);
  Vector t;
  REQUIRE_FALSE(ReadObject(ReadGolden("fv-4.txt"), &t));
  REQUIRE(WriteObject(t, true) == fv);
  REQUIRE(WriteObject(t, false) == ReadGolden("fv-4.txt"));
  Vector e(3);
  ReadObject(ReadGolden("fv-empty.bin"), &e);
  REQUIRE(e.Dim() == 0);
  REQUIRE(WriteObject(e, false) == ReadGolden("fv-empty.txt"));
  ReadObject(ReadGolden("fv-empty.txt"), &e);
  REQUIRE(WriteObject(e, true) == ReadGolden("fv-empty.bin"));
  Vector special;
  ReadObject("[ 1 inf -inf nan ]", &special);
  REQUIRE(std::isnan(special.Get(3)));
  ReadObject("[]", &special);
  REQUIRE(special.Dim() == 0);

  REQUIRE(ReadError<Vector>(fv.substr(0, fv.size() - 1)) ==
          "truncated vector data: expected 4 floats, got 3");
  REQUIRE(ReadError<Vector>(std::string("\0BFM ", 5) + fv.substr(5))
              .find("Expected token FV or DV") != std::string::npos);
  REQUIRE(ReadError<Vector>("[ 1 2\n 3 ]").find("Newline") !=
          std::string::npos);
  ReadError<Vector>("[ 1 2");
  ReadError<Vector>("[ 1 ,2 ]");
}

}  // namespace
}  // namespace nnet3

namespace nnet3 {
namespace {

// The bytes of Kaldi's binary double vector / matrix, built from the spec:
// token, space, int32 sizes (each with its size byte 4), raw doubles.
std::string DoubleBytes(const std::string &token, std::vector<int32_t> sizes,
                        const std::vector<double> &values) {
  std::string s = token + " ";
  for (int32_t n : sizes) {
    s += '\4';
    s.append(reinterpret_cast<const char *>(&n), 4);
  }
  s.append(reinterpret_cast<const char *>(values.data()),
           values.size() * sizeof(double));
  return s;
}

}  // namespace

TEST_CASE("Double-precision vectors and matrices (DV, DM)", "[matrix-io]") {
  const std::vector<double> v = {1.0 / 3, -2.5, 1e-300};
  std::ostringstream os;
  matrix_io::WriteDoubleVector(os, true, v);
  CHECK(os.str() == DoubleBytes("DV", {3}, v));
  std::istringstream is(os.str());
  std::vector<double> r;
  matrix_io::ReadDoubleVector(is, true, &r);
  CHECK(r == v);  // exact
  std::ostringstream ot;
  matrix_io::WriteDoubleVector(ot, false, {1.5, -2});
  CHECK(ot.str() == " [ 1.5 -2 ]\n");
  std::istringstream it(ot.str());
  matrix_io::ReadDoubleVector(it, false, &r);
  CHECK(r == std::vector<double>{1.5, -2});
  // Float forms are accepted.
  std::ostringstream of;
  Vector fv(std::vector<float>{0.25f, 4.0f});
  fv.Write(of, true);
  std::istringstream ifv(of.str());
  matrix_io::ReadDoubleVector(ifv, true, &r);
  CHECK(r == std::vector<double>{0.25, 4.0});

  const std::vector<double> m = {1, 2, 3, 4, 5, 6.125};
  std::ostringstream om;
  matrix_io::WriteDoubleMatrix(om, true, m, 2, 3);
  CHECK(om.str() == DoubleBytes("DM", {2, 3}, m));
  std::istringstream im(om.str());
  int32_t rows = 0, cols = 0;
  matrix_io::ReadDoubleMatrix(im, true, &r, &rows, &cols);
  CHECK(rows == 2);
  CHECK(cols == 3);
  CHECK(r == m);
  std::ostringstream omt;
  matrix_io::WriteDoubleMatrix(omt, false, m, 2, 3);
  CHECK(omt.str() == " [\n  1 2 3 \n  4 5 6.125 ]\n");
  std::ostringstream oe;
  matrix_io::WriteDoubleMatrix(oe, false, {}, 0, 0);
  CHECK(oe.str() == " [ ]\n");
  std::istringstream bad("DV \4\2\0\0\0" + std::string(8, '\0'));
  CHECK_THROWS_AS(matrix_io::ReadDoubleVector(bad, true, &r), UserError);
}

}  // namespace nnet3
