// BasicPairVectorHolder (vectors of pairs: lattice-mbr-decode's times,
// lattice-to-ctm-conf's times input): Kaldi's bytes in binary and text
// (taken from Kaldi's lattice-mbr-decode output), round trips, bad text.
#include "util/pair-vector-holder.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

using PairVector = std::vector<std::pair<float, float>>;

TEST_CASE("BasicPairVectorHolder writes and reads Kaldi's forms") {
  const PairVector times = {{0, 2}, {2, 6}, {6, 6}, {6, 8}, {8, 9}};
  std::ostringstream text;
  BasicPairVectorHolder<float>::Write(text, false, times);
  CHECK(text.str() == "0 2 ; 2 6 ; 6 6 ; 6 8 ; 8 9 \n");
  std::ostringstream binary;
  BasicPairVectorHolder<float>::Write(binary, true, times);
  // An int32 count, then each float, every number after its size byte.
  const std::string want(
      "\x04\x05\x00\x00\x00"
      "\x04\x00\x00\x00\x00\x04\x00\x00\x00\x40"
      "\x04\x00\x00\x00\x40\x04\x00\x00\xc0\x40"
      "\x04\x00\x00\xc0\x40\x04\x00\x00\xc0\x40"
      "\x04\x00\x00\xc0\x40\x04\x00\x00\x00\x41"
      "\x04\x00\x00\x00\x41\x04\x00\x00\x10\x41",
      55);
  CHECK(binary.str() == want);
  for (bool is_binary : {false, true}) {
    std::istringstream is(is_binary ? binary.str() : text.str());
    BasicPairVectorHolder<float> holder;
    holder.Read(is, is_binary);
    CHECK(holder.Value() == times);
  }
  std::ostringstream empty;
  BasicPairVectorHolder<float>::Write(empty, false, PairVector());
  CHECK(empty.str() == "\n");
  std::istringstream empty_is("\n");
  BasicPairVectorHolder<float> holder;
  holder.Read(empty_is, false);
  CHECK(holder.Value().empty());
}

TEST_CASE("BasicPairVectorHolder rejects text that is not pairs") {
  // Kaldi rejects an empty piece too: a ';' that ends or starts the line.
  for (const char *bad : {"1 2 3\n", "1 2 ; 3\n", "1 x ; 3 4\n", "1 2 ;\n",
                          "; 1 2\n", ";\n", "1 2 ; ; 3 4\n"}) {
    INFO(bad);
    std::istringstream is(bad);
    BasicPairVectorHolder<float> holder;
    CHECK_THROWS_AS(holder.Read(is, false), UserError);
  }
  std::istringstream eof("");
  BasicPairVectorHolder<float> holder;
  CHECK_THROWS_AS(holder.Read(eof, false), UserError);
}

}  // namespace
}  // namespace nnet3
