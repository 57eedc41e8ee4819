// Tests of the utterance loops of the inference programs over real tables:
// nnet3-compute's (ComputeUtterances) and nnet3-compute-batch's
// (ComputeUtterancesBatched) write, in input order, the computer's output
// minus acoustic_scale · log-priors, then exp() with --apply-exp; both
// fail when no utterance succeeded.
#include "compute/inference-loop.h"

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "base/error.h"
#include "compute-test-utils.h"
#include "compute/batch-inference-loop.h"
#include "compute/nnet-simple-computation.h"
#include "inference-test-utils.h"
#include "util/table-types.h"

namespace nnet3 {
namespace {

const char *const kConfig =
    "input-node name=input dim=3\n"
    "component name=a1 type=AffineComponent input-dim=9 output-dim=4 "
    "param-stddev=0.5 bias-stddev=0.5\n"
    "component-node name=a1 component=a1 input=Append(Offset(input, -1), "
    "input, Offset(input, 2))\n"
    "component name=sm type=LogSoftmaxComponent dim=4\n"
    "component-node name=sm component=sm input=a1\n"
    "output-node name=output input=sm\n";

struct TempDir {
  TempDir() {
    char name[] = "/tmp/inference-loop-test-XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    path = name;
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
  std::string path;
};

std::vector<std::pair<std::string, Matrix>> ReadAll(const std::string &rspec) {
  std::vector<std::pair<std::string, Matrix>> out;
  SequentialBaseFloatMatrixReader reader(rspec);
  for (; !reader.Done(); reader.Next())
    out.emplace_back(reader.Key(), Matrix(reader.Value()));
  return out;
}

TEST_CASE("Inference loops: priors, --apply-exp, order, failure",
          "[inference]") {
  const Nnet nnet = NnetFromConfigText(kConfig, "loop.config");
  TempDir dir;
  const std::string feats = "ark:" + dir.path + "/feats.ark";
  const std::vector<std::string> keys = {"z", "a", "m"};
  std::vector<Matrix> features;
  {
    BaseFloatMatrixWriter writer(feats);
    for (size_t i = 0; i < keys.size(); ++i) {
      features.push_back(RandomMatrix(7 + 5 * static_cast<int32_t>(i), 3,
                                      800 + i));  // seeds 800..802
      writer.Write(keys[i], features.back());
    }
  }
  const Vector log_priors(std::vector<float>{-1.0f, -2.0f, -0.5f, -3.0f});
  NnetSimpleComputationOptions opts;
  opts.acoustic_scale = 0.5f;
  NnetSimpleComputer computer(opts, nnet);
  InferenceOutputOptions out_opts;
  out_opts.apply_exp = true;
  // The expected output: exp(0.5 · (log-prob − log-prior)).
  std::vector<Matrix> want;
  for (const Matrix &f : features) {
    Matrix m;
    computer.ComputeUtterance("u", f, nullptr, nullptr, 0, &m);
    m.AddVecToRows(-0.5f, log_priors);
    m.ApplyFunc(Func::kExp);
    want.push_back(std::move(m));
  }
  IvectorTables ivectors;
  ComputeUtterances(&computer, &ivectors, out_opts, feats,
                    "ark:" + dir.path + "/simple.ark", &log_priors, 0.5f);
  NnetBatchComputerOptions batch_opts;
  batch_opts.acoustic_scale = 0.5f;
  batch_opts.minibatch_size = 2;
  IvectorTables ivectors2;
  ComputeUtterancesBatched(batch_opts, nnet, log_priors, &ivectors2, out_opts,
                           feats, "ark:" + dir.path + "/batch.ark");
  for (const std::string name : {"simple", "batch"}) {
    INFO(name);
    const auto got = ReadAll("ark:" + dir.path + "/" + name + ".ark");
    REQUIRE(got.size() == keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      CHECK(got[i].first == keys[i]);
      CHECK(MaxAbsDiff(got[i].second, want[i]) <= 1e-5f);
    }
  }
  // Priors of the wrong dimension; nothing to compute.
  const Vector bad(3);
  CHECK_THROWS_WITH(ComputeUtterances(&computer, &ivectors, out_opts, feats,
                                      "ark:/dev/null", &bad, 0.5f),
                    Catch::Contains("priors have dimension 3"));
  { BaseFloatMatrixWriter empty("ark:" + dir.path + "/empty.ark"); }
  IvectorTables ivectors3;
  CHECK_THROWS_WITH(ComputeUtterancesBatched(
                        batch_opts, nnet, Vector(), &ivectors3, out_opts,
                        "ark:" + dir.path + "/empty.ark", "ark:/dev/null"),
                    Catch::Contains("No utterance succeeded (0 failed)"));
}

}  // namespace
}  // namespace nnet3
