// LimitDerivativeTimes: derivatives outside [min, max] are treated as zero.
// For a network without time context this is exactly "backprop only the
// frames inside the window", which an unoptimized computation over those
// frames computes directly.
#include "optimize/limit-derivative-times.h"

#include <catch2/catch.hpp>
#include <limits>

#include "base/error.h"
#include "compile/computation-checker.h"
#include "optimize-a-test-utils.h"
#include "optimize/nnet-optimize.h"

namespace nnet3 {

namespace {

const char *const kNoContextConfig =
    "input-node name=input dim=3\n"
    "component name=affine type=AffineComponent input-dim=3 output-dim=4\n"
    "component-node name=affine component=affine input=input\n"
    "component name=relu type=RectifiedLinearComponent dim=4\n"
    "component-node name=relu component=relu input=affine\n"
    "component name=affine2 type=AffineComponent input-dim=4 output-dim=2\n"
    "component-node name=affine2 component=affine2 input=relu\n"
    "output-node name=output input=affine2\n";

// Rows [begin, end) of m.
Matrix Rows(const Matrix &m, int32_t begin, int32_t end) {
  return Matrix(m.RowRange(begin, end - begin));
}

}  // namespace

TEST_CASE("LimitDerivativeTimes backprops only frames in the window",
          "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(kNoContextConfig);
  const int32_t min_t = 2, max_t = 5, num_t = 10;
  const NnetComputation full = passes_a::Compile(
      nnet, passes_a::SimpleTrainingRequest(0, num_t, 0, num_t, true));
  NnetComputation limited = full;
  REQUIRE(LimitDerivativeTimes(nnet, min_t, max_t, &limited));
  INFO("before:\n"
       << passes_a::Listing(nnet, full) << "after:\n"
       << passes_a::Listing(nnet, limited));
  CHECK(passes_a::CountOf(passes_a::Listing(nnet, limited), "(2:5, :)") > 0);
  REQUIRE_NOTHROW(CheckComputation(nnet, limited));
  const passes_a::Io io = passes_a::RandomIoForComputation(nnet, full, 61);
  const passes_a::Results got = passes_a::Run(nnet, limited, io),
                          all = passes_a::Run(nnet, full, io);
  // The reference: an unoptimized computation over the window's frames.
  const NnetComputation window =
      passes_a::Compile(nnet, passes_a::SimpleTrainingRequest(
                                  min_t, max_t + 1, min_t, max_t + 1, true));
  passes_a::Io window_io;
  window_io.input_values["input"] =
      Rows(io.input_values.at("input"), min_t, max_t + 1);
  window_io.output_derivs["output"] =
      Rows(io.output_derivs.at("output"), min_t, max_t + 1);
  const passes_a::Results want = passes_a::Run(nnet, window, window_io);
  // Forward values are untouched.
  CHECK(got.provided.at("value:output").ToHost() ==
        all.provided.at("value:output").ToHost());
  // Input derivatives: the window's, and zero outside it.
  const Matrix &dx = got.provided.at("deriv:input");
  passes_a::Results window_part;
  window_part.provided["deriv:input"] = Rows(dx, min_t, max_t + 1);
  window_part.gradient = got.gradient;
  passes_a::Results want_part;
  want_part.provided["deriv:input"] = want.provided.at("deriv:input");
  want_part.gradient = want.gradient;
  CHECK(passes_a::Compare(want_part, window_part, 1e-4f) == "");
  for (int32_t t : {0, 1, 6, 9})
    CHECK(Rows(dx, t, t + 1).FrobeniusNorm() == 0.0);
}

TEST_CASE("LimitDerivativeTimes through Optimize with a relative max",
          "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(kNoContextConfig);
  const ComputationRequest request =
      passes_a::SimpleTrainingRequest(0, 10, 0, 10, true);
  const NnetComputation full = passes_a::Compile(nnet, request);
  REQUIRE(MaxOutputTimeInRequest(request) == 9);
  NnetComputation limited = full, optimized = full;
  LimitDerivativeTimes(nnet, 2, 5, &limited);
  NnetOptimizeOptions opts;
  opts.min_deriv_time = 2;
  opts.max_deriv_time = 100;          // overridden by the relative one
  opts.max_deriv_time_relative = -4;  // 9 - 4 = 5
  opts.check_after_each_pass = true;
  {
    passes_a::QuietStderr quiet;
    Optimize(opts, nnet, MaxOutputTimeInRequest(request), &optimized);
  }
  passes_a::CheckSameResults(nnet, limited, optimized, 62);
}

TEST_CASE("LimitDerivativeTimes on a recurrent network", "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(passes_a::kRecurrentConfig);
  const NnetComputation full = passes_a::Compile(
      nnet, passes_a::SimpleTrainingRequest(0, 6, 0, 6, true));
  NnetComputation limited = full;
  REQUIRE(LimitDerivativeTimes(nnet, 1, 3, &limited));
  INFO(passes_a::Listing(nnet, limited));
  REQUIRE_NOTHROW(CheckComputation(nnet, limited));
  // Fewer backprops: none for t = 0, 4, 5.
  CHECK(passes_a::CountOf(passes_a::Listing(nnet, limited), "backprop") <
        passes_a::CountOf(passes_a::Listing(nnet, full), "backprop"));
  const passes_a::Io io = passes_a::RandomIoForComputation(nnet, full, 63);
  const passes_a::Results got = passes_a::Run(nnet, limited, io);
  const Matrix &dx = got.provided.at("deriv:input");
  for (int32_t t : {0, 4, 5}) CHECK(Rows(dx, t, t + 1).FrobeniusNorm() == 0.0);
  CHECK(Rows(dx, 1, 4).FrobeniusNorm() > 0.0);
}

TEST_CASE("LimitDerivativeTimes with a window holding every frame",
          "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(passes_a::kFeedForwardConfig);
  NnetComputation c = passes_a::Compile(
      nnet, passes_a::SimpleTrainingRequest(0, 5, 0, 4, true));
  CHECK_FALSE(LimitDerivativeTimes(nnet, -10, 10, &c));
  CHECK_FALSE(LimitDerivativeTimes(nnet, std::numeric_limits<int32_t>::min(),
                                   std::numeric_limits<int32_t>::max(), &c));
  CHECK_THROWS_AS(LimitDerivativeTimes(nnet, 3, 2, &c), UserError);
}

// A fused LSTM (Kaldi's fast-lstmp wiring: truncation components with
// precomputed indexes on the recurrence) trained on chunk frames 0..7 with
// Kaldi's RNN deriv truncation: input derivatives exist only inside the
// window, and a window holding every frame changes nothing.
TEST_CASE("LimitDerivativeTimes on an LSTM network", "[optimize-a]") {
  const Nnet nnet = passes_a::NnetFromConfigText(
      "input-node name=input dim=2\n"
      "component name=W_all type=NaturalGradientAffineComponent "
      "input-dim=4 output-dim=12\n"
      "component name=cell type=LstmNonlinearityComponent cell-dim=3 "
      "self-repair-scale=0\n"
      "component name=cr_trunc type=BackpropTruncationComponent dim=5 "
      "recurrence-interval=1\n"
      "component name=W_rp type=NaturalGradientAffineComponent input-dim=3 "
      "output-dim=4\n"
      "component-node name=W_all component=W_all "
      "input=Append(input, IfDefined(Offset(r_trunc, -1)))\n"
      "component-node name=cell component=cell "
      "input=Append(W_all, IfDefined(Offset(c_trunc, -1)))\n"
      "dim-range-node name=c input-node=cell dim-offset=0 dim=3\n"
      "dim-range-node name=m input-node=cell dim-offset=3 dim=3\n"
      "component-node name=rp component=W_rp input=m\n"
      "dim-range-node name=r input-node=rp dim-offset=0 dim=2\n"
      "component-node name=cr_trunc component=cr_trunc input=Append(c, r)\n"
      "dim-range-node name=c_trunc input-node=cr_trunc dim-offset=0 dim=3\n"
      "dim-range-node name=r_trunc input-node=cr_trunc dim-offset=3 dim=2\n"
      "output-node name=output input=rp\n");
  const NnetComputation full = passes_a::Compile(
      nnet, passes_a::SimpleTrainingRequest(0, 8, 0, 8, true));
  NnetComputation same = full;
  CHECK_FALSE(LimitDerivativeTimes(nnet, -10, 17, &same));
  NnetComputation limited = full;
  REQUIRE(LimitDerivativeTimes(nnet, 2, 5, &limited));
  INFO(passes_a::Listing(nnet, limited));
  REQUIRE_NOTHROW(CheckComputation(nnet, limited));
  const passes_a::Io io = passes_a::RandomIoForComputation(nnet, full, 64);
  const passes_a::Results got = passes_a::Run(nnet, limited, io),
                          want = passes_a::Run(nnet, full, io);
  const Matrix &dx = got.provided.at("deriv:input");
  for (int32_t t : {0, 1, 6, 7})
    CHECK(Rows(dx, t, t + 1).FrobeniusNorm() == 0.0);
  CHECK(Rows(dx, 2, 6).FrobeniusNorm() > 0.0);
  // The forward pass is untouched; the model update is not.
  CHECK(passes_a::Compare(got, want, 1e-5f) != "");
  CHECK(got.provided.at("value:output")
            .ApproxEqual(want.provided.at("value:output"), 1e-6f));
}

}  // namespace nnet3
