#include "base/text-utils.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace nnet3;

TEST_CASE("names and tokens", "[text-utils]") {
  CHECK(IsValidName("affine1"));
  CHECK(IsValidName("_x.y-z"));
  CHECK(!IsValidName("1abc"));
  CHECK(!IsValidName(""));
  CHECK(!IsValidName("a b"));
  CHECK(!IsValidName("a,b"));
  CHECK(IsToken("utt-1[x]"));
  CHECK(!IsToken("a b"));
  CHECK(!IsToken(""));
}

TEST_CASE("strict number conversion", "[text-utils]") {
  int32_t i;
  CHECK(ConvertStringToInteger(" 42 ", &i));
  CHECK(i == 42);
  CHECK(!ConvertStringToInteger("4x", &i));
  CHECK(!ConvertStringToInteger("99999999999", &i));
  double d;
  CHECK(ConvertStringToReal("1e-3", &d));
  CHECK(d == 1e-3);
  CHECK(ConvertStringToReal("-inf", &d));
  CHECK(std::isinf(d));
  CHECK(ConvertStringToReal("NaN", &d));
  CHECK(std::isnan(d));
  CHECK(!ConvertStringToReal("1.0.0", &d));
  std::vector<int32_t> v;
  CHECK(SplitStringToIntegers("1,2::3", ":,", &v));
  CHECK(v == std::vector<int32_t>{1, 2, 3});
  CHECK(!SplitStringToIntegers("1,a", ",", &v));
  CHECK(SplitString("a,,b", ",", false).size() == 3);
  CHECK(SplitString("a,,b", ",", true).size() == 2);
  CHECK(Trim("\t x y \r\n") == "x y");
}
