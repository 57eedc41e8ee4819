// Selections ("0,24-22,3-12") and pasting with a length tolerance.
#include "feat/feature-columns.h"

#include <catch2/catch.hpp>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

TEST_CASE("columns: selections") {
  CHECK(ParseSelection("0,4-2,5-6", 10) ==
        std::vector<int32_t>{0, 4, 3, 2, 5, 6});
  CHECK(ParseSelection("10-12", 13) == std::vector<int32_t>{10, 11, 12});
  CHECK_THROWS_WITH(ParseSelection("0,13", 13),
                    Catch::Contains("index 13 is outside"));
  CHECK_THROWS_WITH(ParseSelection("1-x", 13), Catch::Contains("'1-x'"));
  CHECK_THROWS_AS(ParseSelection("", 13), UserError);
  const std::vector<float> in = {1, 2, 3, 4, 5, 6};  // 2 x 3
  std::vector<float> out;
  SelectColumns(2, 3, in.data(), {2, 0}, &out);
  CHECK(out == std::vector<float>{3, 1, 6, 4});
}

TEST_CASE("columns: paste trims to the shortest within the tolerance") {
  HostFeatures a{3, 1, {1, 2, 3}}, b{2, 2, {10, 11, 20, 21}}, out;
  int32_t lo, hi;
  REQUIRE(PasteFeatures({a, b}, 1, &out, &lo, &hi));
  CHECK(out.rows == 2);
  CHECK(out.cols == 3);
  CHECK(out.data == std::vector<float>{1, 10, 11, 2, 20, 21});
  CHECK(!PasteFeatures({a, b}, 0, &out, &lo, &hi));
  CHECK(lo == 2);
  CHECK(hi == 3);
}

}  // namespace
}  // namespace nnet3
