// CompactLatticeDepth and CompactLatticeDepthPerFrame on a hand-made diamond
// lattice whose frame coverage is worked out in the comment.
#include "lat/lattice-depth.h"

#include <fst/fstlib.h>

#include <catch2/catch.hpp>
#include <vector>

#include "../util/util-test-common.h"
#include "lat/kaldi-lattice.h"

namespace nnet3 {
namespace {

using test::ExpectUserError;
using LW = LatticeWeight;
using CLW = CompactLatticeWeight;

// 0 -[1 2]-> 1 -[7 8]-> 3, 0 -[3 4 5]-> 2 -[9]-> 3, final [6] at 3.
// Frames: 0->1 covers 0-1, 0->2 covers 0-2, 1->3 covers 2-3, 2->3 covers
// 3, the final string covers 4: per frame 2 2 2 2 1; 9 frames of strings
// over 5 frames is depth 1.8.
CompactLattice DiamondWithStrings() {
  CompactLattice clat;
  for (int i = 0; i < 4; ++i) clat.AddState();
  clat.SetStart(0);
  clat.AddArc(0, CompactLatticeArc(1, 1, CLW(LW(1, 1), {1, 2}), 1));
  clat.AddArc(0, CompactLatticeArc(2, 2, CLW(LW(1, 1), {3, 4, 5}), 2));
  clat.AddArc(1, CompactLatticeArc(3, 3, CLW(LW(1, 1), {7, 8}), 3));
  clat.AddArc(2, CompactLatticeArc(3, 3, CLW(LW(1, 1), {9}), 3));
  clat.SetFinal(3, CLW(LW::One(), {6}));
  return clat;
}

TEST_CASE("CompactLatticeDepth", "[lat]") {
  int32_t num_frames = -1;
  CHECK(CompactLatticeDepth(DiamondWithStrings(), &num_frames) == Approx(1.8f));
  CHECK(num_frames == 5);
  CHECK(CompactLatticeDepth(CompactLattice(), &num_frames) == 1.0f);
  CHECK(num_frames == 0);
  CompactLattice unsorted = DiamondWithStrings();
  unsorted.AddArc(3, CompactLatticeArc(1, 1, CLW::One(), 0));
  ExpectUserError([&] { CompactLatticeDepth(unsorted, nullptr); },
                  {"not topologically sorted"});
}

TEST_CASE("CompactLatticeDepthPerFrame", "[lat]") {
  std::vector<int32_t> depth;
  CompactLatticeDepthPerFrame(DiamondWithStrings(), &depth);
  CHECK(depth == (std::vector<int32_t>{2, 2, 2, 2, 1}));
  CompactLatticeDepthPerFrame(CompactLattice(), &depth);
  CHECK(depth.empty());
}

}  // namespace
}  // namespace nnet3
