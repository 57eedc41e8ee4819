// Helpers shared by the lib/util unit tests: a temporary directory removed
// at the end of each test, whole-file read/write, and a check that a
// UserError's message contains given pieces and is one line.
#ifndef NNET3_TESTS_UNIT_UTIL_UTIL_TEST_COMMON_H_
#define NNET3_TESTS_UNIT_UTIL_UTIL_TEST_COMMON_H_

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>

#include "base/error.h"

namespace nnet3 {
namespace test {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/nnet3-util-test-XXXXXX";
    const char *dir = mkdtemp(tmpl);
    REQUIRE(dir != nullptr);
    path_ = dir;
  }
  ~TempDir() {
    std::string cmd = "rm -rf '" + path_ + "'";
    if (std::system(cmd.c_str()) != 0) WARN("could not remove " << path_);
  }
  std::string operator/(const std::string &name) const {
    return path_ + "/" + name;
  }
  const std::string &path() const { return path_; }

 private:
  std::string path_;
};

inline std::string ReadFile(const std::string &path) {
  std::ifstream is(path, std::ios::binary);
  REQUIRE(is.good());
  std::ostringstream os;
  os << is.rdbuf();
  return os.str();
}

inline void WriteFile(const std::string &path, const std::string &data) {
  std::ofstream os(path, std::ios::binary);
  os << data;
  REQUIRE(os.good());
}

inline bool FileExists(const std::string &path) {
  std::ifstream is(path);
  return is.good();
}

// Runs `body`, requires a UserError whose message contains every piece and
// no newline, and returns the message.
template <class F>
std::string ExpectUserError(F body, std::initializer_list<std::string> pieces) {
  std::string message;
  try {
    body();
  } catch (const UserError &e) {
    message = e.what();
  }
  INFO("message: " << message);
  REQUIRE(!message.empty());
  CHECK(message.find('\n') == std::string::npos);
  for (const std::string &p : pieces) {
    INFO("expected piece: " << p);
    CHECK(message.find(p) != std::string::npos);
  }
  return message;
}

}  // namespace test
}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_UTIL_UTIL_TEST_COMMON_H_
