// Looped inference (DecodableNnetSimpleLooped over CompileLooped): on LSTM
// and TDNN-LSTM networks (with and without i-vectors) the output of every
// frame equals the non-looped computation of the whole utterance in one
// chunk (so the recurrence sees the whole past), for several chunk sizes,
// utterance lengths and extra initial left contexts; the compiled
// computation is a loop; 10,000 chunks run without growing memory; frame
// by frame access; bad inputs.
#include "compute/decodable-simple-looped.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "base/error.h"
#include "compile/nnet-context.h"
#include "compute-test-utils.h"
#include "compute/nnet-simple-computation.h"
#include "device/device.h"
#include "optimize/compile-looped.h"

namespace nnet3 {
namespace {

// A projected LSTM (Kaldi's fast-lstmp-layer wiring, recurrence delay -1)
// over spliced input, with the output delayed by 2 frames: output t reads
// input t+1..t+3, so left context 0 and right context 3.
const char *const kLstmConfig =
    "input-node name=input dim=3\n"
    "component name=lstm1.W_all type=NaturalGradientAffineComponent "
    "input-dim=11 output-dim=16\n"
    "component name=lstm1.lstm_nonlin type=LstmNonlinearityComponent "
    "cell-dim=4\n"
    "component name=lstm1.cr_trunc type=BackpropTruncationComponent dim=6 "
    "clipping-threshold=30.0 zeroing-threshold=15.0 zeroing-interval=20 "
    "recurrence-interval=1 scale=1.0\n"
    "component name=lstm1.W_rp type=NaturalGradientAffineComponent "
    "input-dim=4 output-dim=4\n"
    "component-node name=lstm1.W_all component=lstm1.W_all "
    "input=Append(Append(Offset(input, -1), input, Offset(input, 1)), "
    "IfDefined(Offset(lstm1.r_trunc, -1)))\n"
    "component-node name=lstm1.lstm_nonlin component=lstm1.lstm_nonlin "
    "input=Append(lstm1.W_all, IfDefined(Offset(lstm1.c_trunc, -1)))\n"
    "dim-range-node name=lstm1.c input-node=lstm1.lstm_nonlin dim-offset=0 "
    "dim=4\n"
    "dim-range-node name=lstm1.m input-node=lstm1.lstm_nonlin dim-offset=4 "
    "dim=4\n"
    "component-node name=lstm1.rp component=lstm1.W_rp input=lstm1.m\n"
    "dim-range-node name=lstm1.r input-node=lstm1.rp dim-offset=0 dim=2\n"
    "component-node name=lstm1.cr_trunc component=lstm1.cr_trunc "
    "input=Append(lstm1.c, lstm1.r)\n"
    "dim-range-node name=lstm1.c_trunc input-node=lstm1.cr_trunc "
    "dim-offset=0 dim=4\n"
    "dim-range-node name=lstm1.r_trunc input-node=lstm1.cr_trunc "
    "dim-offset=4 dim=2\n"
    "component name=output.affine type=NaturalGradientAffineComponent "
    "input-dim=4 output-dim=5 param-stddev=0.5 bias-stddev=0.5\n"
    "component-node name=output.affine component=output.affine "
    "input=lstm1.rp\n"
    "output-node name=output input=Offset(output.affine, 2)\n";

// TDNN layers around an LSTM with recurrence delay -3, an i-vector read at
// t = 0 (ReplaceIndex), as Kaldi's TDNN-LSTM recipes.
const char *const kTdnnLstmConfig =
    "input-node name=input dim=3\n"
    "input-node name=ivector dim=2\n"
    "component name=tdnn1.affine type=NaturalGradientAffineComponent "
    "input-dim=11 output-dim=6\n"
    "component-node name=tdnn1.affine component=tdnn1.affine "
    "input=Append(Offset(input, -1), input, Offset(input, 1), "
    "ReplaceIndex(ivector, t, 0))\n"
    "component name=tdnn1.relu type=RectifiedLinearComponent dim=6\n"
    "component-node name=tdnn1.relu component=tdnn1.relu input=tdnn1.affine\n"
    "component name=lstm1.W_all type=NaturalGradientAffineComponent "
    "input-dim=8 output-dim=16\n"
    "component name=lstm1.lstm_nonlin type=LstmNonlinearityComponent "
    "cell-dim=4\n"
    "component name=lstm1.cr_trunc type=BackpropTruncationComponent dim=6 "
    "recurrence-interval=3 scale=0.85\n"
    "component name=lstm1.W_rp type=NaturalGradientAffineComponent "
    "input-dim=4 output-dim=4\n"
    "component-node name=lstm1.W_all component=lstm1.W_all "
    "input=Append(tdnn1.relu, IfDefined(Offset(lstm1.r_trunc, -3)))\n"
    "component-node name=lstm1.lstm_nonlin component=lstm1.lstm_nonlin "
    "input=Append(lstm1.W_all, IfDefined(Offset(lstm1.c_trunc, -3)))\n"
    "dim-range-node name=lstm1.c input-node=lstm1.lstm_nonlin dim-offset=0 "
    "dim=4\n"
    "dim-range-node name=lstm1.m input-node=lstm1.lstm_nonlin dim-offset=4 "
    "dim=4\n"
    "component-node name=lstm1.rp component=lstm1.W_rp input=lstm1.m\n"
    "dim-range-node name=lstm1.r input-node=lstm1.rp dim-offset=0 dim=2\n"
    "component-node name=lstm1.cr_trunc component=lstm1.cr_trunc "
    "input=Append(lstm1.c, lstm1.r)\n"
    "dim-range-node name=lstm1.c_trunc input-node=lstm1.cr_trunc "
    "dim-offset=0 dim=4\n"
    "dim-range-node name=lstm1.r_trunc input-node=lstm1.cr_trunc "
    "dim-offset=4 dim=2\n"
    "component name=tdnn2.affine type=NaturalGradientAffineComponent "
    "input-dim=12 output-dim=5 param-stddev=0.5 bias-stddev=0.5\n"
    "component-node name=tdnn2.affine component=tdnn2.affine "
    "input=Append(Offset(lstm1.rp, -3), lstm1.rp, Offset(lstm1.rp, 3))\n"
    "output-node name=output input=tdnn2.affine\n";

float MaxAbsDiff(const MatrixView &a, const MatrixView &b) {
  REQUIRE(a.NumRows() == b.NumRows());
  REQUIRE(a.NumCols() == b.NumCols());
  const std::vector<float> x = a.ToHost(), y = b.ToHost();
  float d = 0.0f;
  for (size_t i = 0; i < x.size(); ++i) d = std::max(d, std::fabs(x[i] - y[i]));
  return d;
}

// The whole utterance in one non-looped chunk.
Matrix NonLooped(const Nnet &nnet, const Matrix &features,
                 const Vector *ivector, int32_t extra_left_initial) {
  NnetSimpleComputationOptions opts;
  opts.acoustic_scale = 1.0f;
  opts.frames_per_chunk = features.NumRows();
  opts.extra_left_context_initial = extra_left_initial;
  NnetSimpleComputer computer(opts, nnet);
  Matrix output;
  computer.ComputeUtterance("utt", features, ivector, nullptr, 0, &output);
  return output;
}

void CheckLoopedEqualsNonLooped(const char *config, bool ivectors,
                                uint64_t seed) {
  Nnet nnet = NnetFromConfigText(config);
  for (int32_t extra : {0, 2}) {
    for (int32_t chunk : {1, 4, 7, 20}) {
      NnetSimpleLoopedComputationOptions opts;
      opts.acoustic_scale = 1.0f;
      opts.frames_per_chunk = chunk;
      opts.extra_left_context_initial = extra;
      Nnet looped_nnet(nnet);  // the info may rewrite the i-vector input
      DecodableNnetSimpleLoopedInfo info(opts, &looped_nnet);
      CHECK(info.Computation().commands.back().command_type == kGotoLabel);
      for (int32_t num_frames : {1, 6, 23, 41}) {
        INFO("extra-left-context-initial " << extra << ", chunk " << chunk
                                           << ", frames " << num_frames
                                           << ", seed " << seed);
        Matrix features = RandomMatrix(num_frames, 3, seed + num_frames);
        Vector ivector(2);
        ivector.SetRandn(seed + 100);
        const Vector *iv = ivectors ? &ivector : nullptr;
        Matrix want = NonLooped(nnet, features, iv, extra);
        DecodableNnetSimpleLooped decodable(info, "utt", features, iv, nullptr,
                                            0);
        Matrix got;
        decodable.GetAllOutput(&got);
        CHECK(decodable.NumChunksComputed() ==
              (num_frames + chunk - 1) / chunk);
        CHECK(MaxAbsDiff(got, want) < 2e-5f);
      }
    }
  }
}

}  // namespace

TEST_CASE("Looped LSTM output equals non-looped", "[looped]") {
  CheckLoopedEqualsNonLooped(kLstmConfig, false, 1530);
}

TEST_CASE("Looped TDNN-LSTM output equals non-looped, with i-vectors",
          "[looped]") {
  CheckLoopedEqualsNonLooped(kTdnnLstmConfig, true, 1531);
}

TEST_CASE("Looped computation structure and frame-by-frame access",
          "[looped]") {
  Nnet nnet = NnetFromConfigText(kLstmConfig);
  int32_t left = 0, right = 0;
  ComputeSimpleNnetContext(nnet, &left, &right);
  CHECK(left == 0);
  CHECK(right == 3);
  NnetSimpleLoopedComputationOptions opts;
  opts.frames_per_chunk = 5;
  opts.extra_left_context_initial = 1;
  DecodableNnetSimpleLoopedInfo info(opts, &nnet);
  CHECK(info.FramesLeftContext() == 1);
  CHECK(info.FramesRightContext() == 3);
  // request1: inputs -1..7, outputs 0..4; request2: inputs 8..12, outputs
  // 5..9; request3 outputs from 10.
  CHECK(info.Request(1).inputs[0].indexes.size() == 9);
  CHECK(info.Request(1).inputs[0].indexes.front().t == -1);
  CHECK(info.Request(2).inputs[0].indexes.front().t == 8);
  CHECK(info.Request(2).inputs[0].indexes.size() == 5);
  CHECK(info.Request(3).outputs[0].indexes.front().t == 10);
  const NnetComputation &c = info.Computation();
  const auto &commands = c.commands;
  REQUIRE(commands.back().command_type == kGotoLabel);
  CHECK(commands[commands.back().arg1].command_type == kNoOperationLabel);
  // The features, acoustic scale 0.1 (the default) included.
  Matrix features = RandomMatrix(12, 3, 1532);
  DecodableNnetSimpleLooped all(info, "utt", features, nullptr, nullptr, 0);
  Matrix whole;
  all.GetAllOutput(&whole);
  DecodableNnetSimpleLooped frames(info, "utt", features, nullptr, nullptr, 0);
  Vector row(5);
  for (int32_t f = 0; f < 12; f++) {
    frames.GetOutputForFrame(f, &row);
    CHECK(MaxAbsDiff(row.AsRowMatrix(), whole.RowRange(f, 1)) == 0.0f);
  }
  Matrix unscaled = NonLooped(nnet, features, nullptr, 1);
  unscaled.Scale(0.1f);
  CHECK(MaxAbsDiff(unscaled, whole) < 2e-6f);
}

TEST_CASE("A looped computation runs 10000 chunks in constant memory",
          "[looped]") {
  Nnet nnet = NnetFromConfigText(kTdnnLstmConfig);
  NnetSimpleLoopedComputationOptions opts;
  opts.frames_per_chunk = 2;
  DecodableNnetSimpleLoopedInfo info(opts, &nnet);
  const int32_t num_frames = 20000;  // 10000 chunks of 2 frames
  Matrix features = RandomMatrix(num_frames, 3, 1533);
  Vector ivector(2);
  ivector.SetRandn(1534);
  CachingAllocator &allocator = ActiveDevice().allocator();
  DecodableNnetSimpleLooped decodable(info, "utt", features, &ivector, nullptr,
                                      0);
  Vector row(5);
  size_t in_use_after_warmup = 0, backend_allocs_after_warmup = 0;
  for (int32_t f = 0; f < num_frames; f++) {
    decodable.GetOutputForFrame(f, &row);
    if (f == 199) {
      in_use_after_warmup = allocator.BytesInUse();
      backend_allocs_after_warmup = allocator.NumBackendAllocations();
    }
  }
  CHECK(decodable.NumChunksComputed() == 10000);
  CHECK(std::isfinite(row.Sum()));
  // No matrix is leaked per chunk, and no new device memory is needed.
  CHECK(allocator.BytesInUse() == in_use_after_warmup);
  CHECK(allocator.NumBackendAllocations() == backend_allocs_after_warmup);
}

TEST_CASE("Looped inference rejects bad inputs", "[looped]") {
  Nnet nnet = NnetFromConfigText(kTdnnLstmConfig);
  NnetSimpleLoopedComputationOptions opts;
  DecodableNnetSimpleLoopedInfo info(opts, &nnet);
  Matrix features = RandomMatrix(5, 3, 1535), wrong = RandomMatrix(5, 4, 1);
  Vector ivector(2), bad_ivector(3);
  CHECK_THROWS_AS(
      DecodableNnetSimpleLooped(info, "u1", wrong, &ivector, nullptr, 0),
      UserError);
  CHECK_THROWS_AS(
      DecodableNnetSimpleLooped(info, "u2", features, nullptr, nullptr, 0),
      UserError);
  CHECK_THROWS_AS(
      DecodableNnetSimpleLooped(info, "u3", features, &bad_ivector, nullptr, 0),
      UserError);
  Matrix online = RandomMatrix(1, 2, 2);
  CHECK_THROWS_AS(
      DecodableNnetSimpleLooped(info, "u4", features, nullptr, &online, 0),
      UserError);
  Matrix empty(0, 3);
  CHECK_THROWS_AS(
      DecodableNnetSimpleLooped(info, "u5", empty, &ivector, nullptr, 0),
      UserError);
  opts.extra_left_context_initial = -1;
  Nnet copy = NnetFromConfigText(kLstmConfig);
  CHECK_THROWS_AS(DecodableNnetSimpleLoopedInfo(opts, &copy), UserError);
}

}  // namespace nnet3
