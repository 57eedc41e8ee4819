// Shortcut compilation: which requests decompose (hand-made yes/no cases),
// and, for random and hand-written networks with regular requests of 3-5
// sequences, that the expanded two-sequence computation passes the checker
// and gives the same outputs, input derivatives and model derivatives as
// the directly compiled one when both run in NnetComputer.
#include "compile/shortcut-compile.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "compile/compiler.h"
#include "compile/computation-checker.h"
#include "compiler-test-utils.h"
#include "compute/nnet-computer.h"
#include "nnet-test-utils.h"
#include "nnet/nnet-utils.h"

namespace nnet3 {
namespace {

// (n, t) for n in [0, num_n), t in [t_begin, t_end): n-major (for n, for
// t) or t-major (for t, for n).
std::vector<Index> Frames(int32_t num_n, int32_t t_begin, int32_t t_end,
                          bool n_major) {
  std::vector<Index> v;
  if (n_major) {
    for (int32_t n = 0; n < num_n; n++)
      for (int32_t t = t_begin; t < t_end; t++) v.emplace_back(n, t, 0);
  } else {
    for (int32_t t = t_begin; t < t_end; t++)
      for (int32_t n = 0; n < num_n; n++) v.emplace_back(n, t, 0);
  }
  return v;
}

ComputationRequest TwoIoRequest(const std::vector<Index> &in,
                                const std::vector<Index> &out) {
  ComputationRequest r;
  r.inputs.emplace_back("input", in, true);
  r.outputs.emplace_back("output", out, true);
  r.need_model_derivative = true;
  r.store_component_stats = true;
  return r;
}

}  // namespace

TEST_CASE("FindNStride finds n-major, t-major and block strides",
          "[shortcut]") {
  CHECK(FindNStride(Frames(3, 0, 4, true)) == 4);
  CHECK(FindNStride(Frames(3, 0, 4, false)) == 1);
  CHECK(FindNStride(Frames(2, 5, 6, true)) == 1);  // one frame: both
  CHECK(FindNStride(Frames(1, 0, 4, true)) == 0);  // one n value
  // Blocks of 2 frames x 3 sequences: stride 2.
  std::vector<Index> blocks;
  for (int32_t b = 0; b < 2; b++)
    for (int32_t n = 0; n < 3; n++)
      for (int32_t t = 2 * b; t < 2 * b + 2; t++) blocks.emplace_back(n, t, 0);
  CHECK(FindNStride(blocks) == 2);
  // Not regular: n = 2 lacks a frame; n starts at 1; n = 3 instead of 2.
  std::vector<Index> v = Frames(3, 0, 4, true);
  v.pop_back();
  CHECK(FindNStride(v) == 0);
  std::vector<Index> from1 = Frames(3, 0, 4, true);
  for (Index &i : from1) i.n++;
  CHECK(FindNStride(from1) == 0);
  std::vector<Index> gap = Frames(3, 0, 4, true);
  for (Index &i : gap)
    if (i.n == 2) i.n = 3;
  CHECK(FindNStride(gap) == 0);
  // A swapped pair breaks the repetition.
  std::vector<Index> swapped = Frames(3, 0, 4, true);
  std::swap(swapped[5], swapped[6]);
  CHECK(FindNStride(swapped) == 0);
  // Cindexes: the node must repeat too.
  std::vector<Cindex> c;
  for (const Index &i : Frames(3, 0, 2, true)) c.emplace_back(4, i);
  CHECK(FindNStride(c) == 2);
  c[3].first = 5;
  CHECK(FindNStride(c) == 0);
}

TEST_CASE("ConvertNumNValues shrinks and re-expands", "[shortcut]") {
  for (bool n_major : {true, false}) {
    std::vector<Index> big = Frames(5, -2, 3, n_major), small, again;
    int32_t s = FindNStride(big);
    REQUIRE(s == (n_major ? 5 : 1));
    ConvertNumNValues(s, 5, 2, big, &small);
    CHECK(small == Frames(2, -2, 3, n_major));
    ConvertNumNValues(s, 2, 5, small, &again);
    CHECK(again == big);
  }
}

TEST_CASE("RequestIsDecomposable on hand-made requests", "[shortcut]") {
  ComputationRequest mini;
  int32_t num_n = 0;
  SECTION("n-major and t-major with 4 sequences") {
    for (bool n_major : {true, false}) {
      ComputationRequest r =
          TwoIoRequest(Frames(4, -3, 8, n_major), Frames(4, 0, 5, !n_major));
      REQUIRE(RequestIsDecomposable(r, &mini, &num_n));
      CHECK(num_n == 4);
      CHECK(mini.inputs[0].indexes == Frames(2, -3, 8, n_major));
      CHECK(mini.outputs[0].indexes == Frames(2, 0, 5, !n_major));
      CHECK(mini.inputs[0].has_deriv);
      CHECK(mini.outputs[0].name == "output");
      CHECK(mini.need_model_derivative);
      CHECK(mini.store_component_stats);
    }
  }
  SECTION("an i-vector input with one frame per sequence") {
    ComputationRequest r =
        TwoIoRequest(Frames(3, 0, 6, true), Frames(3, 1, 5, true));
    r.inputs.emplace_back("ivector", Frames(3, 0, 1, true));
    REQUIRE(RequestIsDecomposable(r, &mini, &num_n));
    CHECK(num_n == 3);
    CHECK(mini.inputs[1].indexes == Frames(2, 0, 1, true));
  }
  SECTION("two sequences or fewer") {
    for (int32_t n : {1, 2}) {
      ComputationRequest r =
          TwoIoRequest(Frames(n, 0, 6, true), Frames(n, 1, 5, true));
      CHECK_FALSE(RequestIsDecomposable(r, &mini, &num_n));
    }
  }
  SECTION("irregular n") {
    std::vector<Index> out = Frames(3, 1, 5, true);
    out.erase(out.begin() + 5);  // n = 1 lacks t = 2
    CHECK_FALSE(RequestIsDecomposable(TwoIoRequest(Frames(3, 0, 6, true), out),
                                      &mini, &num_n));
    std::vector<Index> from1 = Frames(4, 1, 5, true);
    from1.erase(from1.begin(), from1.begin() + 4);  // n = 1..3
    CHECK_FALSE(RequestIsDecomposable(
        TwoIoRequest(Frames(4, 0, 6, true), from1), &mini, &num_n));
  }
  SECTION("different N per input and output") {
    CHECK_FALSE(RequestIsDecomposable(
        TwoIoRequest(Frames(3, 0, 6, true), Frames(4, 1, 5, true)), &mini,
        &num_n));
    ComputationRequest r =
        TwoIoRequest(Frames(3, 0, 6, true), Frames(3, 1, 5, true));
    r.inputs.emplace_back("ivector", Frames(4, 0, 1, true));
    CHECK_FALSE(RequestIsDecomposable(r, &mini, &num_n));
  }
  SECTION("sequences asking for different frames") {
    std::vector<Index> out = Frames(3, 1, 5, true);
    out.back().t = 7;
    CHECK_FALSE(RequestIsDecomposable(TwoIoRequest(Frames(3, 0, 8, true), out),
                                      &mini, &num_n));
  }
}

namespace {

bool IsIo(const NnetComputation &c, int32_t k) {
  CommandType t = c.commands[k].command_type;
  return t == kAcceptInput || t == kProvideOutput;
}

struct RunResult {
  std::map<std::string, Matrix> outputs;       // by output node
  std::map<std::string, Matrix> input_derivs;  // by input node
};

// Runs `computation` to the end, supplying `supplied` (input values and
// output derivatives, by node name) where it asks for them and collecting
// what it provides. Model derivatives and stats go to `delta`.
RunResult RunToEnd(const NnetComputation &computation, const Nnet &nnet,
                   const std::map<std::string, Matrix> &supplied, Nnet *delta) {
  RunResult result;
  NnetComputer computer(NnetComputeOptions(), computation, nnet, delta);
  const int32_t num_commands =
      static_cast<int32_t>(computation.commands.size());
  auto next_io = [&](int32_t k) {
    while (k < num_commands && !IsIo(computation, k)) k++;
    return k;
  };
  if (num_commands > 0 && !IsIo(computation, 0)) computer.Run();
  int32_t k = next_io(0);
  while (k < num_commands) {
    // A group of I/O commands (markers between them are skipped by the
    // computer as it lists what it expects).
    for (; k < num_commands &&
           (IsIo(computation, k) ||
            computation.commands[k].command_type == kNoOperationMarker);
         k++) {
      if (!IsIo(computation, k)) continue;
      const NnetComputation::Command &c = computation.commands[k];
      const std::string &name = nnet.GetNodeName(c.arg2);
      if (c.command_type == kAcceptInput) {
        Matrix m(supplied.at(name));
        computer.AcceptInput(name, &m);
      } else {
        Matrix m(computer.GetOutput(name));
        (nnet.IsOutputNode(c.arg2) ? result.outputs : result.input_derivs)
            .emplace(name, std::move(m));
      }
    }
    if (k >= num_commands) break;
    computer.Run();
    k = next_io(k);
  }
  return result;
}

void CheckSameMatrices(const std::map<std::string, Matrix> &a,
                       const std::map<std::string, Matrix> &b) {
  REQUIRE(a.size() == b.size());
  for (const auto &entry : a) {
    INFO("node " << entry.first);
    REQUIRE(b.count(entry.first) == 1);
    const Matrix &y = b.at(entry.first);
    REQUIRE(entry.second.NumRows() == y.NumRows());
    REQUIRE(entry.second.NumCols() == y.NumCols());
    std::vector<float> va = entry.second.ToHost(), vb = y.ToHost();
    float max_abs = 0.0f, max_diff = 0.0f;
    for (size_t i = 0; i < va.size(); i++) {
      max_abs = std::max(max_abs, std::fabs(va[i]));
      max_diff = std::max(max_diff, std::fabs(va[i] - vb[i]));
    }
    CHECK(max_diff <= 1e-4f * (1.0f + max_abs));
  }
}

// A request like `request` but with `num_n` sequences numbered from 0,
// each asking for the frames the first sequence of `request` asks for;
// each input/output is n-major or t-major at random.
ComputationRequest RegularRequest(const ComputationRequest &request,
                                  int32_t num_n, RandomState *rng) {
  ComputationRequest ans = request;
  auto convert = [&](IoSpecification *io) {
    const int32_t n0 = io->indexes.at(0).n;
    std::vector<Index> first;
    for (const Index &i : io->indexes)
      if (i.n == n0) first.emplace_back(0, i.t, i.x);
    io->indexes.clear();
    if (rng->Int(0, 1) == 0) {
      for (int32_t n = 0; n < num_n; n++)
        for (const Index &i : first) io->indexes.emplace_back(n, i.t, i.x);
    } else {
      for (const Index &i : first)
        for (int32_t n = 0; n < num_n; n++)
          io->indexes.emplace_back(n, i.t, i.x);
    }
  };
  for (IoSpecification &io : ans.inputs) convert(&io);
  for (IoSpecification &io : ans.outputs) convert(&io);
  return ans;
}

// Compiles `request` both ways, checks both computations, runs both on the
// same random inputs and output derivatives (seeded from `rng`) and
// compares what comes out. Returns |model derivative|^2.
double CompareShortcut(Nnet *nnet, const ComputationRequest &request,
                       RandomState *rng) {
  std::ostringstream request_text;
  request.Print(request_text);
  INFO("request: " << request_text.str());
  ComputationRequest mini;
  int32_t num_n = 0;
  REQUIRE(RequestIsDecomposable(request, &mini, &num_n));

  NnetComputation direct, shortcut;
  Compiler(request, *nnet).CreateComputation(CompilerOptions(), &direct);
  CompileWithShortcut(*nnet, request, CompilerOptions(), true, &shortcut);
  std::ostringstream printed;
  shortcut.Print(printed, *nnet);
  INFO("shortcut computation:\n" << printed.str());
  CheckComputationOptions check_opts;
  check_opts.check_rewrite = true;
  REQUIRE_NOTHROW(ComputationChecker(check_opts, *nnet, direct).Check());
  REQUIRE_NOTHROW(ComputationChecker(check_opts, *nnet, shortcut).Check());
  REQUIRE(shortcut.matrices.size() == direct.matrices.size());
  REQUIRE(shortcut.matrix_debug_info.size() == shortcut.matrices.size());

  std::map<std::string, Matrix> supplied;
  for (const IoSpecification &io : request.inputs) {
    Matrix m(static_cast<int32_t>(io.indexes.size()), nnet->InputDim(io.name));
    m.SetRandn(rng->NextSeed());
    supplied.emplace(io.name, std::move(m));
  }
  for (const IoSpecification &io : request.outputs) {
    if (!io.has_deriv) continue;
    Matrix m(static_cast<int32_t>(io.indexes.size()), nnet->OutputDim(io.name));
    m.SetRandn(rng->NextSeed());
    supplied.emplace(io.name, std::move(m));
  }
  const uint64_t generator_seed = rng->NextSeed();
  RunResult results[2];
  Nnet deltas[2] = {*nnet, *nnet};
  for (int32_t i = 0; i < 2; i++) {
    ScaleNnet(0.0f, &deltas[i]);
    SetNnetAsGradient(&deltas[i]);
    nnet->ResetGenerators(generator_seed);  // the same dropout masks
    results[i] =
        RunToEnd(i == 0 ? direct : shortcut, *nnet, supplied, &deltas[i]);
  }
  CheckSameMatrices(results[0].outputs, results[1].outputs);
  CheckSameMatrices(results[0].input_derivs, results[1].input_derivs);
  REQUIRE(results[0].outputs.size() == request.outputs.size());
  const double norm = DotProduct(deltas[0], deltas[0]);
  AddNnet(deltas[0], -1.0f, &deltas[1]);
  const double diff = DotProduct(deltas[1], deltas[1]);
  INFO("model derivative: |direct|^2 " << norm << ", |difference|^2 " << diff);
  CHECK(diff <= 1e-8 * (norm + 1.0));
  return norm;
}

}  // namespace

TEST_CASE("Shortcut and direct compilation agree on random networks",
          "[shortcut]") {
  // Model derivatives can be zero (a softmax of dim 1), but not often.
  int32_t num_nonzero_model_derivs = 0;
  for (uint32_t seed = 1; seed <= 60; seed++) {
    INFO("seed " << seed);
    RandomState rng(seed);
    NnetGenerationOptions opts;
    opts.allow_multiple_outputs = seed % 3 == 0;
    opts.allow_ivector = seed % 2 == 0;
    std::vector<std::string> configs;
    GenerateConfigSequence(opts, &rng, &configs);
    INFO("configs:\n" << configs[0] << (configs.size() > 1 ? configs[1] : ""));
    Nnet nnet = NnetFromConfigSequence(configs);
    ComputationRequest request;
    std::vector<Matrix> unused_inputs;
    ComputeExampleComputationRequestSimple(nnet, &rng, &request,
                                           &unused_inputs);
    if (CompareShortcut(&nnet, RegularRequest(request, rng.Int(3, 5), &rng),
                        &rng) > 0.0)
      num_nonzero_model_derivs++;
  }
  CHECK(num_nonzero_model_derivs >= 15);
}

TEST_CASE("Shortcut and direct compilation agree on hand-written networks",
          "[shortcut]") {
  const char *const kIvectorConfig = R"(
input-node name=input dim=3
input-node name=ivector dim=2
component name=affine1 type=AffineComponent input-dim=8 output-dim=4
component-node name=affine1 component=affine1 input=Append(Offset(input, -1), input, ReplaceIndex(ivector, t, 0))
component name=relu1 type=RectifiedLinearComponent dim=4
component-node name=relu1 component=relu1 input=affine1
output-node name=output input=Sum(relu1, Offset(relu1, 1))
)";
  // Rows of an n-major output read the i-vector of their sequence: the
  // backward pass sums contiguous row ranges (kAddRowRanges).
  const char *const kIvectorOutputConfig = R"(
input-node name=input dim=3
input-node name=ivector dim=2
output-node name=output input=Append(Offset(input, 1), ReplaceIndex(ivector, t, 0))
)";
  // GeneralDropoutComponent has precomputed indexes (mask rows per n and
  // period of t) that the expansion must recompute.
  const char *const kDropoutConfig = R"(
input-node name=input dim=4
component name=affine1 type=AffineComponent input-dim=8 output-dim=6
component-node name=affine1 component=affine1 input=Append(Offset(input, -1), input)
component name=drop type=GeneralDropoutComponent dim=6 block-dim=3 time-period=2 dropout-proportion=0.5
component-node name=drop component=drop input=affine1
output-node name=output input=drop
)";
  const std::vector<std::pair<const char *, const char *>> configs = {
      {"feed-forward", kFeedForwardConfig},
      {"tdnn", kTdnnConfig},
      {"rnn", kRnnConfig},
      {"failover", kFailoverConfig},
      {"clockwork", kClockworkConfig},
      {"dim-range", kDimRangeConfig},
      {"ivector", kIvectorConfig},
      {"ivector-output", kIvectorOutputConfig},
      {"dropout", kDropoutConfig}};
  RandomState rng(1234);  // seed 1234
  for (const auto &config : configs) {
    INFO("config " << config.first);
    if (std::string(config.first) == "dropout" &&
        !Component::NewComponentOfType("GeneralDropoutComponent"))
      continue;
    Nnet nnet = CompilerTestNnet(config.second);
    for (int32_t num_n : {3, 5}) {
      for (bool n_major : {true, false}) {
        ComputationRequest r = TwoIoRequest(Frames(num_n, -6, 14, n_major),
                                            Frames(num_n, 0, 8, !n_major));
        if (nnet.GetNodeIndex("ivector") != -1)
          r.inputs.emplace_back("ivector", Frames(num_n, 0, 1, true), !n_major);
        r.need_model_derivative = n_major;
        r.inputs[0].has_deriv = !n_major;
        const double norm = CompareShortcut(&nnet, r, &rng);
        if (n_major && NumParameters(nnet) > 0) CHECK(norm > 0.0);
      }
    }
  }
}

TEST_CASE("CompileWithShortcut compiles other requests directly",
          "[shortcut]") {
  Nnet nnet = CompilerTestNnet(kTdnnConfig);
  for (int32_t num_n : {1, 2}) {
    ComputationRequest r = SimpleRequest(-4, 9, 0, 5, num_n);
    NnetComputation direct, shortcut;
    Compiler(r, nnet).CreateComputation(CompilerOptions(), &direct);
    CompileWithShortcut(nnet, r, CompilerOptions(), true, &shortcut);
    std::ostringstream a, b;
    direct.Print(a, nnet);
    shortcut.Print(b, nnet);
    CHECK(a.str() == b.str());
  }
  // Without debug info if not asked for; with it, the rows of the full
  // request.
  ComputationRequest r = SimpleRequest(-4, 9, 0, 5, 4);
  CompilerOptions no_debug;
  no_debug.output_debug_info = false;
  NnetComputation c;
  CompileWithShortcut(nnet, r, no_debug, true, &c);
  CHECK(c.matrix_debug_info.empty());
  CompileWithShortcut(nnet, r, CompilerOptions(), true, &c);
  REQUIRE(c.matrix_debug_info.size() == c.matrices.size());
  CHECK(c.matrices[1].num_rows == 4 * 13);
  CHECK(c.matrix_debug_info[1].cindexes.back().second == Index(3, 8, 0));
  // Not computable: the compiler's error.
  ComputationRequest bad = SimpleRequest(0, 3, 0, 5, 4);
  CHECK_THROWS_AS(CompileWithShortcut(nnet, bad, CompilerOptions(), true, &c),
                  UserError);
}

TEST_CASE("ExpandComputation needs debug info", "[shortcut]") {
  Nnet nnet = CompilerTestNnet(kFeedForwardConfig);
  ComputationRequest mini = SimpleRequest(0, 3, 0, 3, 2);
  CompilerOptions no_debug;
  no_debug.output_debug_info = false;
  NnetComputation c, expanded;
  Compiler(mini, nnet).CreateComputation(no_debug, &c);
  try {
    ExpandComputation(nnet, mini.misc_info, c, true, 4, &expanded);
    FAIL("no error");
  } catch (const UserError &e) {
    CHECK(std::string(e.what()).find("--compiler.use-shortcut=false") !=
          std::string::npos);
  }
}

TEST_CASE("ExpandComputation rejects commands that mix sequences",
          "[shortcut]") {
  Nnet nnet = CompilerTestNnet(kTdnnConfig);
  ComputationRequest mini = SimpleRequest(-4, 9, 0, 5, 2);
  NnetComputation c, expanded;
  Compiler(mini, nnet).CreateComputation(CompilerOptions(), &c);
  ExpandComputation(nnet, mini.misc_info, c, true, 3, &expanded);
  // Make the first kCopyRows read, for its first row (n = 0), a row of
  // n = 1 (the source's last row).
  bool changed = false;
  for (const NnetComputation::Command &command : c.commands) {
    if (command.command_type != kCopyRows) continue;
    std::vector<int32_t> &indexes = c.indexes[command.arg3];
    indexes[0] = c.submatrices[command.arg2].num_rows - 1;
    changed = true;
    break;
  }
  REQUIRE(changed);
  try {
    ExpandComputation(nnet, mini.misc_info, c, true, 3, &expanded);
    FAIL("no error");
  } catch (const UserError &e) {
    CHECK(std::string(e.what()).find("mixes sequences") != std::string::npos);
  }
}

}  // namespace nnet3
