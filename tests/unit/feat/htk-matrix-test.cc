// HTK-format features: the header's bytes (big endian) and a round trip.
#include "feat/htk-matrix.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "base/error.h"

namespace nnet3 {
namespace {

TEST_CASE("htk: header bytes and round trip") {
  HtkMatrix m{2, 1, 100000, kHtkMfcc | kHtkEnergy, {1.0f, -2.5f}};
  std::ostringstream os;
  m.Write(os);
  const std::string want(
      "\x00\x00\x00\x02\x00\x01\x86\xa0\x00\x04\x00\x46"
      "\x3f\x80\x00\x00\xc0\x20\x00\x00",
      20);
  CHECK(os.str() == want);
  std::istringstream is(os.str());
  HtkMatrix r;
  r.Read(is);
  CHECK(r.rows == 2);
  CHECK(r.cols == 1);
  CHECK(r.sample_period == 100000);
  CHECK(r.sample_kind == 0106);
  CHECK(r.data == m.data);
  std::istringstream cut(os.str().substr(0, 17));
  CHECK_THROWS_WITH(r.Read(cut), Catch::Contains("ends early"));
}

}  // namespace
}  // namespace nnet3
