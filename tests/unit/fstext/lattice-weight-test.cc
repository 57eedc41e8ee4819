// LatticeWeight and CompactLatticeWeight: the semiring laws on random
// weights (costs are multiples of 1/4, so sums are exact and ties happen),
// Compare and Kaldi's tie-breaking, Divide, Member, Quantize, the type
// names, text and binary forms, and OpenFst's algorithms over lattices.
#include "fstext/lattice-weight.h"

#include <fst/fstlib.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "lat/kaldi-lattice.h"

namespace nnet3 {
namespace {

using LW = LatticeWeight;
using CLW = CompactLatticeWeight;

const float kInf = std::numeric_limits<float>::infinity();

// A random member: Zero one time in ten, else small multiples of 1/4 (some
// negative) so that totals tie often and sums are exact.
LW RandomWeight(std::mt19937 *rng) {
  std::uniform_int_distribution<int> cost(-4, 12), pick(0, 9);
  if (pick(*rng) == 0) return LW::Zero();
  return LW(cost(*rng) * 0.25f, cost(*rng) * 0.25f);
}

// Few distinct weights and strings over {1, 2}, so that equal weights with
// different strings (where the order on strings decides) are common.
CLW RandomCompactWeight(std::mt19937 *rng) {
  std::uniform_int_distribution<int> cost(0, 2), pick(0, 9);
  if (pick(*rng) == 0) return CLW::Zero();
  const LW w(cost(*rng), cost(*rng));
  std::uniform_int_distribution<int> len(0, 3), tid(1, 2);
  std::vector<int32_t> s(len(*rng));
  for (int32_t &t : s) t = tid(*rng);
  return CLW(w, s);
}

template <class W>
std::string Text(const W &w) {
  std::ostringstream os;
  os << w;
  return os.str();
}

template <class W>
bool ParseText(const std::string &text, W *w) {
  std::istringstream is(text);
  is >> *w;
  return !is.fail();
}

TEST_CASE("LatticeWeight semiring laws", "[fstext]") {
  INFO("seed 2901");
  std::mt19937 rng(2901);
  for (int i = 0; i < 2000; ++i) {
    const LW a = RandomWeight(&rng), b = RandomWeight(&rng),
             c = RandomWeight(&rng);
    INFO(Text(a) << " " << Text(b) << " " << Text(c));
    REQUIRE(Plus(a, Plus(b, c)) == Plus(Plus(a, b), c));
    REQUIRE(Plus(a, b) == Plus(b, a));
    REQUIRE(Plus(a, a) == a);
    REQUIRE(Times(a, Times(b, c)) == Times(Times(a, b), c));
    REQUIRE(Times(a, b) == Times(b, a));
    REQUIRE(Times(a, Plus(b, c)) == Plus(Times(a, b), Times(a, c)));
    REQUIRE(Times(Plus(b, c), a) == Plus(Times(b, a), Times(c, a)));
    REQUIRE(Plus(a, LW::Zero()) == a);
    REQUIRE(Plus(LW::Zero(), a) == a);
    REQUIRE(Times(a, LW::One()) == a);
    REQUIRE(Times(LW::One(), a) == a);
    REQUIRE(Times(a, LW::Zero()) == LW::Zero());
    REQUIRE(Times(LW::Zero(), a) == LW::Zero());
    REQUIRE(a.Member());
    REQUIRE(Compare(a, b) == -Compare(b, a));
    REQUIRE((Compare(a, b) == 0) == (a == b));
    REQUIRE(fst::NaturalLess<LW>()(a, b) == (Compare(a, b) == 1));
    if (a != LW::Zero() && b != LW::Zero())
      REQUIRE(Times(Divide(a, b), b) == a);
  }
}

TEST_CASE("LatticeWeight Compare and Plus follow Kaldi", "[fstext]") {
  // The smaller total cost wins; on equal totals the smaller graph cost.
  CHECK(Compare(LW(1, 2), LW(2, 2)) == 1);
  CHECK(Compare(LW(3, 0), LW(1, 1)) == -1);
  CHECK(Compare(LW(1, 2), LW(2, 1)) == 1);
  CHECK(Compare(LW(2, 1), LW(1, 2)) == -1);
  CHECK(Plus(LW(2, 1), LW(1, 2)) == LW(1, 2));
  CHECK(Plus(LW(0, 5), LW(4, 0)) == LW(4, 0));
  CHECK(Compare(LW::Zero(), LW(1e30f, 1e30f)) == -1);
  CHECK(Compare(fst::TropicalWeight(1), fst::TropicalWeight(2)) == 1);
  CHECK(ConvertToCost(LW(1.5, 2)) == 3.5);
}

TEST_CASE("LatticeWeight Member, Quantize, Divide", "[fstext]") {
  CHECK(LW::Zero().Member());
  CHECK(LW(0, -3).Member());
  CHECK_FALSE(LW(kInf, 0).Member());
  CHECK_FALSE(LW(0, -kInf).Member());
  CHECK_FALSE(LW::NoWeight().Member());
  CHECK(LW(0.3f, 1.7f).Quantize(0.5f) == LW(0.5f, 1.5f));
  CHECK(LW::Zero().Quantize() == LW::Zero());
  CHECK(Divide(LW(3, 4), LW(1, 1)) == LW(2, 3));
  CHECK(Divide(LW::Zero(), LW(1, 1)) == LW::Zero());
  CHECK(Divide(LW(1, 1), LW::Zero()) == LW::Zero());  // warns
  CHECK(ApproxEqual(LW(1, 2), LW(2, 1.0005f)));
  CHECK_FALSE(ApproxEqual(LW(1, 2), LW(2, 1.01f)));
}

TEST_CASE("Lattice weight type names", "[fstext]") {
  CHECK(LW::Type() == "lattice4");
  CHECK(LatticeWeightTpl<double>::Type() == "lattice8");
  CHECK(CLW::Type() == "compactlattice44");
  CHECK(LatticeArc::Type() == "lattice4");
  CHECK(CompactLatticeArc::Type() == "compactlattice44");
  CHECK((LW::Properties() & fst::kCommutative) != 0);
  CHECK((CLW::Properties() & fst::kCommutative) == 0);
  CHECK((CLW::Properties() & fst::kPath) != 0);
}

TEST_CASE("LatticeWeight text form", "[fstext]") {
  CHECK(Text(LW(1.5, 2)) == "1.5,2");
  CHECK(Text(LW(-0.25, 1e-7f)) == "-0.25,1e-07");
  CHECK(Text(LW::Zero()) == "Infinity,Infinity");
  CHECK(Text(LW(0, -kInf)) == "0,-Infinity");
  CHECK(Text(LW::NoWeight()) == "BadNumber,BadNumber");
  LW w;
  REQUIRE(ParseText("  1.5,2", &w));
  CHECK(w == LW(1.5, 2));
  REQUIRE(ParseText("Infinity,Infinity", &w));
  CHECK(w == LW::Zero());
  REQUIRE(ParseText("-Infinity,3", &w));
  CHECK(w == LW(-kInf, 3));
  REQUIRE(ParseText("BadNumber,0", &w));
  CHECK(w.Value1() != w.Value1());
  REQUIRE(ParseText("1e3,-2.5", &w));
  CHECK(w == LW(1000, -2.5));
  CHECK_FALSE(ParseText("1.5", &w));
  CHECK_FALSE(ParseText("1.5;2", &w));
  CHECK_FALSE(ParseText("x,2", &w));
  CHECK_FALSE(ParseText("1,2x", &w));
  CHECK_FALSE(ParseText("1,", &w));
  // Kaldi reads an empty first cost as 0.
  REQUIRE(ParseText(",2", &w));
  CHECK(w == LW(0, 2));

  INFO("seed 2902");
  std::mt19937 rng(2902);
  std::uniform_real_distribution<float> cost(-100, 100);
  for (int i = 0; i < 200; ++i) {
    const LW a(cost(rng), cost(rng));
    std::ostringstream os;
    os.precision(9);  // enough digits for a float to come back exactly
    os << a;
    LW b;
    REQUIRE(ParseText(os.str(), &b));
    REQUIRE(b == a);
  }
}

TEST_CASE("LatticeWeight binary form", "[fstext]") {
  const LW a(1.5, -2);
  std::ostringstream os;
  a.Write(os);
  const std::string bytes = os.str();
  REQUIRE(bytes.size() == 8);
  float v[2];
  std::memcpy(v, bytes.data(), 8);
  CHECK(v[0] == 1.5f);
  CHECK(v[1] == -2.0f);
  std::istringstream is(bytes);
  LW b;
  b.Read(is);
  CHECK(b == a);
  std::ostringstream os8;
  LatticeWeightTpl<double>(1, 2).Write(os8);
  CHECK(os8.str().size() == 16);
}

TEST_CASE("CompactLatticeWeight semiring laws", "[fstext]") {
  INFO("seed 2903");
  std::mt19937 rng(2903);
  for (int i = 0; i < 2000; ++i) {
    const CLW a = RandomCompactWeight(&rng), b = RandomCompactWeight(&rng),
              c = RandomCompactWeight(&rng);
    INFO(Text(a) << " " << Text(b) << " " << Text(c));
    REQUIRE(Plus(a, Plus(b, c)) == Plus(Plus(a, b), c));
    REQUIRE(Plus(a, b) == Plus(b, a));
    REQUIRE(Plus(a, a) == a);
    REQUIRE(Times(a, Times(b, c)) == Times(Times(a, b), c));
    REQUIRE(Times(a, Plus(b, c)) == Plus(Times(a, b), Times(a, c)));
    REQUIRE(Times(Plus(b, c), a) == Plus(Times(b, a), Times(c, a)));
    REQUIRE(Plus(a, CLW::Zero()) == a);
    REQUIRE(Times(a, CLW::One()) == a);
    REQUIRE(Times(CLW::One(), a) == a);
    REQUIRE(Times(a, CLW::Zero()) == CLW::Zero());
    REQUIRE(Times(CLW::Zero(), a) == CLW::Zero());
    REQUIRE(a.Member());
    REQUIRE(Compare(a, b) == -Compare(b, a));
    REQUIRE((Compare(a, b) == 0) == (a == b));
    REQUIRE(fst::NaturalLess<CLW>()(a, b) == (Compare(a, b) == 1));
    REQUIRE(a.Reverse().Reverse() == a);
    if (a != CLW::Zero() && b != CLW::Zero()) {
      const CLW ab = Times(a, b);
      REQUIRE(Divide(ab, a, fst::DIVIDE_LEFT) == b);
      REQUIRE(Divide(ab, b, fst::DIVIDE_RIGHT) == a);
    }
  }
}

TEST_CASE("CompactLatticeWeight order, Times, Divide", "[fstext]") {
  const LW w(1, 1);
  // Better weight first; on equal weights the shorter string; then the
  // lexicographically larger.
  CHECK(Plus(CLW(LW(1, 2), {1}), CLW(LW(2, 2), {})) == CLW(LW(1, 2), {1}));
  CHECK(Plus(CLW(w, {5, 5}), CLW(w, {7})) == CLW(w, {7}));
  CHECK(Plus(CLW(w, {1, 2}), CLW(w, {1, 3})) == CLW(w, {1, 3}));
  CHECK(Compare(CLW(w, {1, 2}), CLW(w, {1, 3})) == -1);
  CHECK(Times(CLW(w, {1, 2}), CLW(w, {3})) == CLW(LW(2, 2), {1, 2, 3}));
  CHECK(Times(CLW(w, {1}), CLW(LW::Zero(), {})) == CLW::Zero());
  CHECK_FALSE(CLW(LW::Zero(), {1}).Member());
  CHECK(CLW(w, {1, 2, 3}).Reverse() == CLW(w, {3, 2, 1}));
  CHECK(Divide(CLW(LW(3, 3), {1, 2, 3}), CLW(w, {1}), fst::DIVIDE_LEFT) ==
        CLW(LW(2, 2), {2, 3}));
  CHECK(Divide(CLW(LW(3, 3), {1, 2, 3}), CLW(w, {3}), fst::DIVIDE_RIGHT) ==
        CLW(LW(2, 2), {1, 2}));
  CHECK(Divide(CLW::Zero(), CLW(w, {1}), fst::DIVIDE_LEFT) == CLW::Zero());
  CHECK_THROWS_AS(Divide(CLW(w, {1, 2}), CLW(w, {2}), fst::DIVIDE_LEFT),
                  InternalError);
  CHECK_THROWS_AS(Divide(CLW(w, {1, 2}), CLW(w, {1}), fst::DIVIDE_RIGHT),
                  InternalError);
  CHECK_THROWS_AS(Divide(CLW(w, {}), CLW(w, {1}), fst::DIVIDE_LEFT),
                  InternalError);
  CHECK_THROWS_AS(Divide(CLW(w, {1}), CLW::Zero(), fst::DIVIDE_LEFT),
                  InternalError);
  CHECK_THROWS_AS(Divide(CLW(w, {1}), CLW(w, {}), fst::DIVIDE_ANY),
                  InternalError);
  CHECK(CompactLatticeWeightCommonDivisor()(CLW(LW(1, 2), {4, 5, 6}),
                                            CLW(LW(0, 4), {4, 5, 7})) ==
        CLW(LW(1, 2), {4, 5}));
  CHECK(ScaleTupleWeight(CLW(LW(1, 2), {3}),
                         std::vector<std::vector<float>>{{1, 0}, {0, 0.5}}) ==
        CLW(LW(1, 1), {3}));
  CHECK(ScaleTupleWeight(LW::Zero(), std::vector<std::vector<float>>{
                                         {0, 0}, {0, 0}}) == LW::Zero());
}

TEST_CASE("CompactLatticeWeight text and binary forms", "[fstext]") {
  CHECK(Text(CLW(LW(1.5, 2), {3, 4, 5})) == "1.5,2,3_4_5");
  CHECK(Text(CLW(LW(0, 0), {})) == "0,0,");
  CHECK(Text(CLW::Zero()) == "Infinity,Infinity,");
  CLW w;
  REQUIRE(ParseText("1.5,2,3_4_5", &w));
  CHECK(w == CLW(LW(1.5, 2), {3, 4, 5}));
  REQUIRE(ParseText(" 0,-1,", &w));
  CHECK(w == CLW(LW(0, -1), {}));
  REQUIRE(ParseText("0,0,7", &w));
  CHECK(w == CLW(LW(0, 0), {7}));
  CHECK_FALSE(ParseText("1.5,2", &w));  // the string part is "2": no weight
  CHECK_FALSE(ParseText("1,2,3__4", &w));
  CHECK_FALSE(ParseText("1,2,3_", &w));
  CHECK_FALSE(ParseText("1,2,3x", &w));
  CHECK_FALSE(ParseText("1,2,99999999999", &w));
  CHECK_FALSE(ParseText("12", &w));

  const CLW a(LW(1.5, -2), {7, 8});
  std::ostringstream os;
  a.Write(os);
  REQUIRE(os.str().size() == 8 + 4 + 8);
  std::istringstream is(os.str());
  CLW b;
  b.Read(is);
  CHECK(b == a);
  std::string truncated = os.str().substr(0, 15);
  std::istringstream is2(truncated);
  b.Read(is2);
  CHECK(is2.fail());
  std::string negative = os.str();
  negative[11] = '\x80';  // the length becomes negative
  std::istringstream is3(negative);
  b.Read(is3);
  CHECK(is3.fail());
}

// 0 -a-> 1 -b-> 3 and 0 -c-> 2 -d-> 3, with an epsilon arc 1 -> 2.
Lattice SmallLattice() {
  Lattice lat;
  for (int i = 0; i < 4; ++i) lat.AddState();
  lat.SetStart(0);
  lat.AddArc(0, LatticeArc(1, 10, LW(1, 2), 1));
  lat.AddArc(1, LatticeArc(2, 11, LW(0.5, 1), 3));
  lat.AddArc(0, LatticeArc(3, 12, LW(2, 0.5), 2));
  lat.AddArc(2, LatticeArc(4, 13, LW(0, 0.5), 3));
  lat.AddArc(1, LatticeArc(0, 0, LW(0.25, 0), 2));
  lat.SetFinal(3, LW(0.5, 0));
  return lat;
}

TEST_CASE("OpenFst algorithms run over Lattice", "[fstext]") {
  Lattice lat = SmallLattice();
  Lattice best;
  fst::ShortestPath(lat, &best);
  // Paths: a b = (2, 3) total 5; c d = (2.5, 1) total 3.5; a eps d =
  // (1.75, 2.5) total 4.25. Final (0.5, 0) on all.
  std::vector<LW> distance;
  fst::ShortestDistance(best, &distance, true);
  CHECK(distance[best.Start()] == LW(2.5, 1));
  REQUIRE(best.NumStates() == 3);

  Lattice sorted = lat;
  REQUIRE(fst::TopSort(&sorted));
  fst::ArcSort(&sorted, fst::OLabelCompare<LatticeArc>());
  fst::Connect(&sorted);
  CHECK(sorted.NumStates() == 4);
  Lattice no_eps = lat;
  fst::RmEpsilon(&no_eps);
  fst::ShortestDistance(no_eps, &distance, true);
  CHECK(distance[no_eps.Start()] == LW(2.5, 1));
  Lattice inverted = lat;
  fst::Invert(&inverted);
  fst::Project(&inverted, fst::ProjectType::OUTPUT);
  CHECK(inverted.Properties(fst::kAcceptor, true) == fst::kAcceptor);
  Lattice by_ilabel = lat, composed;
  fst::ArcSort(&by_ilabel, fst::ILabelCompare<LatticeArc>());
  fst::Compose(inverted, by_ilabel, &composed);
  fst::ShortestDistance(composed, &distance, true);
  CHECK(distance[composed.Start()] == LW(5, 2));  // the best path, twice

  std::ostringstream os;
  REQUIRE(lat.Write(os, fst::FstWriteOptions()));
  std::istringstream is(os.str());
  std::unique_ptr<Lattice> back(Lattice::Read(is, fst::FstReadOptions()));
  REQUIRE(back != nullptr);
  CHECK(fst::Equal(*back, lat));
}

TEST_CASE("OpenFst algorithms run over CompactLattice", "[fstext]") {
  CompactLattice clat;
  for (int i = 0; i < 3; ++i) clat.AddState();
  clat.SetStart(0);
  clat.AddArc(0, CompactLatticeArc(5, 5, CLW(LW(1, 1), {1, 2}), 1));
  clat.AddArc(0, CompactLatticeArc(6, 6, CLW(LW(1, 2), {3}), 1));
  clat.AddArc(1, CompactLatticeArc(7, 7, CLW(LW(0, 1), {4}), 2));
  clat.SetFinal(2, CLW(LW(0.5, 0), {}));
  CompactLattice best;
  fst::ShortestPath(clat, &best);
  std::vector<CLW> distance;
  fst::ShortestDistance(best, &distance, true);
  CHECK(distance[best.Start()] == CLW(LW(1.5, 2), {1, 2, 4}));
  REQUIRE(fst::TopSort(&clat));
  std::ostringstream os;
  REQUIRE(clat.Write(os, fst::FstWriteOptions()));
  std::istringstream is(os.str());
  std::unique_ptr<CompactLattice> back(
      CompactLattice::Read(is, fst::FstReadOptions()));
  REQUIRE(back != nullptr);
  CHECK(fst::Equal(*back, clat));
}

}  // namespace
}  // namespace nnet3
