// The affine component group: AffineComponent,
// NaturalGradientAffineComponent, LinearComponent, FixedAffineComponent and
// BlockAffineComponent. Generic checks (CheckComponent) on several configs
// each, hand-computed forward/backward/update on tiny cases, Kaldi's text
// model format against hand-written golden files (reference 4.3, including
// the worked NaturalGradientAffine example), Info lines, natural-gradient
// defaults and behaviour, and config errors.
#include "nnet/components/affine-components.h"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "../component-test-utils.h"
#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-registry.h"
#include "nnet/components/linear-components.h"

using namespace nnet3;

namespace {

// A scratch directory for matrix= files, removed at the end of the run.
class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("nnet3-affine-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  // Writes `text` to `name` and returns the path.
  std::string Write(const std::string &name, const std::string &text) const {
    std::string p = (path_ / name).string();
    std::ofstream os(p);
    os << text;
    return p;
  }

 private:
  std::filesystem::path path_;
};

const TempDir &Temp() {
  static TempDir dir;
  return dir;
}

std::string ReadFile(const std::string &path) {
  std::ifstream is(path, std::ios::binary);
  REQUIRE(is.good());
  std::ostringstream os;
  os << is.rdbuf();
  return os.str();
}

std::string WriteText(const Component &c) {
  std::ostringstream os;
  InitKaldiOutputStream(os, false);
  c.Write(os, false);
  return os.str();
}

std::string WriteBinary(const Component &c) {
  std::ostringstream os;
  InitKaldiOutputStream(os, true);
  c.Write(os, true);
  return os.str();
}

std::unique_ptr<Component> ReadString(const std::string &s) {
  std::istringstream is(s);
  bool binary = false;
  REQUIRE(InitKaldiInputStream(is, &binary));
  return Component::ReadNew(is, binary);
}

Matrix MatrixFrom(int rows, int cols, const std::vector<float> &v) {
  Matrix m(rows, cols);
  m.CopyFromHost(v);
  return m;
}

Vector VectorFrom(const std::vector<float> &v) { return Vector(v); }

void CheckMatrix(const MatrixView &m, const std::vector<float> &expected) {
  std::vector<float> got = m.ToHost();
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); i++)
    CHECK(got[i] == Approx(expected[i]).margin(1e-5));
}

// The message of the UserError that InitFromConfig throws for `config`.
std::string ConfigError(const std::string &config) {
  ConfigLine cfl;
  REQUIRE(cfl.ParseLine(config));
  std::string type;
  REQUIRE(cfl.GetValue("type", &type));
  std::unique_ptr<Component> c = Component::NewComponentOfType(type);
  REQUIRE(c != nullptr);
  try {
    c->InitFromConfig(&cfl);
  } catch (const UserError &e) {
    return e.what();
  }
  FAIL("no error for '" << config << "'");
  return "";
}

// "matrix=" file: Kaldi text format, `rows` x `cols`, element k (row-major,
// from 1) equal to 0.25 k - 1.5.
std::string MatrixFile(const std::string &name, int rows, int cols) {
  std::ostringstream os;
  os << " [\n";
  for (int r = 0; r < rows; r++) {
    os << " ";
    for (int c = 0; c < cols; c++) os << " " << 0.25 * (r * cols + c + 1) - 1.5;
    os << (r + 1 < rows ? "\n" : " ]\n");
  }
  return Temp().Write(name, os.str());
}

}  // namespace

TEST_CASE("affine types are registered", "[affine]") {
  std::vector<std::string> types = RegisteredComponentTypes();
  for (const char *t :
       {"AffineComponent", "NaturalGradientAffineComponent", "LinearComponent",
        "FixedAffineComponent", "BlockAffineComponent"}) {
    CHECK(std::find(types.begin(), types.end(), t) != types.end());
    std::unique_ptr<Component> c = Component::NewComponentOfType(t);
    REQUIRE(c != nullptr);
    CHECK(c->Type() == t);
  }
  CHECK(NewAffineComponentOfType("SigmoidComponent") == nullptr);
}

TEST_CASE("affine components pass the generic checks", "[affine]") {
  std::string m54 = MatrixFile("m5x4.txt", 5, 4);  // 5 outputs, 3 inputs
  std::string m35 = MatrixFile("m3x5.txt", 3, 5);
  const char *configs[] = {
      "type=AffineComponent input-dim=5 output-dim=4",
      "type=AffineComponent input-dim=7 output-dim=3 param-stddev=0.5 "
      "bias-stddev=0.1 learning-rate=0.01 max-change=0.75 "
      "l2-regularize=0.001 learning-rate-factor=0.5 "
      "orthonormal-constraint=1.0",
      "type=NaturalGradientAffineComponent input-dim=6 output-dim=2",
      "type=NaturalGradientAffineComponent input-dim=9 output-dim=11 "
      "bias-mean=0.5 rank-in=3 rank-out=4 update-period=1 alpha=2 "
      "num-samples-history=500 max-change=1.5",
      "type=NaturalGradientAffineComponent input-dim=1 output-dim=1",
      "type=LinearComponent input-dim=5 output-dim=3",
      "type=LinearComponent input-dim=4 output-dim=6 param-stddev=0.2 "
      "use-natural-gradient=false orthonormal-constraint=-1 rank-in=2",
      "type=FixedAffineComponent input-dim=4 output-dim=3",
      "type=BlockAffineComponent input-dim=6 output-dim=4 num-blocks=2",
      "type=BlockAffineComponent input-dim=9 output-dim=6 num-blocks=3 "
      "param-stddev=0.3 bias-mean=1 bias-stddev=0.5 learning-rate=0.1",
      "type=BlockAffineComponent input-dim=3 output-dim=5 num-blocks=1",
  };
  uint64_t seed = 100;
  for (const char *config : configs) {
    INFO(config << ", seed " << seed);
    CheckComponent(*ComponentFromConfig(config), seed++);
  }
  for (std::string config :
       {"type=AffineComponent matrix=" + m54,
        "type=AffineComponent matrix=" + m54 + " input-dim=3 output-dim=5",
        "type=NaturalGradientAffineComponent matrix=" + m54,
        "type=LinearComponent matrix=" + m35,
        "type=FixedAffineComponent matrix=" + m35}) {
    INFO(config << ", seed " << seed);
    std::unique_ptr<Component> c = ComponentFromConfig(config);
    CheckComponent(*c, seed++);
  }
  // matrix= puts the last column into the bias.
  std::unique_ptr<Component> c =
      ComponentFromConfig("type=AffineComponent matrix=" + m54);
  auto *affine = dynamic_cast<AffineComponent *>(c.get());
  REQUIRE(affine != nullptr);
  CHECK(affine->InputDim() == 3);
  CHECK(affine->OutputDim() == 5);
  CHECK(affine->BiasParams().Get(1) == 0.5f);        // k = 8
  CHECK(affine->LinearParams().Get(1, 2) == 0.25f);  // k = 7
}

TEST_CASE("affine forward, backward and update by hand", "[affine]") {
  Matrix w = MatrixFrom(3, 2, {1, 2, 3, 4, 5, 6});
  Vector b = VectorFrom({0.5f, -1, 2});
  Matrix in = MatrixFrom(2, 2, {1, -1, 2, 0.5f});
  Matrix out_deriv = MatrixFrom(2, 3, {1, 0, 0, 0, 1, 1});
  AffineComponent affine(w, b, 0.1f);
  // y = x Wᵀ + b.
  Matrix out(2, 3);
  out.Set(7.0f);  // overwritten
  affine.Propagate(nullptr, in, &out);
  CheckMatrix(out, {-0.5f, -2, 1, 3.5f, 7, 15});
  // in_deriv += out_deriv W (kBackpropAdds), and W, b updated in place.
  Matrix in_deriv = MatrixFrom(2, 2, {1, 1, 1, 1});
  affine.Backprop("affine", nullptr, in, out, out_deriv, nullptr, &affine,
                  &in_deriv);
  CheckMatrix(in_deriv, {2, 3, 9, 11});
  CheckMatrix(affine.LinearParams(), {1.1f, 1.9f, 3.2f, 4.05f, 5.2f, 6.05f});
  CheckMatrix(affine.BiasParams().AsRowMatrix(), {0.6f, -0.9f, 2.1f});

  // The same through a FixedAffineComponent made from it (not updated).
  AffineComponent affine2(w, b, 0.1f);
  FixedAffineComponent fixed(affine2);
  Matrix out2(2, 3);
  fixed.Propagate(nullptr, in, &out2);
  CheckMatrix(out2, {-0.5f, -2, 1, 3.5f, 7, 15});
  CHECK(fixed.Info() ==
        "FixedAffineComponent, input-dim=2, output-dim=3, "
        "linear-params-rms=3.894, bias-{mean,stddev}=0.5,1.225");
  CHECK(affine2.Info() ==
        "AffineComponent, input-dim=2, output-dim=3, learning-rate=0.1, "
        "linear-params-rms=3.894, linear-params-row-norms=[ 2.2 5.0 7.8 ], "
        "linear-params-col-norms=[ 5.9 7.5 ], bias-{mean,stddev}=0.5,1.225");

  // LinearComponent adds to its output: y += x Wᵀ.
  std::unique_ptr<Component> lc =
      ComponentFromConfig("type=LinearComponent input-dim=2 output-dim=3");
  auto *linear = dynamic_cast<LinearComponent *>(lc.get());
  REQUIRE(linear != nullptr);
  linear->SetParams(w);
  Matrix out3(2, 3);
  out3.Set(1.0f);
  linear->Propagate(nullptr, in, &out3);
  CheckMatrix(out3, {0, 0, 0, 4, 9, 14});

  // BlockAffine 4 -> 2 with 2 blocks: y0 = [1 2]·x[0:2] + 1,
  // y1 = [3 4]·x[2:4] - 1.
  std::istringstream is(
      "<BlockAffineComponent> <LearningRate> 0.5 <NumBlocks> 2 "
      "<LinearParams> [ 1 2 \n 3 4 ] <BiasParams> [ 1 -1 ] "
      "</BlockAffineComponent>");
  std::unique_ptr<Component> ba = Component::ReadNew(is, false);
  Matrix bin = MatrixFrom(1, 4, {1, 2, 3, 4});
  Matrix bout(1, 2);
  ba->Propagate(nullptr, bin, &bout);
  CheckMatrix(bout, {6, 24});
  Matrix bderiv(1, 4);
  Matrix bod = MatrixFrom(1, 2, {1, 2});
  ba->Backprop("ba", nullptr, bin, bout, bod, nullptr, ba.get(), &bderiv);
  CheckMatrix(bderiv, {1, 2, 6, 8});
  auto *block = dynamic_cast<BlockAffineComponent *>(ba.get());
  // W_b += 0.5 · od_b · x_b: [1 2] + 0.5·1·[1 2], [3 4] + 0.5·2·[3 4].
  CheckMatrix(block->LinearParams(), {1.5f, 3, 6, 8});
  CheckMatrix(block->BiasParams().AsRowMatrix(), {1.5f, 0});
}

TEST_CASE(
    "NaturalGradientAffineComponent text format of the reference "
    "example",
    "[affine]") {
  const std::string path =
      std::string(NNET3_TEST_DATA) +
      "/nnet/components/NaturalGradientAffineComponent.txt";
  std::string golden = ReadFile(path);
  // A component written inside a model is followed by a newline (written
  // by the Nnet), which the golden file includes.
  std::unique_ptr<Component> c = ReadString(golden);
  CHECK(WriteText(*c) + "\n" == golden);
  auto *ng = dynamic_cast<NaturalGradientAffineComponent *>(c.get());
  REQUIRE(ng != nullptr);
  CHECK(ng->MaxChange() == 0.75f);
  CHECK(ng->PreconditionerIn().GetRank() == 3);
  CHECK(ng->PreconditionerOut().GetRank() == 1);
  // The same text from a config line (rank defaults min(20, (6+1)/2) = 3
  // and min(80, (2+1)/2) = 1) with the parameters set afterwards.
  std::unique_ptr<Component> fresh = ComponentFromConfig(
      "type=NaturalGradientAffineComponent input-dim=6 output-dim=2 "
      "max-change=0.75");
  auto *f = dynamic_cast<NaturalGradientAffineComponent *>(fresh.get());
  f->SetParams(ng->BiasParams(), ng->LinearParams());
  CHECK(WriteText(*f) + "\n" == golden);
  // Binary round trip back to the same text.
  CHECK(WriteText(*ReadString(WriteBinary(*c))) + "\n" == golden);
  CheckComponentIo(*c);
}

TEST_CASE("affine golden fragments read and re-write byte for byte",
          "[affine]") {
  for (const char *type : {"AffineComponent", "LinearComponent",
                           "FixedAffineComponent", "BlockAffineComponent"}) {
    INFO(type);
    std::string golden = ReadFile(std::string(NNET3_TEST_DATA) +
                                  "/nnet/components/" + type + ".txt");
    std::unique_ptr<Component> c = ReadString(golden);
    CHECK(c->Type() == type);
    CHECK(WriteText(*c) + "\n" == golden);
    CHECK(WriteText(*ReadString(WriteBinary(*c))) + "\n" == golden);
    CheckComponentIo(*c);
  }
  // Token details: the prefix fields and <OrthonormalConstraint>.
  std::unique_ptr<Component> a = ReadString(ReadFile(
      std::string(NNET3_TEST_DATA) + "/nnet/components/AffineComponent.txt"));
  auto *affine = dynamic_cast<AffineComponent *>(a.get());
  CHECK(affine->LearningRateFactor() == 0.5f);
  CHECK(affine->L2Regularization() == Approx(1e-4f));
  CHECK(affine->OrthonormalConstraint() == 1.0f);
  std::unique_ptr<Component> b =
      ReadString(ReadFile(std::string(NNET3_TEST_DATA) +
                          "/nnet/components/BlockAffineComponent.txt"));
  CHECK(dynamic_cast<UpdatableComponent *>(b.get())->IsGradient());
}

TEST_CASE("NaturalGradientAffineComponent reads legacy tokens", "[affine]") {
  // Older Kaldi models: <IsGradient> after the body, the removed
  // <MaxChangePerSample> and <UpdateCount>... fields, and no opening tag
  // (Component::ReadNew consumed it).
  std::istringstream is(
      "<LearningRate> 0.001 <LinearParams> [ 1 2 ] <BiasParams> [ 3 ] "
      "<RankIn> 1 <RankOut> 1 <UpdatePeriod> 4 <NumSamplesHistory> 2000 "
      "<Alpha> 4 <MaxChangePerSample> 0.1 <IsGradient> F <UpdateCount> 0 "
      "<ActiveScalingCount> 0 <MaxChangeScaleStats> 0 "
      "</NaturalGradientAffineComponent> ");
  NaturalGradientAffineComponent c;
  c.Read(is, false);
  CHECK(WriteText(c) ==
        "<NaturalGradientAffineComponent> <LearningRate> 0.001 "
        "<LinearParams>  [\n  1 2 ]\n<BiasParams>  [ 3 ]\n<RankIn> 1 "
        "<RankOut> 1 <UpdatePeriod> 4 <NumSamplesHistory> 2000 <Alpha> 4 "
        "</NaturalGradientAffineComponent> ");
}

TEST_CASE("Affine Read: optional fields by whole token", "[affine]") {
  // <OrthonormalConstraint> between <RankOut> and <UpdatePeriod>, and a
  // legacy <IsGradient> without the other legacy fields.
  std::istringstream is(
      "<LearningRate> 0.001 <LinearParams> [ 1 2 ] <BiasParams> [ 3 ] "
      "<RankIn> 1 <RankOut> 1 <OrthonormalConstraint> 0.5 <UpdatePeriod> 4 "
      "<NumSamplesHistory> 2000 <Alpha> 4 <IsGradient> T "
      "</NaturalGradientAffineComponent> ");
  NaturalGradientAffineComponent c;
  c.Read(is, false);
  CHECK(c.OrthonormalConstraint() == 0.5f);
  CHECK(c.IsGradient());
  CheckComponentIo(c);
  // Tokens that merely start like an optional field are errors that name
  // the token and what was expected there.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"<LearningRate> 0.001 <LinearParams> [ 1 2 ] <BiasParams> [ 3 ] "
       "<RankIn> 1 <RankOut> 1 <Orthonormal> 0.5 <UpdatePeriod> 4 "
       "<NumSamplesHistory> 2000 <Alpha> 4 </NaturalGradientAffineComponent> ",
       "expected <OrthonormalConstraint> or <UpdatePeriod>, got <Orthonormal>"},
      {"<LearningRate> 0.001 <LinearParams> [ 1 2 ] <BiasParams> [ 3 ] "
       "<RankIn> 1 <RankOut> 1 <UpdatePeriod> 4 <NumSamplesHistory> 2000 "
       "<Alpha> 4 <IsGrad> T </NaturalGradientAffineComponent> ",
       "expected </NaturalGradientAffineComponent> (or one of the legacy "
       "fields <MaxChangePerSample>, <IsGradient>, <UpdateCount>), got "
       "<IsGrad>"},
      {"<LearningRate> 0.001 <LinearParams> [ 1 2 ] <BiasParams> [ 3 ] "
       "<Orthonormal> 1 </AffineComponent> ",
       "expected <IsGradient>, <OrthonormalConstraint> or </AffineComponent>, "
       "got <Orthonormal>"}};
  for (const auto &b : bad) {
    INFO(b.first);
    std::istringstream bad_is(b.first);
    std::unique_ptr<Component> component =
        b.first.find("</AffineComponent>") != std::string::npos
            ? std::unique_ptr<Component>(new AffineComponent)
            : std::unique_ptr<Component>(new NaturalGradientAffineComponent);
    try {
      component->Read(bad_is, false);
      FAIL("no error");
    } catch (const UserError &e) {
      CHECK(std::string(e.what()).find(b.second) != std::string::npos);
    }
  }
}

TEST_CASE("natural-gradient rank defaults and Info", "[affine]") {
  struct Case {
    int in, out, rank_in, rank_out;
  } cases[] = {{6, 2, 3, 1},
               {100, 500, 20, 80},
               {1, 1, 1, 1},
               {39, 159, 20, 80},
               {38, 158, 19, 79}};
  for (const Case &k : cases) {
    INFO(k.in << " -> " << k.out);
    std::unique_ptr<Component> c = ComponentFromConfig(
        "type=NaturalGradientAffineComponent input-dim=" +
        std::to_string(k.in) + " output-dim=" + std::to_string(k.out));
    auto *ng = dynamic_cast<NaturalGradientAffineComponent *>(c.get());
    CHECK(ng->PreconditionerIn().GetRank() == k.rank_in);
    CHECK(ng->PreconditionerOut().GetRank() == k.rank_out);
    CHECK(ng->PreconditionerIn().GetUpdatePeriod() == 4);
    CHECK(ng->PreconditionerIn().GetNumSamplesHistory() == 2000.0f);
    CHECK(ng->PreconditionerIn().GetAlpha() == 4.0f);
    CHECK(ng->Info().find(", rank-in=" + std::to_string(k.rank_in) +
                          ", rank-out=" + std::to_string(k.rank_out) +
                          ", num-samples-history=2000, update-period=4, "
                          "alpha=4") != std::string::npos);
    std::unique_ptr<Component> l = ComponentFromConfig(
        "type=LinearComponent input-dim=" + std::to_string(k.in) +
        " output-dim=" + std::to_string(k.out));
    CHECK(l->Info().find(", use-natural-gradient=true, rank-in=" +
                         std::to_string(k.rank_in) + ", rank-out=" +
                         std::to_string(k.rank_out)) != std::string::npos);
  }
  std::unique_ptr<Component> c = ComponentFromConfig(
      "type=NaturalGradientAffineComponent input-dim=4 output-dim=3 "
      "bias-stddev=0 bias-mean=2.5 param-stddev=0");
  auto *ng = dynamic_cast<NaturalGradientAffineComponent *>(c.get());
  CHECK(ng->BiasParams().Min() == 2.5f);
  CHECK(ng->BiasParams().Max() == 2.5f);
  CHECK(ng->LinearParams().FrobeniusNorm() == 0.0);
  CHECK(!ng->IsGradient());
}

TEST_CASE("NaturalGradientAffineComponent update improves the objective",
          "[affine]") {
  // Objective to maximize: -½ ||y - target||², derivative target - y.
  // Each natural-gradient step must have a positive inner product with the
  // plain gradient, and the loss must go down over a few steps.
  const int in_dim = 8, out_dim = 4, rows = 32;
  std::unique_ptr<Component> c = ComponentFromConfig(
      "type=NaturalGradientAffineComponent input-dim=8 output-dim=4 "
      "learning-rate=0.01");
  auto *ng = dynamic_cast<NaturalGradientAffineComponent *>(c.get());
  Matrix target_w(out_dim, in_dim);
  target_w.SetRandn(5);  // seed 5
  double first_loss = 0, last_loss = 0;
  for (int step = 0; step < 12; step++) {
    INFO("step " << step);
    Matrix in(rows, in_dim);
    in.SetRandn(1000 + step);  // seeds 1000...
    Matrix target(rows, out_dim);
    target.AddMatMat(1.0f, in, Trans::kNo, target_w, Trans::kYes, 0.0f);
    Matrix out(rows, out_dim);
    ng->Propagate(nullptr, in, &out);
    Matrix deriv(target);
    deriv.AddMat(-1.0f, out);  // target - y
    double loss = 0.5 * DotProduct(deriv, deriv);
    if (step == 0) first_loss = loss;
    last_loss = loss;
    std::unique_ptr<Component> before = ng->Copy();
    std::unique_ptr<Component> grad_owner = ng->Copy();
    auto *grad = dynamic_cast<UpdatableComponent *>(grad_owner.get());
    grad->Scale(0.0f);
    grad->SetAsGradient();
    ng->Backprop("ng", nullptr, in, out, deriv, nullptr, grad, nullptr);
    ng->Backprop("ng", nullptr, in, out, deriv, nullptr, ng, nullptr);
    std::unique_ptr<Component> delta = ng->Copy();
    delta->Add(-1.0f, *before);
    CHECK(dynamic_cast<UpdatableComponent *>(delta.get())->DotProduct(*grad) >
          0.0f);
    // The same minibatch's loss after the step is smaller.
    Matrix out2(rows, out_dim);
    ng->Propagate(nullptr, in, &out2);
    Matrix deriv2(target);
    deriv2.AddMat(-1.0f, out2);
    CHECK(0.5 * DotProduct(deriv2, deriv2) < loss);
  }
  CHECK(last_loss < 0.9 * first_loss);
  CHECK(ng->PreconditionerIn().NumCalls() == 12);
}

TEST_CASE("natural-gradient updates by hand", "[affine]") {
  // NaturalGradientAffine: ΔW|Δb = lr γ_in γ_out P_out(out_deriv)ᵀ P_in([in 1])
  // with P the preconditioners (same settings, same call sequence);
  // LinearComponent the same without the column of ones.
  std::unique_ptr<Component> c = ComponentFromConfig(
      "type=NaturalGradientAffineComponent input-dim=5 output-dim=4 "
      "rank-in=2 rank-out=1 update-period=1 alpha=3 num-samples-history=50 "
      "learning-rate=0.1");
  std::unique_ptr<Component> lc = ComponentFromConfig(
      "type=LinearComponent input-dim=5 output-dim=4 rank-in=2 rank-out=1 "
      "update-period=1 alpha=3 num-samples-history=50 learning-rate=0.1");
  auto *ng = dynamic_cast<NaturalGradientAffineComponent *>(c.get());
  auto *linear = dynamic_cast<LinearComponent *>(lc.get());
  OnlineNaturalGradient p_in, p_out, q_in, q_out;
  for (OnlineNaturalGradient *p : {&p_in, &p_out, &q_in, &q_out}) {
    p->SetAlpha(3);
    p->SetNumSamplesHistory(50);
    p->SetUpdatePeriod(1);
  }
  p_in.SetRank(2);
  q_in.SetRank(2);
  p_out.SetRank(1);
  q_out.SetRank(1);
  for (int step = 0; step < 4; step++) {
    INFO("step " << step);
    Matrix in(20, 5), deriv(20, 4), out(20, 4);
    in.SetRandn(70 + step);  // seeds 70.., 80..
    deriv.SetRandn(80 + step);
    Matrix w0(ng->LinearParams()), lw0(linear->Params());
    Vector b0(ng->BiasParams());
    ng->Backprop("ng", nullptr, in, out, deriv, nullptr, ng, nullptr);
    linear->Backprop("l", nullptr, in, out, deriv, nullptr, linear, nullptr);
    // Expected affine update.
    Matrix in_ext(20, 6);
    in_ext.ColRange(0, 5).CopyFromMat(in);
    in_ext.ColRange(5, 1).Set(1.0f);
    Matrix od(deriv);
    float s_in, s_out;
    p_in.PreconditionDirections(&in_ext, &s_in);
    p_out.PreconditionDirections(&od, &s_out);
    Matrix w_expected(w0);
    w_expected.AddMatMat(0.1f * s_in * s_out, od, Trans::kYes,
                         in_ext.ColRange(0, 5), Trans::kNo, 1.0f);
    Vector ones(20), b_expected(b0);
    ones.CopyColFromMat(in_ext, 5);
    b_expected.AddMatVec(0.1f * s_in * s_out, od, Trans::kYes, ones, 1.0f);
    CHECK(ng->LinearParams().ApproxEqual(w_expected, 1e-5f));
    CHECK(ng->BiasParams().ApproxEqual(b_expected, 1e-5f));
    // Expected linear update.
    Matrix in_p(in), od2(deriv);
    q_in.PreconditionDirections(&in_p, &s_in);
    q_out.PreconditionDirections(&od2, &s_out);
    Matrix lw_expected(lw0);
    lw_expected.AddMatMat(0.1f * s_in * s_out, od2, Trans::kYes, in_p,
                          Trans::kNo, 1.0f);
    CHECK(linear->Params().ApproxEqual(lw_expected, 1e-5f));
  }
}

TEST_CASE("FreezeNaturalGradient stops the Fisher updates", "[affine]") {
  for (const char *config :
       {"type=NaturalGradientAffineComponent input-dim=6 output-dim=5 "
        "update-period=1",
        "type=LinearComponent input-dim=6 output-dim=5 update-period=1"}) {
    INFO(config);
    std::unique_ptr<Component> c = ComponentFromConfig(config);
    auto *u = dynamic_cast<UpdatableComponent *>(c.get());
    Matrix in(10, 6), out(10, 5), deriv(10, 5);
    auto step = [&](uint64_t seed) {
      in.SetRandn(seed);
      deriv.SetRandn(seed + 1);
      u->Backprop("c", nullptr, in, out, deriv, nullptr, u, nullptr);
    };
    step(1);
    step(3);
    std::string before = WriteText(*c);
    // The preconditioner state is not in the model file: compare the
    // results of an identical update with and without freezing instead.
    u->FreezeNaturalGradient(true);
    std::unique_ptr<Component> frozen_copy = c->Copy();
    step(5);
    step(7);
    auto *fc = dynamic_cast<UpdatableComponent *>(frozen_copy.get());
    // A frozen copy, updated with the 5 and 7 minibatches in reverse order,
    // ends up identical only if the preconditioners did not change.
    in.SetRandn(7);
    deriv.SetRandn(8);
    fc->Backprop("c", nullptr, in, out, deriv, nullptr, fc, nullptr);
    in.SetRandn(5);
    deriv.SetRandn(6);
    fc->Backprop("c", nullptr, in, out, deriv, nullptr, fc, nullptr);
    std::unique_ptr<Component> diff = c->Copy();
    diff->Add(-1.0f, *frozen_copy);
    auto *d = dynamic_cast<UpdatableComponent *>(diff.get());
    CHECK(d->DotProduct(*d) < 1e-10 * u->DotProduct(*u));
    CHECK(WriteText(*c) != before);
  }
}

TEST_CASE("affine config errors name the key", "[affine]") {
  std::string m54 = MatrixFile("err5x4.txt", 5, 4);
  std::string m11 = Temp().Write("m1x1.txt", " [ 3 ]\n");
  struct Case {
    std::string config, expected;
  } cases[] = {
      {"type=AffineComponent input-dim=0 output-dim=3", "input-dim=0"},
      {"type=AffineComponent output-dim=3", "input-dim"},
      {"type=AffineComponent input-dim=3", "output-dim"},
      {"type=AffineComponent input-dim=3 output-dim=2 param-stddev=-1",
       "param-stddev=-1"},
      {"type=AffineComponent input-dim=3 output-dim=2 learning-rate=-1",
       "learning-rate"},
      {"type=AffineComponent matrix=/nonexistent/m.txt",
       "matrix=/nonexistent/m.txt"},
      {"type=AffineComponent matrix=" + m54 + " input-dim=7", "input-dim=7"},
      {"type=AffineComponent matrix=" + m11, "matrix="},
      {"type=NaturalGradientAffineComponent input-dim=3 output-dim=2 "
       "rank-in=0",
       "rank-in=0"},
      {"type=NaturalGradientAffineComponent input-dim=3 output-dim=2 "
       "update-period=0",
       "update-period=0"},
      {"type=NaturalGradientAffineComponent input-dim=3 output-dim=2 "
       "num-samples-history=0",
       "num-samples-history=0"},
      {"type=NaturalGradientAffineComponent input-dim=3 output-dim=2 "
       "bias-stddev=-2",
       "bias-stddev=-2"},
      {"type=LinearComponent input-dim=3 output-dim=2 alpha=-1", "alpha=-1"},
      {"type=LinearComponent input-dim=3 output-dim=-2", "output-dim=-2"},
      {"type=FixedAffineComponent matrix=" + m54 + " input-dim=3",
       "input-dim=3"},
      {"type=FixedAffineComponent input-dim=3", "output-dim"},
      {"type=BlockAffineComponent input-dim=6 output-dim=4 num-blocks=4",
       "num-blocks=4"},
      {"type=BlockAffineComponent input-dim=6 output-dim=4", "num-blocks"},
      {"type=BlockAffineComponent input-dim=6 output-dim=4 num-blocks=2 "
       "param-stddev=x",
       "param-stddev"},
  };
  for (const Case &k : cases) {
    INFO(k.config);
    std::string msg = ConfigError(k.config);
    INFO("message: " << msg);
    CHECK(msg.find(k.expected) != std::string::npos);
    CHECK(msg.find('\n') == std::string::npos);
  }
}

TEST_CASE("affine model-file errors", "[affine]") {
  for (const char *text :
       {"<AffineComponent> <LearningRate> 0.1 <LinearParams> [ 1 2 ] "
        "<BiasParams> [ 1 2 ] </AffineComponent>",
        "<BlockAffineComponent> <LearningRate> 0.1 <NumBlocks> 2 "
        "<LinearParams> [ 1 2 \n 3 4 \n 5 6 ] <BiasParams> [ 1 2 3 ] "
        "</BlockAffineComponent>",
        "<NaturalGradientAffineComponent> <LearningRate> 0.1 <LinearParams> "
        "[ 1 2 ] <BiasParams> [ 1 ] <RankIn> 0 <RankOut> 1 <UpdatePeriod> 4 "
        "<NumSamplesHistory> 2000 <Alpha> 4 </NaturalGradientAffineComponent>",
        "<LinearComponent> <LearningRate> 0.1 <Params> [ 1 2 ] "
        "<UseNaturalGradient> T <RankInOut> 1 1 <Alpha> 4 "
        "<NumSamplesHistory> 2000 </LinearComponent>"}) {
    INFO(text);
    std::istringstream is(text);
    CHECK_THROWS_AS(Component::ReadNew(is, false), UserError);
  }
}
