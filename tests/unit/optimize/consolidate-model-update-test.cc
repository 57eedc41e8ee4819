// ConsolidateModelUpdate: one model update per updatable component that is
// backpropagated several times (RNNs); nothing for feed-forward networks.
#include "optimize/consolidate-model-update.h"

#include <catch2/catch.hpp>

#include "compile/computation-checker.h"
#include "optimize-a-test-utils.h"

namespace nnet3 {

TEST_CASE("ConsolidateModelUpdate merges an RNN's model updates",
          "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(passes_a::kRecurrentConfig);
  const NnetComputation before = passes_a::Compile(
      nnet, passes_a::SimpleTrainingRequest(0, 4, 0, 4, true));
  const std::string b = passes_a::Listing(nnet, before);
  REQUIRE(passes_a::CountOf(b, "[and update model]") == 4);
  NnetComputation after = before;
  REQUIRE(ConsolidateModelUpdate(nnet, &after));
  const std::string a = passes_a::Listing(nnet, after);
  INFO("before:\n" << b << "after:\n" << a);
  // One update, with no input derivative, at the end; the four per-frame
  // backprops remain for the data derivatives.
  CHECK(passes_a::CountOf(a, "[and update model]") == 1);
  CHECK(passes_a::CountOf(a, "component-node 'affine' backprop") == 5);
  CHECK(passes_a::CountOf(a, "-> [] [and update model]") == 1);
  CHECK(after.commands.back().command_type == kDeallocMatrix);
  passes_a::CheckSameResults(nnet, before, after, 71);
}

TEST_CASE(
    "ConsolidateModelUpdate leaves feed-forward and no-update "
    "computations alone",
    "[optimize-a]") {
  const Nnet ff = passes_a::NnetFromConfigText(passes_a::kFeedForwardConfig);
  NnetComputation c =
      passes_a::Compile(ff, passes_a::SimpleTrainingRequest(0, 5, 0, 4, true));
  CHECK_FALSE(ConsolidateModelUpdate(ff, &c));
  const Nnet rnn = passes_a::NnetFromConfigText(passes_a::kRecurrentConfig);
  ComputationRequest request =
      passes_a::SimpleTrainingRequest(0, 4, 0, 4, true);
  request.need_model_derivative = false;  // input derivatives only
  c = passes_a::Compile(rnn, request);
  CHECK_FALSE(ConsolidateModelUpdate(rnn, &c));
}

}  // namespace nnet3
