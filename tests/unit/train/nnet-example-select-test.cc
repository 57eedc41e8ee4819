// nnet3-copy-egs --frame / --left-context / --right-context / --frame-shift:
// which rows are kept, and the errors for merged egs and bad --frame.
#include "train/nnet-example-select.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "base/error.h"
#include "train/nnet-example-utils.h"

namespace nnet3 {
namespace {

// input t = -3..6 (value t), ivector t = 0, output t = 0..3 (pdf t).
NnetExample MakeEg() {
  Matrix feats(10, 1, ResizeType::kSetZero, CpuDevice());
  for (int32_t r = 0; r < 10; r++) feats.Set(r, 0, r - 3);
  Matrix ivector(1, 2, ResizeType::kSetZero, CpuDevice());
  Posterior post(4);
  for (int32_t t = 0; t < 4; t++) post[t] = {{t, 1.0f}};
  NnetExample eg;
  eg.io.emplace_back("input", -3, feats);
  eg.io.emplace_back("ivector", 0, ivector);
  eg.io.emplace_back("output", 4, 0, post);
  return eg;
}

std::vector<int32_t> Times(const NnetIo &io) {
  std::vector<int32_t> ans;
  for (const Index &i : io.indexes) ans.push_back(i.t);
  return ans;
}

TEST_CASE("SelectFromExample keeps one frame and truncates context", "[egs]") {
  NnetExample eg = MakeEg(), out;
  RandomState rng(0);
  REQUIRE(SelectFromExample(eg, "2", 1, 2, 0, &rng, &out));
  CHECK(Times(out.io[0]) == std::vector<int32_t>{1, 2, 3, 4});
  Matrix m(CpuDevice());
  out.io[0].features.GetMatrix(&m);
  CHECK(m.Get(0, 0) == 1.0f);
  CHECK(m.Get(3, 0) == 4.0f);
  CHECK(Times(out.io[1]) == std::vector<int32_t>{0});
  CHECK(Times(out.io[2]) == std::vector<int32_t>{2});
  CHECK(out.io[2].features.GetSparseMatrix().Row(0).Pairs()[0].first == 2);

  // Context only; -1 keeps a side.
  REQUIRE(SelectFromExample(eg, "", 2, -1, 0, &rng, &out));
  CHECK(Times(out.io[0]) == std::vector<int32_t>{-2, -1, 0, 1, 2, 3, 4, 5, 6});
  CHECK(Times(out.io[2]) == std::vector<int32_t>{0, 1, 2, 3});

  // A frame that is not there.
  CHECK_FALSE(SelectFromExample(eg, "4", -1, -1, 0, &rng, &out));

  // --frame-shift moves all but the ivector.
  REQUIRE(SelectFromExample(eg, "0", 0, 0, 5, &rng, &out));
  CHECK(Times(out.io[0]) == std::vector<int32_t>{5});
  CHECK(Times(out.io[1]) == std::vector<int32_t>{0});
  CHECK(Times(out.io[2]) == std::vector<int32_t>{5});
}

TEST_CASE("SelectFromExample --frame=random is seeded", "[egs]") {
  NnetExample eg = MakeEg(), out;
  std::vector<int32_t> seen(4, 0);
  RandomState rng(7);
  std::vector<int32_t> first_run;
  for (int32_t i = 0; i < 40; i++) {
    REQUIRE(SelectFromExample(eg, "random", 0, 0, 0, &rng, &out));
    int32_t t = out.io[2].indexes[0].t;
    REQUIRE(t >= 0);
    REQUIRE(t <= 3);
    seen[t]++;
    first_run.push_back(t);
  }
  for (int32_t count : seen) CHECK(count > 0);
  RandomState again(7);
  for (int32_t i = 0; i < 40; i++) {
    SelectFromExample(eg, "random", 0, 0, 0, &again, &out);
    CHECK(out.io[2].indexes[0].t == first_run[i]);
  }
}

TEST_CASE("SelectFromExample: compressed input, errors", "[egs]") {
  NnetExample eg = MakeEg(), out;
  eg.Compress();
  RandomState rng(0);
  REQUIRE(SelectFromExample(eg, "1", 0, 0, 0, &rng, &out));
  CHECK(out.io[0].features.Type() == GeneralMatrixType::kFullMatrix);
  CHECK(out.io[0].features.NumRows() == 1);

  CHECK_THROWS_AS(SelectFromExample(eg, "one", 0, 0, 0, &rng, &out), UserError);
  NnetExample merged;
  MergeExamples({MakeEg(), MakeEg()}, false, &merged);
  CHECK_THROWS_AS(SelectFromExample(merged, "1", -1, -1, 0, &rng, &out),
                  UserError);
  NnetExample no_output = MakeEg();
  no_output.io.pop_back();
  CHECK_THROWS_AS(SelectFromExample(no_output, "", 1, 1, 0, &rng, &out),
                  UserError);
}

}  // namespace
}  // namespace nnet3
