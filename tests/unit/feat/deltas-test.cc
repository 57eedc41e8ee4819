// Deltas and splicing worked by hand on tiny inputs: the filters, edge
// frames repeated, the column layout of the outputs.
#include "feat/deltas.h"

#include <catch2/catch.hpp>
#include <vector>

#include "base/error.h"
#include "feat/splice-frames.h"

namespace nnet3 {
namespace {

TEST_CASE("deltas: filters of window 2") {
  std::vector<std::vector<float>> f = DeltaFilters(DeltaFeaturesOptions());
  REQUIRE(f.size() == 3);
  CHECK(f[0] == std::vector<float>{1.0f});
  REQUIRE(f[1].size() == 5);
  CHECK(f[1][0] == Approx(-0.2));
  CHECK(f[1][1] == Approx(-0.1));
  CHECK(f[1][2] == 0.0f);
  CHECK(f[1][4] == Approx(0.2));
  REQUIRE(f[2].size() == 9);
  // (j / 10) convolved with itself: the centre is -sum j^2 / 100 = -0.1.
  CHECK(f[2][4] == Approx(-0.1));
  CHECK(f[2][0] == Approx(0.04));  // (-2)(-2) / 100
}

TEST_CASE("deltas: a 3-frame, 1-dim signal with repeated edges") {
  const std::vector<float> x = {1, 2, 4};
  DeltaFeaturesOptions o;
  o.order = 1;
  std::vector<float> out;
  ComputeDeltas(o, 3, 1, x.data(), &out);
  REQUIRE(out.size() == 6);
  // t = 0: frames -2, -1 are frame 0: (-2 - 1 + 0 + 2 + 8) / 10.
  CHECK(out[0] == 1.0f);
  CHECK(out[1] == Approx(0.7));
  // t = 1: (-2 * 1 - 1 * 1 + 4 + 2 * 4) / 10.
  CHECK(out[3] == Approx(0.9));
  o.window = 0;
  CHECK_THROWS_AS(ComputeDeltas(o, 3, 1, x.data(), &out), UserError);
}

TEST_CASE("splice: neighbours side by side, edges repeated") {
  const std::vector<float> x = {1, 10, 2, 20, 3, 30};  // 3 frames, dim 2
  std::vector<float> out;
  SpliceFrames(3, 2, x.data(), 1, 2, &out);
  REQUIRE(out.size() == 3 * 2 * 4);
  CHECK(std::vector<float>(out.begin(), out.begin() + 8) ==
        std::vector<float>{1, 10, 1, 10, 2, 20, 3, 30});
  CHECK(std::vector<float>(out.begin() + 16, out.end()) ==
        std::vector<float>{2, 20, 3, 30, 3, 30, 3, 30});
  CHECK_THROWS_AS(SpliceFrames(3, 2, x.data(), -1, 0, &out), UserError);
}

}  // namespace
}  // namespace nnet3
