// Matrix ranges: parsing "[r1:r2]" / "[r1:r2,c1:c2]" against a size, the
// row tolerance, and splitting the suffix off an rxfilename. (Ranges applied
// to real matrices are in table-matrix-test.cc.)
#include "util/matrix-range.h"

#include <catch2/catch.hpp>

#include "util-test-common.h"

using namespace nnet3;
using namespace nnet3::test;

TEST_CASE("matrix ranges", "[kaldi-io][range]") {
  MatrixRange r = ParseMatrixRange("2:5", 10, 4);
  CHECK(r.row_offset == 2);
  CHECK(r.num_rows == 4);
  CHECK(r.col_offset == 0);
  CHECK(r.num_cols == 4);
  r = ParseMatrixRange("0:9,1:2", 10, 4);
  CHECK(r.num_rows == 10);
  CHECK(r.col_offset == 1);
  CHECK(r.num_cols == 2);
  r = ParseMatrixRange(":,3:3", 10, 4);
  CHECK(r.row_offset == 0);
  CHECK(r.num_rows == 10);
  CHECK(r.col_offset == 3);
  CHECK(r.num_cols == 1);
  r = ParseMatrixRange("7:12", 10, 4);  // end row within tolerance: clipped
  CHECK(r.row_offset == 7);
  CHECK(r.num_rows == 3);
  for (const char *bad : {"7:13", "5:4", "-1:3", "0:3,0:4", "a:b", "1:2:3", "",
                          "0:3,", ",0:1", "10:11"})
    ExpectUserError([&] { ParseMatrixRange(bad, 10, 4); },
                    {"Invalid range [" + std::string(bad) + "]", "10 x 4"});
  std::string name, range;
  CHECK(SplitRangeSuffix("foo.ark:12[0:3,1:2]", &name, &range));
  CHECK(name == "foo.ark:12");
  CHECK(range == "0:3,1:2");
  CHECK(!SplitRangeSuffix("foo.ark:12", &name, &range));
  CHECK(name == "foo.ark:12");
  CHECK(range.empty());
  ExpectUserError([&] { SplitRangeSuffix("foo]", &name, &range); }, {"foo]"});
}
