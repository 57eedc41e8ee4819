// Model combination pieces: the objective with test modes, batch-norm stats
// recomputation through the stats-storing NnetComputeProb, and
// CombineNnets' choice on models written to files.
#include "train/nnet-combine.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "base/random.h"
#include "nnet/nnet-utils.h"
#include "train-test-utils.h"
#include "train/nnet-diagnostics.h"
#include "util/kaldi-io.h"

namespace nnet3 {
namespace {

using namespace train_test;

const char *const kBnConfig =
    "input-node name=input dim=2\n"
    "component name=a type=AffineComponent input-dim=2 output-dim=3\n"
    "component-node name=a component=a input=input\n"
    "component name=bn type=BatchNormComponent dim=3\n"
    "component-node name=bn component=bn input=a\n"
    "component name=s type=LogSoftmaxComponent dim=3\n"
    "component-node name=s component=s input=bn\n"
    "output-node name=output input=s\n";

const char *const kPlainConfig =
    "input-node name=input dim=2\n"
    "component name=a type=AffineComponent input-dim=2 output-dim=3\n"
    "component-node name=a component=a input=input\n"
    "component name=s type=LogSoftmaxComponent dim=3\n"
    "component-node name=s component=s input=a\n"
    "output-node name=output input=s\n";

const Rows kW = {{2, 0}, {0, 2}, {-2, -2}};

// 20 frames labelled by the class whose row of kW scores highest.
NnetExample Eg(uint32_t seed) {
  RandomState rng(seed);
  Rows x(20, std::vector<double>(2));
  std::vector<std::vector<SparseVector::Pair>> labels(20);
  for (int r = 0; r < 20; r++) {
    x[r] = {rng.Gauss(), rng.Gauss()};
    int best = 0;
    for (int c = 1; c < 3; c++)
      if (kW[c][0] * x[r][0] + kW[c][1] * x[r][1] >
          kW[best][0] * x[r][0] + kW[best][1] * x[r][1])
        best = c;
    labels[r] = {{best, 1.0f}};
  }
  return MakeExample(x, GeneralMatrix(SparseMatrix(3, labels)));
}

TEST_CASE("RecomputeStats stores batch-norm stats in the network",
          "[combine]") {
  Nnet nnet = NnetFromConfig(kBnConfig);
  CHECK(HasBatchnorm(nnet));
  CHECK_FALSE(HasBatchnorm(NnetFromConfig(
      "input-node name=input dim=2\noutput-node name=output input=input\n")));
  const std::vector<NnetExample> egs = {Eg(1), Eg(2)};
  // Training mode uses the minibatch stats: the objective does not depend
  // on the stored ones; test mode does.
  const double train_mode = ComputeCombineObjective(false, true, egs, nnet);
  RecomputeStats(egs, &nnet);
  CHECK(ComputeCombineObjective(false, true, egs, nnet) == train_mode);
  const double test_mode = ComputeCombineObjective(true, true, egs, nnet);
  CHECK(std::isfinite(test_mode));
  CHECK(test_mode != train_mode);
  // Recomputing on the same egs again gives the same stats (they were
  // zeroed first).
  Nnet again(nnet);
  RecomputeStats(egs, &again);
  CHECK(NnetBytes(again) == NnetBytes(nnet));
  // The stats-storing constructor needs store_component_stats.
  NnetComputeProbOptions opts;
  CHECK_THROWS_AS(NnetComputeProb(opts, &nnet), UserError);
}

TEST_CASE("CombineNnets keeps the best average", "[combine]") {
  // kW plus a large perturbation D (freshest), minus D, and plus 6 D:
  // the first alone is poor, the average of the first two is kW itself.
  const Rows d = {{3, -2}, {-1, 4}, {2, 1}};
  const std::vector<NnetExample> egs = {Eg(3), Eg(4)};
  std::vector<std::string> files;
  for (double sign : {1.0, -1.0, 6.0}) {
    Nnet m = NnetFromConfig(kPlainConfig);
    Rows w = kW;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 2; j++) w[i][j] += sign * d[i][j];
    SetAffine(&m, "a", w, {0, 0, 0});
    files.push_back("combine-test-" + std::to_string(files.size()) + ".raw");
    WriteKaldiObject(m, files.back(), true);
  }
  NnetCombineOptions opts;
  Nnet combined;
  CHECK(CombineNnets(opts, files, egs, &combined) == 2);
  Nnet first;
  ReadKaldiObject(files[0], &first);
  CHECK(ComputeCombineObjective(false, true, egs, combined) >
        ComputeCombineObjective(false, true, egs, first));
  const Rows w = ToRows(Affine(&combined, "a").LinearParams());
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) CHECK(w[i][j] == Approx(kW[i][j]));
  // One evaluation only (k = 3): the average of all three, worse than the
  // first alone, so the first is kept.
  opts.max_objective_evaluations = 1;
  CHECK(CombineNnets(opts, files, egs, &combined) == 1);
  opts.max_objective_evaluations = 0;
  CHECK_THROWS_AS(CombineNnets(opts, files, egs, &combined), UserError);
  for (const std::string &f : files) std::remove(f.c_str());
}

}  // namespace
}  // namespace nnet3
