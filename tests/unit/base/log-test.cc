// The Kaldi log-line shape on stderr, and errors carrying their location.
#include "base/log.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

using namespace nnet3;

namespace {

// Runs `fn` with fd 2 redirected to a file; returns what was written.
template <class F>
std::string CaptureStderr(F fn) {
  std::string path = "log-test-stderr.tmp";
  std::fflush(stderr);
  int saved = dup(2);
  FILE *f = std::fopen(path.c_str(), "w");
  dup2(fileno(f), 2);
  fn();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::fclose(f);
  std::ifstream is(path);
  std::stringstream ss;
  ss << is.rdbuf();
  std::remove(path.c_str());
  return ss.str();
}

}  // namespace

TEST_CASE("log lines have Kaldi's shape", "[log]") {
  SetProgramName("/some/dir/my-prog");
  std::string out = CaptureStderr([] {
    NNET3_LOG << "hello " << 42;
    NNET3_WARN << "careful";
  });
  CHECK(out.find("LOG (my-prog[") == 0);
  // LOG (prog[version]:Function():file.cc:line) message
  std::regex shape(R"(^LOG \(my-prog\[[0-9.]+\]:[^ ]+\(\):log-test\.cc:[0-9]+\) hello 42\n)");
  INFO(out);
  CHECK(std::regex_search(out, shape));
  CHECK(out.find(") hello 42\n") != std::string::npos);
  CHECK(out.find("\nWARNING (my-prog[") != std::string::npos);
}

TEST_CASE("VLOG obeys the verbose level", "[log]") {
  SetVerboseLevel(1);
  std::string out = CaptureStderr([] {
    NNET3_VLOG(1) << "shown";
    NNET3_VLOG(2) << "hidden";
  });
  SetVerboseLevel(0);
  CHECK(out.find("VLOG[1] (") == 0);
  CHECK(out.find("shown") != std::string::npos);
  CHECK(out.find("hidden") == std::string::npos);
}

TEST_CASE("NNET3_ERR throws UserError with location", "[log]") {
  try {
    NNET3_ERR << "bad thing in " << "file.txt";
    FAIL("no throw");
  } catch (const UserError &e) {
    CHECK(std::string(e.what()) == "bad thing in file.txt");
    CHECK(std::string(BaseName(e.where().file)) == "log-test.cc");
    CHECK(e.where().line > 0);
  }
  CHECK_THROWS_AS([] { NNET3_ASSERT(1 + 1 == 3); }(), InternalError);
}
