// Forward-backward over lattices (lat/lattice-forward-backward.h) against
// enumerating every path of small random lattices whose paths all have the
// same length (as a decoder's do): per-frame posteriors, their sums, the
// total and the expected acoustic log-likelihood; the CompactLattice alphas
// and betas; LogAdd and MergePairVectorSumming.
#include "lat/lattice-forward-backward.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <vector>

#include "base/error.h"
#include "fstext/lattice-convert.h"
#include "random-frame-lattice.h"

namespace nnet3 {
namespace {

struct PathSums {
  double total = -INFINITY;  // log of the sum of exp(-cost) over paths
  std::vector<std::map<int32_t, double>> tid_likes;  // [t][tid] log-sum
  double ac_weighted = 0;  // sum over paths of exp(-cost) * acoustic cost
};

void Enumerate(const Lattice &lat, int s, double cost, double ac,
               std::vector<int32_t> *tids, PathSums *sums) {
  const LatticeWeight f = lat.Final(s);
  if (f != LatticeWeight::Zero()) {
    const double c = cost + f.Value1() + f.Value2(), a = ac + f.Value2();
    sums->total = LogAdd(sums->total, -c);
    sums->ac_weighted += std::exp(-c) * a;
    if (sums->tid_likes.size() < tids->size())
      sums->tid_likes.resize(tids->size());
    for (size_t i = 0; i < tids->size(); ++i) {
      double &l =
          sums->tid_likes[i].emplace((*tids)[i], -INFINITY).first->second;
      l = LogAdd(l, -c);
    }
  }
  for (fst::ArcIterator<Lattice> aiter(lat, s); !aiter.Done(); aiter.Next()) {
    const LatticeArc &arc = aiter.Value();
    if (arc.ilabel != 0) tids->push_back(arc.ilabel);
    Enumerate(lat, arc.nextstate,
              cost + arc.weight.Value1() + arc.weight.Value2(),
              ac + arc.weight.Value2(), tids, sums);
    if (arc.ilabel != 0) tids->pop_back();
  }
}

TEST_CASE("LatticeForwardBackward gives each path's share of each frame") {
  const unsigned seed = 3131;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  for (int i = 0; i < 50; ++i) {
    INFO("lattice " << i);
    Lattice lat = RandomFrameLattice(1 + i % 6, 3, &rng);
    PathSums sums;
    std::vector<int32_t> tids;
    Enumerate(lat, 0, 0, 0, &tids, &sums);
    Posterior post;
    double ac_like = 0;
    const float like = LatticeForwardBackward(lat, &post, &ac_like);
    CHECK(like == Approx(sums.total).epsilon(1e-6));
    CHECK(ac_like ==
          Approx(-sums.ac_weighted / std::exp(sums.total)).epsilon(1e-5));
    REQUIRE(post.size() == sums.tid_likes.size());
    for (size_t t = 0; t < post.size(); ++t) {
      INFO("frame " << t);
      double sum = 0;
      REQUIRE(post[t].size() == sums.tid_likes[t].size());
      for (size_t k = 0; k < post[t].size(); ++k) {
        if (k > 0) CHECK(post[t][k - 1].first < post[t][k].first);  // sorted
        const double want =
            std::exp(sums.tid_likes[t][post[t][k].first] - sums.total);
        CHECK(post[t][k].second == Approx(want).margin(1e-6));
        sum += post[t][k].second;
      }
      CHECK(sum == Approx(1.0).margin(1e-5));
    }
  }
}

TEST_CASE("CompactLattice alphas and betas are the forward/backward sums") {
  std::mt19937 rng(7);
  for (int i = 0; i < 20; ++i) {
    Lattice lat = RandomFrameLattice(4, 3, &rng);
    PathSums sums;
    std::vector<int32_t> tids;
    Enumerate(lat, 0, 0, 0, &tids, &sums);
    CompactLattice clat;
    ConvertLattice(lat, &clat);
    std::vector<double> alpha, beta;
    REQUIRE(ComputeCompactLatticeAlphas(clat, &alpha));
    REQUIRE(ComputeCompactLatticeBetas(clat, &beta));
    CHECK(alpha[0] == 0.0);
    CHECK(beta[0] == Approx(sums.total).epsilon(1e-9));
    double through_finals = -INFINITY;
    for (int s = 0; s < clat.NumStates(); ++s) {
      const LatticeWeight f = clat.Final(s).Weight();
      if (f != LatticeWeight::Zero())
        through_finals =
            LogAdd(through_finals, alpha[s] - f.Value1() - f.Value2());
      CHECK(alpha[s] + beta[s] <= beta[0] + 1e-9);  // paths through s
    }
    CHECK(through_finals == Approx(sums.total).epsilon(1e-9));
  }
  CompactLattice unsorted;
  unsorted.AddState();
  unsorted.SetStart(unsorted.AddState());
  unsorted.AddArc(1, CompactLatticeArc(1, 1, CompactLatticeWeight::One(), 0));
  std::vector<double> alpha;
  CHECK_FALSE(ComputeCompactLatticeAlphas(unsorted, &alpha));
  CHECK_FALSE(ComputeCompactLatticeBetas(unsorted, &alpha));
}

TEST_CASE("LatticeForwardBackward: unsorted, inconsistent and empty input") {
  Lattice lat;
  lat.AddState();
  lat.SetStart(lat.AddState());
  lat.AddArc(1, LatticeArc(1, 0, LatticeWeight::One(), 0));
  lat.SetFinal(0, LatticeWeight::One());
  Posterior post;
  CHECK_THROWS_AS(LatticeForwardBackward(lat, &post), UserError);
  Lattice uneven;  // final states at frames 1 and 2
  for (int i = 0; i < 3; ++i) uneven.AddState();
  uneven.SetStart(0);
  uneven.AddArc(0, LatticeArc(1, 0, LatticeWeight::One(), 1));
  uneven.AddArc(1, LatticeArc(2, 0, LatticeWeight::One(), 2));
  uneven.SetFinal(1, LatticeWeight::One());
  uneven.SetFinal(2, LatticeWeight::One());
  CHECK_THROWS_WITH(LatticeForwardBackward(uneven, &post),
                    Catch::Contains("inconsistent"));
  post.resize(3);
  CHECK(std::isinf(LatticeForwardBackward(Lattice(), &post)));
  CHECK(post.empty());
}

TEST_CASE("LogAdd and MergePairVectorSumming are Kaldi's") {
  CHECK(LogAdd(0.0, 0.0) == Approx(std::log(2.0)));
  CHECK(LogAdd(kLogZeroDouble, -3.0) == -3.0);
  CHECK(LogAdd(-1.0, kLogZeroDouble) == -1.0);
  CHECK(LogAdd(0.0, -40.0) == 0.0);  // below DBL_EPSILON: dropped
  CHECK(LogAdd(0.0, -30.0) > 0.0);
  std::vector<std::pair<int32_t, float>> v = {
      {5, 0.25f}, {2, 0.5f}, {5, 0.25f}, {7, 0.5f}, {7, -0.5f}, {1, 0.0f}};
  MergePairVectorSumming(&v);
  CHECK(v == std::vector<std::pair<int32_t, float>>{{2, 0.5f}, {5, 0.5f}});
}

}  // namespace
}  // namespace nnet3
