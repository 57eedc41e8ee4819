// NnetComputeProb against a hand computation (objective, accuracy,
// gradient, report lines), averaging networks, the orthonormal constraint,
// and the TrainingCompiler's cache.
#include "train/nnet-diagnostics.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "base/random.h"
#include "nnet/components/linear-components.h"
#include "nnet/components/tdnn-components.h"
#include "nnet/nnet-utils.h"
#include "train-test-utils.h"
#include "train/nnet-training-utils.h"
#include "train/training-compiler.h"

namespace nnet3 {
namespace {

using namespace train_test;

const char *const kClassifierConfig =
    "input-node name=input dim=2\n"
    "component name=a type=AffineComponent input-dim=2 output-dim=3\n"
    "component-node name=a component=a input=input\n"
    "component name=s type=LogSoftmaxComponent dim=3\n"
    "component-node name=s component=s input=a\n"
    "output-node name=output input=s\n";

const Rows kW = {{1.0, -1.0}, {0.5, 0.5}, {-1.0, 0.25}};
const std::vector<double> kB = {0.1, 0.0, -0.2};
const Rows kX = {{1.0, 0.0}, {0.0, 2.0}, {-1.0, -1.0}};
// Labels 0 (weight 1), 1 (weight 0.5), 2 (weight 2).
const std::vector<std::vector<SparseVector::Pair>> kLabels = {
    {{0, 1.0f}}, {{1, 0.5f}}, {{2, 2.0f}}};

NnetExample ClassifierEg() {
  return MakeExample(kX, GeneralMatrix(SparseMatrix(3, kLabels)));
}

TEST_CASE("NnetComputeProb matches a hand computation", "[trainer]") {
  Nnet nnet = NnetFromConfig(kClassifierConfig);
  SetAffine(&nnet, "a", kW, kB);
  NnetComputeProbOptions opts;
  opts.compute_deriv = true;
  NnetComputeProb prob(opts, nnet);
  std::vector<std::string> lines;
  prob.SetReportSink([&](const std::string &l) { lines.push_back(l); });
  prob.Compute(ClassifierEg());
  prob.Compute(ClassifierEg());

  double objf = 0.0, weight = 0.0, correct = 0.0;
  Rows grad_w(3, std::vector<double>(2, 0.0));
  std::vector<double> grad_b(3, 0.0);
  for (size_t r = 0; r < kX.size(); r++) {
    std::vector<double> y(3);
    double max_y = -1e30, sum_exp = 0.0;
    for (size_t c = 0; c < 3; c++) {
      y[c] = kW[c][0] * kX[r][0] + kW[c][1] * kX[r][1] + kB[c];
      max_y = std::max(max_y, y[c]);
    }
    for (size_t c = 0; c < 3; c++) sum_exp += std::exp(y[c]);
    const int32_t label = kLabels[r][0].first;
    const double w = kLabels[r][0].second;
    objf += w * (y[label] - std::log(sum_exp));
    weight += w;
    if (y[label] == max_y) correct += w;
    // d objf / d y_pre = s − softmax(y) Σ s.
    for (size_t c = 0; c < 3; c++) {
      const double d = (c == static_cast<size_t>(label) ? w : 0.0) -
                       std::exp(y[c]) / sum_exp * w;
      grad_w[c][0] += 2 * d * kX[r][0];  // twice: two identical egs
      grad_w[c][1] += 2 * d * kX[r][1];
      grad_b[c] += 2 * d;
    }
  }
  const SimpleObjectiveInfo *info = prob.GetObjective("output");
  REQUIRE(info != nullptr);
  CHECK(info->tot_weight == Approx(2 * weight));
  CHECK(info->tot_objective == Approx(2 * objf).epsilon(1e-5));
  CHECK(prob.GetAccuracy("output")->tot_objective == Approx(2 * correct));

  Nnet deriv(prob.GetDeriv());
  const Rows got_w = ToRows(Affine(&deriv, "a").LinearParams());
  for (size_t c = 0; c < 3; c++) {
    CHECK(got_w[c][0] == Approx(grad_w[c][0]).margin(1e-5));
    CHECK(got_w[c][1] == Approx(grad_w[c][1]).margin(1e-5));
    CHECK(Affine(&deriv, "a").BiasParams().Get(static_cast<int32_t>(c)) ==
          Approx(grad_b[c]).margin(1e-5));
  }

  CHECK(prob.PrintTotalStats());
  REQUIRE(lines.size() == 2);
  std::ostringstream want0, want1;
  want0 << "Overall log-likelihood for 'output' is " << objf / weight
        << " per frame, over " << 2 * weight << " frames.";
  want1 << "Overall accuracy for 'output' is " << correct / weight
        << " per frame, over " << 2 * weight << " frames.";
  CHECK(lines[0] == want0.str());
  CHECK(lines[1] == want1.str());
}

TEST_CASE("NnetComputeProb: quadratic wording and per-dim accuracy",
          "[trainer]") {
  Nnet nnet = NnetFromConfig(
      "input-node name=input dim=2\n"
      "component name=a type=AffineComponent input-dim=2 output-dim=3\n"
      "component-node name=a component=a input=input\n"
      "output-node name=output input=a objective=quadratic\n");
  SetAffine(&nnet, "a", kW, kB);
  NnetComputeProbOptions opts;
  opts.compute_per_dim_accuracy = true;
  NnetComputeProb prob(opts, nnet);
  std::vector<std::string> lines;
  prob.SetReportSink([&](const std::string &l) { lines.push_back(l); });
  prob.Compute(ClassifierEg());
  CHECK(prob.PrintTotalStats());
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].rfind("Overall objective for 'output' is ", 0) == 0);
  CHECK(lines[0].find("per frame, over 3 frames.") != std::string::npos);
  CHECK(lines[2].rfind("Overall per-dim accuracy vector for 'output' is [ ",
                       0) == 0);
  CHECK_THROWS_AS(prob.GetDeriv(), UserError);
}

TEST_CASE("Averaging two networks gives the mean parameters", "[trainer]") {
  Nnet a = NnetFromConfig(kClassifierConfig), b = a;
  SetAffine(&a, "a", kW, kB);
  SetAffine(&b, "a", {{3, 1}, {0, 0}, {1, 1}}, {1, 2, 3});
  Nnet avg = a;  // what nnet3-average does with uniform weights
  ScaleNnet(0.5f, &avg);
  AddNnet(b, 0.5f, &avg);
  const Rows w = ToRows(Affine(&avg, "a").LinearParams());
  const Rows wb = ToRows(Affine(&b, "a").LinearParams());
  for (size_t r = 0; r < 3; r++) {
    for (size_t c = 0; c < 2; c++)
      CHECK(w[r][c] == Approx(0.5 * (kW[r][c] + wb[r][c])));
    CHECK(Affine(&avg, "a").BiasParams().Get(static_cast<int32_t>(r)) ==
          Approx(0.5 * (kB[r] + Affine(&b, "a").BiasParams().Get(
                                    static_cast<int32_t>(r)))));
  }
}

// max |M Mᵀ − target I| over the elements.
double OrthonormalError(const MatrixView &m, double target) {
  Matrix p(m.NumRows(), m.NumRows(), ResizeType::kSetZero, CpuDevice());
  p.AddMatMat(1.0f, m, Trans::kNo, m, Trans::kYes, 0.0f);
  double err = 0.0;
  for (int32_t i = 0; i < p.NumRows(); i++)
    for (int32_t j = 0; j < p.NumCols(); j++)
      err = std::max(err, std::fabs(p.Get(i, j) - (i == j ? target : 0.0)));
  return err;
}

TEST_CASE("The orthonormal constraint converges", "[trainer]") {
  Matrix m(3, 6, ResizeType::kSetZero, CpuDevice());
  m.SetRandn(11);  // seed 11
  m.Scale(0.5f);
  Matrix floating(m);
  for (int i = 0; i < 40; i++) ConstrainOrthonormalInternal(1.0f, &m);
  CHECK(OrthonormalError(m, 1.0) < 1e-3);
  for (int i = 0; i < 60; i++) ConstrainOrthonormalInternal(-1.0f, &floating);
  Matrix p(3, 3, ResizeType::kSetZero, CpuDevice());
  p.AddMatMat(1.0f, floating, Trans::kNo, floating, Trans::kYes, 0.0f);
  CHECK(OrthonormalError(floating, p.Get(0, 0)) < 1e-3 * p.Get(0, 0));

  // Through the network: a 6 x 3 affine (rows > cols: columns orthonormal),
  // constrained on about one call in four.
  Nnet nnet = NnetFromConfig(
      "input-node name=input dim=3\n"
      "component name=a type=AffineComponent input-dim=3 output-dim=6 "
      "orthonormal-constraint=1.0\n"
      "component-node name=a component=a input=input\n"
      "output-node name=output input=a\n");
  RandomState rng(3);
  for (int i = 0; i < 300; i++) ConstrainOrthonormal(&rng, &nnet);
  Matrix w_trans(Affine(&nnet, "a").LinearParams(), Trans::kYes);
  CHECK(OrthonormalError(w_trans, 1.0) < 1e-3);
}

// TDNN-F's linear TdnnComponent: a floating constraint (-1) moves M Mᵀ
// towards a multiple of I, on about one minibatch in four, and keeps no bias
// (an affine TDNN keeps its bias untouched).
TEST_CASE("The orthonormal constraint applies to TdnnComponent", "[trainer]") {
  Nnet nnet = NnetFromConfig(
      "input-node name=input dim=2\n"
      "component name=lin type=TdnnComponent input-dim=2 output-dim=4 "
      "time-offsets=-1,0,1 use-bias=false orthonormal-constraint=-1\n"
      "component-node name=lin component=lin input=input\n"
      "component name=aff type=TdnnComponent input-dim=4 output-dim=6 "
      "time-offsets=0 orthonormal-constraint=0.5\n"
      "component-node name=aff component=aff input=lin\n"
      "output-node name=output input=aff\n");
  auto tdnn = [&nnet](const char *name) -> TdnnComponent & {
    return *dynamic_cast<TdnnComponent *>(
        nnet.GetComponent(nnet.GetComponentIndex(name)));
  };
  const Vector bias_before(tdnn("aff").BiasParams());
  RandomState rng(5);  // seed 5
  // Applied on about a quarter of the calls (binomial(200, 1/4): 50 +- 6),
  // each time to the initial parameters.
  const Nnet initial(nnet);
  int32_t changed = 0;
  for (int i = 0; i < 200; i++) {
    nnet = initial;
    ConstrainOrthonormal(&rng, &nnet);
    Matrix diff(tdnn("lin").LinearParams());
    diff.AddMat(-1.0f,
                dynamic_cast<const TdnnComponent *>(
                    initial.GetComponent(initial.GetComponentIndex("lin")))
                    ->LinearParams());
    changed += diff.FrobeniusNorm() > 0.0;
  }
  CHECK(changed > 30);
  CHECK(changed < 70);
  for (int i = 0; i < 400; i++) ConstrainOrthonormal(&rng, &nnet);
  const MatrixView &w = tdnn("lin").LinearParams();  // 4 x 6: rows
  Matrix p(4, 4, ResizeType::kSetZero, CpuDevice());
  p.AddMatMat(1.0f, w, Trans::kNo, w, Trans::kYes, 0.0f);
  CHECK(OrthonormalError(w, p.Get(0, 0)) < 1e-3 * p.Get(0, 0));
  CHECK(tdnn("lin").BiasParams().Dim() == 0);
  // 6 x 4 (rows > cols): the columns become orthogonal with norm 0.5.
  Matrix w_trans(tdnn("aff").LinearParams(), Trans::kYes);
  CHECK(OrthonormalError(w_trans, 0.25) < 1e-3);
  CHECK(tdnn("aff").BiasParams().ApproxEqual(bias_before, 1e-6f));
}

TEST_CASE("TrainingCompiler caches by request", "[trainer]") {
  Nnet nnet = NnetFromConfig(kClassifierConfig);
  ComputationRequest r1, r2;
  GetComputationRequest(nnet, ClassifierEg(), true, true, &r1);
  GetComputationRequest(nnet, ClassifierEg(), false, false, &r2);
  TrainingCompilerOptions opts;
  TrainingCompiler compiler(nnet, opts);
  auto c1 = compiler.Compile(r1);
  auto c1_again = compiler.Compile(r1);
  CHECK(c1 == c1_again);
  CHECK(compiler.NumCompiled() == 1);
  CHECK(compiler.NumCacheHits() == 1);
  opts.cache_capacity = 1;
  TrainingCompiler small(nnet, opts);
  small.Compile(r1);
  small.Compile(r2);
  small.Compile(r1);
  CHECK(small.NumCompiled() == 3);
  CHECK(small.CacheSize() == 1);
}

}  // namespace
}  // namespace nnet3
