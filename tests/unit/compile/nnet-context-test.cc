// Tests of compile/nnet-context.h: IsSimpleNnet and ComputeSimpleNnetContext.
#include "compile/nnet-context.h"

#include <catch2/catch.hpp>

#include "base/error.h"
#include "compiler-test-utils.h"

namespace nnet3 {

namespace {

std::pair<int32_t, int32_t> Context(const std::string &config) {
  Nnet nnet = CompilerTestNnet(config);
  REQUIRE(IsSimpleNnet(nnet));
  int32_t left = -1, right = -1;
  ComputeSimpleNnetContext(nnet, &left, &right);
  return {left, right};
}

}  // namespace

TEST_CASE("ComputeSimpleNnetContext on spliced and recurrent networks",
          "[compiler]") {
  // Append(Offset(input, -2), input, Offset(input, 2)) twice.
  REQUIRE(Context(kTdnnConfig) == std::make_pair(4, 4));
  REQUIRE(Context(kFeedForwardConfig) == std::make_pair(0, 0));
  // IfDefined recurrences add no context.
  REQUIRE(Context(kRnnConfig) == std::make_pair(0, 0));
  // Failover(Offset(relu1, -1), Offset(input, 1)): only the first frame
  // falls back to reading a frame ahead, which the window supplies.
  REQUIRE(Context(kFailoverConfig) == std::make_pair(0, 0));
  // Round(fast, 3) reads up to 2 frames back, depending on t mod 3.
  REQUIRE(Context(kClockworkConfig) == std::make_pair(2, 0));
  REQUIRE(Context(R"(
input-node name=input dim=2
input-node name=ivector dim=3
component name=a type=AffineComponent input-dim=7 output-dim=2
component-node name=a component=a input=Append(Offset(input, -3), Offset(input, 1), ReplaceIndex(ivector, t, 0))
output-node name=output input=a
)") == std::make_pair(3, 1));
}

TEST_CASE("IsSimpleNnet and its errors", "[compiler]") {
  Nnet two_inputs = CompilerTestNnet(R"(
input-node name=input dim=2
input-node name=other dim=2
output-node name=output input=Sum(input, other)
)");
  REQUIRE_FALSE(IsSimpleNnet(two_inputs));
  int32_t left, right;
  REQUIRE_THROWS_AS(ComputeSimpleNnetContext(two_inputs, &left, &right),
                    UserError);
  Nnet no_output = CompilerTestNnet(R"(
input-node name=input dim=2
output-node name=out input=input
)");
  REQUIRE_FALSE(IsSimpleNnet(no_output));
  // An output that needs unbounded context (a recurrence without
  // IfDefined) has no context.
  Nnet unbounded = CompilerTestNnet(R"(
input-node name=input dim=2
component name=a type=AffineComponent input-dim=4 output-dim=2
component-node name=a component=a input=Append(input, Offset(a, -1))
output-node name=output input=a
)");
  REQUIRE_THROWS_AS(ComputeSimpleNnetContext(unbounded, &left, &right),
                    UserError);
}

}  // namespace nnet3
