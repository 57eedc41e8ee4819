// StatisticsExtractionComponent, StatisticsPoolingComponent and
// MaxpoolingComponent: generic checks (I/O, precomputed indexes,
// properties, derivatives) on several configs, extraction + pooling against
// a direct computation of windowed means and standard deviations, max
// pooling against a naive max, the golden text fragments (with Kaldi's
// <IncludeVarinance> spelling), and config errors.
#include "nnet/components/pooling-components.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "../component-test-utils.h"
#include "../indexed-component-test-utils.h"
#include "base/error.h"

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

// Valid statistics rows for a pooling input of dim 1 + D (+ D): count c in
// {1, 2, 3}, sums c m, sums of squares c (v + m²) with v in [0.5, 1.5], so
// every pooled variance is at least 0.5.
void MakeStats(int32_t dim, bool with_squares, uint64_t seed, Matrix *in) {
  const int32_t rows = in->NumRows();
  Matrix r(rows, 2 * dim + 1);
  r.SetRandUniform(seed);
  Matrix m(rows, dim);
  m.SetRandn(seed + 1);
  const std::vector<float> u = r.ToHost(), mean = m.ToHost();
  std::vector<float> h(rows * in->NumCols());
  for (int32_t i = 0; i < rows; i++) {
    float *row = &h[i * in->NumCols()];
    const float c = 1.0f + std::floor(3.0f * u[i * (2 * dim + 1)]);
    row[0] = c;
    for (int32_t d = 0; d < dim; d++) {
      const float mu = mean[i * dim + d];
      row[1 + d] = c * mu;
      if (with_squares)
        row[1 + dim + d] = c * (0.5f + u[i * (2 * dim + 1) + 1 + d] + mu * mu);
    }
  }
  in->CopyFromHost(h);
}

}  // namespace

TEST_CASE("StatisticsExtractionComponent generic checks", "[pooling]") {
  uint64_t seed = 150;
  for (const char *config :
       {"type=StatisticsExtractionComponent input-dim=3",
        "type=StatisticsExtractionComponent input-dim=2 output-period=4",
        "type=StatisticsExtractionComponent input-dim=3 input-period=2 "
        "output-period=6 include-variance=false"}) {
    INFO(config);
    std::unique_ptr<Component> c = ComponentFromConfig(config);
    GeneralCheckOptions opts;
    // Outputs at multiples of the period only make sense; ask for a few.
    auto *s = dynamic_cast<StatisticsExtractionComponent *>(c.get());
    (void)s;
    opts.output_indexes = FrameIndexes(2, -12, 13, 6);
    CheckGeneralComponent(*c, seed++, opts);
  }
}

TEST_CASE("StatisticsPoolingComponent generic checks", "[pooling]") {
  uint64_t seed = 170;
  struct Case {
    const char *config;
    int32_t dim;
    bool squares;
    int32_t period;
  };
  for (const Case &pc :
       {Case{"type=StatisticsPoolingComponent input-dim=7 left-context=3 "
             "right-context=2 output-stddevs=true",
             3, true, 1},
        Case{"type=StatisticsPoolingComponent input-dim=4 left-context=4 "
             "right-context=0 num-log-count-features=2",
             3, false, 1},
        Case{"type=StatisticsPoolingComponent input-dim=5 input-period=2 "
             "left-context=4 right-context=6 output-stddevs=true "
             "num-log-count-features=1 variance-floor=1e-5",
             2, true, 2}}) {
    INFO(pc.config);
    std::unique_ptr<Component> c = ComponentFromConfig(pc.config);
    GeneralCheckOptions opts;
    opts.output_indexes = FrameIndexes(2, 0, 10, pc.period);
    // Inputs exist only over a part of the windows (edges of the
    // utterance): every period frame in [-2, 8).
    std::vector<Index> available = FrameIndexes(2, -2, 8, pc.period);
    opts.available_inputs = &available;
    const int32_t dim = pc.dim;
    const bool squares = pc.squares;
    opts.make_input = [dim, squares](uint64_t s, const GeneralComponentIo &,
                                     Matrix *in) {
      MakeStats(dim, squares, s, in);
    };
    opts.fixed_input_columns = {0};  // the counts are not differentiable
    CheckGeneralComponent(*c, seed++, opts);
  }
}

TEST_CASE("Statistics extraction and pooling give windowed means and stddevs",
          "[pooling]") {
  // x-vector style: stats every 2 frames, pooled over [t - 4, t + 6].
  const int32_t dim = 3, left = 4, right = 6, period = 2;
  std::unique_ptr<Component> ext = ComponentFromConfig(
      "type=StatisticsExtractionComponent input-dim=3 output-period=2");
  std::unique_ptr<Component> pool = ComponentFromConfig(
      "type=StatisticsPoolingComponent input-dim=7 input-period=2 "
      "left-context=4 right-context=6 num-log-count-features=1 "
      "output-stddevs=true");
  // Frames 0..9 of two sequences (sequence 1 only frames 0..6).
  std::vector<Index> frames;
  for (int32_t t = 0; t < 10; t++) {
    frames.push_back(Index(0, t));
    if (t < 7) frames.push_back(Index(1, t));
  }
  std::sort(frames.begin(), frames.end());
  Matrix x(static_cast<int32_t>(frames.size()), dim);
  x.SetRandn(7);
  const std::vector<float> xh = x.ToHost();
  std::map<Index, int32_t> row_of;
  for (size_t i = 0; i < frames.size(); i++) row_of[frames[i]] = int32_t(i);
  // Stats at t = 0, 2, ..., 8 (sequence 1 up to 6).
  std::vector<Index> stats_out;
  for (const Index &f : frames)
    if (f.t % period == 0) stats_out.push_back(f);
  GeneralComponentIo eio;
  MakeGeneralComponentIo(*ext, stats_out, &frames, false, &eio);
  // The extraction rows are the component's own order: put x in it.
  Matrix ein(static_cast<int32_t>(eio.input_indexes.size()), dim);
  std::vector<float> eh;
  for (const Index &i : eio.input_indexes) {
    const int32_t r = row_of.at(i);
    eh.insert(eh.end(), xh.begin() + r * dim, xh.begin() + (r + 1) * dim);
  }
  ein.CopyFromHost(eh);
  Matrix stats = GeneralForward(*ext, eio, ein);
  // Pool at t = 0, 2, 4 of sequence 0 and t = 2 of sequence 1.
  std::vector<Index> pooled = {Index(0, 0), Index(0, 2), Index(0, 4),
                               Index(1, 2)};
  GeneralComponentIo pio;
  MakeGeneralComponentIo(*pool, pooled, &eio.output_indexes, false, &pio);
  REQUIRE(pio.input_indexes == eio.output_indexes);  // both sorted n, x, t
  Matrix out = GeneralForward(*pool, pio, stats);
  REQUIRE(out.NumCols() == 1 + 2 * dim);
  for (size_t i = 0; i < pio.output_indexes.size(); i++) {
    const Index &o = pio.output_indexes[i];
    INFO("output (" << o.n << ", " << o.t << ")");
    // The frames in the stats periods that the window covers:
    // [t - left, t + right + period).
    std::vector<int32_t> rows;
    for (int32_t t = o.t - left; t < o.t + right + period; t++)
      if (row_of.count(Index(o.n, t))) rows.push_back(row_of.at(Index(o.n, t)));
    CHECK(out.Get(i, 0) == Approx(std::log(double(rows.size()))));
    for (int32_t d = 0; d < dim; d++) {
      double sum = 0, sumsq = 0;
      for (int32_t r : rows) {
        sum += xh[r * dim + d];
        sumsq += xh[r * dim + d] * xh[r * dim + d];
      }
      const double mean = sum / rows.size(),
                   stddev = std::sqrt(sumsq / rows.size() - mean * mean);
      CHECK(out.Get(i, 1 + d) == Approx(mean).margin(1e-5));
      CHECK(out.Get(i, 1 + dim + d) == Approx(stddev).margin(1e-4));
    }
  }
}

TEST_CASE("Statistics components: golden fragments, properties, errors",
          "[pooling]") {
  for (const char *type :
       {"StatisticsExtractionComponent", "StatisticsPoolingComponent",
        "MaxpoolingComponent"}) {
    INFO(type);
    const std::string golden = ReadFile(std::string(NNET3_TEST_DATA) +
                                        "/nnet/components/" + type + ".txt");
    std::unique_ptr<Component> c = ReadText(golden);
    CHECK(c->Type() == type);
    CHECK(WriteText(*c) + "\n" == golden);
    std::ostringstream bin;
    c->Write(bin, true);
    std::istringstream bis(bin.str());
    CHECK(WriteText(*Component::ReadNew(bis, true)) + "\n" == golden);
  }
  std::unique_ptr<Component> e =
      ReadText(ReadFile(std::string(NNET3_TEST_DATA) +
                        "/nnet/components/StatisticsExtractionComponent.txt"));
  CHECK(e->InputDim() == 40);
  CHECK(e->OutputDim() == 81);
  CHECK(e->Properties() ==
        (kPropagateAdds | kReordersIndexes | kBackpropNeedsInput));
  CHECK(e->Info() ==
        "StatisticsExtractionComponent, input-dim=40, "
        "output-dim=81");
  std::unique_ptr<Component> p =
      ReadText(ReadFile(std::string(NNET3_TEST_DATA) +
                        "/nnet/components/StatisticsPoolingComponent.txt"));
  CHECK(p->OutputDim() == 81);
  CHECK(p->Properties() ==
        (kReordersIndexes | kBackpropAdds | kBackpropNeedsOutput));
  std::unique_ptr<Component> p2 = ComponentFromConfig(
      "type=StatisticsPoolingComponent input-dim=41 left-context=10 "
      "right-context=0");
  CHECK(p2->Properties() ==
        (kReordersIndexes | kBackpropAdds | kBackpropNeedsInput));
  CHECK(p2->OutputDim() == 40);
  for (const char *bad :
       {"type=StatisticsExtractionComponent input-dim=0",
        "type=StatisticsExtractionComponent input-dim=3 input-period=2 "
        "output-period=3",
        "type=StatisticsExtractionComponent input-dim=3 output-period=-1",
        "type=StatisticsPoolingComponent input-dim=7",
        "type=StatisticsPoolingComponent input-dim=7 left-context=10",
        "type=StatisticsPoolingComponent input-dim=7 left-context=0 "
        "right-context=0",
        "type=StatisticsPoolingComponent input-dim=-7 left-context=3",
        "type=StatisticsPoolingComponent input-dim=8 left-context=3 "
        "output-stddevs=true",
        "type=StatisticsPoolingComponent input-dim=7 input-period=2 "
        "left-context=3 right-context=2",
        "type=StatisticsPoolingComponent input-dim=7 left-context=2 "
        "num-log-count-features=-1"}) {
    INFO(bad);
    ConfigLine cfl;
    REQUIRE(cfl.ParseLine(bad));
    std::string type;
    cfl.GetValue("type", &type);
    std::unique_ptr<Component> c = Component::NewComponentOfType(type);
    CHECK_THROWS_AS(c->InitFromConfig(&cfl), UserError);
  }
}

// ---------------------------------------------------------------------------
// MaxpoolingComponent

TEST_CASE("MaxpoolingComponent checks and naive max", "[pooling]") {
  struct Geometry {
    int32_t X, Y, Z, px, py, pz, sx, sy, sz;
  };
  uint64_t seed = 190;
  for (const Geometry &g : {Geometry{2, 4, 3, 1, 2, 3, 1, 2, 3},
                            Geometry{3, 3, 2, 2, 2, 1, 1, 1, 1},
                            Geometry{4, 1, 4, 2, 1, 2, 2, 1, 2}}) {
    std::ostringstream config;
    config << "type=MaxpoolingComponent input-x-dim=" << g.X
           << " input-y-dim=" << g.Y << " input-z-dim=" << g.Z
           << " pool-x-size=" << g.px << " pool-y-size=" << g.py
           << " pool-z-size=" << g.pz << " pool-x-step=" << g.sx
           << " pool-y-step=" << g.sy << " pool-z-step=" << g.sz;
    INFO(config.str());
    std::unique_ptr<Component> c = ComponentFromConfig(config.str());
    CheckComponent(*c, seed++);
    Matrix in(5, c->InputDim());
    in.SetRandn(seed++);
    Matrix out(5, c->OutputDim());
    c->Propagate(nullptr, in, &out);
    const int32_t nx = 1 + (g.X - g.px) / g.sx, ny = 1 + (g.Y - g.py) / g.sy,
                  nz = 1 + (g.Z - g.pz) / g.sz;
    REQUIRE(c->OutputDim() == nx * ny * nz);
    const std::vector<float> x = in.ToHost(), y = out.ToHost();
    int32_t bad = 0;
    for (int32_t r = 0; r < 5; r++)
      for (int32_t a = 0; a < nx; a++)
        for (int32_t b = 0; b < ny; b++)
          for (int32_t k = 0; k < nz; k++) {
            float want = -1e30f;
            for (int32_t i = 0; i < g.px; i++)
              for (int32_t j = 0; j < g.py; j++)
                for (int32_t l = 0; l < g.pz; l++)
                  want = std::max(
                      want, x[r * g.X * g.Y * g.Z +
                              ((a * g.sx + i) * g.Y + b * g.sy + j) * g.Z +
                              k * g.sz + l]);
            bad += y[r * nx * ny * nz + (a * ny + b) * nz + k] != want;
          }
    CHECK(bad == 0);
  }
  for (const char *bad :
       {"input-x-dim=3 input-y-dim=3 input-z-dim=3 pool-x-size=2 "
        "pool-y-size=1 pool-z-size=1 pool-x-step=2 pool-y-step=1 "
        "pool-z-step=1",
        "input-x-dim=3 input-y-dim=3 input-z-dim=3 pool-x-size=4 "
        "pool-y-size=1 pool-z-size=1 pool-x-step=1 pool-y-step=1 "
        "pool-z-step=1",
        "input-x-dim=3 input-y-dim=3 input-z-dim=3 pool-x-size=1 "
        "pool-y-size=1 pool-z-size=1 pool-x-step=1 pool-y-step=1",
        // Column maps of more than 2^22 entries (found by the fuzzer as a
        // model file of 189 bytes that took seconds and a gigabyte).
        "input-x-dim=2 input-y-dim=4 input-z-dim=3000000 pool-x-size=1 "
        "pool-y-size=2 pool-z-size=3 pool-x-step=1 pool-y-step=1 "
        "pool-z-step=3"}) {
    INFO(bad);
    ConfigLine cfl;
    REQUIRE(cfl.ParseLine(std::string("type=MaxpoolingComponent ") + bad));
    MaxpoolingComponent comp;
    CHECK_THROWS_AS(comp.InitFromConfig(&cfl), UserError);
  }
}

// Which inputs the statistics components ask for and when their outputs are
// computable, including negative times (the period containing t = -1 starts
// at -4 for output-period 4, as Kaldi rounds down).
TEST_CASE("Statistics components: input Indexes and computability",
          "[pooling]") {
  class Available : public IndexSet {
   public:
    explicit Available(std::vector<int32_t> t) : t_(std::move(t)) {}
    bool operator()(const Index &i) const override {
      return i.n == 0 && std::find(t_.begin(), t_.end(), i.t) != t_.end();
    }

   private:
    std::vector<int32_t> t_;
  };
  std::unique_ptr<Component> ext = ComponentFromConfig(
      "type=StatisticsExtractionComponent input-dim=2 input-period=2 "
      "output-period=4");
  std::vector<Index> wanted, used;
  ext->GetInputIndexes(MiscComputationInfo(), Index(0, -1), &wanted);
  CHECK(wanted == std::vector<Index>({Index(0, -4), Index(0, -2)}));
  ext->GetInputIndexes(MiscComputationInfo(), Index(0, 5), &wanted);
  CHECK(wanted == std::vector<Index>({Index(0, 4), Index(0, 6)}));
  CHECK(ext->IsComputable(MiscComputationInfo(), Index(0, -3),
                          Available({-2, 7}), &used));
  CHECK(used == std::vector<Index>({Index(0, -2)}));
  CHECK_FALSE(ext->IsComputable(MiscComputationInfo(), Index(0, 1),
                                Available({-2, 5}), &used));
  CHECK(used.empty());

  std::unique_ptr<Component> pool = ComponentFromConfig(
      "type=StatisticsPoolingComponent input-dim=5 input-period=2 "
      "left-context=4 right-context=2");
  pool->GetInputIndexes(MiscComputationInfo(), Index(0, -6), &wanted);
  CHECK(wanted == std::vector<Index>({Index(0, -10), Index(0, -8), Index(0, -6),
                                      Index(0, -4)}));
  // Any input in the window will do; only multiples of input-period exist.
  CHECK(pool->IsComputable(MiscComputationInfo(), Index(0, -6),
                           Available({-4, 0}), &used));
  CHECK(used == std::vector<Index>({Index(0, -4)}));
  CHECK_FALSE(pool->IsComputable(MiscComputationInfo(), Index(0, -6),
                                 Available({-2, 0}), nullptr));
  CHECK_FALSE(pool->IsComputable(MiscComputationInfo(), Index(0, -5),
                                 Available({-6, -4}), nullptr));
}
