// Kaldi option conventions over CLI11.
#include "base/options.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <vector>

#include "base/log.h"

using namespace nnet3;

namespace {

struct Parsed {
  bool binary = true;
  int32_t n = 3;
  float lr = 0.001f;
  std::string name = "x";
  double mem = 1.5;
  int status = -1;  // ExitRequest code, -1 if none
  std::vector<std::string> args;
};

Parsed Parse(std::vector<std::string> argv) {
  Parsed p;
  OptionsRegistry po("Usage: test [options] <a> <b>");
  po.Register("binary", &p.binary, "Binary output");
  po.Register("num-things", &p.n, "Count");
  po.Register("learning-rate", &p.lr, "Rate");
  po.Register("name", &p.name, "A name");
  OptionsRegistry sub("optimization", &po);
  sub.Register("max-memory", &p.mem, "Memory");
  argv.insert(argv.begin(), "test");
  argv.push_back("--print-args=false");
  std::rotate(argv.begin() + 1, argv.end() - 1, argv.end());
  std::vector<const char *> c;
  for (auto &s : argv) c.push_back(s.c_str());
  try {
    po.Read(static_cast<int>(c.size()), c.data());
    for (int i = 1; i <= po.NumArgs(); i++) p.args.push_back(po.GetArg(i));
  } catch (const ExitRequest &e) {
    p.status = e.code();
  }
  return p;
}

}  // namespace

TEST_CASE("values, booleans and positional arguments", "[options]") {
  Parsed p = Parse({"--binary=false", "--num_things=7", "--Learning-Rate=0.5",
                    "--name=abc", "in", "out"});
  CHECK(p.status == -1);
  CHECK(!p.binary);
  CHECK(p.n == 7);
  CHECK(p.lr == 0.5f);
  CHECK(p.name == "abc");
  CHECK(p.args == std::vector<std::string>{"in", "out"});
  for (std::string v : {"t", "1", "true", "TRUE"}) {
    Parsed q = Parse({"--binary=false", "--binary=" + v});
    CHECK(q.binary);
  }
  for (std::string v : {"f", "0", "false", "False"}) {
    Parsed q = Parse({"--binary=" + v});
    CHECK(!q.binary);
  }
  CHECK(Parse({"--binary=false", "--binary"}).binary);
}

TEST_CASE("options stop at the first positional argument", "[options]") {
  Parsed p = Parse({"a", "--num-things=9"});
  CHECK(p.n == 3);
  CHECK(p.args == std::vector<std::string>{"a", "--num-things=9"});
  Parsed q = Parse({"--", "--b"});
  CHECK(q.args == std::vector<std::string>{"--b"});
  Parsed r = Parse({"-", "ark:-"});
  CHECK(r.args == std::vector<std::string>{"-", "ark:-"});
}

TEST_CASE("dotted group options", "[options]") {
  Parsed p = Parse({"--optimization.max-memory=2.5"});
  CHECK(p.mem == 2.5);
}

TEST_CASE("bad options end with status 1", "[options]") {
  CHECK(Parse({"--no-such-option=1"}).status == 1);
  CHECK(Parse({"--num-things=abc"}).status == 1);
  CHECK(Parse({"--binary=maybe"}).status == 1);
  CHECK(Parse({"--binary="}).status == 1);
  CHECK(Parse({"--name"}).status == 1);  // strings need '='
  CHECK(Parse({"--help"}).status == 0);
}

TEST_CASE("--config file, overridden by the command line", "[options]") {
  std::string path = "options-test-config.tmp";
  {
    std::ofstream os(path);
    os << "# a comment\n--num-things=11  # trailing comment\n\n"
          "--name=from-config\n--binary=false\n";
  }
  Parsed p = Parse({"--config=" + path, "--name=cmdline"});
  CHECK(p.status == -1);
  CHECK(p.n == 11);
  CHECK(p.name == "cmdline");
  CHECK(!p.binary);
  CHECK(Parse({"--config=/nonexistent/file"}).status == 1);
  {
    std::ofstream os(path);
    os << "num-things=3\n";
  }
  CHECK(Parse({"--config=" + path}).status == 1);
  std::remove(path.c_str());
}

TEST_CASE("--verbose sets the verbose level", "[options]") {
  Parse({"--verbose=3"});
  CHECK(VerboseLevel() == 3);
  Parse({"--verbose=0"});
  CHECK(VerboseLevel() == 0);
}

TEST_CASE("WasGiven tells an explicit value from the default", "[options]") {
  bool flag = true;
  int32_t n = 3;
  double mem = 1.0;
  OptionsRegistry po("Usage: test");
  po.Register("store-stats", &flag, "A flag");
  po.Register("num-things", &n, "Count");
  OptionsRegistry sub("optimization", &po);
  sub.Register("max-memory", &mem, "Memory");
  const char *argv[] = {"test", "--print-args=false", "--Store_Stats=true",
                        "--optimization.max-memory=2", "a"};
  po.Read(5, argv);
  CHECK(po.WasGiven("store-stats"));  // the value equals the default
  CHECK(po.WasGiven("store_stats"));
  CHECK_FALSE(po.WasGiven("num-things"));
  CHECK(sub.WasGiven("max-memory"));
  CHECK(po.WasGiven("optimization.max-memory"));
  const char *argv2[] = {"test", "--print-args=false", "b"};
  po.Read(3, argv2);
  CHECK_FALSE(po.WasGiven("store-stats"));
}
