// Posterior: golden binary and text files, round trips, malformed input.
#include "matrix/posterior.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "base/error.h"
#include "base/io-funcs.h"
#include "matrix-test-utils.h"

namespace nnet3 {
namespace {

using test::ReadGolden;

Posterior ReadPost(const std::string &bytes, bool *binary) {
  std::istringstream is(bytes);
  REQUIRE(InitKaldiInputStream(is, binary));
  Posterior post;
  ReadPosterior(is, *binary, &post);
  return post;
}

std::string WritePost(const Posterior &post, bool binary) {
  std::ostringstream os;
  InitKaldiOutputStream(os, binary);
  WritePosterior(os, binary, post);
  return os.str();
}

TEST_CASE("Posterior golden files", "[posterior]") {
  const Posterior want = {{{3, 1.0f}}, {{4, 0.5f}, {7, 0.5f}}};
  bool binary;
  std::string bin = ReadGolden("post.bin"), txt = ReadGolden("post.txt");
  REQUIRE(ReadPost(bin, &binary) == want);
  REQUIRE(binary);
  REQUIRE(ReadPost(txt, &binary) == want);
  REQUIRE_FALSE(binary);
  REQUIRE(WritePost(want, true) == bin);
  REQUIRE(WritePost(want, false) == txt);
  // Empty frames and an empty posterior.
  const Posterior gaps = {{}, {{1, 0.25f}}, {}};
  REQUIRE(WritePost(gaps, false) == "[ ] [ 1 0.25 ] [ ] \n");
  REQUIRE(ReadPost(WritePost(gaps, false), &binary) == gaps);
  REQUIRE(ReadPost(WritePost(gaps, true), &binary) == gaps);
  REQUIRE(ReadPost(WritePost({}, false), &binary).empty());
  // The text reader reads one line only.
  std::istringstream two("[ 1 1 ]\n[ 2 1 ]\n");
  Posterior first;
  ReadPosterior(two, false, &first);
  REQUIRE(first == Posterior{{{1, 1.0f}}});
  std::string rest;
  std::getline(two, rest);
  REQUIRE(rest == "[ 2 1 ]");
}

TEST_CASE("Posterior malformed input", "[posterior]") {
  std::string bin = ReadGolden("post.bin");
  bool binary;
  REQUIRE_THROWS_AS(ReadPost(bin.substr(0, bin.size() - 2), &binary),
                    UserError);
  REQUIRE_THROWS_AS(
      ReadPost(std::string("\0B\x04\xff\xff\xff\x7f", 7), &binary), UserError);
  for (const char *text : {"[ 1 ", "[ 1 x ]", "1 1 ]", "[ 1 2 ] ["}) {
    INFO("text " << text);
    std::istringstream is(text);
    Posterior post;
    REQUIRE_THROWS_AS(ReadPosterior(is, false, &post), UserError);
  }
  std::istringstream eof("");
  Posterior post;
  REQUIRE_THROWS_AS(ReadPosterior(eof, false, &post), UserError);
}

}  // namespace
}  // namespace nnet3
