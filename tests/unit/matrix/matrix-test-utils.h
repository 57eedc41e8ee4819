// Helpers shared by the matrix-layer unit tests: golden-file access, host
// reference matrices and byte-exact write checks.
#ifndef NNET3_TESTS_UNIT_MATRIX_MATRIX_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_MATRIX_MATRIX_TEST_UTILS_H_

#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "base/io-funcs.h"
#include "matrix/matrix.h"

namespace nnet3 {
namespace test {

inline std::string GoldenPath(const std::string &name) {
  return std::string(NNET3_TEST_DATA) + "/matrix/" + name;
}

// The bytes of a golden file (the test fails if it is missing).
inline std::string ReadGolden(const std::string &name) {
  std::ifstream is(GoldenPath(name), std::ios::binary);
  INFO("golden file " << GoldenPath(name));
  REQUIRE(is.good());
  return std::string(std::istreambuf_iterator<char>(is),
                     std::istreambuf_iterator<char>());
}

// Reads an object from bytes as a Kaldi file (optional "\0B" header) and
// returns what binary mode was detected.
template <class T>
bool ReadObject(const std::string &bytes, T *obj) {
  std::istringstream is(bytes);
  bool binary = false;
  REQUIRE(InitKaldiInputStream(is, &binary));
  obj->Read(is, binary);
  return binary;
}

// Writes an object as a Kaldi file (header when binary, precision 7).
template <class T>
std::string WriteObject(const T &obj, bool binary) {
  std::ostringstream os;
  InitKaldiOutputStream(os, binary);
  obj.Write(os, binary);
  return os.str();
}

// Row-major host matrix used as the reference for device operations.
struct HostMat {
  int32_t rows = 0, cols = 0;
  std::vector<float> v;
  HostMat() = default;
  HostMat(int32_t r, int32_t c) : rows(r), cols(c), v(size_t(r) * c, 0.0f) {}
  float &operator()(int32_t r, int32_t c) { return v[size_t(r) * cols + c]; }
  float operator()(int32_t r, int32_t c) const {
    return v[size_t(r) * cols + c];
  }
};

inline HostMat RandomHost(int32_t rows, int32_t cols, std::mt19937 *rng) {
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  HostMat m(rows, cols);
  for (float &x : m.v) x = dist(*rng);
  return m;
}

inline HostMat ToHostMat(const MatrixView &m) {
  HostMat h(m.NumRows(), m.NumCols());
  h.v = m.ToHost();
  return h;
}

// Max |a - b| is within tol (relative to max(1, |b|)).
inline void CheckNear(const HostMat &a, const HostMat &b, float tol = 1e-4f) {
  REQUIRE(a.rows == b.rows);
  REQUIRE(a.cols == b.cols);
  for (size_t i = 0; i < a.v.size(); i++) {
    float scale = std::max(1.0f, std::abs(b.v[i]));
    INFO("element " << i << ": " << a.v[i] << " vs " << b.v[i]);
    REQUIRE(std::abs(a.v[i] - b.v[i]) <= tol * scale);
  }
}

inline void CheckNear(const MatrixView &a, const HostMat &b,
                      float tol = 1e-4f) {
  CheckNear(ToHostMat(a), b, tol);
}

}  // namespace test
}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_MATRIX_MATRIX_TEST_UTILS_H_
