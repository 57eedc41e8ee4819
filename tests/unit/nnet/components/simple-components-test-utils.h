// Helpers for the tests of the simple component group
// (simple-components-test.cc, per-element-components-test.cc): small
// matrices from literals, approximate comparison, expected config errors,
// golden model-file fragments and temporary vector files.
#ifndef NNET3_TESTS_UNIT_NNET_SIMPLE_COMPONENTS_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_NNET_SIMPLE_COMPONENTS_TEST_UTILS_H_

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/io-funcs.h"
#include "matrix/matrix.h"
#include "nnet/component-itf.h"

namespace nnet3 {
namespace simple_test {

inline Matrix FromRows(const std::vector<std::vector<float>> &rows) {
  Matrix m(static_cast<int32_t>(rows.size()),
           static_cast<int32_t>(rows[0].size()));
  std::vector<float> flat;
  for (const auto &r : rows) flat.insert(flat.end(), r.begin(), r.end());
  m.CopyFromHost(flat);
  return m;
}

// Elementwise |a - b| <= tol, with a message showing both.
inline void CheckNear(const std::vector<float> &actual,
                      const std::vector<float> &expected, float tol = 1e-5f) {
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); i++) {
    INFO("element " << i << ": " << actual[i] << " vs " << expected[i]);
    CHECK(std::abs(actual[i] - expected[i]) <= tol);
  }
}

inline void CheckNear(const MatrixView &actual,
                      const std::vector<std::vector<float>> &expected,
                      float tol = 1e-5f) {
  std::vector<float> flat;
  for (const auto &r : expected) flat.insert(flat.end(), r.begin(), r.end());
  CheckNear(actual.ToHost(), flat, tol);
}

// InitFromConfig on "type=X ..." must throw a one-line UserError whose
// message contains `needle` (e.g. the key and value).
inline void CheckConfigError(const std::string &config,
                             const std::string &needle) {
  INFO("config: " << config);
  ConfigLine cfl;
  REQUIRE(cfl.ParseLine(config));
  std::string type;
  REQUIRE(cfl.GetValue("type", &type));
  std::unique_ptr<Component> c = Component::NewComponentOfType(type);
  REQUIRE(c != nullptr);
  try {
    c->InitFromConfig(&cfl);
    FAIL("no error");
  } catch (const UserError &e) {
    std::string msg = e.what();
    INFO("message: " << msg);
    CHECK(msg.find(needle) != std::string::npos);
    CHECK(msg.find('\n') == std::string::npos);
  }
}

inline std::string ReadWholeFile(const std::string &path) {
  std::ifstream is(path, std::ios::binary);
  INFO("file " << path);
  REQUIRE(is.good());
  std::ostringstream os;
  os << is.rdbuf();
  return os.str();
}

inline std::string WriteComponent(const Component &c, bool binary) {
  std::ostringstream os;
  c.Write(os, binary);
  return os.str();
}

// Reads tests/data/nnet/components/<name>.txt (a hand-written text
// fragment) with Component::ReadNew, checks that writing it in text gives
// the same bytes (a final newline in the file is ignored), that Read()
// also accepts the fragment with its opening tag, and that a binary round
// trip gives the same text again. Returns the component.
inline std::unique_ptr<Component> CheckGolden(const std::string &name) {
  std::string path =
      std::string(NNET3_TEST_DATA) + "/nnet/components/" + name + ".txt";
  std::string golden = ReadWholeFile(path);
  if (!golden.empty() && golden.back() == '\n' &&
      golden.compare(golden.size() - 2, 2, " \n") == 0)
    golden.pop_back();
  INFO("golden file " << path);
  std::istringstream is(golden);
  std::unique_ptr<Component> c = Component::ReadNew(is, false);
  CHECK(WriteComponent(*c, false) == golden);

  std::unique_ptr<Component> direct = Component::NewComponentOfType(c->Type());
  std::istringstream is2(golden);
  direct->Read(is2, false);
  CHECK(WriteComponent(*direct, false) == golden);

  std::istringstream bin(WriteComponent(*c, true));
  std::unique_ptr<Component> b = Component::ReadNew(bin, true);
  CHECK(WriteComponent(*b, false) == golden);
  CHECK(WriteComponent(*b, true) == WriteComponent(*c, true));
  return c;
}

// Writes a vector in Kaldi text form to a temporary file; returns its path.
inline std::string WriteTempVector(const std::string &name,
                                   const std::string &text) {
  const char *dir = std::getenv("TMPDIR");
  std::string path = std::string(dir != nullptr ? dir : "/tmp") +
                     "/nnet3-simple-test-" + std::to_string(getpid()) + "-" +
                     name;
  std::ofstream os(path);
  os << text;
  REQUIRE(os.good());
  return path;
}

}  // namespace simple_test
}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_NNET_SIMPLE_COMPONENTS_TEST_UTILS_H_
