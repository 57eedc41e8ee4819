// Merging egs: --minibatch-size parsing (every form and the errors), the
// merged eg's structure, and the ExampleMerger's emit/flush/discard rules.
#include "train/nnet-example-utils.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

// An eg with `frames` input rows (t from 0, value base + row) and one sparse
// output row (pdf `label` of 4).
NnetExample MakeEg(int32_t frames, float base, int32_t label) {
  Matrix m(frames, 2, ResizeType::kSetZero, CpuDevice());
  for (int32_t r = 0; r < frames; r++) {
    m.Set(r, 0, base + r);
    m.Set(r, 1, -base);
  }
  NnetExample eg;
  eg.io.emplace_back("output", 4, 0, Posterior{{{label, 1.0f}}});
  eg.io.emplace_back("input", 0, m);
  return eg;
}

ExampleMergingConfig Config(const std::string &sizes) {
  ExampleMergingConfig config;
  config.minibatch_size = sizes;
  config.ComputeDerived();
  return config;
}

TEST_CASE("--minibatch-size forms", "[egs]") {
  ExampleMergingConfig c = Config("128");
  REQUIRE(c.rules.size() == 1);
  CHECK(c.rules[0].first == 0);
  CHECK(c.rules[0].second.largest_size == 128);

  c = Config("64,32");
  CHECK(c.rules[0].second.largest_size == 64);
  CHECK(c.MinibatchSize(10, 64, false) == 64);
  CHECK(c.MinibatchSize(10, 63, false) == 0);
  CHECK(c.MinibatchSize(10, 63, true) == 32);
  CHECK(c.MinibatchSize(10, 31, true) == 0);

  c = Config("16:32,64,128");
  const auto &ranges = c.rules[0].second.ranges;
  REQUIRE(ranges.size() == 3);
  CHECK(ranges[0] == std::make_pair(16, 32));
  CHECK(c.MinibatchSize(1, 100, true) == 64);
  CHECK(c.MinibatchSize(1, 40, true) == 32);
  CHECK(c.MinibatchSize(1, 20, true) == 20);
  CHECK(c.MinibatchSize(1, 15, true) == 0);
  CHECK(c.MinibatchSize(1, 127, false) == 0);
  CHECK(c.MinibatchSize(1, 128, false) == 128);

  c = Config("256=128/512=64");
  REQUIRE(c.rules.size() == 2);
  CHECK(c.rules[1].first == 512);
  CHECK(c.MinibatchSize(300, 200, false) == 128);  // closest rule: 256
  CHECK(c.MinibatchSize(400, 200, false) == 64);   // closest rule: 512
  CHECK(c.MinibatchSize(384, 200, false) == 128);  // a tie: the first rule

  c = Config("128=64:128,256/256=32:64,128");
  CHECK(c.MinibatchSize(100, 256, false) == 256);
  CHECK(c.MinibatchSize(100, 100, true) == 100);
  CHECK(c.MinibatchSize(250, 100, true) == 64);
  CHECK(c.MinibatchSize(250, 20, true) == 0);
}

TEST_CASE("--minibatch-size errors", "[egs]") {
  for (std::string bad :
       {"", "0", "-4", "a", "32:16", "1:2:3", "64,,32", "64,", "1=2/3",
        "128=64/128=32", "=64", "128=", "x=64", "0=64", "128=64=32", "64/32"}) {
    INFO("--minibatch-size=" << bad);
    ExampleMergingConfig config;
    config.minibatch_size = bad;
    CHECK_THROWS_AS(config.ComputeDerived(), UserError);
  }
}

TEST_CASE("MergeExamples: names sorted, rows concatenated, n offsets",
          "[egs]") {
  std::vector<NnetExample> egs = {MakeEg(3, 0, 1), MakeEg(3, 10, 2),
                                  MakeEg(3, 20, 3)};
  NnetExample merged;
  MergeExamples(egs, false, &merged);
  REQUIRE(merged.io.size() == 2);
  CHECK(merged.io[0].name == "input");
  CHECK(merged.io[1].name == "output");
  const NnetIo &input = merged.io[0];
  REQUIRE(input.indexes.size() == 9);
  for (int32_t k = 0; k < 3; k++)
    for (int32_t r = 0; r < 3; r++)
      CHECK(input.indexes[k * 3 + r] == Index(k, r, 0));
  REQUIRE(input.features.Type() == GeneralMatrixType::kFullMatrix);
  const Matrix &m = input.features.GetFullMatrix();
  CHECK(m.Get(4, 0) == 11.0f);
  CHECK(m.Get(8, 1) == -20.0f);
  const NnetIo &output = merged.io[1];
  REQUIRE(output.features.Type() == GeneralMatrixType::kSparseMatrix);
  CHECK(output.features.GetSparseMatrix().Row(2).Pairs()[0].first == 3);
  CHECK(output.indexes[2] == Index(2, 0, 0));

  // Merging merged egs: stride = max n + 1 = 3.
  NnetExample twice;
  MergeExamples({merged, merged}, true, &twice);
  CHECK(twice.io[0].indexes[9] == Index(3, 0, 0));
  CHECK(twice.io[0].indexes[17] == Index(5, 2, 0));
  CHECK(twice.io[0].features.Type() == GeneralMatrixType::kCompressedMatrix);
  CHECK(twice.io[1].features.Type() == GeneralMatrixType::kSparseMatrix);

  // Sparse + full for one name gives full.
  std::vector<NnetExample> mixed = {MakeEg(1, 0, 1), MakeEg(1, 0, 2)};
  Matrix dense(1, 4, ResizeType::kSetZero, CpuDevice());
  dense.Set(0, 3, 0.5f);
  mixed[1].io[0].features = GeneralMatrix(dense);
  MergeExamples(mixed, false, &merged);
  REQUIRE(merged.io[1].features.Type() == GeneralMatrixType::kFullMatrix);
  CHECK(merged.io[1].features.GetFullMatrix().Get(0, 1) == 1.0f);
  CHECK(merged.io[1].features.GetFullMatrix().Get(1, 3) == 0.5f);

  // Inconsistent dimensions.
  mixed[1].io[1].features =
      GeneralMatrix(Matrix(1, 3, ResizeType::kSetZero, CpuDevice()));
  CHECK_THROWS_AS(MergeExamples(mixed, false, &merged), UserError);
}

struct Collected {
  std::vector<std::string> keys;
  std::vector<NnetExample> egs;
};

ExampleMerger::Sink Collect(Collected *out) {
  return [out](const std::string &key, const NnetExample &eg) {
    out->keys.push_back(key);
    out->egs.push_back(eg);
  };
}

TEST_CASE("ExampleMerger emits at the largest size, then greedily", "[egs]") {
  Collected out;
  ExampleMerger merger(Config("3,2"), Collect(&out));
  for (int32_t i = 0; i < 7; i++) merger.AcceptExample(MakeEg(3, i, 0));
  merger.AcceptExample(MakeEg(5, 0, 0));  // a second structure
  merger.AcceptExample(MakeEg(5, 1, 0));
  CHECK(out.keys == std::vector<std::string>{"merged-0-3", "merged-1-3"});
  CHECK(merger.ExitStatus() == 0);
  // At the end: 1 left of size 3 fits nothing (discarded), 2 of size 5 -> 2.
  CHECK(out.keys ==
        std::vector<std::string>{"merged-0-3", "merged-1-3", "merged-2-2"});
  CHECK(merger.NumEgsRead() == 9);
  CHECK(merger.NumEgsDiscarded() == 1);
  CHECK(merger.NumMinibatchesWritten() == 3);
  // The second minibatch holds egs 3..5 in order.
  CHECK(out.egs[1].io[0].features.GetFullMatrix().Get(0, 0) == 3.0f);
  CHECK(out.egs[2].io[0].indexes.size() == 10);
}

TEST_CASE("ExampleMerger: final greedy sizes and nothing written", "[egs]") {
  Collected out;
  ExampleMerger merger(Config("4,2:3"), Collect(&out));
  for (int32_t i = 0; i < 9; i++) merger.AcceptExample(MakeEg(2, i, 0));
  merger.Finish();
  // 4 + 4 during the input; the last one fits no size.
  CHECK(out.keys == std::vector<std::string>{"merged-0-4", "merged-1-4"});
  CHECK(merger.NumEgsDiscarded() == 1);

  Collected out2;
  ExampleMerger merger2(Config("4,2:3"), Collect(&out2));
  for (int32_t i = 0; i < 7; i++) merger2.AcceptExample(MakeEg(2, i, 0));
  merger2.Finish();
  CHECK(out2.keys == std::vector<std::string>{"merged-0-4", "merged-1-3"});

  Collected none;
  ExampleMerger merger3(Config("256"), Collect(&none));
  for (int32_t i = 0; i < 5; i++) merger3.AcceptExample(MakeEg(2, i, 0));
  CHECK(merger3.ExitStatus() == 1);
  CHECK(none.keys.empty());
  CHECK(merger3.NumEgsDiscarded() == 5);
}

TEST_CASE("ExampleMerger picks the rule by eg size", "[egs]") {
  Collected out;
  ExampleMerger merger(Config("2=2/10=3"), Collect(&out));
  for (int32_t i = 0; i < 3; i++) {
    merger.AcceptExample(MakeEg(9, i, 0));
    merger.AcceptExample(MakeEg(2, i, 0));
  }
  merger.Finish();
  CHECK(out.keys == std::vector<std::string>{"merged-0-2", "merged-1-3"});
  CHECK(merger.NumEgsDiscarded() == 1);
}

}  // namespace
}  // namespace nnet3
