// DoubleMatrix / DoubleSpMatrix / host vectors: round trips in both modes and
// precisions, reading the other precision, golden bytes of the binary
// format, CMVN stats against a direct computation, and bad input.
#include "matrix/double-matrix.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <sstream>
#include <string>

#include "base/error.h"
#include "matrix/cmvn.h"
#include "matrix/matrix.h"

namespace nnet3 {
namespace {

DoubleMatrix Example() {
  DoubleMatrix m(2, 3);
  const double v[] = {1.5, -2, 0.1, 1e10, 3.25, -7};
  for (int i = 0; i < 6; i++) m.data[i] = v[i];
  return m;
}

TEST_CASE("DoubleMatrix round trips", "[double-matrix]") {
  const DoubleMatrix m = Example();
  for (bool binary : {true, false}) {
    for (WritePrecision p : {WritePrecision::kFloat, WritePrecision::kDouble}) {
      INFO("binary " << binary << " double " << (p == WritePrecision::kDouble));
      std::stringstream ss;
      m.Write(ss, binary, p);
      DoubleMatrix back;
      back.Read(ss, binary);
      REQUIRE(back.rows == 2);
      REQUIRE(back.cols == 3);
      for (int i = 0; i < 6; i++) {
        const double tol = (p == WritePrecision::kDouble && binary) ? 0 : 1e-6;
        CHECK(std::abs(back.data[i] - m.data[i]) <= tol * std::abs(m.data[i]));
      }
    }
  }
}

TEST_CASE("DoubleMatrix binary format is Kaldi's DM / FM", "[double-matrix]") {
  DoubleMatrix m(1, 1);
  m.data[0] = 0.5;
  std::ostringstream dm, fm;
  m.Write(dm, true, WritePrecision::kDouble);
  m.Write(fm, true, WritePrecision::kFloat);
  double d = 0.5;
  float f = 0.5f;
  std::string want_dm("DM \x04\x01\0\0\0\x04\x01\0\0\0", 13);
  want_dm.append(reinterpret_cast<const char *>(&d), 8);
  std::string want_fm("FM \x04\x01\0\0\0\x04\x01\0\0\0", 13);
  want_fm.append(reinterpret_cast<const char *>(&f), 4);
  CHECK(dm.str() == want_dm);
  CHECK(fm.str() == want_fm);
}

TEST_CASE("Host vectors and packed matrices round trip", "[double-matrix]") {
  const std::vector<double> v = {1, -0.5, 3e-3};
  DoubleSpMatrix s(3);
  for (size_t k = 0; k < s.data.size(); k++) s.data[k] = 0.25 * k - 1;
  for (bool binary : {true, false}) {
    std::stringstream ss;
    WriteDoubleVector(ss, binary, v, WritePrecision::kFloat);
    s.Write(ss, binary, WritePrecision::kDouble);
    std::vector<double> v2;
    DoubleSpMatrix s2;
    ReadDoubleVector(ss, binary, &v2);
    s2.Read(ss, binary);
    REQUIRE(v2.size() == 3);
    for (int i = 0; i < 3; i++) CHECK(v2[i] == Approx(v[i]).epsilon(1e-6));
    REQUIRE(s2.dim == 3);
    CHECK(s2.data == s.data);
  }
  // Kaldi's text form: the lower triangle row by row.
  std::ostringstream text;
  s.Write(text, false);
  CHECK(text.str() == "[\n-1 \n-0.75 -0.5 \n-0.25 0 0.25 ]\n");
  const std::vector<double> full = s.ToFull();
  CHECK(full[1] == -0.75);
  CHECK(full[3] == -0.75);
}

TEST_CASE("Host readers reject bad input", "[double-matrix]") {
  DoubleMatrix m;
  std::istringstream wrong("FV \x04\x01\0\0\0", std::ios::binary);
  CHECK_THROWS_AS(m.Read(wrong, true), UserError);
  std::istringstream truncated(
      std::string("DM \x04\x02\0\0\0\x04\x02\0\0\0", 13) + "abc");
  CHECK_THROWS_AS(m.Read(truncated, true), UserError);
  DoubleSpMatrix s;
  std::istringstream not_triangular("[ 1 2 ]\n");
  CHECK_THROWS_AS(s.Read(not_triangular, false), UserError);
  std::istringstream unterminated("[ 1 2 3\n");
  CHECK_THROWS_AS(s.Read(unterminated, false), UserError);
}

TEST_CASE("CMVN stats and their application", "[cmvn]") {
  Matrix feats(3, 2, ResizeType::kSetZero, CpuDevice());
  feats.CopyFromHost(std::vector<float>{1, 2, 3, 6, 5, 1});
  DoubleMatrix stats;
  InitCmvnStats(2, &stats);
  AccCmvnStats(feats, nullptr, &stats);
  CHECK(stats(0, 0) == 9);
  CHECK(stats(0, 1) == 9);
  CHECK(stats(0, 2) == 3);
  CHECK(stats(1, 0) == 35);
  CHECK(stats(1, 1) == 41);
  Matrix normed(feats);
  ApplyCmvn(stats, true, &normed);
  const std::vector<float> x = normed.ToHost();
  for (int d = 0; d < 2; d++) {
    double sum = 0, sum2 = 0;
    for (int r = 0; r < 3; r++) {
      sum += x[r * 2 + d];
      sum2 += x[r * 2 + d] * x[r * 2 + d];
    }
    CHECK(std::abs(sum) < 1e-5);
    CHECK(sum2 / 3 == Approx(1.0).epsilon(1e-5));
  }
  ApplyCmvnReverse(stats, true, &normed);
  CHECK(normed.ApproxEqual(feats, 1e-5f));
  DoubleMatrix wrong_dim;
  InitCmvnStats(3, &wrong_dim);
  CHECK_THROWS_AS(ApplyCmvn(wrong_dim, false, &normed), UserError);
  DoubleMatrix no_count;
  InitCmvnStats(2, &no_count);
  CHECK_THROWS_AS(ApplyCmvn(no_count, false, &normed), UserError);
}

}  // namespace
}  // namespace nnet3
