// TimeHeightConvolutionComponent and the old ConvolutionComponent: generic
// checks (I/O, precomputed indexes, properties, data and model
// derivatives) on several configs (height padding and subsampling, time
// subsampling, required time offsets with missing inputs, the memory limit
// that splits the computation), the forward pass against naive convolutions
// written here, the ConvolutionModel / ConvolutionComputation formats, the
// hand-written golden text fragments, Info and config errors.
#include "nnet/components/convolution-components.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "../component-test-utils.h"
#include "../indexed-component-test-utils.h"
#include "base/error.h"
#include "nnet/components/convolution-3d-component.h"

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

// y(n, t, h, f) = b(f) + sum over offsets (dt, dh) and input filters g of
// W(f, offset g) x(n, t + dt, h * s + dh, g), with x zero where the input
// row is missing or the height is outside [0, height-in).
Matrix NaiveConvolution(const TimeHeightConvolutionComponent &c,
                        const GeneralComponentIo &io, const MatrixView &in) {
  const ConvolutionModel &m = c.Model();
  std::unordered_map<Index, int32_t, IndexHasher> row_of;
  for (size_t r = 0; r < io.input_indexes.size(); r++)
    if (io.input_indexes[r].t != kNoTime) row_of[io.input_indexes[r]] = r;
  const std::vector<float> x = in.ToHost(), w = c.LinearParams().ToHost(),
                           b = c.BiasParams().ToHost();
  const int32_t fi = m.num_filters_in, fo = m.num_filters_out,
                din = m.InputDim(), dout = m.OutputDim(), wcols = m.ParamCols();
  std::vector<float> y(io.output_indexes.size() * dout, 0.0f);
  for (size_t r = 0; r < io.output_indexes.size(); r++) {
    const Index &o = io.output_indexes[r];
    if (o.t == kNoTime) continue;
    for (int32_t h = 0; h < m.height_out; h++)
      for (int32_t f = 0; f < fo; f++) {
        double sum = b[f];
        for (size_t k = 0; k < m.offsets.size(); k++) {
          const int32_t hin =
              h * m.height_subsample_out + m.offsets[k].height_offset;
          auto it =
              row_of.find(Index(o.n, o.t + m.offsets[k].time_offset, o.x));
          if (hin < 0 || hin >= m.height_in || it == row_of.end()) continue;
          for (int32_t g = 0; g < fi; g++)
            sum +=
                w[f * wcols + k * fi + g] * x[it->second * din + hin * fi + g];
        }
        y[r * dout + h * fo + f] = static_cast<float>(sum);
      }
  }
  Matrix ans(static_cast<int32_t>(io.output_indexes.size()), dout);
  ans.CopyFromHost(y);
  return ans;
}

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

struct ConvCase {
  std::string config;
  std::vector<Index> outputs;
  std::vector<Index> available;  // empty: everything asked for
};

std::vector<ConvCase> Cases() {
  const std::string t = "type=TimeHeightConvolutionComponent ";
  std::vector<ConvCase> cases;
  // 3x3 with zero padding on the height axis.
  cases.push_back({t + "num-filters-in=2 num-filters-out=3 height-in=5 "
                       "height-out=5 time-offsets=-1,0,1 height-offsets=-1,0,1",
                   FrameIndexes(2, 0, 5),
                   {}});
  // One time offset, no padding (height 6 -> 4), no natural gradient.
  cases.push_back({t + "num-filters-in=1 num-filters-out=2 height-in=6 "
                       "height-out=4 time-offsets=0 height-offsets=0,1,2 "
                       "use-natural-gradient=false bias-stddev=1",
                   FrameIndexes(3, 0, 4),
                   {}});
  // Height subsampling; only the middle time offset is required and the
  // inputs exist every 2 frames, so the outer offsets are sometimes zero.
  cases.push_back({t + "num-filters-in=2 num-filters-out=2 height-in=7 "
                       "height-out=4 height-subsample-out=2 "
                       "time-offsets=-2,0,2 height-offsets=-1,0,1 "
                       "required-time-offsets=0",
                   FrameIndexes(1, 0, 10, 2), FrameIndexes(1, 0, 9, 2)});
  // Time subsampling: outputs every 3 frames from every frame (the input
  // is viewed as 3 frames side by side).
  cases.push_back({t + "num-filters-in=1 num-filters-out=2 height-in=4 "
                       "height-out=4 time-offsets=-1,0,1 height-offsets=-1,0,1",
                   FrameIndexes(2, 0, 9, 3),
                   {}});
  // Explicit offsets, a tiny memory limit (the computation goes in pieces)
  // and the natural-gradient options.
  cases.push_back({t + "num-filters-in=3 num-filters-out=2 height-in=3 "
                       "height-out=3 offsets=0,0;1,-1;1,1;2,0 "
                       "max-memory-mb=1e-4 rank-in=3 rank-out=1 alpha-in=2 "
                       "alpha-out=2 num-minibatches-history=8",
                   FrameIndexes(2, 0, 6),
                   {}});
  // A hole in the input: outputs that need it are dropped (blank rows).
  std::vector<Index> holes = FrameIndexes(2, -1, 8);
  holes.erase(std::find(holes.begin(), holes.end(), Index(0, 3)));
  cases.push_back({t + "num-filters-in=2 num-filters-out=2 height-in=3 "
                       "height-out=3 time-offsets=-1,1 height-offsets=0 "
                       "init-unit=false param-stddev=0.5",
                   FrameIndexes(2, 0, 7), holes});
  return cases;
}

}  // namespace

TEST_CASE("TimeHeightConvolutionComponent generic checks", "[convolution]") {
  uint64_t seed = 70;
  for (const ConvCase &cc : Cases()) {
    INFO(cc.config);
    std::unique_ptr<Component> c = ComponentFromConfig(cc.config);
    GeneralCheckOptions opts;
    opts.output_indexes = cc.outputs;
    opts.available_inputs = cc.available.empty() ? nullptr : &cc.available;
    CheckGeneralComponent(*c, seed++, opts);
  }
}

TEST_CASE("TimeHeightConvolutionComponent matches a naive convolution",
          "[convolution]") {
  uint64_t seed = 90;
  for (const ConvCase &cc : Cases()) {
    INFO(cc.config);
    std::unique_ptr<Component> c = ComponentFromConfig(cc.config);
    auto *conv = dynamic_cast<TimeHeightConvolutionComponent *>(c.get());
    GeneralComponentIo io;
    MakeGeneralComponentIo(*c, cc.outputs,
                           cc.available.empty() ? nullptr : &cc.available,
                           false, &io);
    Matrix in(static_cast<int32_t>(io.input_indexes.size()), c->InputDim(),
              ResizeType::kSetZero, MatrixStrideType::kStrideEqualNumCols);
    in.SetRandn(seed++);
    // Blank input rows are zero in a compiled computation.
    for (size_t r = 0; r < io.input_indexes.size(); r++)
      if (io.input_indexes[r].t == kNoTime) in.RowRange(r, 1).SetZero();
    Matrix got = GeneralForward(*c, io, in);
    Matrix want = NaiveConvolution(*conv, io, in);
    CHECK(RealRows(io.output_indexes, got)
              .ApproxEqual(RealRows(io.output_indexes, want), 1e-5f));
  }
}

TEST_CASE("ConvolutionComputation is written and read in Kaldi's format",
          "[convolution]") {
  std::unique_ptr<Component> c = ComponentFromConfig(
      "type=TimeHeightConvolutionComponent num-filters-in=1 "
      "num-filters-out=1 height-in=3 height-out=3 time-offsets=-1,0 "
      "height-offsets=-1,0,1");
  auto *conv = dynamic_cast<TimeHeightConvolutionComponent *>(c.get());
  ConvolutionComputation cc;
  std::vector<Index> in = FrameIndexes(1, -1, 2), out = FrameIndexes(1, 0, 2);
  CompileConvolutionComputation(conv->Model(), in, out,
                                ConvolutionComputationOptions(), &cc, nullptr,
                                nullptr);
  // Two steps (time offsets -1 and 0), each: for output heights 0,1,2 the
  // input heights h-1, h, h+1 (-1 outside), through a 3 x 3 temporary.
  std::ostringstream os;
  cc.Write(os, false);
  CHECK(os.str() ==
        "<ConvComputation> <NumFiltersInOut> 1 1 <HeightInOut> 3 3 "
        "<NumTInOut> 3 2 <NumImages> 1 <TempRowsCols> 2 9 <NumSteps> 2 "
        "<TimeShift> 0 <ParamsStartCol> 0 <HeightMap> [ -1 0 1 0 1 2 1 2 -1 ]\n"
        "<TimeShift> 1 <ParamsStartCol> 3 <HeightMap> [ -1 0 1 0 1 2 1 2 -1 ]\n"
        "</ConvComputation> ");
  ConvolutionComputation cc2;
  std::istringstream is(os.str());
  cc2.Read(is, false);
  std::ostringstream os2;
  cc2.Write(os2, false);
  CHECK(os2.str() == os.str());
  // A bad height map is a one-line UserError.
  std::string bad = os.str();
  bad.replace(bad.find("[ -1 0 1 0"), 10, "[ -1 7 1 0");
  std::istringstream bis(bad);
  CHECK_THROWS_AS(cc2.Read(bis, false), UserError);
}

TEST_CASE("TimeHeightConvolutionComponent golden text fragment and Info",
          "[convolution]") {
  const std::string golden =
      ReadFile(std::string(NNET3_TEST_DATA) +
               "/nnet/components/TimeHeightConvolutionComponent.txt");
  std::unique_ptr<Component> c = ReadText(golden);
  auto *conv = dynamic_cast<TimeHeightConvolutionComponent *>(c.get());
  REQUIRE(conv != nullptr);
  CHECK(WriteText(*c) + "\n" == golden);
  const ConvolutionModel &m = conv->Model();
  CHECK(m.InputDim() == 3);
  CHECK(m.OutputDim() == 6);
  CHECK(m.offsets.size() == 3);
  CHECK(m.required_time_offsets == std::set<int32_t>({0}));
  CHECK(conv->NumParameters() == 2 * 3 + 2);
  CHECK(c->Properties() ==
        (kUpdatableComponent | kReordersIndexes | kBackpropAdds |
         kBackpropNeedsInput | kInputContiguous | kOutputContiguous));
  std::ostringstream bin;
  c->Write(bin, true);
  std::istringstream bis(bin.str());
  CHECK(WriteText(*Component::ReadNew(bis, true)) + "\n" == golden);
  const std::string info = c->Info();
  INFO(info);
  CHECK(info.find("TimeHeightConvolutionComponent, input-dim=3, "
                  "output-dim=6, learning-rate=0.002 num-filters-in=1, "
                  "num-filters-out=2, height-in=3, height-out=3, "
                  "height-subsample-out=1, {time,height}-offsets=[-1,0 0,-1 "
                  "0,1], required-time-offsets=[0], input-dim=3, "
                  "output-dim=6") == 0);
  CHECK(info.find(", num-params=8, max-memory-mb=200, "
                  "use-natural-gradient=1, num-minibatches-history=4, "
                  "rank-in=2, rank-out=1, alpha=4") != std::string::npos);
  // The same model from a config line.
  std::unique_ptr<Component> fresh = ComponentFromConfig(
      "type=TimeHeightConvolutionComponent num-filters-in=1 "
      "num-filters-out=2 height-in=3 height-out=3 offsets=0,-1;-1,0;0,1 "
      "required-time-offsets=0 learning-rate=0.002");
  CHECK(dynamic_cast<TimeHeightConvolutionComponent *>(fresh.get())->Model() ==
        m);
}

TEST_CASE("TimeHeightConvolutionComponent defaults and config errors",
          "[convolution]") {
  std::unique_ptr<Component> c = ComponentFromConfig(
      "type=TimeHeightConvolutionComponent num-filters-in=32 "
      "num-filters-out=64 height-in=40 height-out=40 time-offsets=-1,0,1 "
      "height-offsets=-1,0,1");
  auto *conv = dynamic_cast<TimeHeightConvolutionComponent *>(c.get());
  // 64 x (9 * 32) filters + 64 biases (Kaldi's count for this layer).
  CHECK(conv->NumParameters() == 64 * 288 + 64);
  CHECK(c->InputDim() == 1280);
  CHECK(c->OutputDim() == 2560);
  // rank-in = min(80, (288 + 2) / 2) = 80, rank-out = min(80, 65/2) = 32.
  CHECK(c->Info().find("rank-in=80, rank-out=32") != std::string::npos);
  for (const char *bad :
       {// zero or negative sizes
        "num-filters-in=0 num-filters-out=2 height-in=3 height-out=3 "
        "time-offsets=0 height-offsets=0",
        "num-filters-in=1 num-filters-out=2 height-in=-3 height-out=3 "
        "time-offsets=0 height-offsets=0",
        // height-out too large for height-in and the offsets
        "num-filters-in=1 num-filters-out=2 height-in=3 height-out=5 "
        "time-offsets=0 height-offsets=0",
        // required time offset not among the time offsets
        "num-filters-in=1 num-filters-out=2 height-in=3 height-out=3 "
        "time-offsets=-1,0 height-offsets=0 required-time-offsets=1",
        // unsorted / repeated lists, no offsets at all
        "num-filters-in=1 num-filters-out=2 height-in=3 height-out=3 "
        "time-offsets=1,0 height-offsets=0",
        "num-filters-in=1 num-filters-out=2 height-in=3 height-out=3 "
        "offsets=0,0;0,0",
        "num-filters-in=1 num-filters-out=2 height-in=3 height-out=3",
        "num-filters-in=1 num-filters-out=2 height-in=3 height-out=3 "
        "time-offsets=0 height-offsets=0 max-memory-mb=0",
        "num-filters-in=1 num-filters-out=2 height-in=3 height-out=3 "
        "time-offsets=0 height-offsets=0 init-unit=true"}) {
    INFO(bad);
    ConfigLine cfl;
    REQUIRE(cfl.ParseLine(std::string("type=TimeHeightConvolutionComponent ") +
                          bad));
    TimeHeightConvolutionComponent comp;
    CHECK_THROWS_AS(comp.InitFromConfig(&cfl), UserError);
  }
}

// ---------------------------------------------------------------------------
// ConvolutionComponent

namespace {

// y(p, f) = b(f) + sum over (x, y, z) of the filter of W(f, (x fy + y) z + z)
// in(px sx + x, py sy + y, z), with the input laid out zyx or yzx.
Matrix NaiveConvolution3d(int32_t X, int32_t Y, int32_t Z, int32_t fx,
                          int32_t fy, int32_t sx, int32_t sy, bool zyx,
                          const Matrix &w, const Vector &b,
                          const MatrixView &in) {
  const int32_t nx = 1 + (X - fx) / sx, ny = 1 + (Y - fy) / sy,
                nf = w.NumRows(), rows = in.NumRows();
  const std::vector<float> x = in.ToHost(), wh = w.ToHost(), bh = b.ToHost();
  std::vector<float> y(rows * nx * ny * nf);
  for (int32_t r = 0; r < rows; r++)
    for (int32_t px = 0; px < nx; px++)
      for (int32_t py = 0; py < ny; py++)
        for (int32_t f = 0; f < nf; f++) {
          double sum = bh[f];
          for (int32_t i = 0; i < fx; i++)
            for (int32_t j = 0; j < fy; j++)
              for (int32_t k = 0; k < Z; k++) {
                const int32_t ix = px * sx + i, iy = py * sy + j;
                const int32_t col =
                    zyx ? (ix * Y + iy) * Z + k : (ix * Z + k) * Y + iy;
                sum += wh[f * (fx * fy * Z) + (i * fy + j) * Z + k] *
                       x[r * X * Y * Z + col];
              }
          y[r * nx * ny * nf + (px * ny + py) * nf + f] = float(sum);
        }
  Matrix ans(rows, nx * ny * nf);
  ans.CopyFromHost(y);
  return ans;
}

// The filter parameters and bias of a ConvolutionComponent, through
// Vectorize (filters row by row, then the bias).
void ConvParams(const ConvolutionComponent &c, int32_t num_filters, Matrix *w,
                Vector *b) {
  Vector all(c.NumParameters());
  c.Vectorize(&all);
  const int32_t fd = c.NumParameters() / num_filters - 1;
  *w = Matrix(num_filters, fd);
  w->CopyRowsFromVec(all.Range(0, num_filters * fd));
  *b = Vector(all.Range(num_filters * fd, num_filters));
}

}  // namespace

TEST_CASE("ConvolutionComponent checks and naive convolution",
          "[convolution]") {
  struct Geometry {
    int32_t X, Y, Z, fx, fy, sx, sy, nf;
    bool zyx;
  };
  uint64_t seed = 120;
  for (const Geometry &g : {Geometry{4, 5, 2, 2, 3, 2, 1, 3, true},
                            Geometry{3, 4, 3, 3, 2, 1, 2, 2, false},
                            Geometry{5, 3, 1, 1, 1, 1, 1, 4, true}}) {
    std::ostringstream config;
    config << "type=ConvolutionComponent input-x-dim=" << g.X
           << " input-y-dim=" << g.Y << " input-z-dim=" << g.Z
           << " filt-x-dim=" << g.fx << " filt-y-dim=" << g.fy
           << " filt-x-step=" << g.sx << " filt-y-step=" << g.sy
           << " num-filters=" << g.nf
           << " input-vectorization-order=" << (g.zyx ? "zyx" : "yzx");
    INFO(config.str());
    std::unique_ptr<Component> c = ComponentFromConfig(config.str());
    CheckComponent(*c, seed++);
    auto *conv = dynamic_cast<ConvolutionComponent *>(c.get());
    Matrix w;
    Vector b;
    ConvParams(*conv, g.nf, &w, &b);
    Matrix in(6, c->InputDim());
    in.SetRandn(seed++);
    Matrix out(6, c->OutputDim());
    c->Propagate(nullptr, in, &out);
    CHECK(out.ApproxEqual(NaiveConvolution3d(g.X, g.Y, g.Z, g.fx, g.fy, g.sx,
                                             g.sy, g.zyx, w, b, in),
                          1e-5f));
  }
}

TEST_CASE("ConvolutionComponent golden text fragment and errors",
          "[convolution]") {
  const std::string golden =
      ReadFile(std::string(NNET3_TEST_DATA) +
               "/nnet/components/ConvolutionComponent.txt");
  std::unique_ptr<Component> c = ReadText(golden);
  REQUIRE(c->Type() == "ConvolutionComponent");
  CHECK(WriteText(*c) + "\n" == golden);
  CHECK(c->InputDim() == 2 * 3 * 1);
  // Patches: x steps 1 + (2-1)/1 = 2, y steps 1 + (3-2)/1 = 2; 2 filters.
  CHECK(c->OutputDim() == 2 * 2 * 2);
  CHECK(dynamic_cast<UpdatableComponent *>(c.get())->NumParameters() ==
        2 * (2 + 1));
  CHECK(c->Info().find("input-vectorization=1, num-filters=2") !=
        std::string::npos);
  for (const char *bad :
       {"input-x-dim=4 input-y-dim=4 input-z-dim=1 filt-x-dim=3 filt-y-dim=1 "
        "filt-x-step=2 filt-y-step=1 num-filters=2",
        "input-x-dim=4 input-y-dim=4 input-z-dim=0 filt-x-dim=2 filt-y-dim=1 "
        "filt-x-step=2 filt-y-step=1 num-filters=2",
        "input-x-dim=4 input-y-dim=4 input-z-dim=1 filt-x-dim=2 filt-y-dim=1 "
        "filt-x-step=2 filt-y-step=1 num-filters=0",
        "input-x-dim=4 input-y-dim=4 input-z-dim=1 filt-x-dim=2 filt-y-dim=1 "
        "filt-x-step=2 filt-y-step=1 num-filters=2 "
        "input-vectorization-order=xyz"}) {
    INFO(bad);
    ConfigLine cfl;
    REQUIRE(cfl.ParseLine(std::string("type=ConvolutionComponent ") + bad));
    ConvolutionComponent comp;
    CHECK_THROWS_AS(comp.InitFromConfig(&cfl), UserError);
  }
}
