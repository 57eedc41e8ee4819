// LatticeFasterDecoder against exhaustive search, on small random graphs
// (words, self-loops, epsilon arcs, final weights) and random acoustic
// scores: the best path has the best cost over all paths of the graph, and
// with a wide beam the raw lattice holds exactly the graph's paths that are
// within the lattice beam of the best (as a multiset of (transition-ids,
// words, cost)). Also the partial case (no final state reached), the
// max-active cutoff, and the lattice's topological state order.
#include "decoder/lattice-faster-decoder.h"

#include <fst/equal.h>
#include <fst/vector-fst.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
using StdFst = fst::VectorFst<fst::StdArc>;

// Scores from a table: frames x (num_tids + 1), column 0 unused.
class TableDecodable : public DecodableInterface {
 public:
  TableDecodable(int32_t num_frames, int32_t num_tids, std::mt19937 *rng)
      : num_frames_(num_frames), num_tids_(num_tids) {
    std::uniform_real_distribution<float> score(-4.0f, 0.0f);
    table_.resize(static_cast<size_t>(num_frames) * (num_tids + 1));
    for (float &x : table_) x = score(*rng);
  }
  float LogLikelihood(int32_t frame, int32_t tid) override {
    REQUIRE(frame >= 0);
    REQUIRE(frame < num_frames_);
    REQUIRE(tid >= 1);
    REQUIRE(tid <= num_tids_);
    return table_[static_cast<size_t>(frame) * (num_tids_ + 1) + tid];
  }
  bool IsLastFrame(int32_t frame) const override {
    return frame == num_frames_ - 1;
  }
  int32_t NumFramesReady() const override { return num_frames_; }
  int32_t NumIndices() const override { return num_tids_; }

 private:
  int32_t num_frames_, num_tids_;
  std::vector<float> table_;
};

// A random graph: emitting arcs anywhere (self-loops included), epsilon
// arcs only to higher states (no epsilon cycles), words on some arcs,
// final weights on some states (none if !with_final).
StdFst RandomGraph(std::mt19937 *rng, int32_t num_states, int32_t num_tids,
                   int32_t num_words, bool with_final) {
  std::uniform_real_distribution<float> weight(0.0f, 2.0f), unit(0.0f, 1.0f);
  std::uniform_int_distribution<int32_t> tid(1, num_tids), word(1, num_words),
      state(0, num_states - 1);
  StdFst g;
  for (int32_t s = 0; s < num_states; s++) g.AddState();
  g.SetStart(0);
  for (int32_t s = 0; s < num_states; s++) {
    const int32_t num_arcs = 1 + static_cast<int32_t>(unit(*rng) * 3);
    for (int32_t a = 0; a < num_arcs; a++) {
      const int32_t olabel = unit(*rng) < 0.3f ? word(*rng) : 0;
      g.AddArc(s, fst::StdArc(tid(*rng), olabel, weight(*rng), state(*rng)));
    }
    if (unit(*rng) < 0.4f) g.AddArc(s, fst::StdArc(tid(*rng), 0, 0.5f, s));
    if (s + 1 < num_states && unit(*rng) < 0.4f) {
      std::uniform_int_distribution<int32_t> later(s + 1, num_states - 1);
      const int32_t olabel = unit(*rng) < 0.5f ? word(*rng) : 0;
      g.AddArc(s, fst::StdArc(0, olabel, weight(*rng), later(*rng)));
    }
    if (with_final && unit(*rng) < 0.3f) g.SetFinal(s, weight(*rng));
  }
  if (with_final) g.SetFinal(num_states - 1, 0.25f);
  return g;
}

struct Path {
  std::vector<int32_t> ilabels, olabels;
  double cost;
};

// Sorted (labels, cost) keys of the paths whose cost is below `bound`,
// leaving out those within `margin` of it (rounding there could go either
// way), costs rounded to 1e-3.
std::vector<std::tuple<std::vector<int32_t>, std::vector<int32_t>, int64_t>>
KeysBelow(const std::vector<Path> &paths, double bound, double margin) {
  std::vector<std::tuple<std::vector<int32_t>, std::vector<int32_t>, int64_t>>
      keys;
  for (const Path &p : paths)
    if (p.cost < bound - margin)
      keys.emplace_back(p.ilabels, p.olabels,
                        static_cast<int64_t>(std::llround(p.cost * 1000.0)));
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Exhaustive search over the graph's paths through `num_frames` frames.
class GraphSearch {
 public:
  GraphSearch(const StdFst &g, TableDecodable *d, int32_t num_frames,
              bool use_final)
      : g_(g), d_(d), num_frames_(num_frames), use_final_(use_final) {
    ComputeBackward();
  }
  double Best() const { return beta_[0][g_.Start()]; }
  // Every complete path with cost <= bound.
  std::vector<Path> PathsWithin(double bound) {
    bound_ = bound;
    paths_.clear();
    Path p{{}, {}, 0.0};
    Extend(0, g_.Start(), &p);
    return paths_;
  }

 private:
  double FinalCost(int32_t s) const {
    return use_final_ ? g_.Final(s).Value() : 0.0;
  }
  // beta_[t][s]: the best cost from state s after t frames to the end.
  void ComputeBackward() {
    const int32_t n = g_.NumStates();
    beta_.assign(num_frames_ + 1, std::vector<double>(n, kInf));
    for (int32_t t = num_frames_; t >= 0; t--) {
      for (int32_t s = n - 1; s >= 0; s--) {  // epsilons go to higher states
        double best = t == num_frames_ ? FinalCost(s) : kInf;
        for (fst::ArcIterator<StdFst> it(g_, s); !it.Done(); it.Next()) {
          const fst::StdArc &arc = it.Value();
          if (arc.ilabel == 0)
            best = std::min(best, arc.weight.Value() + beta_[t][arc.nextstate]);
          else if (t < num_frames_)
            best = std::min(best, arc.weight.Value() -
                                      d_->LogLikelihood(t, arc.ilabel) +
                                      beta_[t + 1][arc.nextstate]);
        }
        beta_[t][s] = best;
      }
    }
  }
  void Extend(int32_t t, int32_t s, Path *p) {
    if (p->cost + beta_[t][s] > bound_ + 1e-6) return;
    REQUIRE(paths_.size() < 200000);
    if (t == num_frames_ && FinalCost(s) != kInf &&
        p->cost + FinalCost(s) <= bound_ + 1e-6) {
      paths_.push_back(*p);
      paths_.back().cost += FinalCost(s);
    }
    for (fst::ArcIterator<StdFst> it(g_, s); !it.Done(); it.Next()) {
      const fst::StdArc &arc = it.Value();
      if (arc.ilabel != 0 && t == num_frames_) continue;
      const double cost =
          arc.weight.Value() -
          (arc.ilabel != 0 ? d_->LogLikelihood(t, arc.ilabel) : 0.0);
      p->ilabels.push_back(arc.ilabel);
      p->olabels.push_back(arc.olabel);
      p->cost += cost;
      Extend(arc.ilabel != 0 ? t + 1 : t, arc.nextstate, p);
      p->cost -= cost;
      p->ilabels.pop_back();
      p->olabels.pop_back();
    }
  }

  const StdFst &g_;
  TableDecodable *d_;
  int32_t num_frames_;
  bool use_final_;
  std::vector<std::vector<double>> beta_;
  double bound_ = 0.0;
  std::vector<Path> paths_;
};

// Every path of an acyclic lattice (arcs go to higher states) with cost <=
// bound; checks the arcs go forward.
std::vector<Path> LatticePaths(const Lattice &lat, double bound) {
  const int32_t n = lat.NumStates();
  std::vector<double> beta(n, kInf);
  for (int32_t s = n - 1; s >= 0; s--) {
    const LatticeWeight final_weight = lat.Final(s);
    double best = final_weight == LatticeWeight::Zero()
                      ? kInf
                      : final_weight.Value1() + final_weight.Value2();
    for (fst::ArcIterator<Lattice> it(lat, s); !it.Done(); it.Next()) {
      const LatticeArc &arc = it.Value();
      REQUIRE(arc.nextstate > s);
      best = std::min(best, arc.weight.Value1() + arc.weight.Value2() +
                                beta[arc.nextstate]);
    }
    beta[s] = best;
  }
  std::vector<Path> paths;
  Path p{{}, {}, 0.0};
  std::function<void(int32_t)> extend = [&](int32_t s) {
    if (p.cost + beta[s] > bound + 1e-6) return;
    REQUIRE(paths.size() < 200000);
    const LatticeWeight final_weight = lat.Final(s);
    if (!(final_weight == LatticeWeight::Zero())) {
      paths.push_back(p);
      paths.back().cost += final_weight.Value1() + final_weight.Value2();
    }
    for (fst::ArcIterator<Lattice> it(lat, s); !it.Done(); it.Next()) {
      const LatticeArc &arc = it.Value();
      const double cost = arc.weight.Value1() + arc.weight.Value2();
      p.ilabels.push_back(arc.ilabel);
      p.olabels.push_back(arc.olabel);
      p.cost += cost;
      extend(arc.nextstate);
      p.cost -= cost;
      p.ilabels.pop_back();
      p.olabels.pop_back();
    }
  };
  if (n > 0) extend(lat.Start());
  return paths;
}

// The best path as one Path (the lattice must be linear).
Path LinearPath(const Lattice &best) {
  Path p{{}, {}, 0.0};
  REQUIRE(best.NumStates() > 0);
  int32_t s = best.Start();
  for (int32_t steps = 0; best.NumArcs(s) == 1; steps++) {
    REQUIRE(steps <= best.NumStates());
    fst::ArcIterator<Lattice> it(best, s);
    const LatticeArc &arc = it.Value();
    p.ilabels.push_back(arc.ilabel);
    p.olabels.push_back(arc.olabel);
    p.cost += arc.weight.Value1() + arc.weight.Value2();
    s = arc.nextstate;
  }
  REQUIRE(best.NumArcs(s) == 0);
  REQUIRE(!(best.Final(s) == LatticeWeight::Zero()));
  p.cost += best.Final(s).Value1() + best.Final(s).Value2();
  return p;
}

LatticeFasterDecoderConfig WideConfig() {
  LatticeFasterDecoderConfig config;
  config.beam = 1000.0f;
  config.lattice_beam = 3.0f;
  config.prune_interval = 3;  // prune often: the pruning must keep them
  return config;
}

}  // namespace

TEST_CASE("Best path and lattice equal exhaustive search", "[decoder]") {
  for (uint32_t seed = 1; seed <= 40; seed++) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    const int32_t num_states = 4 + seed % 5, num_tids = 6,
                  num_frames = 3 + seed % 5;
    const StdFst g = RandomGraph(&rng, num_states, num_tids, 5, true);
    TableDecodable decodable(num_frames, num_tids, &rng);
    GraphSearch search(g, &decodable, num_frames, true);
    const LatticeFasterDecoderConfig config = WideConfig();
    LatticeFasterDecoder decoder(g, config);
    const bool ok = decoder.Decode(&decodable);
    if (search.Best() == kInf) {  // no path reaches a final state
      CHECK_FALSE(decoder.ReachedFinal());
      continue;
    }
    REQUIRE(ok);
    REQUIRE(decoder.ReachedFinal());
    Lattice best, raw;
    REQUIRE(decoder.GetBestPath(&best));
    const Path best_path = LinearPath(best);
    CHECK(best_path.cost == Approx(search.Best()).margin(1e-3));
    REQUIRE(decoder.GetRawLattice(&raw));
    const double bound = search.Best() + config.lattice_beam;
    CHECK(KeysBelow(LatticePaths(raw, bound + 0.01), bound, 0.005) ==
          KeysBelow(search.PathsWithin(bound + 0.01), bound, 0.005));
  }
}

TEST_CASE("No final state reached: every last token is final", "[decoder]") {
  for (uint32_t seed = 100; seed < 120; seed++) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    const int32_t num_frames = 4;
    const StdFst g = RandomGraph(&rng, 5, 6, 4, false);
    TableDecodable decodable(num_frames, 6, &rng);
    GraphSearch search(g, &decodable, num_frames, false);
    LatticeFasterDecoder decoder(g, WideConfig());
    REQUIRE(decoder.Decode(&decodable));
    CHECK_FALSE(decoder.ReachedFinal());
    CHECK(decoder.FinalRelativeCost() == kInf);
    Lattice best, raw;
    REQUIRE(decoder.GetBestPath(&best));
    CHECK(LinearPath(best).cost == Approx(search.Best()).margin(1e-3));
    REQUIRE(decoder.GetRawLattice(&raw));
    const double bound = search.Best() + 3.0;
    CHECK(KeysBelow(LatticePaths(raw, bound + 0.01), bound, 0.005) ==
          KeysBelow(search.PathsWithin(bound + 0.01), bound, 0.005));
  }
}

TEST_CASE("Narrow beams and max-active still give a valid path", "[decoder]") {
  for (uint32_t seed = 200; seed < 230; seed++) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    const int32_t num_frames = 12;
    const StdFst g = RandomGraph(&rng, 12, 8, 6, true);
    TableDecodable decodable(num_frames, 8, &rng);
    GraphSearch search(g, &decodable, num_frames, true);
    if (search.Best() == kInf) continue;
    LatticeFasterDecoderConfig config;
    config.beam = 3.0f;
    config.max_active = 3;
    config.min_active = 2;
    config.lattice_beam = 2.0f;
    LatticeFasterDecoder decoder(g, config);
    if (!decoder.Decode(&decodable) || !decoder.ReachedFinal()) continue;
    Lattice best;
    REQUIRE(decoder.GetBestPath(&best));
    const Path p = LinearPath(best);
    // A real path of the graph: the search finds it among all paths.
    CHECK(p.cost >= search.Best() - 1e-3);
    bool found = false;
    for (const Path &q : search.PathsWithin(p.cost + 1e-3))
      found = found || (q.ilabels == p.ilabels && q.olabels == p.olabels &&
                        std::abs(q.cost - p.cost) < 1e-3);
    CHECK(found);
  }
}

TEST_CASE("The decoder is reusable and its options are checked", "[decoder]") {
  std::mt19937 rng(7);
  const StdFst g = RandomGraph(&rng, 6, 6, 4, true);
  TableDecodable d1(5, 6, &rng), d2(7, 6, &rng);
  LatticeFasterDecoder reused(g, WideConfig());
  for (TableDecodable *d : {&d1, &d2}) {
    LatticeFasterDecoder fresh(g, WideConfig());
    fresh.Decode(d);
    reused.Decode(d);
    Lattice a, b;
    fresh.GetRawLattice(&a);
    reused.GetRawLattice(&b);
    CHECK(fst::Equal(a, b));
    CHECK(reused.NumFramesDecoded() == d->NumFramesReady());
  }
  LatticeFasterDecoderConfig bad;
  bad.beam = 0.0f;
  CHECK_THROWS_AS(LatticeFasterDecoder(g, bad), UserError);
  bad = LatticeFasterDecoderConfig();
  bad.min_active = 10;
  bad.max_active = 5;
  CHECK_THROWS_AS(LatticeFasterDecoder(g, bad), UserError);
}

}  // namespace nnet3
