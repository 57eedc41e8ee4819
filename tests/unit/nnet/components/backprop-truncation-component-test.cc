// BackpropTruncationComponent: forward scale (in place too), the zeroing
// rows its precomputed indexes mark, clipping and zeroing of derivative
// rows with hand-computed norms, the stats, golden files (component and
// precomputed indexes) and config errors.
#include "nnet/components/backprop-truncation-component.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <vector>

#include "../component-test-utils.h"
#include "base/error.h"
#include "base/io-funcs.h"
#include "nonlinear-test-utils.h"

using namespace nnet3;
using namespace nnet3::nonlinear_test;
using Catch::Matchers::Contains;

namespace {

std::unique_ptr<BackpropTruncationComponentPrecomputedIndexes> Precompute(
    const Component &c, const std::vector<Index> &indexes) {
  auto p = c.PrecomputeIndexes(MiscComputationInfo(), indexes, indexes, true);
  auto *b = dynamic_cast<BackpropTruncationComponentPrecomputedIndexes *>(
      p.release());
  REQUIRE(b != nullptr);
  return std::unique_ptr<BackpropTruncationComponentPrecomputedIndexes>(b);
}

}  // namespace

TEST_CASE("BackpropTruncationComponent forward and I/O", "[truncation]") {
  auto c = ComponentFromConfig(
      "type=BackpropTruncationComponent dim=3 scale=0.5 "
      "recurrence-interval=3");
  CHECK(c->Properties() == (kPropagateInPlace | kBackpropInPlace));
  Matrix in = MatrixFromRows({{1, -2, 4}, {0.5f, 0, 8}});
  Matrix out(2, 3);
  c->Propagate(nullptr, in, &out);
  CHECK(out.ToHost() == std::vector<float>({0.5f, -1, 2, 0.25f, 0, 4}));
  c->Propagate(nullptr, in, &in);  // in place
  CHECK(in.ToHost() == out.ToHost());
  CheckComponentIo(*c);
}

TEST_CASE("BackpropTruncationComponent precomputed zeroing rows",
          "[truncation]") {
  auto c = ComponentFromConfig(
      "type=BackpropTruncationComponent dim=2 zeroing-interval=20 "
      "recurrence-interval=3");
  std::vector<Index> indexes;
  for (int32_t n = 0; n < 2; n++)
    for (int32_t t = -2; t < 45; t++) indexes.emplace_back(n, t, 0);
  auto p = Precompute(*c, indexes);
  std::vector<float> z = p->zeroing.ToHost();
  REQUIRE(z.size() == indexes.size());
  int32_t count = 0;
  for (size_t i = 0; i < indexes.size(); i++) {
    // [t - 3, t] (shifted by n) contains a multiple of 20 other than t - 3.
    int32_t u = indexes[i].t - indexes[i].n;
    bool boundary = false;
    for (int32_t k = u - 2; k <= u; k++)
      if (((k % 20) + 20) % 20 == 0) boundary = true;
    INFO("n=" << indexes[i].n << " t=" << indexes[i].t);
    CHECK(z[i] == (boundary ? -1.0f : 0.0f));
    count += boundary;
  }
  CHECK(p->zeroing_sum == count);
  CHECK(count == 18);  // t - n in {0..2, 20..22, 40..42} for each n
  // The precomputed indexes round trip, through ReadNew, as in caches.
  for (bool binary : {false, true}) {
    std::ostringstream os;
    p->Write(os, binary);
    std::istringstream is(os.str());
    auto q = ComponentPrecomputedIndexes::ReadNew(is, binary);
    std::ostringstream os2;
    q->Write(os2, binary);
    CHECK(os2.str() == os.str());
    CHECK(q->Type() == "BackpropTruncationComponentPrecomputedIndexes");
  }
  // Golden text form.
  std::vector<Index> three = {Index(0, 19, 0), Index(0, 20, 0),
                              Index(1, 21, 0)};
  std::ostringstream os;
  Precompute(*c, three)->Write(os, false);
  CHECK(os.str() ==
        "<BackpropTruncationComponentPrecomputedIndexes> <Zeroing>  [ 0 -1 "
        "-1 ]\n<ZeroingSum> 2 </BackpropTruncationComponentPrecomputedIndexes"
        "> ");
}

TEST_CASE("BackpropTruncationComponent clips and zeroes derivatives",
          "[truncation]") {
  auto c = ComponentFromConfig(
      "type=BackpropTruncationComponent dim=2 clipping-threshold=5 "
      "zeroing-threshold=2 zeroing-interval=4 recurrence-interval=1");
  // Rows at t = 3, 4, 4, 5 (n = 0): t = 4 is a zeroing boundary.
  std::vector<Index> indexes = {Index(0, 3, 0), Index(0, 4, 0), Index(1, 5, 0),
                                Index(0, 5, 0)};
  // n = 1 shifts the boundary: (1, 5) is one too.
  auto p = Precompute(*c, indexes);
  CHECK(p->zeroing.ToHost() == std::vector<float>({0, -1, -1, 0}));
  // Norms: 10 (clipped to 5), 1 (at a boundary, below 2: kept),
  // 3 (at a boundary, above 2: zeroed), 4 (kept).
  Matrix out_deriv = MatrixFromRows({{6, 8}, {0.6f, 0.8f}, {0, 3}, {4, 0}});
  Matrix in_deriv(4, 2);
  auto stats = c->Copy();
  c->Backprop("test", p.get(), Matrix(), Matrix(), out_deriv, nullptr,
              stats.get(), &in_deriv);
  CHECK(in_deriv.ToHost() ==
        std::vector<float>({3, 4, 0.6f, 0.8f, 0, 0, 4, 0}));
  auto *b = dynamic_cast<BackpropTruncationComponent *>(stats.get());
  CHECK(b->Count() == 4);
  CHECK(b->NumClipped() == 1);
  CHECK(b->NumZeroed() == 1);
  CHECK(b->CountZeroingBoundaries() == 2);
  CHECK_THAT(stats->Info(),
             Contains("clipped-proportion=0.25, zeroing-threshold=2, "
                      "zeroing-interval=4, zeroed-proportion=0.5, "
                      "count-zeroing-boundaries=2"));
  // In place (kBackpropInPlace) gives the same.
  Matrix m(out_deriv);
  c->Backprop("test", p.get(), Matrix(), Matrix(), m, nullptr, nullptr, &m);
  CHECK(m.ToHost() == in_deriv.ToHost());
  // Scale / Add / ZeroStats act on the counts.
  stats->Add(1.0f, *stats->Copy());
  CHECK(b->Count() == 8);
  stats->Scale(0.5f);
  CHECK(b->NumZeroed() == 1);
  stats->ZeroStats();
  CHECK(b->Count() == 0);
}

TEST_CASE("BackpropTruncationComponent golden file and config errors",
          "[truncation]") {
  auto c = CheckGolden("BackpropTruncationComponent");
  CHECK_THAT(c->Info(), Contains("BackpropTruncationComponent, dim=4, "
                                 "scale=1, count=40, recurrence-interval=3"));
  // Kaldi models written before <Scale> existed.
  std::string old =
      "<BackpropTruncationComponent> <Dim> 4 <ClippingThreshold> 30 "
      "<ZeroingThreshold> 15 <ZeroingInterval> 20 <RecurrenceInterval> 3 "
      "<NumElementsClipped> 0 <NumElementsZeroed> 0 <NumElementsProcessed> 0 "
      "<NumZeroingBoundaries> 0 </BackpropTruncationComponent> ";
  CHECK_THAT(ReadComponent(old, false)->Info(), Contains("scale=1,"));
  for (const char *bad :
       {"type=BackpropTruncationComponent",
        "type=BackpropTruncationComponent dim=4 zeroing-interval=0",
        "type=BackpropTruncationComponent dim=4 scale=0",
        "type=BackpropTruncationComponent dim=4 clipping-threshold=-1"}) {
    INFO(bad);
    ConfigLine cfl;
    REQUIRE(cfl.ParseLine(bad));
    auto e = Component::NewComponentOfType("BackpropTruncationComponent");
    CHECK_THROWS_AS(e->InitFromConfig(&cfl), UserError);
  }
}
