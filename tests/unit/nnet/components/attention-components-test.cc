// RestrictedAttentionComponent: the general checks (Indexes, precomputed
// indexes, derivatives) on several configs, the output against the naive
// implementation in naive-attention.h, which inputs are required, the
// padding of the grid, the stats, the golden file and config errors.
#include "nnet/components/attention-components.h"

#include <catch2/catch.hpp>
#include <map>
#include <sstream>

#include "../component-test-utils.h"
#include "../general-component-test-utils.h"
#include "naive-attention.h"
#include "nonlinear-test-utils.h"
#include "simple-components-test-utils.h"

using namespace nnet3;

namespace {

const RestrictedAttentionComponent &AsAttention(const Component &c) {
  const auto *a = dynamic_cast<const RestrictedAttentionComponent *>(&c);
  REQUIRE(a != nullptr);
  return *a;
}

// Compares every non-blank output row of `run` with the naive attention
// over the run's (blank-padded) input.
void CheckAgainstNaive(const Component &c, const GeneralComponentRun &run) {
  const RestrictedAttentionComponent &a = AsAttention(c);
  const naive_attention::Params p = naive_attention::FromComponent(a);
  std::map<Index, std::vector<float>> rows;
  const std::vector<float> in = run.input.ToHost();
  const int32_t in_dim = c.InputDim(), out_dim = c.OutputDim();
  for (size_t i = 0; i < run.input_indexes.size(); i++)
    if (run.input_indexes[i].t != kNoTime)
      rows[run.input_indexes[i]] = std::vector<float>(
          in.begin() + i * in_dim, in.begin() + (i + 1) * in_dim);
  const std::vector<float> out = run.output.ToHost();
  int32_t checked = 0;
  for (size_t o = 0; o < run.output_indexes.size(); o++) {
    const Index &index = run.output_indexes[o];
    if (index.t == kNoTime) continue;
    std::vector<const std::vector<float> *> window;
    for (int k = -p.num_left; k <= p.num_right; k++) {
      Index i = index;
      i.t += k * p.stride;
      auto it = rows.find(i);
      window.push_back(it == rows.end() ? nullptr : &it->second);
    }
    const std::vector<float> want = naive_attention::OutputRow(p, window);
    INFO("output row " << o << " (n=" << index.n << ", t=" << index.t << ")");
    simple_test::CheckNear(std::vector<float>(out.begin() + o * out_dim,
                                              out.begin() + (o + 1) * out_dim),
                           want, 1e-4f);
    checked++;
  }
  CHECK(checked > 0);
}

struct Case {
  const char *config;
  int32_t num_n, out_begin, out_end, out_step;
  int32_t in_begin, in_end;  // available input frames
};

}  // namespace

TEST_CASE("RestrictedAttentionComponent matches the naive implementation",
          "[attention]") {
  const Case cases[] = {
      {"type=RestrictedAttentionComponent key-dim=3 value-dim=4 "
       "num-left-inputs=2 num-right-inputs=1",
       2, 0, 5, 1, -2, 6},
      {"type=RestrictedAttentionComponent num-heads=2 key-dim=2 value-dim=3 "
       "num-left-inputs=1 num-right-inputs=2 time-stride=2 "
       "output-context=false",
       1, 0, 9, 1, -2, 13},
      // Outputs every 3 frames with stride 2: the grid step becomes 1 and
      // the unrequested grid points are blanks.
      {"type=RestrictedAttentionComponent key-dim=2 value-dim=2 "
       "num-left-inputs=2 num-right-inputs=0 time-stride=2 key-scale=0.5",
       3, 0, 10, 3, -4, 10},
      // Not all of the window is required: missing inputs are zero.
      {"type=RestrictedAttentionComponent key-dim=4 value-dim=2 "
       "num-left-inputs=3 num-right-inputs=2 num-left-inputs-required=1 "
       "num-right-inputs-required=0",
       2, 0, 6, 1, -1, 6},
      // A single output frame.
      {"type=RestrictedAttentionComponent num-heads=3 key-dim=2 value-dim=2 "
       "num-left-inputs=1 num-right-inputs=1 time-stride=3",
       2, 4, 5, 1, 0, 10},
  };
  uint64_t seed = 7100;
  for (const Case &k : cases) {
    INFO(k.config);
    auto c = ComponentFromConfig(k.config);
    GeneralComponentRun run;
    ComponentCheckOptions opts;
    opts.tolerance = 0.03f;
    CheckGeneralComponent(
        *c, FrameGrid(k.num_n, k.out_begin, k.out_end, k.out_step, false),
        FrameGrid(k.num_n, k.in_begin, k.in_end, 1, true), seed++, opts, &run);
    CheckAgainstNaive(*c, run);
  }
}

TEST_CASE("RestrictedAttentionComponent needs the required window only",
          "[attention]") {
  auto c = ComponentFromConfig(
      "type=RestrictedAttentionComponent key-dim=2 value-dim=2 "
      "num-left-inputs=3 num-right-inputs=1 time-stride=2 "
      "num-left-inputs-required=1 num-right-inputs-required=1");
  const MiscComputationInfo misc;
  std::vector<Index> desired;
  c->GetInputIndexes(misc, Index(0, 10, 0), &desired);
  REQUIRE(desired.size() == 5);
  CHECK(desired.front().t == 4);
  CHECK(desired.back().t == 12);
  struct Available : IndexSet {
    int32_t lo, hi;
    Available(int32_t l, int32_t h) : lo(l), hi(h) {}
    bool operator()(const Index &i) const override {
      return i.t >= lo && i.t <= hi;
    }
  };
  std::vector<Index> used;
  // Required: t = 8 .. 12.
  CHECK(c->IsComputable(misc, Index(0, 10, 0), Available(8, 12), &used));
  CHECK(used.size() == 3);
  CHECK(c->IsComputable(misc, Index(0, 10, 0), Available(0, 20), &used));
  CHECK(used.size() == 5);
  CHECK_FALSE(c->IsComputable(misc, Index(0, 10, 0), Available(9, 12), &used));
  CHECK(used.empty());
  CHECK_FALSE(
      c->IsComputable(misc, Index(0, 10, 0), Available(8, 11), nullptr));
  // Reordering pads the input to the whole requested window: t = 4 .. 12
  // for one output frame (grid step 2), the missing frames blank.
  std::vector<Index> in = {Index(0, 8, 0), Index(0, 10, 0), Index(0, 12, 0)},
                     out = {Index(0, 10, 0)};
  c->ReorderIndexes(&in, &out);
  REQUIRE(in.size() == 5);
  CHECK(in[0].t == kNoTime);
  CHECK(in[1].t == kNoTime);
  CHECK(in[2].t == 8);
  CHECK(in[4].t == 12);
  CHECK(out.size() == 1);
}

TEST_CASE("RestrictedAttentionComponent dims, properties, stats and Info",
          "[attention]") {
  auto c = ComponentFromConfig(
      "type=RestrictedAttentionComponent num-heads=2 key-dim=5 value-dim=7 "
      "num-left-inputs=4 num-right-inputs=1");
  // Per head: key 5 + value 7 + query (5 + context 6).
  CHECK(c->InputDim() == 2 * (5 + 7 + 5 + 6));
  CHECK(c->OutputDim() == 2 * (7 + 6));
  CHECK(c->Properties() ==
        (kReordersIndexes | kBackpropNeedsInput | kPropagateAdds |
         kBackpropAdds | kStoresStats | kUsesMemo));
  CHECK(AsAttention(*c).KeyScale() == Approx(1.0 / std::sqrt(5.0)));
  CHECK(c->Info() ==
        "RestrictedAttentionComponent, input-dim=46, output-dim=26, "
        "num-heads=2, time-stride=1, key-dim=5, value-dim=7, "
        "num-left-inputs=4, num-right-inputs=1, context-dim=6, "
        "num-left-inputs-required=4, num-right-inputs-required=1, "
        "output-context=true, key-scale=0.447214");
  // Stats: the weights' entropy per head lies in [0, log(6)] and the mean
  // weights per head sum to 1.
  GeneralComponentRun run;
  CheckGeneralComponent(*c, FrameGrid(1, 0, 4, 1, true),
                        FrameGrid(1, -4, 5, 1, true), 7200, {}, &run);
  std::unique_ptr<Component> s = c->Copy();
  void *memo = s->Propagate(run.indexes.get(), run.input, &run.output);
  s->StoreStats(run.input, run.output, memo);
  s->DeleteMemo(memo);
  const std::string info = s->Info();
  INFO(info);
  CHECK(info.find(", entropy=") != std::string::npos);
  CHECK(info.find(" stats-count=4") != std::string::npos);
  std::istringstream entropies(info.substr(info.find("entropy=") + 8));
  for (int h = 0; h < 2; h++) {
    double e;
    char comma;
    entropies >> e >> comma;
    CHECK(e >= 0.0);
    CHECK(e <= std::log(6.0) + 1e-6);
  }
  const size_t p = info.find("posterior-stats[1]=") + 19;
  std::istringstream posts(info.substr(p));
  double total = 0.0;
  for (int j = 0; j < 6; j++) {
    double x;
    char comma;
    posts >> x >> comma;
    total += x;
  }
  CHECK(total == Approx(1.0).epsilon(1e-4));
}

TEST_CASE(
    "RestrictedAttentionComponent stores stats on two minibatches in "
    "three, as Kaldi",
    "[attention]") {
  auto c = ComponentFromConfig(
      "type=RestrictedAttentionComponent num-heads=1 key-dim=2 value-dim=2 "
      "num-left-inputs=1 num-right-inputs=1");
  GeneralComponentRun run;
  CheckGeneralComponent(*c, FrameGrid(1, 0, 1, 1, true),
                        FrameGrid(1, -1, 2, 1, true), 7300, {}, &run);
  auto count_after = [&](uint64_t seed) {
    std::unique_ptr<Component> s = c->Copy();
    s->ResetGenerator(seed);
    const int32_t kMinibatches = 300;
    for (int32_t i = 0; i < kMinibatches; i++) {
      void *memo = s->Propagate(run.indexes.get(), run.input, &run.output);
      s->StoreStats(run.input, run.output, memo);
      s->DeleteMemo(memo);
    }
    const std::string info = s->Info();
    const size_t p = info.find(" stats-count=");
    REQUIRE(p != std::string::npos);
    return std::stod(info.substr(p + 13));
  };
  // One output row per minibatch: Kaldi's RandInt(0, 2) == 0 skips a third.
  const double count = count_after(3);
  CHECK(count >= 170);
  CHECK(count <= 230);
  CHECK(count_after(3) == count);
  CHECK(count_after(4) != count);
}

TEST_CASE("RestrictedAttentionComponent golden file", "[attention]") {
  auto c = nonlinear_test::CheckGolden("RestrictedAttentionComponent");
  CHECK(c->InputDim() == 2 * (3 + 2 + 3 + 4));
  CHECK(c->OutputDim() == 2 * 2);
  CHECK(c->Info().find("stats-count=10") != std::string::npos);
  CHECK(c->Info().find("entropy=0.15,0.2,") != std::string::npos);
  CHECK(c->Info().find("posterior-stats[1]=0.4,0.5,0.6,0.7,") !=
        std::string::npos);
}

TEST_CASE("RestrictedAttentionComponent config errors", "[attention]") {
  using simple_test::CheckConfigError;
  const std::string base = "type=RestrictedAttentionComponent ";
  CheckConfigError(base + "value-dim=3 num-left-inputs=1 num-right-inputs=1",
                   "'key-dim' is missing");
  CheckConfigError(
      base + "key-dim=0 value-dim=3 num-left-inputs=1 num-right-inputs=1",
      "key-dim=0");
  CheckConfigError(
      base + "key-dim=2 value-dim=-1 num-left-inputs=1 num-right-inputs=1",
      "value-dim=-1");
  CheckConfigError(
      base + "key-dim=2 value-dim=3 num-left-inputs=0 num-right-inputs=0",
      "num-left-inputs + num-right-inputs must be > 0");
  CheckConfigError(base +
                       "key-dim=2 value-dim=3 num-left-inputs=1 "
                       "num-right-inputs=1 num-left-inputs-required=2",
                   "num-left-inputs-required=2");
  CheckConfigError(base +
                       "key-dim=2 value-dim=3 num-left-inputs=1 "
                       "num-right-inputs=1 time-stride=0",
                   "time-stride=0");
  CheckConfigError(base +
                       "key-dim=2 value-dim=3 num-left-inputs=1 "
                       "num-right-inputs=1 num-heads=0",
                   "num-heads=0");
  CheckConfigError(base +
                       "key-dim=2 value-dim=3 num-left-inputs=1 "
                       "num-right-inputs=1 key-scale=2",
                   "key-scale=2");
}
