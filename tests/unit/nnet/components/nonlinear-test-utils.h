// Helpers for the nonlinear-group component tests (nonlinear, normalize,
// dropout and identity components): matrices from literals, component
// text/binary strings, golden model-file fragments, and parsing a vector
// field out of a component's text form.
#ifndef NNET3_TESTS_UNIT_NNET_NONLINEAR_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_NNET_NONLINEAR_TEST_UTILS_H_

#include <catch2/catch.hpp>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "base/io-funcs.h"
#include "matrix/matrix.h"
#include "nnet/component-itf.h"

namespace nnet3 {
namespace nonlinear_test {

inline Matrix MatrixFromRows(const std::vector<std::vector<float>> &rows) {
  Matrix m(static_cast<int32_t>(rows.size()),
           static_cast<int32_t>(rows.at(0).size()));
  std::vector<float> flat;
  for (const auto &r : rows) flat.insert(flat.end(), r.begin(), r.end());
  m.CopyFromHost(flat);
  return m;
}

inline std::string WriteComponent(const Component &c, bool binary) {
  std::ostringstream os;
  InitKaldiOutputStream(os, binary);
  c.Write(os, binary);
  std::string s = os.str();
  return binary ? s.substr(2) : s;  // without the "\0B" header
}

inline std::unique_ptr<Component> ReadComponent(const std::string &s,
                                                bool binary) {
  std::istringstream is(s);
  return Component::ReadNew(is, binary);
}

// The numbers of the vector written after `token` in the text form.
inline std::vector<float> TextVectorField(const std::string &text,
                                          const std::string &token) {
  size_t pos = text.find(token + " ");
  REQUIRE(pos != std::string::npos);
  size_t open = text.find('[', pos), close = text.find(']', pos);
  std::istringstream is(text.substr(open + 1, close - open - 1));
  std::vector<float> v;
  float f;
  while (is >> f) v.push_back(f);
  return v;
}

// The scalar written after `token` in the text form.
inline double TextScalarField(const std::string &text,
                              const std::string &token) {
  size_t pos = text.find(token + " ");
  REQUIRE(pos != std::string::npos);
  std::istringstream is(text.substr(pos + token.size()));
  double d = 0;
  is >> d;
  return d;
}

// Reads tests/data/nnet/components/<name>.txt (a hand-written fragment;
// one trailing newline is ignored), checks that writing it in text mode
// gives the same bytes, that Read works with and without the opening tag
// consumed, and that the binary round trip preserves it.
inline std::unique_ptr<Component> CheckGolden(const std::string &name) {
  std::string path =
      std::string(NNET3_TEST_DATA) + "/nnet/components/" + name + ".txt";
  INFO("golden file " << path);
  std::ifstream file(path);
  REQUIRE(file.good());
  std::string golden((std::istreambuf_iterator<char>(file)),
                     std::istreambuf_iterator<char>());
  if (!golden.empty() && golden.back() == '\n') golden.pop_back();
  std::unique_ptr<Component> c = ReadComponent(golden, false);
  CHECK(c->Type() == name);
  CHECK(WriteComponent(*c, false) == golden);
  std::unique_ptr<Component> direct = Component::NewComponentOfType(name);
  std::istringstream is(golden);
  direct->Read(is, false);
  CHECK(WriteComponent(*direct, false) == golden);
  std::string bin = WriteComponent(*c, true);
  std::unique_ptr<Component> b = ReadComponent(bin, true);
  CHECK(WriteComponent(*b, false) == golden);
  CHECK(WriteComponent(*b, true) == bin);
  return c;
}

}  // namespace nonlinear_test
}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_NNET_NONLINEAR_TEST_UTILS_H_
