// The reference evaluator on hand-made networks, then compiled computations
// of random networks (the compiler tests' generator) checked row by row
// against it: every output row, and agreement on which requests are
// computable at all.
#include "reference-evaluator.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "../compile/nnet-test-utils.h"
#include "base/error.h"
#include "base/random.h"
#include "compile/compiler.h"
#include "compile/computation-request.h"
#include "compute-test-utils.h"
#include "nnet/init-random.h"
#include "nnet/nnet-utils.h"
#include "random-computation-utils.h"

namespace nnet3 {
namespace {

// Indexes (0, t, 0) for t in [begin, end).
std::vector<Index> Frames(int32_t begin, int32_t end) {
  std::vector<Index> v;
  for (int32_t t = begin; t < end; t++) v.push_back(Index(0, t, 0));
  return v;
}

// Input rows x(t) = [t, 10 + t] for t in [0, 6).
Matrix CountingInput() {
  Matrix m(6, 2);
  for (int32_t t = 0; t < 6; t++) {
    m.Set(t, 0, static_cast<float>(t));
    m.Set(t, 1, 10.0f + t);
  }
  return m;
}

}  // namespace

TEST_CASE("ReferenceEvaluator follows descriptor semantics", "[reference]") {
  const Nnet nnet = NnetFromConfigText(
      "input-node name=input dim=2\n"
      "dim-range-node name=second input-node=input dim-offset=1 dim=1\n"
      "output-node name=output input=Append(Sum(Offset(input, -1), "
      "Const(0.5, 2)), IfDefined(Offset(second, 2)), "
      "Failover(Offset(second, 3), Scale(2.0, second)), "
      "Switch(second, Round(second, 3)), ReplaceIndex(second, t, 1))\n");
  ReferenceEvaluator ref(nnet);
  ref.SetInput("input", Frames(0, 6), CountingInput());
  const int32_t out = nnet.GetNodeIndex("output");
  CHECK_FALSE(ref.IsComputable(Cindex(out, Index(0, 0, 0))));  // x(-1)
  CHECK_FALSE(ref.IsComputable(Cindex(out, Index(0, 6, 0))));  // x(6)
  // t = 1: x(0) + 0.5, IfDefined x(3)[1], x(4)[1], Switch branch 1 ->
  // Round(1, 3) = 0 -> x(0)[1], ReplaceIndex -> x(1)[1].
  CHECK(ref.Value(Cindex(out, Index(0, 1, 0))) ==
        std::vector<float>{0.5f, 10.5f, 13.0f, 14.0f, 10.0f, 11.0f});
  // t = 4: IfDefined(x(6)) is zero, Failover takes 2 * x(4)[1], Switch
  // branch 0 reads x(4)[1].
  CHECK(ref.Value(Cindex(out, Index(0, 4, 0))) ==
        std::vector<float>{3.5f, 13.5f, 0.0f, 28.0f, 14.0f, 11.0f});
  Matrix rows;
  REQUIRE(ref.ComputeRows("output", Frames(1, 6), &rows));
  CHECK(rows.Get(2, 3) == 26.0f);  // t = 3: Failover to 2 * x(3)[1]
  CHECK_FALSE(ref.ComputeRows("output", Frames(0, 2), &rows));
}

TEST_CASE("ReferenceEvaluator applies components row by row", "[reference]") {
  Nnet nnet = TinyNnet();  // affine (3 -> 4) + relu
  ReferenceEvaluator ref(nnet);
  const Matrix x = RandomMatrix(4, 3, 301);  // seed 301
  ref.SetInput("input", Frames(0, 4), x);
  Matrix rows;
  REQUIRE(ref.ComputeRows("output", Frames(0, 4), &rows));
  const Reference want = Direct(nnet, x, Matrix(4, 4));
  CheckNear(rows, want.y);
}

TEST_CASE("ReferenceEvaluator refuses minibatch-dependent components",
          "[reference]") {
  if (Component::NewComponentOfType("BatchNormComponent") == nullptr) return;
  Nnet nnet = NnetFromConfigText(
      "input-node name=input dim=3\n"
      "component name=bn type=BatchNormComponent dim=3\n"
      "component-node name=bn component=bn input=input\n"
      "output-node name=output input=bn\n");
  CHECK_THROWS_AS(ReferenceEvaluator(nnet), UserError);
  PrepareNnetForTest(302, &nnet);
  ReferenceEvaluator ref(nnet);
  CHECK_THROWS_AS(ref.SetInput("output", Frames(0, 1), Matrix(1, 3)),
                  UserError);
}

namespace {

// Compares two matrices element by element: |got - want| <= 1e-4 *
// max(1, |want|).
void CheckRowsNear(const MatrixView &got, const MatrixView &want) {
  REQUIRE(got.NumRows() == want.NumRows());
  REQUIRE(got.NumCols() == want.NumCols());
  const std::vector<float> g = got.ToHost(), w = want.ToHost();
  int32_t num_bad = 0;
  for (size_t i = 0; i < g.size(); i++) {
    if (std::fabs(g[i] - w[i]) <= 1.0e-4f * std::max(1.0f, std::fabs(w[i])))
      continue;
    if (num_bad++ < 5)
      FAIL_CHECK("row " << i / want.NumCols() << " col " << i % want.NumCols()
                        << ": computed " << g[i] << ", reference " << w[i]);
  }
  REQUIRE(num_bad == 0);
}

// Random matrices for the derivatives the request supplies.
std::vector<Matrix> OutputDerivs(const Nnet &nnet,
                                 const ComputationRequest &request,
                                 RandomState *rng) {
  std::vector<Matrix> derivs;
  for (const IoSpecification &io : request.outputs) {
    Matrix m;
    if (io.has_deriv) {
      m.Resize(static_cast<int32_t>(io.indexes.size()),
               nnet.OutputDim(io.name));
      m.SetRandn(rng->NextSeed());
    }
    derivs.push_back(std::move(m));
  }
  return derivs;
}

// Runs the compiled computation (forward and, if the request has one,
// backward) and compares each output with the reference.
void CompareOutputs(const Nnet &nnet, const ComputationRequest &request,
                    const std::vector<Matrix> &inputs, bool optimize,
                    RandomState *rng) {
  ReferenceEvaluator ref(nnet);
  for (size_t i = 0; i < request.inputs.size(); i++)
    ref.SetInput(request.inputs[i].name, request.inputs[i].indexes, inputs[i]);
  const NnetComputation computation = CompileAndCheck(nnet, request, optimize);
  ComputationIo io;
  io.inputs = inputs;
  io.output_derivs = OutputDerivs(nnet, request, rng);
  Nnet gradient(nnet);  // receives model derivatives and stats
  SetNnetAsGradient(&gradient);
  RunComputationIo(request, computation, nnet, &gradient, &io);
  for (size_t o = 0; o < request.outputs.size(); o++) {
    INFO("output " << request.outputs[o].name);
    Matrix want;
    REQUIRE(ref.ComputeRows(request.outputs[o].name, request.outputs[o].indexes,
                            &want));
    CheckRowsNear(io.outputs[o], want);
  }
}

// Output derivatives nothing needs are accepted and never read, and the
// checker warns about each; the generator asks for them at random.
void DropUselessOutputDerivs(ComputationRequest *request) {
  bool needed = request->need_model_derivative;
  for (const IoSpecification &io : request->inputs)
    needed = needed || io.has_deriv;
  if (!needed)
    for (IoSpecification &io : request->outputs) io.has_deriv = false;
}

// Network i of a run: the generator options the compiler test uses.
Nnet RandomNnet(uint32_t seed, uint32_t i, RandomState *rng,
                std::vector<std::string> *configs) {
  NnetGenerationOptions gen_opts;
  gen_opts.allow_ivector = (i % 3 == 0);
  gen_opts.allow_multiple_outputs = (i % 4 == 1);
  GenerateConfigSequence(gen_opts, rng, configs);
  SetComponentInitSeed(seed);  // parameters depend on the seed alone
  Nnet nnet = NnetFromConfigSequence(*configs);
  PrepareNnetForTest(seed, &nnet);
  return nnet;
}

void CompareRandomNetworks(uint32_t base_seed, uint32_t num_networks,
                           int32_t requests_per_network, bool optimize) {
  for (uint32_t i = 0; i < num_networks; i++) {
    const uint32_t seed = base_seed + i;
    INFO("seed " << seed);
    RandomState rng(seed);
    std::vector<std::string> configs;
    const Nnet nnet = RandomNnet(seed, i, &rng, &configs);
    INFO("configs:\n" << ConfigsToString(configs));
    for (int32_t r = 0; r < requests_per_network; r++) {
      ComputationRequest request;
      std::vector<Matrix> inputs;
      ComputeExampleComputationRequestSimple(nnet, &rng, &request, &inputs);
      DropUselessOutputDerivs(&request);
      INFO("request " << r << ": " << RequestToString(request));
      CompareOutputs(nnet, request, inputs, optimize, &rng);
    }
  }
}

}  // namespace

// Seeds 31000..31199, two requests each.
TEST_CASE("Compiled random networks match the reference evaluator",
          "[reference]") {
  CompareRandomNetworks(31000, 200, 2, false);
}

// The same with the optimizer (default options) on: seeds 32000..32099.
TEST_CASE("Optimized random networks match the reference evaluator",
          "[reference]") {
  CompareRandomNetworks(32000, 100, 2, true);
}

TEST_CASE("Reference evaluator: many random networks", "[.slow][reference]") {
  CompareRandomNetworks(1000000, 2000, 2, false);
  CompareRandomNetworks(2000000, 1000, 2, true);
}

namespace {

// Keeps the rows of frame-level input i whose t lies in [lo, hi].
void NarrowInput(int32_t lo, int32_t hi, IoSpecification *io, Matrix *m) {
  std::vector<Index> kept;
  std::vector<float> host = m->ToHost(), kept_host;
  const int32_t cols = m->NumCols();
  for (size_t r = 0; r < io->indexes.size(); r++) {
    if (io->indexes[r].t < lo || io->indexes[r].t > hi) continue;
    kept.push_back(io->indexes[r]);
    kept_host.insert(kept_host.end(), host.begin() + r * cols,
                     host.begin() + (r + 1) * cols);
  }
  io->indexes = kept;
  m->Resize(static_cast<int32_t>(kept.size()), cols, ResizeType::kUndefined);
  m->CopyFromHost(kept_host.data(), cols);
}

}  // namespace

// Requests whose frame-level inputs lose frames at either end: the compiler
// must refuse exactly those whose outputs the reference cannot compute, and
// compute the others correctly. Seeds 33000..33099, three requests each.
TEST_CASE("Compiler and reference evaluator agree on computability",
          "[reference]") {
  int32_t num_refused = 0, num_compiled = 0;
  for (uint32_t i = 0; i < 100; i++) {
    const uint32_t seed = 33000 + i;
    INFO("seed " << seed);
    RandomState rng(seed);
    std::vector<std::string> configs;
    const Nnet nnet = RandomNnet(seed, i, &rng, &configs);
    INFO("configs:\n" << ConfigsToString(configs));
    for (int32_t r = 0; r < 3; r++) {
      ComputationRequest request;
      std::vector<Matrix> inputs;
      ComputeExampleComputationRequestSimple(nnet, &rng, &request, &inputs);
      for (size_t k = 0; k < request.inputs.size(); k++) {
        IoSpecification &io = request.inputs[k];
        if (io.name == "ivector" || io.indexes.empty()) continue;
        const int32_t lo = io.indexes.front().t, hi = io.indexes.back().t;
        NarrowInput(lo + rng.Int(0, 6), hi - rng.Int(0, 6), &io, &inputs[k]);
      }
      DropUselessOutputDerivs(&request);
      INFO("request " << r << ": " << RequestToString(request));
      ReferenceEvaluator ref(nnet);
      for (size_t k = 0; k < request.inputs.size(); k++)
        ref.SetInput(request.inputs[k].name, request.inputs[k].indexes,
                     inputs[k]);
      bool computable = true;
      for (const IoSpecification &out : request.outputs) {
        Matrix unused;
        computable =
            computable && ref.ComputeRows(out.name, out.indexes, &unused);
      }
      if (computable) {
        num_compiled++;
        CompareOutputs(nnet, request, inputs, false, &rng);
      } else {
        num_refused++;
        NnetComputation computation;
        Compiler compiler(request, nnet);
        CHECK_THROWS_AS(
            compiler.CreateComputation(CompilerOptions(), &computation),
            UserError);
      }
    }
  }
  // Both kinds must have occurred for the test to mean something.
  CHECK(num_refused > 10);
  CHECK(num_compiled > 10);
}

}  // namespace nnet3
