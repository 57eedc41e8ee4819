// The apply-svd and reduce-rank edits (nnet-svd.h, through ReadEditConfig
// as nnet3-copy --edits runs them): the network's outputs, evaluated frame
// by frame, are unchanged when no non-zero singular value is dropped and
// close otherwise; the factored linear map is exactly the best rank-d
// approximation (checked against an independent eigen-decomposition); the
// components, nodes, configs and parameter count are Kaldi's; the
// energy and shrinkage thresholds; name clashes.
#include "nnet/nnet-svd.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "nnet-test-utils.h"
#include "nnet/components/affine-components.h"
#include "nnet/components/linear-components.h"
#include "nnet/host-linear-algebra.h"
#include "nnet/host-svd.h"
#include "nnet/nnet-utils.h"

namespace nnet3 {
namespace {

// layer1 (component affine1, 12 -> 10) is read directly, through Offset,
// through a dim-range node and by an output; layer2 (affine2, 24 -> 9).
const char *const kConfig =
    "input-node name=input dim=12\n"
    "component name=affine1 type=NaturalGradientAffineComponent input-dim=12 "
    "output-dim=10 learning-rate=0.01 learning-rate-factor=0.5 max-change=0.75 "
    "l2-regularize=0.001\n"
    "component-node name=layer1 component=affine1 input=input\n"
    "component name=relu1 type=RectifiedLinearComponent dim=10\n"
    "component-node name=relu1 component=relu1 input=layer1\n"
    "dim-range-node name=layer1-part input-node=layer1 dim-offset=2 dim=4\n"
    "component name=affine2 type=AffineComponent input-dim=24 output-dim=9\n"
    "component-node name=layer2 component=affine2 "
    "input=Append(Offset(relu1, -1), relu1, layer1-part)\n"
    "output-node name=output input=layer2\n"
    "output-node name=output-xent input=Scale(0.5, layer1) "
    "objective=quadratic\n";

void Edit(const std::string &edits, Nnet *nnet) {
  std::istringstream is(edits);
  ReadEditConfig(is, "edits.config", nnet);
}

const AffineComponent &Affine(const Nnet &nnet, const std::string &name) {
  const int32_t c = nnet.GetComponentIndex(name);
  REQUIRE(c != -1);
  auto *a = dynamic_cast<const AffineComponent *>(nnet.GetComponent(c));
  REQUIRE(a != nullptr);
  return *a;
}

std::vector<double> ToDouble(const Matrix &m) {
  const std::vector<float> v = m.ToHost();
  return std::vector<double>(v.begin(), v.end());
}

Matrix ToMatrix(int32_t rows, int32_t cols, const std::vector<double> &v) {
  Matrix m(rows, cols);
  m.CopyFromHost(std::vector<float>(v.begin(), v.end()));
  return m;
}

// A rows x cols matrix of rank `rank` (a product of N(0,1) factors).
std::vector<double> LowRank(int32_t rows, int32_t cols, int32_t rank,
                            uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> normal;
  std::vector<double> a(static_cast<size_t>(rows) * rank),
      b(static_cast<size_t>(rank) * cols);
  for (double &x : a) x = normal(gen);
  for (double &x : b) x = normal(gen) / std::sqrt(1.0 * cols);
  return HostMatMul(rows, rank, cols, a, b);
}

void SetLinearParams(const std::string &name, const std::vector<double> &w,
                     Nnet *nnet) {
  auto *affine = dynamic_cast<AffineComponent *>(
      nnet->GetComponent(nnet->GetComponentIndex(name)));
  const Vector bias(affine->BiasParams());
  affine->SetParams(bias, ToMatrix(affine->OutputDim(), affine->InputDim(), w));
}

// The best rank-d approximation of the rows x cols matrix w, computed as
// w V_d V_dᵀ with V_d the top eigenvectors of wᵀw (not with HostSvd).
std::vector<double> BestRankApproximation(int32_t rows, int32_t cols,
                                          const std::vector<double> &w,
                                          int32_t d) {
  std::vector<double> wt(w.size());
  for (int32_t i = 0; i < rows; i++)
    for (int32_t j = 0; j < cols; j++) wt[j * rows + i] = w[i * cols + j];
  std::vector<double> eigenvalues, v;
  SymmetricEigen(cols, HostMatMul(cols, rows, cols, wt, w), &eigenvalues, &v);
  std::vector<double> projector(static_cast<size_t>(cols) * cols, 0.0);
  for (int32_t i = 0; i < cols; i++)
    for (int32_t j = 0; j < cols; j++)
      for (int32_t k = 0; k < d; k++)
        projector[i * cols + j] += v[i * cols + k] * v[j * cols + k];
  return HostMatMul(rows, cols, cols, w, projector);
}

double MaxAbsDiff(const std::vector<double> &a, const std::vector<double> &b) {
  REQUIRE(a.size() == b.size());
  double d = 0.0;
  for (size_t i = 0; i < a.size(); i++) d = std::max(d, std::fabs(a[i] - b[i]));
  return d;
}

std::string ConfigText(const Nnet &nnet) {
  std::vector<std::string> lines;
  nnet.GetConfigLines(false, &lines);
  std::string all;
  for (const std::string &l : lines) all += l + "\n";
  return all;
}

}  // namespace

TEST_CASE("apply-svd keeps the outputs when no rank is dropped", "[svd]") {
  Nnet nnet = NnetFromConfig(kConfig);
  SetLinearParams("affine1", LowRank(10, 12, 4, 21), &nnet);  // seed 21
  Nnet edited(nnet);
  Edit("apply-svd name=affine1 bottleneck-dim=4", &edited);
  CHECK(CheckSameOutputs(nnet, edited, 1e-4f) < 1e-4f);
  // Kaldi's structure: node layer1 -> layer1_a (affine1_a, reading input)
  // and layer1_b (affine1_b, reading layer1_a); references go to layer1_b.
  const std::string config = ConfigText(edited);
  INFO(config);
  CHECK(edited.GetNodeIndex("layer1") == -1);
  CHECK(edited.GetComponentIndex("affine1") == -1);
  CHECK_THAT(config, Catch::Contains("component-node name=layer1_a "
                                     "component=affine1_a input=input\n"
                                     "component-node name=layer1_b "
                                     "component=affine1_b input=layer1_a\n"));
  CHECK_THAT(config, Catch::Contains("component-node name=relu1 "
                                     "component=relu1 input=layer1_b\n"));
  CHECK_THAT(config, Catch::Contains("dim-range-node name=layer1-part "
                                     "input-node=layer1_b dim-offset=2 "
                                     "dim=4\n"));
  CHECK_THAT(config, Catch::Contains("output-node name=output-xent "
                                     "input=Scale(0.5, layer1_b) "
                                     "objective=quadratic\n"));
  const Component *a =
      edited.GetComponent(edited.GetComponentIndex("affine1_a"));
  const Component *b =
      edited.GetComponent(edited.GetComponentIndex("affine1_b"));
  CHECK(a->Type() == "LinearComponent");
  CHECK(b->Type() == "NaturalGradientAffineComponent");
  CHECK(a->InputDim() == 12);
  CHECK(a->OutputDim() == 4);
  CHECK(b->OutputDim() == 10);
  // The training settings are copied from affine1.
  for (const Component *c : {a, b}) {
    auto *u = dynamic_cast<const UpdatableComponent *>(c);
    CHECK(u->LearningRate() == Affine(nnet, "affine1").LearningRate());
    CHECK(u->LearningRate() != 0.001f);  // not the default
    CHECK(u->LearningRateFactor() == 0.5f);
    CHECK(u->MaxChange() == 0.75f);
    CHECK(u->L2Regularization() == Approx(0.001f));
  }
  // It reads back.
  CHECK(WriteToString(ReadFromString(WriteToString(edited, true)), true) ==
        WriteToString(edited, true));
}

TEST_CASE("apply-svd with a bottleneck: the best rank-d map, Kaldi's size",
          "[svd]") {
  const Nnet nnet = NnetFromConfig(kConfig);  // full-rank random matrices
  for (int32_t d : {2, 5}) {
    INFO("bottleneck-dim " << d);
    Nnet edited(nnet);
    Edit("apply-svd name=affine* bottleneck-dim=" + std::to_string(d), &edited);
    // Parameters: each factored component's in x out becomes d (in + out).
    const int64_t want =
        NumParameters(nnet) - 12 * 10 + d * (12 + 10) - 24 * 9 + d * (24 + 9);
    CHECK(NumParameters(edited) == want);
    for (const char *name : {"affine1", "affine2"}) {
      INFO(name);
      const AffineComponent &orig = Affine(nnet, name);
      const int32_t out = orig.OutputDim(), in = orig.InputDim();
      const auto &linear =
          dynamic_cast<const LinearComponent &>(*edited.GetComponent(
              edited.GetComponentIndex(std::string(name) + "_a")));
      const AffineComponent &affine_b =
          Affine(edited, std::string(name) + "_b");
      const std::vector<double> product =
          HostMatMul(out, d, in, ToDouble(affine_b.LinearParams()),
                     ToDouble(linear.Params()));
      const std::vector<double> best =
          BestRankApproximation(out, in, ToDouble(orig.LinearParams()), d);
      CHECK(MaxAbsDiff(product, best) < 1e-4);
      CHECK(affine_b.BiasParams().ToHost() == orig.BiasParams().ToHost());
    }
  }
}

TEST_CASE("apply-svd with a bottleneck: outputs close when little is dropped",
          "[svd]") {
  // Matrices of rank 4 and 5 plus noise of 0.01: the bottleneck drops only
  // the noise's part, so the outputs move by about that much.
  Nnet nnet = NnetFromConfig(kConfig);
  for (const auto &name_rank :
       {std::make_pair("affine1", 4), std::make_pair("affine2", 5)}) {
    const AffineComponent &a = Affine(nnet, name_rank.first);
    const int32_t out = a.OutputDim(), in = a.InputDim();
    std::vector<double> w = LowRank(out, in, name_rank.second, 51);
    const std::vector<double> noise = LowRank(out, in, std::min(out, in), 52);
    for (size_t i = 0; i < w.size(); i++) w[i] += 0.01 * noise[i];
    SetLinearParams(name_rank.first, w, &nnet);
  }
  Nnet edited(nnet);
  Edit(
      "apply-svd name=affine1 bottleneck-dim=4\n"
      "apply-svd name=affine2 bottleneck-dim=5",
      &edited);
  CHECK(NumParameters(edited) ==
        NumParameters(nnet) - 12 * 10 + 4 * (12 + 10) - 24 * 9 + 5 * (24 + 9));
  const float diff = CheckSameOutputs(nnet, edited, 1.0f);
  CHECK(diff > 1e-4f);  // something was dropped
  // A one-dim bottleneck drops much more, and moves the outputs much more.
  Nnet narrow(nnet);
  Edit("apply-svd name=affine* bottleneck-dim=1", &narrow);
  const float narrow_diff = CheckSameOutputs(nnet, narrow, 100.0f);
  INFO("max output difference: " << diff << " with the right ranks, "
                                 << narrow_diff << " with rank 1");
  CHECK(diff < 0.05f * narrow_diff);
}

TEST_CASE("apply-svd: energy and shrinkage thresholds, skips", "[svd]") {
  Nnet nnet = NnetFromConfig(kConfig);
  // affine1 = Q1 diag(10, 5, 1, 0.1) Q2ᵀ: the squares are 100, 25, 1, 0.01,
  // so energy 0.9 keeps 2 (125 >= 0.9 * 126.01) and 0.995 keeps 3.
  std::vector<double> q1 = LowRank(4, 10, 4, 31), q2 = LowRank(4, 12, 4, 32);
  OrthonormalizeRows(4, 10, &q1);
  OrthonormalizeRows(4, 12, &q2);
  const double sigma[] = {10, 5, 1, 0.1};
  std::vector<double> w(10 * 12, 0.0);
  for (int32_t i = 0; i < 10; i++)
    for (int32_t j = 0; j < 12; j++)
      for (int32_t k = 0; k < 4; k++)
        w[i * 12 + j] += q1[k * 10 + i] * sigma[k] * q2[k * 12 + j];
  SetLinearParams("affine1", w, &nnet);
  for (const auto &energy_dim :
       {std::make_pair("0.9", 2), std::make_pair("0.995", 3)}) {
    INFO("energy-threshold " << energy_dim.first);
    Nnet edited(nnet);
    Edit(std::string("apply-svd name=affine1 energy-threshold=") +
             energy_dim.first,
         &edited);
    CHECK(edited.GetComponent(edited.GetComponentIndex("affine1_a"))
              ->OutputDim() == energy_dim.second);
  }
  // Shrinkage: d (in + out) / (in out) = 4 * 22 / 120 = 0.73.
  Nnet kept(nnet);
  Edit("apply-svd name=affine1 bottleneck-dim=4 shrinkage-threshold=0.7",
       &kept);
  CHECK(WriteToString(kept, true) == WriteToString(nnet, true));
  Edit("apply-svd name=affine1 bottleneck-dim=4 shrinkage-threshold=0.75",
       &kept);
  CHECK(kept.GetComponentIndex("affine1_a") != -1);
  // A bottleneck no smaller than a dim, and components that are not
  // affine: left alone.
  Nnet same(nnet);
  Edit("apply-svd name=* bottleneck-dim=10", &same);
  CHECK(WriteToString(same, true) == WriteToString(nnet, true));
}

TEST_CASE("apply-svd refuses names that are taken, changing nothing", "[svd]") {
  Nnet nnet = NnetFromConfig(
      std::string(kConfig) +
      "component name=affine1_b type=RectifiedLinearComponent dim=3\n");
  Nnet copy(nnet);
  CHECK_THROWS_WITH(
      Edit("apply-svd name=affine1 bottleneck-dim=3", &copy),
      "edits.config:1: Neural network already has a component named "
      "affine1_b");
  CHECK(WriteToString(copy, true) == WriteToString(nnet, true));
  Nnet nodes = NnetFromConfig(std::string(kConfig) +
                              "output-node name=layer1_a input=relu1\n");
  CHECK_THROWS_WITH(
      Edit("apply-svd name=affine1 bottleneck-dim=3", &nodes),
      "edits.config:1: Neural network already has a node named layer1_a");
}

TEST_CASE("reduce-rank: the best rank-r matrix in place", "[svd]") {
  const Nnet nnet = NnetFromConfig(kConfig);
  Nnet edited(nnet);
  Edit("reduce-rank name=affine* rank=3", &edited);
  CHECK(ConfigText(edited) == ConfigText(nnet));
  CHECK(NumParameters(edited) == NumParameters(nnet));
  for (const char *name : {"affine1", "affine2"}) {
    INFO(name);
    const AffineComponent &orig = Affine(nnet, name),
                          &now = Affine(edited, name);
    CHECK(now.Type() == orig.Type());
    const int32_t out = orig.OutputDim(), in = orig.InputDim();
    const std::vector<double> w = ToDouble(now.LinearParams());
    CHECK(MaxAbsDiff(w, BestRankApproximation(
                            out, in, ToDouble(orig.LinearParams()), 3)) < 1e-4);
    std::vector<double> s, u, vt;
    HostSvd(out, in, w, &s, &u, &vt);
    CHECK(s[3] < 1e-5 * s[0]);  // rank 3
    CHECK(now.BiasParams().ToHost() == orig.BiasParams().ToHost());
  }
  // A rank no smaller than a dim leaves the component alone; a rank at
  // least the matrix's own changes nothing measurable.
  Nnet low = NnetFromConfig(kConfig);
  SetLinearParams("affine1", LowRank(10, 12, 4, 41), &low);
  Nnet low_edited(low);
  Edit("reduce-rank name=* rank=9", &low_edited);  // affine2: 9 -> skipped
  CHECK(CheckSameOutputs(low, low_edited, 1e-4f) < 1e-4f);
}

}  // namespace nnet3
