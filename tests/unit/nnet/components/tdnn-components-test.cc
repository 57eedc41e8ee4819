// TdnnComponent: generic non-simple checks (I/O, precomputed indexes,
// property semantics, data and model derivatives) on several configs
// (offsets, no bias, time subsampling, holes in the input), the forward
// pass against a naive TDNN written here, the hand-written golden text
// fragment, Info, the reordering of Indexes, and config errors.
#include "nnet/components/tdnn-components.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "../component-test-utils.h"
#include "../indexed-component-test-utils.h"
#include "base/error.h"
#include "base/io-funcs.h"

using namespace nnet3;

namespace {

std::string ReadFile(const std::string &path) {
  std::ifstream is(path, std::ios::binary);
  REQUIRE(is.good());
  std::stringstream ss;
  ss << is.rdbuf();
  return ss.str();
}

std::string WriteText(const Component &c) {
  std::ostringstream os;
  c.Write(os, false);
  return os.str();
}

std::unique_ptr<Component> ReadText(const std::string &text) {
  std::istringstream is(text);
  return Component::ReadNew(is, false);
}

// y(n, t) = b + sum_i W_i x(n, t + o_i), straight from the Indexes.
Matrix NaiveTdnn(const TdnnComponent &c, const GeneralComponentIo &io,
                 const MatrixView &in) {
  std::unordered_map<Index, int32_t, IndexHasher> row_of;
  for (size_t r = 0; r < io.input_indexes.size(); r++)
    if (io.input_indexes[r].t != kNoTime) row_of[io.input_indexes[r]] = r;
  const std::vector<float> x = in.ToHost(), w = c.LinearParams().ToHost();
  const std::vector<float> b = c.BiasParams().ToHost();
  const int32_t din = c.InputDim(), dout = c.OutputDim(),
                cols = c.LinearParams().NumCols();
  const std::vector<int32_t> &offsets = c.TimeOffsets();
  std::vector<float> y(io.output_indexes.size() * dout, 0.0f);
  for (size_t r = 0; r < io.output_indexes.size(); r++) {
    const Index &o = io.output_indexes[r];
    if (o.t == kNoTime) continue;
    for (int32_t j = 0; j < dout; j++) {
      double sum = b.empty() ? 0.0 : b[j];
      for (size_t i = 0; i < offsets.size(); i++) {
        const int32_t row = row_of.at(Index(o.n, o.t + offsets[i], o.x));
        for (int32_t k = 0; k < din; k++)
          sum += w[j * cols + i * din + k] * x[row * din + k];
      }
      y[r * dout + j] = static_cast<float>(sum);
    }
  }
  Matrix ans(static_cast<int32_t>(io.output_indexes.size()), dout);
  ans.CopyFromHost(y);
  return ans;
}

// The output rows of `m` whose Index is not blank, as a matrix.
Matrix RealRows(const std::vector<Index> &indexes, const MatrixView &m) {
  std::vector<float> host = m.ToHost(), kept;
  for (size_t r = 0; r < indexes.size(); r++)
    if (indexes[r].t != kNoTime)
      kept.insert(kept.end(), host.begin() + r * m.NumCols(),
                  host.begin() + (r + 1) * m.NumCols());
  Matrix ans(static_cast<int32_t>(kept.size() / m.NumCols()), m.NumCols());
  ans.CopyFromHost(kept);
  return ans;
}

struct TdnnCase {
  std::string config;
  std::vector<Index> outputs;
  std::vector<Index> available;  // empty: everything asked for
};

std::vector<TdnnCase> Cases() {
  std::vector<TdnnCase> cases;
  cases.push_back(
      {"type=TdnnComponent input-dim=4 output-dim=3 "
       "time-offsets=-1,0,1",
       FrameIndexes(2, 0, 6),
       {}});
  cases.push_back(
      {"type=TdnnComponent input-dim=3 output-dim=5 "
       "time-offsets=-3,0,3 use-bias=false "
       "use-natural-gradient=false",
       FrameIndexes(1, 0, 7),
       {}});
  // Time subsampling: outputs every 3 frames, inputs every frame (the
  // input Indexes are reordered in blocks of 3).
  cases.push_back(
      {"type=TdnnComponent input-dim=2 output-dim=4 "
       "time-offsets=-1,0,1,2 orthonormal-constraint=-1",
       FrameIndexes(3, 0, 12, 3),
       {}});
  // Outputs every 3 frames from inputs every 3 frames.
  cases.push_back(
      {"type=TdnnComponent input-dim=3 output-dim=2 "
       "time-offsets=-3,0 rank-in=2 rank-out=1 alpha-in=2 "
       "alpha-out=3 num-samples-history=500",
       FrameIndexes(2, -3, 9, 3),
       {}});
  // A hole in the input: the outputs that need frame 4 of sequence 1 are
  // not computable, so the output grid gets blanks.
  std::vector<Index> available = FrameIndexes(2, -1, 9);
  available.erase(std::find(available.begin(), available.end(), Index(1, 4)));
  cases.push_back(
      {"type=TdnnComponent input-dim=3 output-dim=3 "
       "time-offsets=-1,1 bias-stddev=0.5 param-stddev=0.3",
       FrameIndexes(2, 0, 8), available});
  return cases;
}

}  // namespace

TEST_CASE("TdnnComponent generic checks", "[tdnn]") {
  uint64_t seed = 40;
  for (const TdnnCase &tc : Cases()) {
    INFO(tc.config);
    std::unique_ptr<Component> c = ComponentFromConfig(tc.config);
    GeneralCheckOptions opts;
    opts.output_indexes = tc.outputs;
    opts.available_inputs = tc.available.empty() ? nullptr : &tc.available;
    CheckGeneralComponent(*c, seed++, opts);
  }
}

TEST_CASE("TdnnComponent matches a naive TDNN", "[tdnn]") {
  uint64_t seed = 60;
  for (const TdnnCase &tc : Cases()) {
    INFO(tc.config);
    std::unique_ptr<Component> c = ComponentFromConfig(tc.config);
    auto *tdnn = dynamic_cast<TdnnComponent *>(c.get());
    GeneralComponentIo io;
    MakeGeneralComponentIo(*c, tc.outputs,
                           tc.available.empty() ? nullptr : &tc.available,
                           false, &io);
    Matrix in(static_cast<int32_t>(io.input_indexes.size()), c->InputDim());
    in.SetRandn(seed++);
    Matrix got = GeneralForward(*c, io, in);
    Matrix want = NaiveTdnn(*tdnn, io, in);
    CHECK(RealRows(io.output_indexes, got)
              .ApproxEqual(RealRows(io.output_indexes, want), 1e-5f));
    // Every requested output that is computable is there.
    int32_t real = 0;
    for (const Index &o : io.output_indexes) real += o.t != kNoTime;
    if (tc.available.empty())
      CHECK(real == static_cast<int32_t>(tc.outputs.size()));
    else
      CHECK(real < static_cast<int32_t>(tc.outputs.size()));
  }
}

TEST_CASE("TdnnComponent reorders subsampled input in blocks", "[tdnn]") {
  std::unique_ptr<Component> c = ComponentFromConfig(
      "type=TdnnComponent input-dim=1 output-dim=1 time-offsets=-1,0,1");
  // Outputs at t = 0, 3 for n = 0, 1: inputs t = -1..4 (6 frames, a
  // multiple of 3), grouped as [-1 0 1] for n=0, [-1 0 1] for n=1, [2 3 4]
  // for n=0, [2 3 4] for n=1; offset i then reads rows i + 3k.
  std::vector<Index> in, out = FrameIndexes(2, 0, 6, 3);
  for (const Index &o : out)
    for (int32_t d = -1; d <= 1; d++) in.push_back(Index(o.n, o.t + d));
  std::sort(in.begin(), in.end());
  c->ReorderIndexes(&in, &out);
  const std::vector<Index> want_in = {Index(0, -1), Index(0, 0), Index(0, 1),
                                      Index(1, -1), Index(1, 0), Index(1, 1),
                                      Index(0, 2),  Index(0, 3), Index(0, 4),
                                      Index(1, 2),  Index(1, 3), Index(1, 4)};
  CHECK(in == want_in);
  CHECK(out == FrameIndexes(2, 0, 6, 3));
  auto p = c->PrecomputeIndexes(MiscComputationInfo(), in, out, false);
  auto *t = dynamic_cast<TdnnComponentPrecomputedIndexes *>(p.get());
  REQUIRE(t != nullptr);
  CHECK(t->row_stride == 3);
  CHECK(t->row_offsets == std::vector<int32_t>({0, 1, 2}));
}

TEST_CASE("TdnnComponent golden text fragment", "[tdnn]") {
  const std::string golden = ReadFile(std::string(NNET3_TEST_DATA) +
                                      "/nnet/components/TdnnComponent.txt");
  std::unique_ptr<Component> c = ReadText(golden);
  auto *tdnn = dynamic_cast<TdnnComponent *>(c.get());
  REQUIRE(tdnn != nullptr);
  CHECK(WriteText(*c) + "\n" == golden);
  CHECK(tdnn->TimeOffsets() == std::vector<int32_t>({-1, 0, 1}));
  CHECK(tdnn->InputDim() == 2);
  CHECK(tdnn->OutputDim() == 2);
  CHECK(tdnn->OrthonormalConstraint() == -1.0f);
  CHECK(tdnn->MaxChange() == 0.75f);
  CHECK(tdnn->NumParameters() == 2 * 6 + 2);
  CHECK(tdnn->LinearParams().Get(1, 5) == 2.0f);
  CHECK(tdnn->BiasParams().Get(1) == -1.0f);
  CHECK((c->Properties() & kPropagateAdds) == 0);
  // Binary round trip back to the same text.
  std::ostringstream bin;
  c->Write(bin, true);
  std::istringstream bis(bin.str());
  CHECK(WriteText(*Component::ReadNew(bis, true)) + "\n" == golden);
  // The older <Alpha> token is read too.
  std::string old = golden;
  old.replace(old.find("<AlphaInOut> 4 4"), 16, "<Alpha> 4");
  CHECK(WriteText(*ReadText(old)) + "\n" == golden);
  // No bias: an empty <BiasParams>, and Propagate adds.
  const std::string nobias =
      ReadFile(std::string(NNET3_TEST_DATA) +
               "/nnet/components/TdnnComponent-nobias.txt");
  std::unique_ptr<Component> nb = ReadText(nobias);
  CHECK(WriteText(*nb) + "\n" == nobias);
  CHECK((nb->Properties() & kPropagateAdds) != 0);
  CHECK(nb->Info().find("has-bias=false") != std::string::npos);
  CHECK(nb->Info().find("use-natural-gradient=false") != std::string::npos);
}

TEST_CASE("TdnnComponent config defaults, Info and errors", "[tdnn]") {
  std::unique_ptr<Component> c = ComponentFromConfig(
      "type=TdnnComponent input-dim=40 output-dim=100 time-offsets=-1,0,1");
  auto *t = dynamic_cast<TdnnComponent *>(c.get());
  CHECK(t->LinearParams().NumCols() == 120);
  CHECK(t->NumParameters() == 120 * 100 + 100);
  CHECK(c->Properties() == (kUpdatableComponent | kReordersIndexes |
                            kBackpropAdds | kBackpropNeedsInput));
  // rank-in = min(20, (120+1)/2), rank-out = min(80, (100+1)/2).
  const std::string info = c->Info();
  INFO(info);
  CHECK(info.find("TdnnComponent, input-dim=40, output-dim=100") == 0);
  CHECK(info.find("time-offsets=-1,0,1") != std::string::npos);
  CHECK(info.find("rank-in=20, rank-out=50, num-samples-history=2000, "
                  "update-period=4, alpha-in=4, alpha-out=4") !=
        std::string::npos);
  CHECK(info.find("linear-params-row-norms") != std::string::npos);
  for (const char *bad :
       {"type=TdnnComponent input-dim=0 output-dim=3 time-offsets=0",
        "type=TdnnComponent input-dim=3 output-dim=-2 time-offsets=0",
        "type=TdnnComponent input-dim=3 output-dim=2 time-offsets=0,0",
        "type=TdnnComponent input-dim=3 output-dim=2 time-offsets=a",
        "type=TdnnComponent input-dim=3 output-dim=2",
        "type=TdnnComponent input-dim=3 output-dim=2 time-offsets=0 "
        "param-stddev=-1"}) {
    INFO(bad);
    ConfigLine cfl;
    REQUIRE(cfl.ParseLine(bad));
    TdnnComponent comp;
    CHECK_THROWS_AS(comp.InitFromConfig(&cfl), UserError);
  }
}
