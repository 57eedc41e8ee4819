// Index / Cindex: ordering, printing, and the compact <I1V> encoding.
#include "nnet/nnet-common.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <sstream>

#include "base/error.h"

using namespace nnet3;

TEST_CASE("Index orderings", "[nnet-common]") {
  std::vector<Index> v = {{1, 0}, {0, 1}, {0, 0, 1}, {0, 0}};
  std::sort(v.begin(), v.end());
  CHECK(v == std::vector<Index>{{0, 0}, {1, 0}, {0, 0, 1}, {0, 1}});
  std::sort(v.begin(), v.end(), IndexLessNxt());
  CHECK(v == std::vector<Index>{{0, 0}, {0, 1}, {0, 0, 1}, {1, 0}});
}

TEST_CASE("compact printed form", "[nnet-common]") {
  std::vector<Index> v;
  for (int n = 0; n < 2; n++)
    for (int t = -1; t <= 1; t++) v.emplace_back(n, t);
  CHECK(IndexesToString(v) == "[ (0, -1:1) (1, -1:1) ]");
  CHECK(IndexesToString({Index(0, 5, 2), Index(3, kNoTime)}) ==
        "[ (0, 5, 2) (3, NA) ]");
  CHECK(IndexesToString({}) == "[ ]");
  std::vector<Cindex> c = {{0, Index(0, 0)}, {0, Index(0, 1)}, {2, Index(1, 3)}};
  std::ostringstream os;
  PrintCindexes(os, c, {"input", "x_input", "affine1"});
  CHECK(os.str() == "[ input(0, 0:1) affine1(1, 3) ]");
}

TEST_CASE("<I1V> binary bytes follow the reference", "[nnet-common]") {
  // (0,-1) (0,0) (0,1): three one-byte codes; (1,1): escape + full triple.
  std::vector<Index> v = {{0, -1}, {0, 0}, {0, 1}, {1, 1}};
  std::ostringstream os;
  WriteIndexVector(os, true, v);
  std::string expected = std::string("<I1V> \x04\x04\x00\x00\x00", 11) +
                         std::string("\xff\x01\x01\x7f", 4) +
                         std::string("\x04\x01\x00\x00\x00", 5) +
                         std::string("\x04\x01\x00\x00\x00", 5) +
                         std::string("\x04\x00\x00\x00\x00", 5);
  CHECK(os.str() == expected);
  std::istringstream is(os.str());
  std::vector<Index> r;
  ReadIndexVector(is, true, &r);
  CHECK(r == v);
}

TEST_CASE("<I1V> round trips, random", "[nnet-common]") {
  std::mt19937 rng(1234);  // seed 1234
  for (int iter = 0; iter < 50; iter++) {
    std::vector<Index> v;
    int size = rng() % 40;
    for (int i = 0; i < size; i++) {
      int kind = rng() % 4;
      Index prev = v.empty() ? Index() : v.back();
      if (prev.t == kNoTime) prev.t = 0;  // no arithmetic on kNoTime
      if (kind == 0)
        v.emplace_back(prev.n, prev.t + int(rng() % 7) - 3, prev.x);
      else if (kind == 1)
        v.emplace_back(rng() % 5, int(rng() % 1000) - 500, rng() % 3);
      else if (kind == 2)
        v.emplace_back(prev.n, prev.t + 124, prev.x);
      else
        v.emplace_back(prev.n, kNoTime, 0);
    }
    for (bool binary : {true, false}) {
      std::ostringstream os;
      WriteIndexVector(os, binary, v);
      std::istringstream is(os.str());
      std::vector<Index> r;
      ReadIndexVector(is, binary, &r);
      CHECK(r == v);
      std::ostringstream os2;
      WriteIndexVector(os2, binary, r);
      CHECK(os2.str() == os.str());
    }
  }
}

TEST_CASE("<I1V> bad input", "[nnet-common]") {
  std::vector<Index> r;
  std::istringstream truncated(std::string("<I1V> \x04\x03\x00\x00\x00\x01", 12));
  CHECK_THROWS_AS(ReadIndexVector(truncated, true, &r), UserError);
  std::istringstream bad_code(std::string("<I1V> \x04\x01\x00\x00\x00\x7e", 12));
  CHECK_THROWS_AS(ReadIndexVector(bad_code, true, &r), UserError);
  std::istringstream wrong_token("<I2V> 3 ");
  CHECK_THROWS_AS(ReadIndexVector(wrong_token, false, &r), UserError);
}
