#include "lattice-test-utils.h"

#include <fst/connect.h>
#include <fst/script/print-impl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

namespace nnet3 {

namespace {

float RandomCost(std::mt19937 *rng, int range) {
  return std::uniform_int_distribution<int>(0, 64 * range - 1)(*rng) / 64.0f;
}

bool Chance(std::mt19937 *rng, float p) {
  return std::uniform_real_distribution<float>(0, 1)(*rng) < p;
}

// True if (w, s) is better than (best_w, best_s) in Kaldi's order.
bool Better(const LatticeWeight &w, const std::vector<int32_t> &s,
            const LatticeWeight &best_w, const std::vector<int32_t> &best_s) {
  return Compare(CompactLatticeWeight(w, s),
                 CompactLatticeWeight(best_w, best_s)) == 1;
}

// Calls visit(words, tids, weight) for every complete path.
template <class Arc, class Visit>
void ForEachPath(
    const fst::VectorFst<Arc> &fst, Visit visit,
    std::function<void(const Arc &, std::vector<int32_t> *,
                       std::vector<int32_t> *)>
        add_labels,
    std::function<LatticeWeight(const typename Arc::Weight &)> cost_of,
    std::function<void(const typename Arc::Weight &, std::vector<int32_t> *)>
        add_final_tids) {
  std::vector<int32_t> words, tids;
  std::function<void(int32_t, LatticeWeight)> walk = [&](int32_t s,
                                                         LatticeWeight w) {
    const typename Arc::Weight final_weight = fst.Final(s);
    if (final_weight != Arc::Weight::Zero()) {
      const size_t num_tids = tids.size();
      add_final_tids(final_weight, &tids);
      visit(words, tids, Times(w, cost_of(final_weight)));
      tids.resize(num_tids);
    }
    for (fst::ArcIterator<fst::VectorFst<Arc>> aiter(fst, s); !aiter.Done();
         aiter.Next()) {
      const Arc &arc = aiter.Value();
      const size_t num_words = words.size(), num_tids = tids.size();
      add_labels(arc, &words, &tids);
      walk(arc.nextstate, Times(w, cost_of(arc.weight)));
      words.resize(num_words);
      tids.resize(num_tids);
    }
  };
  if (fst.Start() >= 0) walk(fst.Start(), LatticeWeight::One());
}

void ForEachLatticePath(
    const Lattice &lat, bool words_on_input,
    std::function<void(const std::vector<int32_t> &,
                       const std::vector<int32_t> &, const LatticeWeight &)>
        visit) {
  ForEachPath<LatticeArc>(
      lat, visit,
      [words_on_input](const LatticeArc &arc, std::vector<int32_t> *words,
                       std::vector<int32_t> *tids) {
        const int32_t word = words_on_input ? arc.ilabel : arc.olabel;
        const int32_t tid = words_on_input ? arc.olabel : arc.ilabel;
        if (word != 0) words->push_back(word);
        if (tid != 0) tids->push_back(tid);
      },
      [](const LatticeWeight &w) { return w; },
      [](const LatticeWeight &, std::vector<int32_t> *) {});
}

template <class Fst>
double BestCostTpl(const Fst &fst) {
  const int32_t n = fst.NumStates();
  std::vector<double> cost(n, std::numeric_limits<double>::infinity());
  double best = std::numeric_limits<double>::infinity();
  for (int32_t s = n - 1; s >= 0; s--) {
    cost[s] = ConvertToCost(fst.Final(s));
    for (fst::ArcIterator<Fst> aiter(fst, s); !aiter.Done(); aiter.Next()) {
      const auto &arc = aiter.Value();
      REQUIRE(arc.nextstate > s);
      cost[s] =
          std::min(cost[s], ConvertToCost(arc.weight) + cost[arc.nextstate]);
    }
  }
  if (fst.Start() >= 0) best = cost[fst.Start()];
  return best;
}

std::vector<std::string> Fields(const std::string &line) {
  std::istringstream is(line);
  std::vector<std::string> fields;
  std::string field;
  while (is >> field) fields.push_back(field);
  return fields;
}

template <class Weight>
Weight ParseWeight(const std::string &text) {
  std::istringstream is(text);
  Weight w;
  is >> w;
  REQUIRE(!is.fail());
  return w;
}

// Reads the archive's entries; add_line(fst, fields) handles one line.
template <class Fst>
std::vector<std::pair<std::string, Fst>> ReadArchive(
    const std::string &filename,
    std::function<void(const std::vector<std::string> &, Fst *)> add_line) {
  std::ifstream is(filename);
  REQUIRE(is.good());
  std::vector<std::pair<std::string, Fst>> entries;
  std::string line;
  while (std::getline(is, line)) {
    const std::vector<std::string> key = Fields(line);
    if (key.empty()) continue;
    REQUIRE(key.size() == 1);
    Fst fst;
    bool first = true;
    while (std::getline(is, line)) {
      const std::vector<std::string> f = Fields(line);
      if (f.empty()) break;
      const int32_t s = std::stoi(f[0]);
      while (fst.NumStates() <= s) fst.AddState();
      if (first) fst.SetStart(s);
      first = false;
      add_line(f, &fst);
    }
    entries.emplace_back(key[0], fst);
  }
  return entries;
}

void EnsureState(int32_t s, fst::MutableFst<LatticeArc> *fst) {
  while (fst->NumStates() <= s) fst->AddState();
}

void EnsureState(int32_t s, fst::MutableFst<CompactLatticeArc> *fst) {
  while (fst->NumStates() <= s) fst->AddState();
}

template <class Arc>
std::string FstText(const std::string &key, const fst::VectorFst<Arc> &fst,
                    bool acceptor) {
  std::ostringstream os;
  os << key << " \n";
  fst::FstPrinter<Arc> printer(fst, nullptr, nullptr, nullptr, acceptor, false,
                               "\t");
  printer.Print(os, "<unknown>");
  os << "\n";
  return os.str();
}

}  // namespace

Lattice RandomRawLattice(const RandomLatticeOptions &opts, std::mt19937 *rng) {
  Lattice lat;
  const int32_t n = opts.num_states;
  for (int32_t s = 0; s < n; s++) lat.AddState();
  lat.SetStart(0);
  auto uniform = [rng](int32_t lo, int32_t hi) {
    return std::uniform_int_distribution<int32_t>(lo, hi)(*rng);
  };
  for (int32_t s = 0; s + 1 < n; s++) {
    const int32_t num_arcs = uniform(1, opts.max_arcs_per_state);
    for (int32_t a = 0; a < num_arcs; a++) {
      const int32_t next = std::min(n - 1, s + uniform(1, opts.max_skip));
      const int32_t tid = Chance(rng, opts.epsilon_tid_prob)
                              ? 0
                              : uniform(1, opts.num_transition_ids);
      const int32_t word =
          Chance(rng, opts.word_prob) ? uniform(1, opts.num_words) : 0;
      lat.AddArc(
          s, LatticeArc(tid, word,
                        LatticeWeight(RandomCost(rng, 2), RandomCost(rng, 6)),
                        next));
    }
  }
  lat.SetFinal(n - 1, LatticeWeight(RandomCost(rng, 2), RandomCost(rng, 2)));
  for (int32_t s = std::max(1, n - 4); s + 1 < n; s++)
    if (Chance(rng, opts.final_prob))
      lat.SetFinal(s, LatticeWeight(RandomCost(rng, 2), RandomCost(rng, 2)));
  fst::Connect(&lat);
  return lat;
}

std::map<std::vector<int32_t>, BestPath> BestPathsByWords(const Lattice &lat,
                                                          bool words_on_input) {
  std::map<std::vector<int32_t>, BestPath> best;
  ForEachLatticePath(
      lat, words_on_input,
      [&best](const std::vector<int32_t> &words,
              const std::vector<int32_t> &tids, const LatticeWeight &w) {
        auto it = best.find(words);
        if (it == best.end())
          best[words] = BestPath{tids, w};
        else if (Better(w, tids, it->second.weight, it->second.tids))
          it->second = BestPath{tids, w};
      });
  return best;
}

std::map<std::vector<int32_t>, BestPath> BestPathsByWords(
    const CompactLattice &clat) {
  std::map<std::vector<int32_t>, BestPath> best;
  ForEachPath<CompactLatticeArc>(
      clat,
      [&best](const std::vector<int32_t> &words,
              const std::vector<int32_t> &tids, const LatticeWeight &w) {
        auto it = best.find(words);
        if (it == best.end())
          best[words] = BestPath{tids, w};
        else if (Better(w, tids, it->second.weight, it->second.tids))
          it->second = BestPath{tids, w};
      },
      [](const CompactLatticeArc &arc, std::vector<int32_t> *words,
         std::vector<int32_t> *tids) {
        if (arc.ilabel != 0) words->push_back(arc.ilabel);
        tids->insert(tids->end(), arc.weight.String().begin(),
                     arc.weight.String().end());
      },
      [](const CompactLatticeWeight &w) { return w.Weight(); },
      [](const CompactLatticeWeight &w, std::vector<int32_t> *tids) {
        tids->insert(tids->end(), w.String().begin(), w.String().end());
      });
  return best;
}

std::map<std::pair<std::vector<int32_t>, std::vector<int32_t>>, LatticeWeight>
AllPaths(const Lattice &lat, bool words_on_input) {
  std::map<std::pair<std::vector<int32_t>, std::vector<int32_t>>, LatticeWeight>
      paths;
  ForEachLatticePath(
      lat, words_on_input,
      [&paths](const std::vector<int32_t> &words,
               const std::vector<int32_t> &tids, const LatticeWeight &w) {
        auto key = std::make_pair(words, tids);
        auto it = paths.find(key);
        if (it == paths.end())
          paths[key] = w;
        else
          it->second = Plus(it->second, w);
      });
  return paths;
}

double BestCost(const Lattice &lat) { return BestCostTpl(lat); }
double BestCost(const CompactLattice &clat) { return BestCostTpl(clat); }

std::vector<std::pair<std::string, Lattice>> ReadLatticeArchiveText(
    const std::string &filename) {
  return ReadArchive<Lattice>(filename, [](const std::vector<std::string> &f,
                                           Lattice *lat) {
    const int32_t s = std::stoi(f[0]);
    if (f.size() <= 2) {
      lat->SetFinal(s, f.size() == 1 ? LatticeWeight::One()
                                     : ParseWeight<LatticeWeight>(f[1]));
      return;
    }
    REQUIRE((f.size() == 4 || f.size() == 5));
    const int32_t d = std::stoi(f[1]);
    EnsureState(d, lat);
    lat->AddArc(s, LatticeArc(std::stoi(f[2]), std::stoi(f[3]),
                              f.size() == 4 ? LatticeWeight::One()
                                            : ParseWeight<LatticeWeight>(f[4]),
                              d));
  });
}

std::vector<std::pair<std::string, CompactLattice>>
ReadCompactLatticeArchiveText(const std::string &filename) {
  return ReadArchive<CompactLattice>(
      filename, [](const std::vector<std::string> &f, CompactLattice *clat) {
        const int32_t s = std::stoi(f[0]);
        if (f.size() <= 2) {
          clat->SetFinal(s, f.size() == 1
                                ? CompactLatticeWeight::One()
                                : ParseWeight<CompactLatticeWeight>(f[1]));
          return;
        }
        REQUIRE((f.size() == 3 || f.size() == 4));
        const int32_t d = std::stoi(f[1]), label = std::stoi(f[2]);
        EnsureState(d, clat);
        clat->AddArc(
            s, CompactLatticeArc(label, label,
                                 f.size() == 3
                                     ? CompactLatticeWeight::One()
                                     : ParseWeight<CompactLatticeWeight>(f[3]),
                                 d));
      });
}

std::string CompactLatticeText(const std::string &key,
                               const CompactLattice &clat) {
  return FstText(key, clat, true);
}

std::string LatticeText(const std::string &key, const Lattice &lat) {
  return FstText(key, lat, false);
}

std::string CaptureStderr(const std::function<void()> &f) {
  char name[] = "/tmp/lat-test-stderr-XXXXXX";
  const int fd = mkstemp(name);
  REQUIRE(fd >= 0);
  std::fflush(stderr);
  const int saved = dup(2);
  dup2(fd, 2);
  f();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  std::ifstream is(name);
  std::stringstream ss;
  ss << is.rdbuf();
  std::remove(name);
  return ss.str();
}

}  // namespace nnet3
